"""MiniLM vs the static encoder distilled from it (`--embedder minilm-static`): speed, and linking by vectors alone.

    python bench/encoders.py --index /work/indexes/m-ow4 [--names 2000] [--seed 7]

Item labels and aliases (en/mul) of an index's tables go into one flat FAISS index per encoder; the queries are
claims-dev subject names, as written and with one typo (a character deleted, swapped with the next or inserted),
and a query is right when the top-1 / top-5 distinct entities include its gold subject. Encoding speed: 5,000 of
those labels, after a warm-up, one process.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from common import SHARED, need_shared


def typo(name: str, rng: random.Random) -> str:
    i = rng.randrange(len(name))
    op = rng.choice("dsi")
    if op == "d":
        return name[:i] + name[i + 1:]
    if op == "s" and i < len(name) - 1:
        return name[:i] + name[i + 1] + name[i] + name[i + 2:]
    return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + name[i:]


def linking(encode, texts: list[str], ids: list[str], queries: list[str], gold: list[str]) -> tuple[float, float]:
    import faiss

    index = faiss.IndexFlatIP(encode(texts[:1]).shape[1])
    index.add(encode(texts))
    _, rows = index.search(encode(queries), 20)
    top1 = top5 = 0
    for row, want in zip(rows, gold):
        found = list(dict.fromkeys(ids[r] for r in row if r >= 0))
        top1 += found[:1] == [want]
        top5 += want in found[:5]
    return top1 / len(queries), top5 / len(queries)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/work/indexes/m-ow4", help="an index (or ingested directory) of wd50k")
    ap.add_argument("--names", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    import duckdb

    from kgcheck.index.embed import MiniLMEmbedder
    from kgcheck.index.static import StaticMiniLMEmbedder

    rows = duckdb.connect().execute(
        f"SELECT l.id, l.text FROM '{args.index}/labels.parquet' l JOIN '{args.index}/entities.parquet' e "
        "ON e.id = l.id WHERE e.type = 'item' AND l.language IN ('en', 'mul') AND l.kind IN ('label', 'alias')"
    ).fetchall()
    ids, texts = [r[0] for r in rows], [r[1] for r in rows]
    rng = random.Random(args.seed)
    subjects = {}
    for line in open(need_shared(SHARED / "bench" / "claims-dev.jsonl"), encoding="utf-8"):
        c = json.loads(line)
        if c.get("subject_id") and len(c["subject"]) > 4:
            subjects[c["subject"]] = c["subject_id"]
    pairs = sorted(subjects.items())
    rng.shuffle(pairs)
    pairs = pairs[:args.names]
    encoders = {"MiniLM": MiniLMEmbedder(), "static": StaticMiniLMEmbedder()}
    sample = texts[:5000]
    speed = {}
    for name, enc in encoders.items():
        enc.encode(sample[:100])
        t = time.perf_counter()
        enc.encode(sample)
        speed[name] = len(sample) / (time.perf_counter() - t)
    print(f"{len(texts):,} label/alias texts; encoding {len(sample):,}: " +
          ", ".join(f"{n} {s:,.0f}/s" for n, s in speed.items()) + f" ({speed['static'] / speed['MiniLM']:.0f}x)")
    for variant, make in (("exact", lambda s: s), ("one typo", lambda s: typo(s, rng))):
        queries = [make(s) for s, _ in pairs]
        for name, enc in encoders.items():
            top1, top5 = linking(enc.encode, texts, ids, queries, [g for _, g in pairs])
            print(f"{variant:9s} {name:7s} top-1 {top1:.3f} top-5 {top5:.3f} "
                  f"({len(queries):,} claims-dev subject names)")


if __name__ == "__main__":
    main()
