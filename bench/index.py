"""Index figures: embedding rate vs the model's own encode rate, search latency, memory, linking quality.

    python bench/index.py [--index /tmp/kg-wd50k] [--labels 5000]
"""
from __future__ import annotations

import argparse
import json
import time

from common import SHARED, ensure_index, need_shared, percentile, rss_mb


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/tmp/kg-wd50k")
    ap.add_argument("--labels", type=int, default=5000, help="labels for the embedding rate (0: skip it)")
    ap.add_argument("--queries", type=int, default=3000)
    args = ap.parse_args()
    ensure_index(need_shared(SHARED / "data" / "wikidata-wd50k.json.bz2"), args.index)

    import sqlite3
    import tempfile

    from kgcheck.index.encode import encode_with_cache
    from kgcheck.index.embed import get_embedder
    from kgcheck.index.store import KG
    from kgcheck.index.vectors import EmbeddingCache

    if args.labels:
        embedding_rate(args.index, args.labels, get_embedder(), encode_with_cache, EmbeddingCache, sqlite3, tempfile)
    index_figures(args, KG)


def embedding_rate(index, labels, embedder, encode_with_cache, EmbeddingCache, sqlite3, tempfile) -> None:
    with sqlite3.connect(f"{index}/vectors/texts.sqlite") as db:
        texts = [r[0] for r in db.execute("SELECT text FROM texts ORDER BY row LIMIT ?", [labels])]
    embedder.encode(texts[:256])  # warm-up
    t = time.monotonic()
    embedder._model.encode(texts, batch_size=256, normalize_embeddings=True, show_progress_bar=False)
    model_rate = len(texts) / (time.monotonic() - t)
    with tempfile.TemporaryDirectory() as tmp:
        cache = EmbeddingCache(f"{tmp}/cache.sqlite", embedder.name, embedder.dim)
        t = time.monotonic()
        encode_with_cache(texts, embedder.encode, cache)
        ours = len(texts) / (time.monotonic() - t)
        cache.close()
    print(f"embedding: kgcheck {ours:,.0f} labels/s, model.encode {model_rate:,.0f} labels/s on the same "
          f"{len(texts):,} labels: ratio {ours / model_rate:.2f} (target >= 0.95)")


def index_figures(args, KG) -> None:

    before = rss_mb()
    kg = KG.open(args.index)
    kg.search_entities("warm up", 5)
    print(f"memory of an open index (with the model loaded before): +{rss_mb() - before:,.0f} MB, "
          f"process RSS {rss_mb():,.0f} MB")

    rows = [json.loads(line) for line in open(need_shared(SHARED / "bench" / "claims-dev.jsonl"))]
    latencies, top1, top5 = [], 0, 0
    for row in rows[: args.queries]:
        t = time.perf_counter()
        found = kg.search_entities(row["subject"], 5)
        latencies.append(time.perf_counter() - t)
    print(f"search_entities latency over {len(latencies):,} claim subjects: p50 {percentile(latencies, .5) * 1e3:.2f} ms,"
          f" p99 {percentile(latencies, .99) * 1e3:.2f} ms (targets 5 / 50 ms)")
    bulk = kg.searcher().entities_bulk([r["subject"] for r in rows], k=5)
    for row in rows:
        ids = [c.id for c in bulk.get(row["subject"], [])]
        top1 += bool(ids) and ids[0] == row["subject_id"]
        top5 += row["subject_id"] in ids
    print(f"linking by name alone: top-1 {top1 / len(rows):.4f}, top-5 {top5 / len(rows):.4f} "
          f"over {len(rows):,} claims (target top-1 >= 0.95)")


if __name__ == "__main__":
    main()
