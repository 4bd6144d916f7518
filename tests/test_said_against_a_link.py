"""A relation's name between two names the graph links only the other way round by another relation: "Europe is part
of France", the graph holding France's continent Europe. The link is there, so reporting it called the sentence
SUPPORTED; the words claim Europe's part of, for the graph to judge (links._said_against_a_link) — unless the graph
shows the two relations reading each other backwards (a capital and capital of, held both ways for other pairs),
where the link is the words' fact said from the other end."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import SUPPORTED
from conftest import fixture_builders
from wordgraph import claim_tuples

B = fixture_builders()
NAMES = ["Amber", "Blaze", "Cinder", "Dusk", "Ember", "Frost", "Gale", "Haze", "Iris", "Jade", "Kestrel", "Lumen",
         "Mist", "Nova", "Onyx", "Pike", "Quartz", "Raven", "Sable", "Tide", "Umber", "Vale", "Wren", "Yew"]


def _graph() -> list[dict]:
    things = [B.prop("P31", "instance of", "wikibase-item"), B.prop("P30", "continent", "wikibase-item"),
              B.prop("P361", "part of", "wikibase-item"), B.prop("P36", "capital", "wikibase-item"),
              B.prop("P1376", "capital of", "wikibase-item"),
              B.entity("Q6256", "country"), B.entity("Q5107", "continent"), B.entity("Q515", "city"),
              B.entity("Q15", "Eurasia", "supercontinent"),
              B.entity("Q46", "Europe", "continent", claims=[("P31", B.item("Q5107", None)),
                                                             ("P361", B.item("Q15", None))]),
              B.entity("Q142", "France", "country", claims=[("P31", B.item("Q6256", None)), ("P30", B.item("Q46", None)),
                                                            ("P36", B.item("Q90", None))]),
              # the capital held one way only for this pair, both ways for the others below
              B.entity("Q90", "Paris", "city", claims=[("P31", B.item("Q515", None))])]
    for i, name in enumerate(NAMES):  # 24 regions part of 24 wholes; 24 capitals held both ways
        region, whole, country, city = (f"Q{1000 + 4 * i + k}" for k in range(4))
        things += [B.entity(region, f"{name} Vale", "region", claims=[("P361", B.item(whole, None))]),
                   B.entity(whole, f"{name} Land", "land"),
                   B.entity(country, f"{name}ia", "country", claims=[("P31", B.item("Q6256", None)),
                                                                    ("P30", B.item("Q46", None)),
                                                                    ("P36", B.item(city, None))]),
                   B.entity(city, f"{name} City", "city", claims=[("P31", B.item("Q515", None)),
                                                                  ("P1376", B.item(country, None))])]
    return things


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(_graph())


def test_words_naming_a_relation_the_link_is_not_are_the_claim(kg):
    claims = claim_tuples(kg, "Europe is part of France.")
    assert [c[:3] for c in claims] == [("Q46", "P361", "Q142")]
    assert claims[0][3] != SUPPORTED  # the graph lists Eurasia: not France, never supported by France's continent


def test_the_links_own_direction_stays_supported(kg):
    assert claim_tuples(kg, "France is part of Europe.") == [("Q142", "P30", "Q46", SUPPORTED)]


def test_a_relation_the_graph_holds_backwards_keeps_the_link(kg):
    # capital of / capital are held both ways for 24 pairs: the link France capital Paris is the words' fact
    assert ("Q142", "P36", "Q90", SUPPORTED) in claim_tuples(kg, "Paris is the capital of France.")
    assert all(c[3] == SUPPORTED for c in claim_tuples(kg, "Paris is the capital of France."))


def test_words_without_a_copula_modify_what_came_before(kg):
    # "a region Europe part of France", "rock and roll musician Chuck Berry": no copula, no claim of the first name's
    assert claim_tuples(kg, "Europe part of France.") == [("Q142", "P30", "Q46", SUPPORTED)]
