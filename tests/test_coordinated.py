"""Participles coordinated before one particle ("produced and distributed by X", "directed and produced by X") each
name their relation of X: the triggers reader reaches X past the other participles, also where the words reader
took X for the relation the nearest word names, so the relation the graph can judge is claimed beside it. (The words
reader's lexicon reaching X that way was tried and dropped: a farther name fitting X's role displaced the nearest —
"written and directed by" a director read as the screenwriter alone —, and "written by" read films' authors.)
And a list of places after a preposition stays its object past an item the gazetteer does not know ("in Graz and
Cappadocia, Austria"): with a topic, the claims are the topic's, not the last place's."""
from __future__ import annotations

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, graph_values

item = B.item

GRAPH = ENTITIES + [
    B.prop("P272", "production company", "wikibase-item"),
    B.prop("P750", "distributor", "wikibase-item", aliases=["distributed by"]),
    B.prop("P915", "filming location", "wikibase-item", aliases=["filmed in"]),
    B.entity("Q4830453", "business"),
    B.entity("Q921", "Metro Pictures", "company", claims=[("P31", item("Q4830453", None))]),
    B.entity("Q922", "Dimension Films", "company", claims=[("P31", item("Q4830453", None))]),
    B.entity("Q923", "Harbour Lights", "film", claims=[("P31", item("Q11424", None)), ("P272", item("Q921", None)),
                                                      ("P750", item("Q921", None)), ("P915", item("Q456", None))]),
]


def _on(report, pid):
    return [c for c in report.claims if c.claim.property_id == pid]


def test_the_first_of_two_coordinated_participles_is_claimed_by_the_triggers_reader(kg_of):
    kg = kg_of(GRAPH)
    # (the words reader takes the value with "distributed by"; no type reader guesses the relation)
    wrong = _on(verify_text(kg, "Harbour Lights was produced and distributed by Dimension Films.",
                            readers=("words", "triggers")), "P272")
    assert wrong and wrong[0].span == "Dimension Films" and wrong[0].verdict.verdict != SUPPORTED
    assert "Metro Pictures" in graph_values(wrong[0])
    right = verify_text(kg, "Harbour Lights was produced and distributed by Metro Pictures.").claims
    assert right and all(c.verdict.verdict == SUPPORTED for c in right)


def test_three_coordinated_participles_reach_the_value(kg_of):
    kg = kg_of(GRAPH)
    wrong = _on(verify_text(kg, "Harbour Lights was produced, edited and distributed by Dimension Films.",
                            readers=("triggers",)), "P272")
    assert wrong and wrong[0].verdict.verdict != SUPPORTED


def test_a_place_list_after_a_preposition_leaves_the_topic_the_subject(kg_of):
    kg = kg_of(GRAPH)
    report = verify_text(kg, "Filming took place in Graz, Lyon and Cappadocia, Austria.", about="Q923")
    subjects = {c.claim.subject_id for c in report.claims}
    assert "Q923" in subjects and "Q40" not in subjects  # the film's filming locations, not Austria's relations



def test_a_coordinated_word_is_not_the_word_right_before_the_value():
    # Only the triggers reader asks for coordinated reach; "right before the value" (which lets a word state its
    # relation where the holder lacks it) stays the word next to the value.
    from kgcheck.verifier.text.triggerwords import word_hits, word_right_before

    text = "It was written and directed by Anna Smith."
    at = text.index("Anna")
    assert not word_right_before(text, at, "P58")
    assert word_right_before("It was written by Anna Smith.", len("It was written by "), "P58")
    assert not list(word_hits(text[:at], [("P58", ("written by",))], value_at=at))
    assert list(word_hits(text[:at], [("P58", ("written by",))], value_at=at, coordinated=True))
