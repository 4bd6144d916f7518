"""Free text that breaks the readers' assumptions: names of the graph shuffled among dates, quantities, brackets,
quotes, pronouns, stray punctuation and other scripts. `verify_text` must answer every one — a report whose claims
sit inside the text, with verdicts of the three kinds, a fixed text and a JSON form — never an exception."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcheck.index.embed import FakeEmbedder
from kgcheck.index.store import KG
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.text.verify import report_to_dict, verify_text

VERDICTS = {"SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"}
GLUE = ["is a", "was born in", "directed by", "the", "The film", "He", "She", "It", "its", "of", "and", ",", ".",
        ";", ":", "(", ")", "\"", "“", "”", "'s", "—", "-", "in 1952", "on 3 May 1999", "c. 1200 BC", "12.5 km",
        "born", "died", "(born 1 January 1900)", "is the capital of", "\u00a0", "\n", "é", "日本語", "🙂", "\u200b",
        "[1]", "1e309", "-0", "2020s", "is British", "an American writer", "lived in", "married", "!", "?", "…"]


@pytest.fixture(scope="module")
def fuzz_kg(mini_kg_dir):
    kg = KG.open(str(mini_kg_dir), embedder=FakeEmbedder())
    yield kg
    kg.close()


@pytest.fixture(scope="module")
def names(fuzz_kg):
    """The fixture's labels, things' first (a topic is one of them), then its properties' ("directed by" words)."""
    rows = fuzz_kg.sql("SELECT label, id LIKE 'Q%' FROM entities WHERE label IS NOT NULL ORDER BY id")
    things = [label for label, is_thing in rows if is_thing]
    assert things, "the mini fixture has labelled entities"
    return things, [label for label, is_thing in rows if not is_thing]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_text_gets_a_whole_report(fuzz_kg, names, data):
    things, properties = names
    pieces = data.draw(st.lists(st.one_of(st.sampled_from(things), st.sampled_from(properties or things),
                                          st.sampled_from(GLUE),
                                          st.text(max_size=12)), max_size=30))
    text = data.draw(st.sampled_from([" ", "", "  "])).join(pieces)
    about = data.draw(st.sampled_from([None, None, *things[:3]]))
    fix = data.draw(st.booleans())
    report = verify_text(fuzz_kg, text, checker=Checker(fuzz_kg), fix=fix, about=about)
    for c in report.claims:
        assert 0 <= c.start <= c.end <= len(report.text)
        assert report.text[c.start:c.end] == c.span
        assert c.verdict.verdict in VERDICTS
    assert isinstance(report.fixed_text, str) if fix else report.fixed_text is None
    json.dumps(report_to_dict(report))  # the --json form is always serialisable
