"""A place the graph knows as a value of one place property may be a value of another whose values are of the same
kinds (schema.kin): Princeton, only ever a residence and of a class no place of death has, is still a place one can
die in — "died in Princeton" claims the place of death, not the residence the graph links. People are never kin: a
person's role says what the person is for."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, graph_values

item = B.item


def _placed(qid, label, cls, region):
    return B.entity(qid, label, "place", claims=[("P31", item(cls, None)), ("P131", item(region, None))])


def _person(qid, label, **places):
    return B.entity(qid, label, "person", claims=[("P31", item("Q5", None))] +
                    [(pid, item(place, None)) for pid, place in places.items()])


PLACES = [
    B.prop("P551", "residence", "wikibase-item", aliases=["lived in"]),
    B.prop("P20", "place of death", "wikibase-item", aliases=["died in"]),
    B.prop("P131", "located in the administrative territorial entity", "wikibase-item"),
    B.prop("P50", "author", "wikibase-item", aliases=["written by"]),
    B.prop("P161", "cast member", "wikibase-item", aliases=["starring"]),
    B.entity("Q3000", "borough"), B.entity("Q3001", "region"), B.entity("Q3002", "town"),
    B.entity("Q2010", "Bavaria", "region", claims=[("P31", item("Q3001", None))]),
    B.entity("Q2011", "Lower Saxony", "region", claims=[("P31", item("Q3001", None))]),
    B.entity("Q2012", "New Jersey", "region", claims=[("P31", item("Q3001", None))]),
    _placed("Q2001", "Lindau", "Q3002", "Q2010"), _placed("Q2002", "Hamelin", "Q3002", "Q2011"),
    _placed("Q1001", "Princeton", "Q3000", "Q2012"),
    _person("Q911", "Dora Engel", P19="Q2001", P551="Q1001"),
    _person("Q912", "Emil Brandt", P20="Q2002", P551="Q2001"),
    _person("Q913", "Frida Keller", P20="Q2001", P551="Q2002"),
    B.entity("Q820", "Quiet Waters", "novel", claims=[("P31", item("Q7725634", None)), ("P50", item("Q912", None))]),
    B.entity("Q821", "Night Shift", "film", claims=[("P31", item("Q11424", None)), ("P161", item("Q913", None))]),
    B.entity("Q7725634", "novel"),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + PLACES)


def _on(report, span):
    return [c for c in report.claims if c.span == span]


def test_kinship_is_measured_on_the_classes_of_the_values(kg):
    schema = GraphSchema.of(kg)
    assert schema.kin({"P551": 1}, "P20")  # towns and a borough; towns
    assert not schema.kin({"P17": 2}, "P20")  # countries are no cities
    assert not schema.kin({}, "P20")
    # what a name is for, mostly: a country of two cities that is one man's residence is no place of death
    assert not schema.kin({"P17": 2, "P551": 1}, "P20") and schema.kin({"P17": 1, "P551": 2}, "P20")
    assert not schema.kin({"P161": 1}, "P50")  # people, both: a cast member is no author


def test_died_in_a_residence_claims_the_place_of_death_not_the_residence(kg):
    found = _on(verify_text(kg, "Dora Engel died in Princeton."), "Princeton")
    assert [(c.claim.property_id, c.reader) for c in found] == [("P20", "words")]
    assert found[0].verdict.verdict != SUPPORTED  # the graph has no place of death for her
    said = _on(verify_text(kg, "Dora Engel lived in Princeton."), "Princeton")
    assert [(c.claim.property_id, c.verdict.verdict) for c in said] == [("P551", SUPPORTED)]


def test_born_in_a_residence_is_flagged_with_the_graphs_birthplace(kg):
    found = _on(verify_text(kg, "Dora Engel was born in Princeton."), "Princeton")
    assert [c.claim.property_id for c in found] == ["P19"] and found[0].verdict.verdict != SUPPORTED
    assert "Lindau" in graph_values(found[0])
