""""X directed Y" over a sparse graph: Y has no class and no director, X no class (a cast member elsewhere). The
holder may still have a director — most subjects holding what it holds (a cast) do — and X is what cast members
mostly are (human, as directors are): the claim is made, and the graph, which lists no director, answers
NOT_ENOUGH_INFO instead of silence. A name the graph says nothing of still claims nothing."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import NOT_ENOUGH_INFO
from kgcheck.verifier.text.verify import verify_text
from wordgraph import B

item, time = B.item, B.time


def _film(qid, label, director, *cast):
    return B.entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P57", item(director, None))] +
                    [("P161", item(c, None)) for c in cast])


def _human(qid, label):
    return B.entity(qid, label, "person", claims=[("P31", item("Q5", None))])


GRAPH = [
    B.prop("P31", "instance of", "wikibase-item"),
    B.prop("P57", "director", "wikibase-item", aliases=["directed by"]),
    B.prop("P161", "cast member", "wikibase-item", aliases=["starring"]),
    B.entity("Q11424", "film"), B.entity("Q5", "human"),
    _human("Q901", "Alice Brandt"), _human("Q902", "Bruno Keller"), _human("Q903", "Carla Moreau"),
    _film("Q801", "The Quiet Harbour", "Q901", "Q902"), _film("Q802", "Night Train", "Q902", "Q903"),
    _film("Q803", "Paper Moon Rising", "Q903", "Q901"),
    B.entity("Q910", "Eve Lorne"),  # no class: cast member of Lost Reel, below
    B.entity("Q820", "Lost Reel", claims=[("P161", item("Q910", None))]),  # no class, no director
    B.entity("Q821", "Gray Tide", claims=[("P161", item("Q901", None))]),
    B.entity("Q911", "Zed Quorn"),  # the graph says nothing of him
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(GRAPH)


def test_a_director_the_graph_lacks_is_claimed_and_not_enough_info(kg):
    report = verify_text(kg, "Eve Lorne directed Gray Tide.")
    found = [(c.claim.subject_id, c.claim.property_id, c.claim.object_id, c.verdict.verdict, c.reader)
             for c in report.claims]
    assert ("Q821", "P57", "Q910", NOT_ENOUGH_INFO, "inverse") in found
    assert not [f for f in found if f[0] == "Q910"]  # not Eve Lorne's director, the film, read the wrong way round


def test_a_name_the_graph_says_nothing_of_claims_nothing(kg):
    report = verify_text(kg, "Zed Quorn directed Gray Tide.")
    assert not [c for c in report.claims if c.claim.property_id == "P57"]
