"""A longer fuzzing campaign than the test suite's bounded runs (issue 17).

    PYTHONPATH=<parent of the repo> python bench/fuzz.py [--section dump] [--examples 2000] [--seed N]

Each section runs one hypothesis property many times and prints how many cases ran and how many
failed (a failure prints hypothesis' minimal failing case and the exit status is 1). Sections:
  dump   mutated value snaks of every datatype in dump lines, through both row builders and the
         readers (tests/fuzz_dump.py: check_dump_lines)
Other sections (claim lines, HTTP bodies) plug in as functions of the same shape: SECTIONS below.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import run_property

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the shared strategies live beside the tests that use them


def fuzz_dump(examples: int, seed: int | None) -> tuple[int, int]:
    from fuzz_dump import check_dump_lines, dump_chunks

    from kgcheck.ingest import convert

    builders = "rows.py and the C builder" if convert.native_available() else "rows.py only (C builder not built)"
    print(f"dump: mutated value snaks of every datatype, {builders}", flush=True)
    return run_property("dump", dump_chunks, check_dump_lines, examples, seed)


SECTIONS = {"dump": fuzz_dump}


def _claim_sections() -> dict:
    """bench/fuzz_claims.py's sections (claim lines, HTTP bodies), loaded by path: its name is also that of
    tests/fuzz_claims.py, the strategies it imports."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_fuzz_claims", Path(__file__).with_name("fuzz_claims.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SECTIONS


SECTIONS.update(_claim_sections())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--section", action="append", choices=sorted(SECTIONS),
                        help="run only this section (repeatable); default: all")
    parser.add_argument("--examples", type=int, default=2000, help="cases per section")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    total_ran = total_failed = 0
    for name in args.section or sorted(SECTIONS):
        ran, failed = SECTIONS[name](args.examples, args.seed)
        total_ran += ran
        total_failed += failed
    print(f"total: {total_ran:,} cases ran, {total_failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
