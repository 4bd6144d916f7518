"""LLM extraction steps against FakeLLM, plus one smoke test with the real SmolLM2 GGUF."""
from __future__ import annotations

import importlib.util
import time

import pytest

from kgcheck.verifier.llm.backends import FakeLLM, LLMError
from kgcheck.verifier.llm.extract import (
    MAX_PART_CHARS, MAX_SUBJECTS, NO_MATCH, RawTriple, candidate_spans, choose_candidate,
    extract_triples, extract_triples_per_sentence, grounded, keeps_values, smooth_text,
    smooth_text_safely)

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
    fake = FakeLLM([[{"subject": "Douglas Adams",
                      "facts": [{"predicate": "place of birth", "object": "Cambridge"},
                                {"predicate": "date of birth", "object": "1952"}]}]])
    triples = extract_triples(fake, TEXT, max_triples=5, spans_only=False)
    assert triples == [RawTriple("Douglas Adams", "place of birth", "Cambridge"),
                       RawTriple("Douglas Adams", "date of birth", "1952")]
    (call,) = fake.calls
    assert TEXT in call.user and "pronoun" in call.system
    assert call.max_tokens <= 300
    schema = call.schema
    assert schema["type"] == "array" and schema["maxItems"] == MAX_SUBJECTS
    facts = schema["items"]["properties"]["facts"]
    assert facts["maxItems"] == 5
    assert facts["items"]["properties"]["qualifiers"]["maxItems"] == 2
    nodes = list(_walk(schema))
    strings = [node for node in nodes if node.get("type") == "string"]
    arrays = [node for node in nodes if node.get("type") == "array"]
    assert len(strings) == 5 and all(node["maxLength"] <= 80 for node in strings)
    assert len(arrays) == 3 and all("maxItems" in node for node in arrays)


def test_subjects_and_objects_are_constrained_to_text_spans():
    fake = FakeLLM([[]])
    extract_triples(fake, TEXT)
    entity_nodes = [node for node in _walk(fake.calls[0].schema) if "enum" in node]
    assert len(entity_nodes) == 3  # subject, object, qualifier object
    spans = entity_nodes[0]["enum"]
    assert {"Douglas Adams", "Cambridge", "1952"} <= set(spans)
    assert all(span in TEXT and len(span) <= 80 for span in spans)
    assert all(node["enum"] == spans and node["maxLength"] <= 80 for node in entity_nodes)


def test_candidate_spans_skip_pronouns_stopword_edges_lists_and_quotes():
    spans = candidate_spans('He met Max Martin, Cathy Dennis and "Dr." Luke in the studio.')
    assert "Max Martin" in spans and "Cathy Dennis" in spans and "studio" in spans
    assert "He" not in spans and "He met" not in spans           # pronoun start
    assert "in the studio" not in spans and "Dennis and" not in spans  # stopword edges
    assert not any("," in span or '"' in span for span in spans)


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


def test_truncated_answer_keeps_complete_facts():
    raw = ('[{"subject":"Douglas Adams","facts":[{"predicate":"place of birth","object":"Cambridge",'
           '"qualifiers":[{"predicate":"point in time","object":"1952"}]},'
           '{"predicate":"date of birth","object":"19')
    triples = extract_triples(FakeLLM([LLMError("cut", raw=raw)]), TEXT)
    assert triples == [RawTriple("Douglas Adams", "place of birth", "Cambridge",
                                 (("point in time", "1952"),))]


def test_truncated_answer_with_brace_inside_a_string():
    raw = ('[{"subject":"A {x}","facts":[{"predicate":"p","object":"B"},'
           '{"predicate":"q","object":"C {')
    triples = extract_triples(FakeLLM([LLMError("cut", raw=raw)]), "A {x} p B.")
    assert triples == [RawTriple("A {x}", "p", "B")]


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
    from kgcheck.verifier.llm.backends import load_llm
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
    print(f"extraction took {elapsed:.1f}s")  # speed lives in bench/, not in assertions


@pytest.mark.llm
@pytest.mark.slow
def test_real_model_candidate_choice_stays_in_the_enum():
    llm = _real_llm_or_skip()
    answer = choose_candidate(llm, "Douglas Adams wrote The Hitchhiker's Guide to the Galaxy.",
                              "Douglas Adams", CANDIDATES)
    assert answer in {"Q42", "Q21454969", None}
