"""Probe the local LLM extractor on Text2KGBench sentences: latency and entity recall.

    python bench/llm_probe.py [--n 50] [--model path.gguf] [--max-triples 3] [--threads N]

Prints per-sentence latency p50/p99 and how often both gold labels
(sub_label, obj_label) appear among the extracted subject/object strings:
"exact" = equal after normalisation, "loose" = one contains the other as a phrase.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kgcheck.verifier.llm.backends import LLM, LlamaCppLLM, default_model_path  # noqa: E402
from kgcheck.verifier.llm.extract import extract_triples_per_sentence, surface_words  # noqa: E402

DEFAULT_DATA = (Path(__file__).resolve().parents[2] / "shared" / "bench"
                / "text2kgbench-validation" / "ont_1_movie_validation.jsonl")


class TimedLLM(LLM):
    """Wraps a backend and records the wall time of every call."""

    def __init__(self, inner: LLM):
        self.inner, self.seconds = inner, []

    def complete_json(self, system, user, schema, max_tokens):
        started = time.perf_counter()
        try:
            return self.inner.complete_json(system, user, schema, max_tokens)
        finally:
            self.seconds.append(time.perf_counter() - started)


def _phrase_in(small: str, big: str) -> bool:
    return bool(small) and f" {small} " in f" {big} "


def _found(gold: str, extracted: set[str], loose: bool) -> bool:
    gold = surface_words(gold)
    if gold in extracted:
        return True
    return loose and any(_phrase_in(gold, e) or _phrase_in(e, gold) for e in extracted if e)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--model", default=None)
    parser.add_argument("--max-triples", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads")
    parser.add_argument("--show", action="store_true", help="print each sentence's triples")
    args = parser.parse_args()

    rows = [json.loads(line) for line in args.data.open(encoding="utf-8")][:args.n]
    started = time.perf_counter()
    llm = TimedLLM(LlamaCppLLM(args.model or default_model_path(), n_threads=args.threads))
    load_seconds = time.perf_counter() - started
    # Warm-up call: the first generation also evaluates the shared prompt prefix.
    extract_triples_per_sentence(llm, ["Warm-up sentence about Paris."], args.max_triples)
    llm.seconds.clear()

    results = extract_triples_per_sentence(llm, [row["sent"] for row in rows], args.max_triples)
    exact = loose = 0
    for row, triples in zip(rows, results):
        extracted = {surface_words(part) for t in triples for part in (t.subject, t.object)}
        exact += _found(row["sub_label"], extracted, False) and _found(row["obj_label"], extracted, False)
        loose += _found(row["sub_label"], extracted, True) and _found(row["obj_label"], extracted, True)
        if args.show:
            print(f"- {row['sent'][:100]}\n  gold: {row['sub_label']} | {row['obj_label']}")
            for t in triples:
                print(f"    {t.subject} | {t.predicate} | {t.object} {list(t.qualifiers) or ''}")

    n = len(rows)
    print(f"{args.data.name}: threads {llm.inner.n_threads}; model load {load_seconds:.2f}s; sentences {n}; triples {sum(map(len, results))} "
          f"(empty results {sum(not r for r in results)})")
    print(f"latency per sentence: p50 {statistics.median(llm.seconds):.2f}s "
          f"p99 {_percentile(llm.seconds, 0.99):.2f}s max {max(llm.seconds):.2f}s")
    print(f"gold subject+object both among extracted subjects/objects: "
          f"exact {exact}/{n} ({exact / n:.0%}), loose {loose}/{n} ({loose / n:.0%})")


if __name__ == "__main__":
    main()
