"""Verbs read with their preposition: "X starred in Y" (the inverse reader, holders.py) and short verb phrases that
name one property as written, "lived in" (the lexicon, schema.py)."""
from __future__ import annotations

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.extract import READERS
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders
from test_holders import SINGLE_VALUE, _inverse, _on, _person

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop


def test_a_verb_before_in_reads_the_holder_of_a_noun_named_after_it(kg_of):
    """"X starred in Y": "starring", a name of Y's cast, has the verb's stem, and "in" stands between the verb and Y
    (before, only "X directed Y" was read: the wrong actor went unread)."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P161", "cast member", "wikibase-item", aliases=["starring"]),
        entity("Q5", "human"), entity("Q11424", "film"),
        _person("Q3", "Ben Ode"), _person("Q4", "Cid Roy"),
        entity("Q10", "Harbour Lights", claims=[("P31", item("Q11424", None)), ("P161", item("Q3", None))]),
        entity("Q11", "Night Rain", claims=[("P31", item("Q11424", None)), ("P161", item("Q4", None))]),
    ])
    tc = _inverse(verify_text(kg, "Cid Roy starred in Harbour Lights."), "Cid Roy")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.claim.object_id) == ("Q10", "P161", "Q4")
    assert tc.verdict.verdict != SUPPORTED and "Ben Ode" in {e.value for e in tc.verdict.evidence}
    right = _on(verify_text(kg, "Ben Ode starred in Harbour Lights."), "Q10", "P161")
    assert (right.span, right.verdict.verdict) == ("Ben Ode", SUPPORTED)
    without = verify_text(kg, "Cid Roy starred in Harbour Lights.", readers=frozenset(READERS) - {"inverse"})
    assert not [c for c in without.claims if c.claim.subject_id == "Q10"]


def test_a_short_verb_is_a_property_name_as_written(kg_of):
    """"lived in" stems to three letters ("liv"); the four-letter floor on names (no acronyms) counts a verb's
    phrase, a name ending in a particle, as written, so it names residence. Before, no residence was read, only
    what the value's type suggests (over dense-dev "Mozart lived in Vienna." was a birthplace REFUTED)."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P19", "place of birth", "wikibase-item", aliases=["born in"], constraints=[(SINGLE_VALUE,)]),
        prop("P551", "residence", "wikibase-item", aliases=["lived in"]),
        prop("P131", "located in the administrative territorial entity", "wikibase-item"),
        entity("Q5", "human"), entity("Q515", "city"), entity("Q142", "France"),
        *(entity(qid, name, claims=[("P31", item("Q515", None)), ("P131", item("Q142", None))])
          for qid, name in (("Q64", "Berlin"), ("Q90", "Paris"), ("Q91", "Lyon"))),
        entity("Q1", "Ben Ode", claims=[("P31", item("Q5", None)), ("P19", item("Q64", None)),
                                        ("P551", item("Q91", None))]),
        entity("Q2", "Cid Roy", claims=[("P31", item("Q5", None)), ("P19", item("Q91", None)),
                                        ("P551", item("Q90", None))]),
        entity("Q3", "Dan Ek", claims=[("P31", item("Q5", None)), ("P19", item("Q90", None))]),
    ])
    report = verify_text(kg, "Ben Ode lived in Paris.")
    assert not [c for c in report.claims if c.verdict.verdict == REFUTED and c.claim.property_id == "P19"]
    tc = _on(report, "Q1", "P551")
    assert (tc.span, tc.reader) == ("Paris", "words") and tc.verdict.verdict != SUPPORTED
    assert _on(verify_text(kg, "Ben Ode lived in Lyon."), "Q1", "P551").verdict.verdict == SUPPORTED


def test_a_link_is_dropped_where_the_verb_states_another_relation_of_the_pair(kg_of):
    """"Cid Roy directed Harbour Lights", the graph listing him in its cast: the inverse reader's director claim is
    what the sentence states; the cast link, SUPPORTED beside it, would read as the sentence checked."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P57", "director", "wikibase-item", aliases=["directed by"]),
        prop("P161", "cast member", "wikibase-item", aliases=["starring"]),
        entity("Q5", "human"), entity("Q11424", "film"),
        _person("Q3", "Ben Ode"), _person("Q4", "Cid Roy"),
        entity("Q10", "Harbour Lights", claims=[("P31", item("Q11424", None)), ("P57", item("Q3", None)),
                                                ("P161", item("Q4", None))]),
        entity("Q11", "Night Rain", claims=[("P31", item("Q11424", None)), ("P57", item("Q4", None))]),
    ])
    report = verify_text(kg, "Cid Roy directed Harbour Lights.")
    on_pair = [c for c in report.claims if (c.claim.subject_id, c.claim.object_id) == ("Q10", "Q4")]
    assert [(c.claim.property_id, c.reader) for c in on_pair] == [("P57", "inverse")]
    assert on_pair[0].verdict.verdict != SUPPORTED
    # with no verb naming a relation, the link stands
    assert [c.claim.property_id for c in verify_text(kg, "Harbour Lights, with Cid Roy.").claims
            if c.reader == "linked"] == ["P161"]
