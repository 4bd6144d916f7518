"""Containers as claimed values of place properties in free text (verify.py, refutations.py, schema.contained_roles).

- "born in Sylvania": a country is no birthplace in the graph (no one's place of birth is a country), but it holds
  birthplaces: the words claim it, and the graph refutes it when it places the birthplace in a country of the
  same kind (Portmoor in the Kingdom of Eastmarch, a sovereign state as Sylvania is).
- "died in Sylvania", where the graph places the place of death in nothing: not refuted (NOT_ENOUGH_INFO).
- "born in Eastmarch": the name linked to the region Eastmarch is also an alias of the Kingdom of Eastmarch, which
  the graph gives as Portmoor's country: the text is right by one reading of its words (SUPPORTED).
- "born in Sylvania" of a woman the graph gives no birthplace, living there: her birthplace is claimed, not the
  residence the graph links (SUPPORTED by construction).
- "a citizen of SYL", read as the better-known Old Sylvania: SYL is also an alias of the graph's value, so SUPPORTED.
- "born in Westerland", a country holding a town but no one's birthplace: still a place a birthplace may lie in
  (schema.contains_places), so claimed and judged — refuted for Alice, not judged for Carla, who has none; "Carla
  was born in Norland", which holds only a people, is no claim of a birthplace.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.text.extract import SpanClaim
from kgcheck.verifier.text.refutations import read_as_the_graphs_namesake
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.verify import verify_text
from kgcheck.verifier.text.words import _says_another
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop
SINGLE_VALUE = "Q19474404"
STATE, CITY, HUMAN, REGION, ETHNIC = "Q3624078", "Q515", "Q5", "Q82794", "Q41710"


def _state(qid, label, aliases=()):
    return entity(qid, label, "sovereign state", aliases=aliases, claims=[("P31", item(STATE, None))])


def _city(qid, label, *claims):
    return entity(qid, label, "city", claims=[("P31", item(CITY, None)), *claims])


def _person(qid, label, *claims):
    return entity(qid, label, "person", claims=[("P31", item(HUMAN, None)), *claims])


ENTITIES = [
    prop("P31", "instance of", "wikibase-item"), prop("P17", "country", "wikibase-item"),
    prop("P131", "located in the administrative territorial entity", "wikibase-item", aliases=["located in"]),
    prop("P19", "place of birth", "wikibase-item", aliases=["born in", "birthplace"],
         constraints=[(SINGLE_VALUE,)]),
    prop("P20", "place of death", "wikibase-item", aliases=["died in"], constraints=[(SINGLE_VALUE,)]),
    prop("P172", "ethnic group", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
    prop("P551", "residence", "wikibase-item"),
    prop("P27", "country of citizenship", "wikibase-item", aliases=["citizen of"]),
    entity(STATE, "sovereign state"), entity(CITY, "city"), entity(HUMAN, "human"), entity(REGION, "region"),
    entity(ETHNIC, "ethnic group"),
    _state("Q801", "Sylvania", aliases=["SYL"]), _state("Q804", "Kingdom of Eastmarch", aliases=["Eastmarch"]),
    entity("Q805", "Old Sylvania", "a former state", aliases=["SYL"], sitelinks=40),  # the better-known SYL
    entity("Q803", "Eastmarch", "region of Sylvania", claims=[("P31", item(REGION, None)), ("P131", item("Q801", None))]),
    _city("Q811", "Portmoor", ("P17", item("Q804", None)), ("P131", item("Q804", None))),
    _city("Q812", "Lonely Town"),  # placed in nothing
    _city("Q813", "Zenda", ("P17", item("Q801", None)), ("P131", item("Q803", None))),
    entity("Q831", "Sylvanians", "ethnic group", claims=[("P31", item(ETHNIC, None)), ("P17", item("Q801", None))]),
    _person("Q821", "Alice Marlow", ("P19", item("Q811", None)), ("P20", item("Q812", None)),
            ("P172", item("Q831", None))),
    _person("Q822", "Bruno Vale", ("P19", item("Q813", None)), ("P20", item("Q813", None))),
    _person("Q823", "Carla Dunn", ("P551", item("Q801", None)),  # a birthplace the graph lacks
            ("P27", item("Q801", None))),
    # Westerland holds a town no one is born in or is anything of; Norland only a people
    _state("Q806", "Westerland"), _city("Q814", "Westhaven", ("P17", item("Q806", None)), ("P131", item("Q806", None))),
    _state("Q807", "Norland"), _person("Q824", "Dora Lind", ("P27", item("Q801", None))),
    entity("Q832", "Norlanders", "ethnic group", claims=[("P31", item(ETHNIC, None)), ("P17", item("Q807", None))]),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def _claim_on(report, pid, subject="Q821"):
    found = [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == (subject, pid)]
    assert found, [(c.claim.property_id, c.span, c.reader) for c in report.claims]
    return found[0]


def test_a_country_holding_birthplaces_is_read_as_one_and_refuted(kg):
    claim = _claim_on(verify_text(kg, "Alice Marlow was born in Sylvania."), "P19")
    assert claim.verdict.verdict == REFUTED and claim.verdict.corrections == ("Portmoor",)


def test_a_country_holding_places_but_no_birthplace_is_read_as_a_container(kg):
    claim = _claim_on(verify_text(kg, "Alice Marlow was born in Westerland."), "P19")
    assert claim.claim.object_id == "Q806" and claim.verdict.verdict == REFUTED
    assert claim.verdict.corrections == ("Portmoor",)
    claim = _claim_on(verify_text(kg, "Carla Dunn was born in Westerland."), "P19", subject="Q823")
    assert claim.verdict.verdict == NOT_ENOUGH_INFO  # no birthplace in the graph: said, not judged
    schema = GraphSchema.of(kg)
    assert schema.contains_places("Q806") and not schema.contains_places("Q807") and schema.places("P19")


def test_the_words_relation_is_not_second_guessed_by_the_values_type(kg):
    # Westerland is a country like Dora's citizenship Sylvania, but "born in" names her birthplace: the types reader
    # adds no citizenship claim of the same name (a REFUTED one where the graph holds one citizenship)
    report = verify_text(kg, "Dora Lind was born in Westerland.")
    assert [c.claim.property_id for c in report.claims] == ["P19"]
    # the trigger word's own test (a types reading goes when the word names a relation the value may be of)
    schema, statements = GraphSchema.of(kg), kg.statements_for(["Q806"])
    for text, says in (("Erin Voss was born in Westerland.", True), ("Erin Voss toured Westerland.", False)):
        assert _says_another(text, text.index("Westerland"), "P27", schema, "Q806", statements) is says


def test_a_country_holding_no_place_is_no_birthplace(kg):
    report = verify_text(kg, "Carla Dunn was born in Norland.")  # she has no birthplace to set Norland beside
    assert not [c for c in report.claims if c.claim.property_id == "P19"], \
        [(c.claim.property_id, c.reader, c.verdict.verdict) for c in report.claims]


def test_a_trigger_word_claims_a_container_the_graph_links_by_another_relation(kg):
    # Carla lives in Sylvania: the link is her residence, the words say her birthplace, which the graph lacks — the
    # claim is that (not judged: no birthplace to compare), not the residence, SUPPORTED by the link
    report = verify_text(kg, "Carla Dunn was born in Sylvania.")
    claim = _claim_on(report, "P19", subject="Q823")
    assert claim.verdict.verdict == NOT_ENOUGH_INFO and claim.reader == "words"
    assert not [c for c in report.claims if c.claim.property_id == "P551"]


def test_the_roles_a_container_fills_count_a_country_only_for_placed_things(kg):
    roles = GraphSchema.of(kg).contained_roles(["Q801", "Q804", "Q812"])
    # Sylvania holds Zenda (placed in Eastmarch): a birthplace and a place of death, and Eastmarch, Zenda's
    # region; the Sylvanians are in Sylvania by a country edge alone, so Sylvania is no container of ethnic groups.
    assert roles["Q801"] == {"P19", "P20", "P131"}
    assert roles["Q804"] == {"P19"}  # Portmoor, Alice's birthplace
    # most cities (Portmoor, Zenda) and regions are placed, so their country contains them; no ethnic group is
    assert GraphSchema.of(kg).placed_classes() == {CITY, REGION}
    assert roles["Q812"] == set()


def test_a_container_is_said_with_a_name_of_the_property_ending_in_the_texts_particle(kg):
    schema = GraphSchema.of(kg)
    assert schema.said_as_container("Q801", "P19", "in the ")  # "born in the Sylvania"
    assert not schema.said_as_container("Q801", "P19", "by ")  # no name of place of birth ends in "by"
    assert not schema.said_as_container("Q811", "P19", "in ")  # Portmoor holds no birthplace


def test_a_container_the_graph_places_nothing_of_its_kind_in_is_not_refuted(kg):
    claim = _claim_on(verify_text(kg, "Alice Marlow died in Sylvania."), "P20")
    assert claim.verdict.verdict == NOT_ENOUGH_INFO and not claim.verdict.corrections
    assert "in nothing of its kind" in claim.verdict.reason


def test_a_direct_value_stays_refuted(kg):
    claim = _claim_on(verify_text(kg, "Alice Marlow died in Zenda."), "P20")
    assert claim.verdict.verdict == REFUTED and claim.verdict.corrections == ("Lonely Town",)


def test_a_name_of_the_values_container_supports(kg):
    claim = _claim_on(verify_text(kg, "Alice Marlow was born in Eastmarch."), "P19")
    assert claim.verdict.verdict == SUPPORTED and claim.claim.object_id == "Q804"
    assert claim.verdict.evidence[0].relation == "less-specific"


def test_a_name_that_is_an_alias_of_a_listed_value_supports(kg):
    # "SYL" read as the better-known Old Sylvania; the graph lists Carla's citizenship as Sylvania, alias SYL: the words
    # have that reading too, so the claim is judged again with it (not NOT_ENOUGH_INFO beside the listed value)
    checker = Checker(kg)
    claim = Claim(id="c", subject="Carla Dunn", predicate="country of citizenship", object="SYL", subject_id="Q823",
                  property_id="P27", object_id="Q805")
    merged = [(SpanClaim(claim, 0, 27, 30, "words"), "kg")]
    verdicts = checker.check([claim])
    assert verdicts[0].verdict == NOT_ENOUGH_INFO  # Sylvania listed, Old Sylvania claimed
    read_as_the_graphs_namesake(kg, checker, merged, verdicts)
    assert merged[0][0].claim.object_id == "Q801" and verdicts[0].verdict == SUPPORTED


def test_a_held_value_inside_a_name_no_word_relates_is_no_claim(kg):
    # the Sylvanians (Alice's ethnic group) have the country Sylvania: "in Sylvania", no word naming a relation before
    # it, is not her ethnic group, SUPPORTED because the graph's value lies in the name
    report = verify_text(kg, "Alice Marlow gave many talks in Sylvania.")
    assert not [c for c in report.claims if c.claim.property_id == "P172"], \
        [(c.claim.property_id, c.reader, c.verdict.verdict) for c in report.claims]
