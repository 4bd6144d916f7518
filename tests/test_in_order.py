"""A relation's own name between two names, read left to right as the graph names relations: "Aliens was followed by
Alien", "Alien is the sequel of Aliens" ("sequel of" an alias of follows), "Alien follows Aliens" — where the graph
holds Alien followed by Aliens, and Aliens follows Alien. The link between the two names is there (either way), so a
reader that reports the graph's link calls each of these wrong sentences SUPPORTED; the words' direction makes them
a claim for the graph to judge (links.said_in_order, refuted by the statement held the other way round), and the
verb that is itself the relation's name is no inverse reading (holders.py: "X directed Y" is Y's director; "X
follows Y" is X's follows)."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders
from wordgraph import claim_tuples

B = fixture_builders()
TITLES = ["Amber", "Blaze", "Cinder", "Dusk", "Ember", "Frost", "Gale", "Haze", "Iris", "Jade", "Kestrel", "Lumen",
          "Mist", "Nova", "Onyx", "Pike", "Quartz", "Raven", "Sable", "Tide", "Umber", "Vale", "Wren", "Yew"]


def _film(qid: str, label: str, *claims) -> dict:
    return B.entity(qid, label, "film", claims=[("P31", B.item("Q11424", None))] +
                    [(pid, B.item(v, None)) for pid, v in claims])


def _graph() -> list[dict]:
    things = [B.prop("P31", "instance of", "wikibase-item"), B.entity("Q11424", "film"), B.entity("Q5", "human"),
              B.prop("P155", "follows", "wikibase-item", aliases=["sequel of", "preceded by"]),
              B.prop("P156", "followed by", "wikibase-item", aliases=["prequel of", "succeeded by"]),
              # a misleading alias: the noun "director" read "X is the director of Y" says Y's director, not X's
              B.prop("P57", "director", "wikibase-item", aliases=["director of"]),
              # Alien without a class: nothing says it cannot be followed, so "Alien follows Aliens" could be read
              # as Aliens's (holders.py's verb reading) were the verb not the relation's own name
              B.entity("Q700", "Alien", "film", claims=[("P156", B.item("Q701", None))]),
              _film("Q701", "Aliens", ("P155", "Q700")),
              _film("Q710", "Jaws", ("P57", "Q711")),
              B.entity("Q711", "Steven Spielberg", "person", claims=[("P31", B.item("Q5", None))])]
    for i, title in enumerate(TITLES):  # series of two (24 each way: asymmetric by measure) and 24 directors
        first, second, film, person = (f"Q{1000 + 4 * i + k}" for k in range(4))
        things += [_film(first, f"{title} Rising", ("P156", second)), _film(second, f"{title} Returns", ("P155", first)),
                   _film(film, f"{title} Road", ("P57", person)),
                   B.entity(person, f"Director {title}", "person", claims=[("P31", B.item("Q5", None))])]
    return things


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(_graph())


@pytest.mark.parametrize("text, claim", [
    ("Aliens was followed by Alien.", ("Q701", "P156", "Q700")),
    ("Aliens is succeeded by Alien.", ("Q701", "P156", "Q700")),
    ("Alien is the sequel of Aliens.", ("Q700", "P155", "Q701")),
    ("Alien follows Aliens.", ("Q700", "P155", "Q701")),
])
def test_a_relation_named_in_order_the_other_way_round_is_refuted(kg, text, claim):
    report = verify_text(kg, text)
    assert [(c.claim.subject_id, c.claim.property_id, c.claim.object_id, c.verdict.verdict) for c in report.claims] \
        == [(*claim, REFUTED)]
    assert "other way round" in report.claims[0].verdict.reason
    assert report.claims[0].reader == "words"


@pytest.mark.parametrize("text, claim", [
    ("Alien was followed by Aliens.", ("Q700", "P156", "Q701")),
    ("Aliens is the sequel of Alien.", ("Q701", "P155", "Q700")),
    ("Aliens follows Alien.", ("Q701", "P155", "Q700")),
])
def test_the_graphs_own_direction_is_supported(kg, text, claim):
    assert (*claim, SUPPORTED) in claim_tuples(kg, text)
    assert all(verdict == SUPPORTED for *_, verdict in claim_tuples(kg, text))


def test_a_noun_of_is_not_read_in_order(kg):
    # "director of" is an alias of director here, but "the director of Jaws" names Jaws's director: no turn.
    assert claim_tuples(kg, "Steven Spielberg is the director of Jaws.") == [("Q710", "P57", "Q711", SUPPORTED)]
