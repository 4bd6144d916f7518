"""LLM extraction steps against FakeLLM, plus one smoke test with the real SmolLM2 GGUF."""
from __future__ import annotations

import importlib.util
import time

import pytest

from verifier.llm import FakeLLM, LLMError
from verifier.llm_extract import (
    MAX_PART_CHARS, NO_MATCH, RawTriple, choose_candidate, extract_triples,
    extract_triples_per_sentence, grounded, keeps_values, smooth_text, smooth_text_safely)

TEXT = "Douglas Adams was born in Cambridge in 1952."


def _walk(schema):
    yield schema
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"])
    for sub in (schema.get("properties") or {}).values():
        yield from _walk(sub)


def _triple(s, p, o, **extra):
    return {"subject": s, "predicate": p, "object": o, **extra}


# ---------------------------------------------------------------- extraction

def test_extraction_prompt_and_capped_schema():
    fake = FakeLLM([[_triple("Douglas Adams", "place of birth", "Cambridge")]])
    triples = extract_triples(fake, TEXT, max_triples=5)
    assert triples == [RawTriple("Douglas Adams", "place of birth", "Cambridge")]
    (call,) = fake.calls
    assert TEXT in call.user and "pronoun" in call.system
    assert call.max_tokens <= 300
    schema = call.schema
    assert schema["type"] == "array" and schema["maxItems"] == 5
    nodes = list(_walk(schema))
    strings = [node for node in nodes if node.get("type") == "string"]
    arrays = [node for node in nodes if node.get("type") == "array"]
    assert len(strings) == 5 and all(node["maxLength"] <= 80 for node in strings)
    assert len(arrays) == 2 and all("maxItems" in node for node in arrays)
    assert schema["items"]["properties"]["qualifiers"]["maxItems"] == 2


def test_post_filter_drops_empty_duplicate_and_self_triples():
    answer = [
        _triple("Douglas Adams", "place of birth", "Cambridge"),
        _triple("  douglas   adams ", "Place of birth", "cambridge"),  # duplicate up to case/space
        _triple("Douglas Adams", "", "1952"),                        # empty predicate
        _triple("Cambridge", "same as", "cambridge"),                # subject == object
        _triple("Douglas Adams", "date of birth", None),             # not a string
        "not a triple",
        _triple("Douglas Adams", "date of birth", "1952",
                qualifiers=[{"predicate": "calendar", "object": ""},
                            {"predicate": "precision", "object": "year"}]),
    ]
    triples = extract_triples(FakeLLM([answer]), TEXT)
    assert triples == [
        RawTriple("Douglas Adams", "place of birth", "Cambridge"),
        RawTriple("Douglas Adams", "date of birth", "1952", (("precision", "year"),)),
    ]


def test_result_is_capped_at_max_triples():
    answer = [_triple("A", "p", f"B{i}") for i in range(6)]
    assert len(extract_triples(FakeLLM([answer]), "A p B.", max_triples=3)) == 3


def test_truncated_answer_keeps_complete_triples():
    raw = ('[{"subject":"Douglas Adams","predicate":"place of birth","object":"Cambridge",'
           '"qualifiers":[{"predicate":"point in time","object":"1952"}]},'
           '{"subject":"Douglas Adams","predicate":"date of')
    triples = extract_triples(FakeLLM([LLMError("cut", raw=raw)]), TEXT)
    assert triples == [RawTriple("Douglas Adams", "place of birth", "Cambridge",
                                 (("point in time", "1952"),))]


def test_failure_without_output_propagates():
    with pytest.raises(LLMError):
        extract_triples(FakeLLM([LLMError("model crashed")]), TEXT)


def test_blank_text_needs_no_model_call():
    fake = FakeLLM([])
    assert extract_triples(fake, "   ") == []
    assert fake.calls == []


def test_per_sentence_extraction_with_optional_previous_sentence():
    sentences = ["Douglas Adams was a writer.", "He was born in Cambridge."]
    fake = FakeLLM(lambda call: [_triple("Douglas Adams", "occupation", "writer")])
    results = extract_triples_per_sentence(fake, sentences)
    assert len(results) == 2 and all(len(r) == 1 for r in results)
    assert [sentences[0] in c.user for c in fake.calls] == [True, False]
    assert all("Context:" not in c.user for c in fake.calls)

    fake = FakeLLM(lambda call: [])
    extract_triples_per_sentence(fake, sentences, with_previous_sentence=True)
    assert "Context:" not in fake.calls[0].user
    assert f"Context: {sentences[0]}" in fake.calls[1].user and sentences[1] in fake.calls[1].user


# ---------------------------------------------------------------- grounding helpers

@pytest.mark.parametrize("span, expected", [
    ("Cambridge", True),
    ("cambridge.", True),
    ("born in Cambridge", True),
    ("the Douglas Adams writer", True),   # 2 of 3 content words
    ("Oxford", False),
    ("bridge", False),                    # no match inside a word
    ("the", False),
    ("", False),
])
def test_grounded(span, expected):
    assert grounded(span, TEXT) is expected


def test_keeps_values():
    assert keeps_values("Douglas Adams was born in Cambridge in 1952.", ["Cambridge", "1952"])
    assert not keeps_values("Douglas Adams was born in Cambridge in 1953.", ["Cambridge", "1952"])
    assert not keeps_values("Born in 19520.", ["1952"])
    assert not keeps_values("", [])


# ---------------------------------------------------------------- candidate choice

CANDIDATES = [("Q42", "Douglas Adams", "English writer and humorist"),
              ("Q21454969", "Douglas Adams", "British physician")]


def test_choose_candidate_enum_and_prompt():
    fake = FakeLLM(["Q42"])
    assert choose_candidate(fake, "Douglas Adams wrote novels.", "Douglas Adams", CANDIDATES) == "Q42"
    (call,) = fake.calls
    assert call.schema == {"type": "string", "enum": ["Q42", "Q21454969", NO_MATCH]}
    assert "Douglas Adams wrote novels." in call.user and "English writer and humorist" in call.user
    assert '"Douglas Adams"' in call.user


def test_choose_candidate_no_match_and_no_candidates():
    assert choose_candidate(FakeLLM([NO_MATCH]), "text", "X", CANDIDATES) is None
    fake = FakeLLM([])
    assert choose_candidate(fake, "text", "X", []) is None and fake.calls == []


def test_choose_candidate_rejects_ids_outside_the_list():
    with pytest.raises(LLMError):
        choose_candidate(FakeLLM(["Q1"]), "text", "X", CANDIDATES)


# ---------------------------------------------------------------- smoothing

def test_smooth_text_returns_model_text():
    fake = FakeLLM(["Douglas Adams was born in Cambridge in 1952."])
    assert smooth_text(fake, "Douglas Adams were born in Cambridge in 1952.", 100) == \
        "Douglas Adams was born in Cambridge in 1952."
    (call,) = fake.calls
    assert "Douglas Adams were born" in call.user and call.max_tokens == 100
    assert call.schema["type"] == "string" and "maxLength" in call.schema


def test_smooth_text_safely_falls_back_when_values_change_or_model_fails():
    original = "Douglas Adams were born in Cambridge in 1952."
    required = ["Cambridge", "1952"]
    good = FakeLLM(["Douglas Adams was born in Cambridge in 1952."])
    assert smooth_text_safely(good, original, required) == "Douglas Adams was born in Cambridge in 1952."
    assert smooth_text_safely(FakeLLM(["Adams was born in Oxford in 1952."]), original, required) == original
    assert smooth_text_safely(FakeLLM([LLMError("x")]), original, required) == original


# ---------------------------------------------------------------- real model

def _real_llm_or_skip():
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (pip install llama-cpp-python)")
    from verifier.llm import load_llm
    try:
        return load_llm(None)
    except LLMError as error:
        pytest.skip(f"no usable GGUF model: {error}")


@pytest.mark.llm
@pytest.mark.slow
def test_real_model_extraction_is_bounded_and_fast():
    llm = _real_llm_or_skip()
    started = time.perf_counter()
    triples = extract_triples(llm, TEXT)
    elapsed = time.perf_counter() - started
    assert isinstance(triples, list) and all(isinstance(t, RawTriple) for t in triples)
    assert len(triples) <= 8
    for triple in triples:
        parts = [triple.subject, triple.predicate, triple.object]
        parts += [part for qualifier in triple.qualifiers for part in qualifier]
        assert all(0 < len(part) <= MAX_PART_CHARS for part in parts)
        assert len(triple.qualifiers) <= 2
    assert elapsed < 20, f"extraction took {elapsed:.1f}s"
