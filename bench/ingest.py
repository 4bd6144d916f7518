"""Ingest speed and memory on a large real-shaped dump, against a bare decompress+parse baseline.

    python bench/ingest.py [--entities 200000] [--workers 2] [--variants gz,bz2] [--repeat 1]

1. Builds a dump of >= --entities entities by replicating the real entities of
   ../shared/data/wikidata-sample.json.bz2 and wikidata-wd50k.json.bz2 under new ids (entity id,
   statement ids and their subject prefix rewritten consistently; copy k adds k * 10^9 to the
   number), compressed with pigz/gzip -1 and lbzip2/bzip2 -9 when installed, else Python.
2. For each variant runs, in the same session and alternating, (a) the baseline: the same
   decompressor kgcheck uses (ingest.dump.DumpReader: rapidgzip / indexed_bzip2, same thread
   count) cutting the same line-aligned chunks, with `orjson.loads` of every line in the same
   number of worker processes and nothing else; (b) `kgcheck ingest` as a subprocess.
3. Prints wall time, entities/s, MB/s (decompressed and compressed), the peak RSS of the whole
   process tree (psutil, children sampled every 0.1 s; RSS summed, so pages shared after fork
   count twice: an upper bound), the kgcheck/baseline ratio, and a core-hour extrapolation for
   the full Wikidata dump.
No assertion: these are figures to read. Targets: ratio <= 2.0, peak RSS <= 2 GB.
"""
from __future__ import annotations

import argparse
import bz2
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHARED = REPO.parent / "shared" / "data"
SOURCES = ("wikidata-sample.json.bz2", "wikidata-wd50k.json.bz2")
ID_STEP = 10**9
# The full dump, for the extrapolation: entity count from the issue; bytes are an assumption
# (the 2025 latest-all.json is ~1.6-1.9 TB decompressed, ~140 GB as .gz, ~95 GB as .bz2).
REAL_ENTITIES = 117_000_000
REAL_BYTES = 1.7e12


# -- building the dump -------------------------------------------------------------------------

def real_entities(sources=SOURCES) -> list[dict]:
    out = []
    for name in sources:
        path = SHARED / name
        if not path.is_file():
            sys.exit(f"bench: {path} is missing (../shared/data must be beside the repo)")
        with bz2.open(path, "rb") as fh:
            for line in fh:
                line = line.strip().rstrip(b",")
                if line not in (b"", b"[", b"]"):
                    out.append(orjson.loads(line))
    return out


def renamed(entity: dict, copy: int) -> bytes:
    """The entity under id <letter><n + copy*10^9>, statement ids re-prefixed to match."""
    if copy == 0:
        return orjson.dumps(entity)
    old = entity["id"]
    new = f"{old[0]}{int(old[1:]) + copy * ID_STEP}"
    e = dict(entity, id=new)
    claims = {}
    for prop, statements in (entity.get("claims") or {}).items():
        claims[prop] = [dict(st, id=new + "$" + st["id"].split("$", 1)[1]) if "$" in st.get("id", "") else st
                        for st in statements]
    e["claims"] = claims
    return orjson.dumps(e)


def _compressor(kind: str) -> list[str] | None:
    tools = {"gz": (["pigz", "-1"], ["gzip", "-1"]), "bz2": (["lbzip2", "-9"], ["bzip2", "-9"])}[kind]
    for cmd in tools:
        if shutil.which(cmd[0]):
            return cmd + ["-c"]
    return None


def build_dump(directory: Path, target: int, variants: list[str], sources=SOURCES) -> dict:
    meta = directory / "bench.json.info"
    if meta.is_file():  # --dir reuse: the same dump as last time
        info = json.loads(meta.read_text())
        files = {k: directory / v for k, v in info["files"].items()}
        if info["target"] == target and info.get("sources", list(SOURCES)) == list(sources) and \
                all(k in files and files[k].is_file() for k in variants):
            return dict(info, files=files)
    entities = real_entities(sources)
    copies = -(-target // len(entities))
    plain = directory / "bench.json"
    n = 0
    with open(plain, "wb") as fh:
        fh.write(b"[\n")
        for copy in range(copies):
            for e in entities:
                fh.write((b",\n" if n else b"") + renamed(e, copy))
                n += 1
        fh.write(b"\n]\n")
    files = {"none": plain}
    for kind in variants:
        if kind == "none":
            continue
        path = directory / f"bench.json.{kind}"
        cmd = _compressor(kind)
        with open(plain, "rb") as src, open(path, "wb") as dst:
            if cmd:
                subprocess.run(cmd, stdin=src, stdout=dst, check=True)
            else:  # no tool installed: Python, slower
                import gzip

                writer = gzip.GzipFile(fileobj=dst, mode="wb", compresslevel=1) if kind == "gz" else \
                    bz2.BZ2File(dst, "wb", compresslevel=9)
                with writer:
                    shutil.copyfileobj(src, writer, 8 << 20)
        files[kind] = path
    info = {"entities": n, "unique": len(entities), "copies": copies, "target": target, "sources": list(sources),
            "decompressed_bytes": plain.stat().st_size}
    meta.write_text(json.dumps(dict(info, files={k: p.name for k, p in files.items()})))
    return dict(info, files=files)


# -- the baseline --------------------------------------------------------------------------------

def _parse_worker(tasks, results) -> None:
    n = 0
    while (chunk := tasks.get()) is not None:
        for line in chunk.split(b"\n"):
            line = line.strip()
            if line.endswith(b","):
                line = line[:-1]
            if line and line not in (b"[", b"]"):
                orjson.loads(line)
                n += 1
    results.put(n)


def baseline(path: str, workers: int) -> None:
    """Decompress with kgcheck's own reader (same decoder, same threads), orjson.loads every line in N processes."""
    from kgcheck.ingest.dump import DumpReader

    ctx = mp.get_context("fork")
    tasks, results = ctx.Queue(maxsize=2 * workers), ctx.Queue()
    procs = [ctx.Process(target=_parse_worker, args=(tasks, results)) for _ in range(workers)]
    for p in procs:
        p.start()
    with DumpReader(path, threads=workers) as reader:
        for chunk in reader.chunks():
            tasks.put(chunk.data)
    for _ in procs:
        tasks.put(None)
    n = sum(results.get() for _ in procs)
    for p in procs:
        p.join()
    print(json.dumps({"entities": n}))


# -- measuring -----------------------------------------------------------------------------------

def run_measured(cmd: list[str]) -> dict:
    """Wall time and peak summed RSS of the process tree of `cmd`."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak, stop = [0], threading.Event()

    def sample():
        root = psutil.Process(proc.pid)
        while not stop.is_set():
            try:
                tree = [root] + root.children(recursive=True)
                rss = 0
                for p in tree:
                    try:
                        rss += p.memory_info().rss
                    except psutil.Error:
                        pass
                peak[0] = max(peak[0], rss)
            except psutil.Error:
                pass
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return {"wall": wall, "peak_rss": peak[0], "stdout": out.decode()}


def measure(path: Path, workers: int, out_dir: Path) -> tuple[dict, dict]:
    base = run_measured([sys.executable, __file__, "--baseline", str(path), "--workers", str(workers)])
    kg = run_measured([sys.executable, "-m", "kgcheck.cli", "ingest", str(path), "--out", str(out_dir),
                       "--workers", str(workers), "--quiet", "--json"])
    kg["manifest"] = json.loads(kg["stdout"])
    return base, kg


def report(kind: str, path: Path, info: dict, base: dict, kg: dict, workers: int) -> dict:
    n, raw = info["entities"], info["decompressed_bytes"]
    comp = path.stat().st_size
    m = kg["manifest"]
    assert m["entities_seen"] == n, (m["entities_seen"], n)
    ratio = kg["wall"] / base["wall"]
    core_h_entities = kg["wall"] * workers / 3600 * REAL_ENTITIES / n
    core_h_bytes = kg["wall"] * workers / 3600 * REAL_BYTES / raw
    print(f"\n[{kind}] {path.name}: {comp / 1e6:,.0f} MB on disk, {raw / 1e6:,.0f} MB decompressed, {n:,} entities")
    for name, r in (("baseline", base), ("kgcheck", kg)):
        print(f"  {name:<9} {r['wall']:7.1f} s  {n / r['wall']:9,.0f} entities/s  "
              f"{raw / 1e6 / r['wall']:7.1f} MB/s decompressed  {comp / 1e6 / r['wall']:6.1f} MB/s compressed  "
              f"peak RSS {r['peak_rss'] / 2**20:6,.0f} MiB")
    stages = m.get("stage_seconds", {})
    print(f"  kgcheck stages: {stages}  rows: {m['counts']}")
    print(f"  ratio kgcheck/baseline = {ratio:.2f}  (target <= 2.0)   peak RSS {kg['peak_rss'] / 2**30:.2f} GiB "
          f"(target <= 2 GiB)")
    print(f"  full dump ({REAL_ENTITIES / 1e6:.0f}M entities) at this speed on {workers} cores: "
          f"{core_h_entities:,.1f} core-hours scaled by entities, {core_h_bytes:,.1f} scaled by bytes "
          f"(assumed {REAL_BYTES / 1e12:.1f} TB decompressed: real entities average "
          f"{REAL_BYTES / REAL_ENTITIES / 1e3:.1f} KB, these {raw / n / 1e3:.1f} KB)")
    return {"variant": kind, "ratio": round(ratio, 3), "baseline_s": round(base["wall"], 2),
            "kgcheck_s": round(kg["wall"], 2), "peak_rss_mib": round(kg["peak_rss"] / 2**20),
            "baseline_peak_rss_mib": round(base["peak_rss"] / 2**20), "entities_per_s": round(n / kg["wall"]),
            "core_hours_by_entities": round(core_h_entities, 1), "core_hours_by_bytes": round(core_h_bytes, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entities", type=int, default=200_000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--variants", default="gz,bz2")
    ap.add_argument("--repeat", type=int, default=1, help="Measure each side this many times, alternating; fastest kept.")
    ap.add_argument("--sources", default=",".join(SOURCES),
                    help="Which shared dumps to replicate (default both; wikidata-sample.json.bz2 alone is closer "
                         "to the real dump's shape: full multilingual records, ~10 KB an entity)")
    ap.add_argument("--dir", default=None, help="Where to build the dump (default: a temp dir, removed after).")
    ap.add_argument("--baseline", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.baseline:
        baseline(args.baseline, args.workers)
        return
    work = Path(args.dir or tempfile.mkdtemp(prefix="kgcheck-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    variants = [v for v in args.variants.split(",") if v]
    try:
        t = time.perf_counter()
        info = build_dump(work, args.entities, variants, tuple(args.sources.split(",")))
        print(f"built {info['entities']:,} entities ({info['unique']:,} real ones of {args.sources} x "
              f"{info['copies']}) in "
              f"{time.perf_counter() - t:.0f} s; {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f} (other work on the machine slows both sides alike)")
        print("baseline = ingest.dump.DumpReader (rapidgzip / indexed_bzip2, threads = workers, same chunks) "
              f"feeding orjson.loads of every line in {args.workers} worker processes; nothing else")
        results = []
        for kind in variants:
            runs = [measure(info["files"][kind], args.workers, work / f"index-{kind}") for _ in range(args.repeat)]
            # Fastest of each side (they alternate, so both see the same background load on average).
            base = min((r[0] for r in runs), key=lambda r: r["wall"])
            kg = min((r[1] for r in runs), key=lambda r: r["wall"])
            results.append(report(kind, info["files"][kind], info, base, kg, args.workers))
        print("\n" + json.dumps(results))
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
