"""Index scale: real-shaped dumps of N entities (the shared dump's items replicated under new ids) built
with `kgcheck ingest` + `kgcheck index`, per stage wall time, peak RSS and disk; then claims/s and
search_entities p50/p99 on claims-dev, as ratios to the same figures on the 1x dump.

    nice python bench/scale.py --entities 1000000 [--work /work/indexes/h6-scale] [--embed none]
    nice python bench/scale.py --entities 5000000 --reindex   # keep each size's ingest, redo the index stage

--reindex reuses an earlier run's ingested directory (the dump may be gone): only `kgcheck index` is run
and timed again, then the queries; the ingest figures are then the earlier run's (not re-measured).
--queries-only reuses the built indexes as they are and measures the queries alone.

Replica k > 0 of item Qn is Q(n + k*10^9), every item reference and statement id shifted alike, and its
labels, aliases and descriptions prefixed "r<k> " (so claims-dev, about replica 0, keeps its namesakes
and no more). Properties are kept once. Only en/mul texts are kept (the ingest keeps no others).
"""
from __future__ import annotations

import argparse
import bz2
import json
import os
import re
import subprocess
import sys
import time

from common import ROOT, SHARED, need_shared, percentile

OFFSET = 10 ** 9
_QID = re.compile(r'"Q(\d+)')
_NUMERIC = re.compile(r'("entity-type":"item","numeric-id":)(\d+)')
_TEXT = re.compile(r'("language":"[a-z-]+","value":")')


def _strip(entity: dict) -> dict:
    for key in ("labels", "descriptions", "aliases"):
        entity[key] = {k: v for k, v in entity.get(key, {}).items() if k in ("en", "mul")}
    return entity


def make_dump(source: str, target: str, entities: int) -> int:
    """Write a plain JSON dump of about `entities` entities; returns how many."""
    items, props = [], []
    with bz2.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip().rstrip(",")
            if line.startswith("{"):
                entity = _strip(json.loads(line))
                (props if entity.get("type") == "property" else items).append(
                    json.dumps(entity, ensure_ascii=False, separators=(",", ":")))
    replicas = max(1, -(-(entities - len(props)) // len(items)))
    n = 0
    tmp = target + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write("[\n")
        first = True
        for line in props:
            out.write(("" if first else ",\n") + line)
            first, n = False, n + 1
        for k in range(replicas):
            off, prefix = k * OFFSET, f"r{k} "
            for line in items:
                if k:
                    line = _QID.sub(lambda m: f'"Q{int(m.group(1)) + off}', line)
                    line = _NUMERIC.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + off}", line)
                    line = _TEXT.sub(lambda m: m.group(1) + prefix, line)
                out.write(",\n" + line)
                n += 1
        out.write("\n]\n")
    os.replace(tmp, target)
    return n


def timed(cmd: list[str]) -> dict:
    """Wall seconds and peak RSS (GNU time) of one CLI stage in its own process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT.parent), HF_HUB_OFFLINE="1")
    t = time.monotonic()
    res = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t
    if res.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{res.stderr[-3000:]}")
    return {"wall_s": round(wall, 1), "peak_rss_mb": round(int(res.stderr.strip().splitlines()[-1]) / 1024)}


def disk(directory: str) -> dict:
    sizes = {}
    for root, _dirs, files in os.walk(directory):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), directory)
            sizes[rel] = os.path.getsize(os.path.join(root, f))
    vectors = sum(v for k, v in sizes.items() if k.startswith("vectors"))
    return {"total_mb": round(sum(sizes.values()) / 2**20, 1), "vectors_mb": round(vectors / 2**20, 1),
            "files_mb": {k: round(v / 2**20, 2) for k, v in sorted(sizes.items())}}


def query_figures(index: str, claims: list[dict], work: str) -> dict:
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.evaluate import evaluate

    path = os.path.join(work, "claims.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(c) + "\n" for c in claims)
    with KG.open(index) as kg:
        for c in claims[:50]:  # warm-up: model, caches, file handles
            kg.search_entities(c["subject"], 5)
        lat = []
        for c in claims:
            t = time.perf_counter()
            kg.search_entities(c["subject"], 5)
            lat.append(time.perf_counter() - t)
        report, _ = evaluate(kg, path)
    return {"claims": report["claims"], "claims_per_s": round(report["claims_per_second"], 1),
            "accuracy": report["accuracy"], "subject_linking": report["subject_linking"],
            "search_p50_ms": round(percentile(lat, .5) * 1e3, 2), "search_p99_ms": round(percentile(lat, .99) * 1e3, 2)}


def run(size: int, args, claims: list[dict]) -> dict:
    work = os.path.join(args.work, f"n{size}")
    os.makedirs(work, exist_ok=True)
    dump, index = os.path.join(work, "dump.json"), os.path.join(work, "index")
    cli = [sys.executable, "-m", "kgcheck.cli"]
    if (args.reindex or args.queries_only) and os.path.isfile(os.path.join(index, "manifest.json")):
        out = {"reindexed": True, "ingest": "not re-run (--reindex): see the earlier run"}
    else:
        t = time.monotonic()
        n = make_dump(args.dump, dump, size) if not os.path.isfile(dump) else None
        out = {"entities": n, "dump_mb": round(os.path.getsize(dump) / 2**20, 1),
               "make_dump_s": round(time.monotonic() - t, 1)}
        if os.path.isdir(index):
            import shutil

            shutil.rmtree(index)
        out["ingest"] = timed(cli + ["ingest", dump, "--out", index, "--quiet"])
    if args.queries_only:
        out["index"] = {"wall_s": None, "note": "not re-run (--queries-only)"}
    else:
        out["index"] = timed(cli + ["index", index, "--quiet", "--embed", args.embed, "--memory", args.memory])
    with open(os.path.join(index, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    out["entities"] = manifest["counts"]["entities"]
    out["statements"] = manifest["counts"]["statements"]
    out["index"]["stages_s"] = manifest["index"]["stage_seconds"]
    out["disk"] = disk(index)
    out["queries"] = query_figures(index, claims, work)
    if not args.keep_dump and os.path.isfile(dump):
        os.remove(dump)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entities", type=int, nargs="+", default=[1_000_000])
    ap.add_argument("--dump", default=str(SHARED / "data" / "wikidata-wd50k-openworld-dev.json.bz2"))
    ap.add_argument("--work", default="/work/indexes/h6-scale")
    ap.add_argument("--embed", default="none", choices=["none", "labels", "aliases"])
    ap.add_argument("--memory", default="2GB")
    ap.add_argument("--claims", type=int, default=2000)
    ap.add_argument("--keep-dump", action="store_true")
    ap.add_argument("--reindex", action="store_true", help="reuse each size's ingested directory; time the index stage")
    ap.add_argument("--queries-only", action="store_true", help="reuse each size's index; time the queries only")
    args = ap.parse_args()
    need_shared(args.dump if isinstance(args.dump, type(SHARED)) else SHARED / "bench")
    with open(SHARED / "bench" / "claims-dev.jsonl", encoding="utf-8") as fh:
        claims = [json.loads(line) for line in fh][: args.claims]
    results = {"1x": run(1, args, claims)}
    print(json.dumps({"1x": results["1x"]}), flush=True)
    base = results["1x"]
    for size in args.entities:
        r = run(size, args, claims)
        q, bq = r["queries"], base["queries"]
        r["ratios_to_1x"] = {
            "claims_per_s": round(q["claims_per_s"] / bq["claims_per_s"], 3),
            "search_p50": round(q["search_p50_ms"] / bq["search_p50_ms"], 3),
            "search_p99": round(q["search_p99_ms"] / bq["search_p99_ms"], 3),
            "index_over_ingest_wall": round(r["index"]["wall_s"] / r["ingest"]["wall_s"], 3)
            if isinstance(r["ingest"], dict) and r["index"]["wall_s"] else None,
        }
        results[str(size)] = r
        print(json.dumps({str(size): r}), flush=True)


if __name__ == "__main__":
    main()
