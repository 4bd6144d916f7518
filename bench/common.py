"""Shared helpers of the bench scripts: locate ../shared, build an index once, percentiles."""
from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("KGCHECK_SHARED") or ROOT.parent / "shared")  # a worktree elsewhere sets it
sys.path.insert(0, str(ROOT))


def need_shared(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"{path} is absent: the benchmarks need ../shared beside the repo")
    return path


def ensure_index(dump: Path, out: str) -> str:
    """Build DUMP into OUT unless a finished index is already there."""
    if not os.path.isfile(os.path.join(out, "manifest.json")) or "index" not in open(
            os.path.join(out, "manifest.json")).read():
        from kgcheck.index.build import build_index
        from kgcheck.ingest.pipeline import IngestOptions, ingest

        from kgcheck.ingest.writer import build_staging_dir, publish

        print(f"building {out} from {dump} ...", file=sys.stderr)
        # As `kgcheck build` does: staged, then published — a killed build leaves no half index where OUT is looked for.
        staging = build_staging_dir(out)
        ingest(str(dump), staging, IngestOptions(quiet=True))
        build_index(staging, quiet=True)
        publish(staging, out, keep_previous=False)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def run_property(name: str, strategy, check, examples: int, seed: int | None) -> tuple[int, int]:
    """check(drawn value) `examples` times under hypothesis; returns (cases run, cases failed)."""
    from hypothesis import HealthCheck, given, seed as fixed_seed, settings

    ran = [0]

    def case(value) -> None:
        ran[0] += 1
        check(value)

    prop = settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))(given(strategy)(case))
    if seed is not None:
        prop = fixed_seed(seed)(prop)
    started = time.time()
    failed = 0
    try:
        prop()
    except Exception:  # noqa: BLE001 - hypothesis re-raises the minimal failing case: report it
        failed = 1
        traceback.print_exc()
    print(f"{name}: {ran[0]:,} cases ran in {time.time() - started:.0f} s, {failed} failed", flush=True)
    return ran[0], failed
