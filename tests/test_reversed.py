"""A relation stated the other way round: "The father of Maurice Jarre is Jean-Michel Jarre", where the graph holds
Maurice as Jean-Michel's father. The sentence's direction is read (links._turned), and the graph's statement refutes
it when the property is never held both ways by measure (GraphSchema.asymmetric) — not a relation the graph often
holds both ways, such as spouse, whose one direction says nothing of the other."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders
from wordgraph import claim_tuples

B = fixture_builders()
SURNAMES = ["Abbott", "Barlow", "Carver", "Dalton", "Eaton", "Fowler", "Garner", "Hadley", "Ingram", "Jarvis", "Keaton",
            "Lowell", "Mercer", "Norris", "Osborne", "Prescott", "Quill", "Rowland", "Sutton", "Thorne", "Upton", "Vance",
            "Whitman", "Xander", "Yates", "Zeller"]


def _person(qid: str, label: str, **claims) -> dict:
    return B.entity(qid, label, "person", claims=[("P31", B.item("Q5", None))] +
                    [(pid, B.item(v, None)) for pid, values in claims.items() for v in values])


def _graph() -> list[dict]:
    people = [B.prop("P31", "instance of", "wikibase-item"), B.entity("Q5", "human"),
              B.prop("P22", "father", "wikibase-item"), B.prop("P26", "spouse", "wikibase-item"),
              _person("Q900", "Maurice Jarre"), _person("Q901", "Jean-Michel Jarre", P22=["Q900"]),
              _person("Q902", "Farrah Fawcett", P26=["Q903"]), _person("Q903", "Lee Majors"),
              # "Paul Roth" is one man's label and another's alias; the alias's bearer is Nina Roth's father
              _person("Q950", "Paul Roth"), B.entity("Q951", "Peter Roth", "person", aliases=["Paul Roth"],
                                                     claims=[("P31", B.item("Q5", None))]),
              _person("Q952", "Nina Roth", P22=["Q951"])]
    for i, name in enumerate(SURNAMES):  # 26 fathers (fewer leave the 95 % bound over 10 %), 26 marriages held both ways
        father, son, wife, husband = (f"Q{1000 + 4 * i + k}" for k in range(4))
        people += [_person(father, f"Walter {name}"), _person(son, f"Oscar {name}", P22=[father]),
                   _person(wife, f"Greta {name}", P26=[husband]), _person(husband, f"Henry {name}", P26=[wife])]
    return people


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(_graph())


def test_only_a_property_never_held_both_ways_is_asymmetric(kg):
    schema = GraphSchema.of(kg)
    assert schema.reversal("P22") == (28, 0) and schema.asymmetric("P22")
    assert schema.reversal("P26") == (53, 52) and not schema.asymmetric("P26")


@pytest.mark.parametrize("text", ["The father of Maurice Jarre is Jean-Michel Jarre.",
                                  "Maurice Jarre's father is Jean-Michel Jarre.",
                                  "Jean-Michel Jarre is the father of Maurice Jarre."])
def test_a_father_stated_the_other_way_round_is_refuted_by_the_graphs_statement(kg, text):
    report = verify_text(kg, text)
    assert [(c.claim.subject_id, c.claim.property_id, c.claim.object_id, c.verdict.verdict) for c in report.claims] \
        == [("Q900", "P22", "Q901", REFUTED)]
    evidence = report.claims[0].verdict.evidence[0]
    assert (evidence.relation, evidence.subject, evidence.value_id) == ("reverse", "Q901", "Q900")
    assert "other way round" in report.claims[0].verdict.reason


@pytest.mark.parametrize("text", ["The father of Jean-Michel Jarre is Maurice Jarre.",
                                  "Jean-Michel Jarre's father is Maurice Jarre.",
                                  "Maurice Jarre is the father of Jean-Michel Jarre."])
def test_the_graphs_own_direction_is_supported(kg, text):
    assert claim_tuples(kg, text) == [("Q901", "P22", "Q900", SUPPORTED)]


@pytest.mark.parametrize("text", ["Lee Majors is the spouse of Farrah Fawcett.", "Lee Majors's spouse is Farrah Fawcett.",
                                  "The spouse of Lee Majors is Farrah Fawcett."])
def test_a_relation_often_held_both_ways_is_not_refuted_by_the_other_direction(kg, text):
    assert all(verdict == SUPPORTED for *_, verdict in claim_tuples(kg, text)) and claim_tuples(kg, text)


def test_a_name_read_as_an_alias_where_it_is_another_things_label_is_not_turned(kg):
    """The link may have chosen the alias's bearer because it is linked: "Paul Roth" is another man's label, so the
    reversed link through the alias refutes nothing (Moscow's alias "Soviet Union", in the Russian SFSR)."""
    assert GraphSchema.of(kg).aliased_from_a_label("Paul Roth", "Q951")
    assert not GraphSchema.of(kg).aliased_from_a_label("Paul Roth", "Q950")
    assert REFUTED not in {verdict for *_, verdict in claim_tuples(kg, "Nina Roth is the father of Paul Roth.")}
