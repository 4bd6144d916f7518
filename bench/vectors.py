"""Recall of the compressed FAISS types against the exact (flat) index, on an index's own entity vectors
and real queries (claim subjects of claims-dev encoded with MiniLM).

    python bench/vectors.py --index /work/indexes/wd50k-ow [--queries 1000]
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from common import SHARED, need_shared


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", required=True)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("-k", type=int, default=10)
    args = ap.parse_args()

    import faiss

    from kgcheck.index.embed import get_embedder
    from kgcheck.index.vectors import TRAIN_MAX, empty_index, nlist_for

    vec_dir = os.path.join(args.index, "vectors")
    name = next(n for n in ("entities-000.faiss", "entities.faiss") if os.path.isfile(os.path.join(vec_dir, n)))
    flat = faiss.read_index(os.path.join(vec_dir, name))
    base = flat.reconstruct_n(0, flat.ntotal)
    rows = [json.loads(line) for line in open(need_shared(SHARED / "bench" / "claims-dev.jsonl"))]
    queries = get_embedder().encode(sorted({r["subject"] for r in rows})[: args.queries])
    truth = flat.search(queries, args.k)[1]
    n = len(base)
    rng = np.random.default_rng(0)
    sample = base[rng.choice(n, size=min(n, max(nlist_for(n) * 39, min(TRAIN_MAX, n))), replace=False)]
    print(f"{n:,} vectors, {len(queries):,} queries, recall@{args.k} against flat (nlist {nlist_for(n)}, nprobe 16)")
    for kind in ("ivfsq8", "ivfpq", "hnsw"):
        index = empty_index(kind, base.shape[1], n, sample)
        index.add(base)
        t = time.perf_counter()
        found = index.search(queries, args.k)[1]
        ms = (time.perf_counter() - t) / len(queries) * 1e3
        recall = np.mean([len(set(a) & set(b)) / args.k for a, b in zip(found, truth)])
        size = len(faiss.serialize_index(index))
        print(f"{kind:>7}: recall@{args.k} {recall:.4f}, top-1 agreement {np.mean(found[:, 0] == truth[:, 0]):.4f}, "
              f"{size / n:,.0f} bytes/vector (flat {base.shape[1] * 4}), {ms:.2f} ms/query")


if __name__ == "__main__":
    main()
