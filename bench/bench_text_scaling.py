"""`python bench/text.py --scaling`: verify time against text length, for texts of 10 KB, 100 KB and 1 MB
made of the real sentences of text-factcheck-dev.jsonl (its distinct texts in file order, cut at a
sentence end), without the LLM. Each size starts with a fresh Checker and an empty query-vector cache,
smallest first; one 1 KB text is verified first to load the model. Prints wall and CPU seconds per size,
CPU seconds per 10 KB and the ratio to the 10 KB CPU time (CPU time of this process, all its threads:
on a shared machine the wall time mostly measures the neighbours) (the target: 1 MB in at most 100x the 10 KB time)."""
from __future__ import annotations

import json
import sys
import time

from common import SHARED, need_shared


def make_text(texts: list[str], size: int) -> str:
    out, total, i = [], 0, 0
    while total < size:
        t = texts[i % len(texts)]
        out.append(t)
        total += len(t) + 1
        i += 1
    text = " ".join(out)[:size]
    return text[:text.rfind(". ") + 1] or text


def scaling(index: str, sizes: list[int]) -> None:
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.text.verify import verify_text

    try:
        from kgcheck.verifier.control import Control, watching
    except ImportError:  # code from before issue 17 (a before/after comparison): no progress
        from contextlib import nullcontext as watching

        def Control(**kw):  # noqa: N802
            return None

    texts = list(dict.fromkeys(json.loads(line)["text"] for line in
                               open(need_shared(SHARED / "bench" / "text-factcheck-dev.jsonl"), encoding="utf-8")))
    kg = KG.open(index)
    verify_text(kg, make_text(texts, 1000), checker=Checker(kg))
    kg.searcher().query_vector("warm-up")  # loads the model even when no sentence above needed it
    print(f"index {index}; texts from {len(texts)} distinct dev texts; no LLM", flush=True)
    first = None
    for size in sizes:
        text = make_text(texts, size)
        kg.searcher()._vector_cache.clear()
        last = [0.0]

        def progress(stage, done, total):
            if time.monotonic() - last[0] > 10:
                last[0] = time.monotonic()
                print(f"  {len(text):,} chars: {stage} {done:,}/{total:,}", file=sys.stderr, flush=True)

        started, cpu = time.perf_counter(), time.process_time()
        with watching(Control(on_progress=progress)):
            report = verify_text(kg, text, checker=Checker(kg))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        first = first or cpu
        print(f"{len(text):>9,} chars  {len(report.sentences):>6,} sentences  {len(report.claims):>6,} claims  "
              f"wall {seconds:8.1f} s  CPU {cpu:8.1f} s  {cpu / len(text) * 10_000:6.2f} CPU s per 10 KB  "
              f"x{cpu / first:.1f} the first size's CPU time", flush=True)
