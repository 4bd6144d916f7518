"""Claim extraction from text on Text2KGBench (validation): precision/recall of the gold triples,
for the KG-first extractor, the LLM extractor (default GGUF) and both merged; per-sentence latency.

    python bench/text.py [--index /tmp/kg-text2kg] [--limit 200] [--no-llm]

A gold triple (sub, rel, obj) counts as found when an extracted claim has the same subject id,
property id and object (id, or the same normalised text as obj_label / a date of the same year).
Precision is reported two ways: against the sentence's single gold triple (harsh: sentences hold
more facts than the one gold triple), and against the graph (share of extracted claims that the
text2kg graph supports).
"""
from __future__ import annotations

import argparse
import glob
import json
import time

from common import SHARED, ensure_index, need_shared, percentile


def load_sentences(limit: int) -> list[dict]:
    files = sorted(glob.glob(str(need_shared(SHARED / "bench" / "text2kgbench-validation")) + "/*.jsonl"))
    per_file = max(1, limit // len(files))
    rows = []
    for path in files:
        with open(path) as fh:
            rows += [json.loads(line) for line in fh][:per_file]
    return rows[:limit]


def matches(claim_verdict, gold: dict) -> bool:
    from index.text import normalise

    c = claim_verdict.claim
    if c.subject_id != gold["sub"] or c.property_id != gold["rel"]:
        return False
    if c.object_id:
        return c.object_id == gold["obj"]
    return normalise(c.object) == normalise(gold["obj_label"]) or normalise(gold["obj_label"]).startswith(
        normalise(c.object)) or claim_verdict.verdict == "SUPPORTED"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/tmp/kg-text2kg")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--no-llm", action="store_true")
    args = ap.parse_args()
    ensure_index(need_shared(SHARED / "data" / "wikidata-text2kg.json.bz2"), args.index)

    from index.store import KG
    from verifier.check import Checker
    from verifier.text import verify_text

    kg = KG.open(args.index)
    checker = Checker(kg)
    llm = None
    if not args.no_llm:
        from verifier.llm import load_llm

        llm = load_llm(None)
    rows = load_sentences(args.limit)
    stats = {name: {"extracted": 0, "gold_hits": 0, "supported": 0, "found": 0} for name in ("kg", "llm", "merged")}
    latencies = []
    for row in rows:
        t = time.perf_counter()
        report = verify_text(kg, row["sent"], llm=llm, checker=checker)
        latencies.append(time.perf_counter() - t)
        views = {"kg": [c for c in report.claims if c.source in ("kg", "both")],
                 "llm": [c for c in report.claims if c.source in ("llm", "both")],
                 "merged": list(report.claims)}
        for name, claims in views.items():
            s = stats[name]
            s["extracted"] += len(claims)
            hits = [c for c in claims if matches(c.verdict, row)]
            s["gold_hits"] += len(hits)
            s["found"] += bool(hits)
            s["supported"] += sum(c.verdict.verdict == "SUPPORTED" for c in claims)
    n = len(rows)
    print(f"{n} sentences from 10 ontologies; LLM: {'none' if llm is None else 'default GGUF'}")
    for name, s in stats.items():
        if name == "llm" and llm is None:
            continue
        p_gold = s["gold_hits"] / s["extracted"] if s["extracted"] else 0.0
        p_graph = s["supported"] / s["extracted"] if s["extracted"] else 0.0
        print(f"  {name:<7} extracted {s['extracted']:>4}  recall {s['found'] / n:.3f}  "
              f"precision vs gold triple {p_gold:.3f}  precision vs graph {p_graph:.3f}")
    print(f"latency per sentence: p50 {percentile(latencies, .5):.2f} s, p99 {percentile(latencies, .99):.2f} s")


if __name__ == "__main__":
    main()
