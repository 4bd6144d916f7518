"""Bulk claim checking speed and accuracy, against a faithful per-claim GPToLODS Alg. 1 baseline.

    python bench/check.py [--index /tmp/kg-wd50k] [--baseline-claims 200]

Prints claims/s of kgcheck's set-based checker on claims-dev (after the model is loaded,
and including start-up), the accuracy figures, and the claims/s of GPToLODS Alg. 1 run on
the same claims in the same process: per claim, gather candidates by rules A/B/C, encode
the claim and every candidate statement with MiniLM, rank by cosine.
"""
from __future__ import annotations

import argparse
import json
import time

from common import SHARED, ensure_index, need_shared, percentile


def gptolods_alg1(kg, embedder, claims, k=3):
    """Faithful per-claim baseline: no batching across claims, every candidate encoded per claim."""
    from kgcheck.index.render import plain_value, statement_entity_ids

    for claim in claims:
        cands = kg.search_entities(claim.subject, 1)
        if not cands:
            continue
        subject = cands[0].id
        statements = kg.statements(subject, details=False) + kg.statements_about(subject, details=False)
        labels = kg.labels(statement_entity_ids(statements) | {subject})
        fact = f"{claim.subject} {claim.predicate} {claim.object}"
        texts = [f"{labels.get(s.subject, s.subject)} {labels.get(s.property, s.property)} "
                 f"{plain_value(s.value, labels)}" for s in statements]
        vectors = embedder.encode([fact] + texts)
        scores = vectors[1:] @ vectors[0]
        sorted(zip(scores, texts), reverse=True)[:k]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/tmp/kg-wd50k")
    ap.add_argument("--baseline-claims", type=int, default=200)
    args = ap.parse_args()
    dev = need_shared(SHARED / "bench" / "claims-dev.jsonl")
    ensure_index(need_shared(SHARED / "data" / "wikidata-wd50k.json.bz2"), args.index)

    from kgcheck.index.embed import get_embedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.evaluate import evaluate, read_labelled

    t0 = time.monotonic()
    kg = KG.open(args.index)
    report, pairs = evaluate(kg, str(dev))
    cold = time.monotonic() - t0
    n = report["claims"]
    print(json.dumps({k: report[k] for k in ("claims", "accuracy", "C1", "C3", "false_support", "subject_linking",
                                             "by_kind")}, indent=1))
    from openworld import print_reliability

    print_reliability("claims-dev", pairs)
    print(f"kgcheck set-based: {report['claims_per_second']:,.0f} claims/s warm "
          f"({n / cold:,.0f} claims/s including index open and model load, {cold:.1f} s)")

    if args.baseline_claims < 1:
        return  # no baseline asked for: the figures above are the whole report
    rows = read_labelled(str(dev))
    sample = [c for c, _ in rows[:: max(1, len(rows) // args.baseline_claims)]][: args.baseline_claims]
    embedder = get_embedder()
    latencies = []
    t0 = time.monotonic()
    for claim in sample:
        t = time.monotonic()
        gptolods_alg1(kg, embedder, [claim])
        latencies.append(time.monotonic() - t)
    base = len(sample) / (time.monotonic() - t0)
    print(f"GPToLODS Alg. 1 per claim: {base:,.1f} claims/s on {len(sample)} claims "
          f"(p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms)")
    print(f"speed-up: {report['claims_per_second'] / base:,.0f}x (target >= 20x); "
          f"target >= 2,000 claims/s: {'met' if report['claims_per_second'] >= 2000 else 'NOT met'}")


if __name__ == "__main__":
    main()
