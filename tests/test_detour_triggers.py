"""A time said between a trigger word and its value ("born on 4 April 1961 in Graz", "died in 2001 in Lyon") leaves
the word's relation to the value: the claim is the birthplace the words state, for the graph to judge — not another
link between the two names (a residence) that the sentence does not state, SUPPORTED by construction. A month
inside the date is no name standing between the word and its value."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, claim_on, graph_values

item = B.item

GRAPH = ENTITIES + [
    B.prop("P551", "residence", "wikibase-item", aliases=["lived in"]),
    B.prop("P569", "date of birth", "time"),
    B.entity("Q911", "Dora Engel", "person", claims=[("P31", item("Q5", None)), ("P551", item("Q13298", None)),
                                                    ("P569", B.time("+1961-04-04T00:00:00Z", 11))]),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(GRAPH)


@pytest.mark.parametrize("text", ["Dora Engel was born on 4 April 1961 in Graz.",
                                  "Dora Engel was born in 1961 in Graz."])
def test_a_birthplace_after_a_date_is_claimed_as_said_not_as_the_residence_linked(kg, text):
    said = claim_on(verify_text(kg, text), "Graz")
    assert said.claim.property_id == "P19" and said.verdict.verdict != SUPPORTED


def test_a_birthplace_after_a_date_is_judged(kg):
    right = claim_on(verify_text(kg, "Alice Brandt was born on 4 April 1961 in Lyon."), "Lyon")
    assert (right.claim.property_id, right.verdict.verdict) == ("P19", SUPPORTED)
    wrong = claim_on(verify_text(kg, "Alice Brandt was born on 4 April 1961 in Graz."), "Graz")
    assert wrong.claim.property_id == "P19" and wrong.verdict.verdict != SUPPORTED and "Lyon" in graph_values(wrong)
