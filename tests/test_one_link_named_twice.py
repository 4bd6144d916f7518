"""A description the graph resolves through one name alone is no subject when another name of the sentence holds that
relation (extract._one_link_among_others) — and one thing named twice ("Nico Parks … Parks") is still one name."""
from __future__ import annotations

from kgcheck.verifier.model import REFUTED
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop


def test_a_name_said_twice_is_one_link_to_a_description(kg_of):
    # "The studio" was read as what the graph links to the sentence's names: Wrong Slacks, through its screenwriter
    # Nico Parks — named twice, so counted as two links, where one link is no evidence while Tiny Run, named, holds a
    # screenwriter too. The wrong screenwriter went to Wrong Slacks, NOT_ENOUGH_INFO; it is Tiny Run's, REFUTED.
    kg = kg_of([prop("P58", "screenwriter", "wikibase-item"),
                entity("Q41", "Tiny Run", "film", claims=[("P58", item("Q51", None))]),
                entity("Q42", "Wrong Slacks", claims=[("P58", item("Q52", None))]),
                entity("Q51", "Kara Kirk"), entity("Q52", "Nico Parks"), entity("Q53", "Jan Pinka")]
               # enough films with one screenwriter each for the judge to measure the property as exclusive
               + [entity(f"Q{1000 + i}", f"Reel {i}", "film", claims=[("P58", item(f"Q{2000 + i}", None))])
                  for i in range(40)] + [entity(f"Q{2000 + i}", f"Writer {i}") for i in range(40)])
    text = ("The studio's first feature-length film, Tiny Run was made by Nico Parks from a screenplay by Jan Pinka "
            "and a story by Parks.")
    claims = [c for c in verify_text(kg, text).claims if c.span == "Jan Pinka"]
    assert [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in claims] == [("Q41", "P58", REFUTED)]
    assert "Kara Kirk" in claims[0].verdict.corrections
