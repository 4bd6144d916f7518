"""Ray: the same vectors and the same verdicts on a local 2-CPU Ray cluster as in-process (skipped without ray)."""
from __future__ import annotations

import json
import os
import shutil

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'kgcheck[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    from kgcheck.index.distributed import connect

    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    connect("local", num_cpus=2)
    yield
    ray.shutdown()


def _vectors(directory):
    import faiss

    index = faiss.read_index(os.path.join(directory, "vectors", "entities-000.faiss"))
    return index.reconstruct_n(0, index.ntotal)


def test_ray_index_gives_the_same_vectors(mini_kg_dir, tmp_path, local_ray):
    import numpy as np

    from kgcheck.index.build import BuildSettings, build_index
    from kgcheck.index.embed import FakeEmbedder

    copy = tmp_path / "ray"
    shutil.copytree(mini_kg_dir, copy)
    shutil.rmtree(copy / "vectors")  # no cache to reuse: every text is encoded by the actors
    manifest = build_index(str(copy), embedder=FakeEmbedder(), quiet=True,
                           settings=BuildSettings(ray_address="local"))
    emb = manifest["index"]["embeddings"]
    assert emb["encoded"] > 10 and emb["reused"] <= 1  # 1: a property text that is also an item text
    assert np.array_equal(_vectors(str(copy)), _vectors(str(mini_kg_dir)))
    with open(copy / "vectors" / "texts.sqlite", "rb") as a, open(mini_kg_dir / "vectors" / "texts.sqlite", "rb") as b:
        assert a.read() == b.read()


def test_ray_check_gives_the_same_verdicts(mini_kg, local_ray):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.verifier.claims.bulk import check_stream
    from kgcheck.verifier.claims.check import Checker, CheckOptions
    from kgcheck.verifier.claims.distributed import ray_check_stream
    from kgcheck.verifier.model import BadClaim, Claim

    claims = [Claim(id=f"c{i}", subject=s, predicate=p, object=o) for i, (s, p, o) in enumerate([
        ("Douglas Adams", "date of birth", "11 March 1952"), ("Douglas Adams", "date of birth", "1960"),
        ("Douglas Adams", "place of birth", "Cambridge"), ("Douglas Adams", "place of birth", "Oslo"),
        ("Belgium", "area", "30689 square kilometre"), ("Nobody Here", "date of birth", "1900")] * 3)]
    items = claims[:4] + [BadClaim(id="bad-5", line=5, error="bad", raw="{")] + claims[4:]
    local = list(check_stream(Checker(mini_kg, options=CheckOptions()), items, set()))
    spread = list(ray_check_stream(mini_kg.directory, items, {"c1"}, CheckOptions(), "local", workers=2,
                                   embedder_spec=FakeEmbedder().spec(), batch_size=4))
    assert [type(x).__name__ for x in spread].count("BadClaim") == 1
    assert [(v.claim.id, v.verdict) for v in local if not isinstance(v, BadClaim) and v.claim.id != "c1"] == \
        [(v.claim.id, v.verdict) for v in spread if not isinstance(v, BadClaim)]
    assert {v.verdict for v in local if not isinstance(v, BadClaim)} >= {"SUPPORTED", "REFUTED"}
