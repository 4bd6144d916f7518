"""When the words reader (verifier/text/words.py) must not read a property from a word: the preposition a property's
name ends with is part of it, and a word naming several properties the subject holds none of says none of them."""
from __future__ import annotations

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop

COUNTRIES = [entity("Q6256", "country"), entity("Q833", "Malaysia", claims=[("P31", item("Q6256", None))]),
             entity("Q16", "Canada", claims=[("P31", item("Q6256", None))])]


def _claims(report, span):
    """(property, reader, the graph's values shown, or SUPPORTED) of the claims on SPAN."""
    return [(c.claim.property_id, c.reader, SUPPORTED if c.verdict.verdict == SUPPORTED else
             sorted({e.value for e in c.verdict.evidence} | set(c.verdict.corrections)))
            for c in report.claims if c.span == span]


def test_a_name_ending_in_a_preposition_is_said_only_with_it(kg_of):
    # "playing in" (an alias of narrative location) is not said by "played for": the player's sporting country is
    # read from the value's type instead, not SUPPORTED, with the graph's value.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"),
                prop("P840", "narrative location", "wikibase-item", aliases=["playing in"]),
                prop("P1532", "country for sport", "wikibase-item"), *COUNTRIES,
                entity("Q900", "Dina Soon", "badminton player", claims=[("P1532", item("Q16", None))]),
                entity("Q901", "Harbour Tale", "film", claims=[("P840", item("Q833", None))]),
                entity("Q902", "Cold Coast", "film", claims=[("P840", item("Q16", None))])])
    wrong = verify_text(kg, "Dina Soon played for Malaysia in doubles.")
    assert _claims(wrong, "Malaysia") == [("P1532", "types", ["Canada"])]
    right = verify_text(kg, "Dina Soon played for Canada in doubles.")
    assert _claims(right, "Canada") == [("P1532", "linked", SUPPORTED)]
    # With the preposition the name is said: a story playing in Canada is read as its narrative location.
    story = verify_text(kg, "Harbour Tale is playing in Canada.")
    assert _claims(story, "Canada") == [("P840", "words", ["Malaysia"])]


def test_a_word_naming_several_properties_the_subject_holds_none_of_reads_none(kg_of):
    # "music by" names both composer and performer; a song that holds neither (and has no class to measure) gets no
    # claim from the word: which one is meant, the words do not say. Holding one of them, the word reads it.
    props = [prop("P31", "instance of", "wikibase-item"),
             prop("P86", "composer", "wikibase-item", aliases=["music by"]),
             prop("P175", "performer", "wikibase-item", aliases=["music by"]),
             prop("P136", "genre", "wikibase-item")]
    people = [entity("Q5", "human"), entity("Q71", "Ivo Marr", claims=[("P31", item("Q5", None))]),
              entity("Q72", "Lena Voss", claims=[("P31", item("Q5", None))]),
              # Ivo Marr composed one tune and performed another: "music by Ivo Marr" fits either reading.
              entity("Q73", "Other Tune", claims=[("P86", item("Q71", None))]),
              entity("Q74", "Third Tune", claims=[("P175", item("Q71", None))])]
    kg = kg_of(props + people + [entity("Q70", "Quiet Song", claims=[("P136", item("Q5", None))])])
    assert [r for _, r, _ in _claims(verify_text(kg, "Quiet Song, music by Ivo Marr, was a hit."), "Ivo Marr")
            if r == "words"] == []
    kg = kg_of(props + people + [entity("Q70", "Quiet Song", claims=[("P86", item("Q72", None))])])
    held = verify_text(kg, "Quiet Song, music by Ivo Marr, was a hit.")
    assert _claims(held, "Ivo Marr") == [("P86", "words", ["Lena Voss"])]
