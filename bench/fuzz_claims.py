"""Fuzzing sections for claim files and HTTP bodies (issue 17), the longer campaign of tests/test_fuzz_claims.py.

    PYTHONPATH=<parent of the repo> python bench/fuzz_claims.py [--section claims|http] [--examples 1000] [--seed N]

`bench/fuzz.py` (the dump section) runs these too: SECTIONS has the same shape as its own
(a function of examples and seed returning cases run and failed). The checks are in tests/fuzz_claims.py;
both run over the mini fixture index with the deterministic FakeEmbedder, built into a temp dir.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from common import run_property

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the shared strategies live beside the tests that use them


@lru_cache(maxsize=1)
def mini_index() -> str:
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tempfile.mkdtemp(prefix="kgcheck-fuzz-") + "/kg"
    ingest(str(REPO / "tests" / "fixtures" / "mini-dump.json"), out, IngestOptions(quiet=True))
    build_index(out, embedder=FakeEmbedder(), quiet=True)
    return out


def fuzz_claims(examples: int, seed: int | None) -> tuple[int, int]:
    from fuzz_claims import check_claim_file, claim_files

    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG

    print("claims: mutated JSONL / CSV / N-Triples claim files through check (and its resume)", flush=True)
    with KG.open(mini_index(), embedder=FakeEmbedder()) as kg:
        return run_property("claims", claim_files(), lambda case: check_claim_file(kg, case), examples, seed)


def fuzz_http(examples: int, seed: int | None) -> tuple[int, int]:
    from fastapi.testclient import TestClient
    from fuzz_claims import check_http, http_requests

    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.verifier.serve.server import create_app

    print("http: random methods, paths, content types and bodies against the API", flush=True)
    client = TestClient(create_app(mini_index(), embedder=FakeEmbedder(), max_body_bytes=50_000, max_text_chars=2_000),
                        raise_server_exceptions=False)
    return run_property("http", http_requests(), lambda req: check_http(client, req), examples, seed)


SECTIONS = {"claims": fuzz_claims, "http": fuzz_http}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--section", action="append", choices=sorted(SECTIONS))
    parser.add_argument("--examples", type=int, default=1000, help="cases per section")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    ran = failed = 0
    for name in args.section or sorted(SECTIONS):
        r, f = SECTIONS[name](args.examples, args.seed)
        ran, failed = ran + r, failed + f
    print(f"total: {ran:,} cases ran, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
