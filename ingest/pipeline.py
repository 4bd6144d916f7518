"""`ingest(dump, out)`: stream a dump through worker processes into a published index directory."""
from __future__ import annotations

import multiprocessing as mp
import os
import queue
import shutil
import sys
import time
from dataclasses import dataclass

import orjson

from . import __version__
from .convert import ChunkStats, PartWriter, convert_chunk
from .dump import Chunk, DumpError, DumpReader
from .writer import ERRORS, MANIFEST, SCHEMA_VERSION, assemble_tables, publish, staging_dir, write_json


class IngestError(Exception):
    """The ingest could not complete; nothing was published."""


@dataclass(frozen=True)
class IngestOptions:
    workers: int = 0  # 0 = all cores
    limit: int | None = None  # stop after about this many entities (smoke runs)
    languages: tuple[str, ...] = ("en",)
    quiet: bool = False
    keep_previous: bool = False
    memory_limit: str = "1GB"

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1


def _worker_main(tasks, results, parts_dir: str, worker: int, languages: tuple[str, ...]) -> None:
    writer = PartWriter(parts_dir, worker)
    total = ChunkStats()
    try:
        while (chunk := tasks.get()) is not None:
            stats = convert_chunk(chunk, languages, writer)
            results.put(("progress", stats.entities, None))
            total.merge(stats)
        writer.flush()
        results.put(("done", worker, total))
    except BaseException as exc:  # reported to the parent, which aborts the build
        results.put(("failed", worker, f"{type(exc).__name__}: {exc}"))


class _Progress:
    def __init__(self, total_bytes: int | None, quiet: bool):
        self.bar = None
        self.entities = 0
        self.start = time.monotonic()
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total_bytes, unit="B", unit_scale=True, desc="ingest", file=sys.stderr)

    def update(self, bytes_done: int, entities: int) -> None:
        self.entities += entities
        if self.bar is not None:
            self.bar.n = bytes_done
            rate = self.entities / max(1e-9, time.monotonic() - self.start)
            self.bar.set_postfix_str(f"{self.entities:,} entities, {rate:,.0f}/s", refresh=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _run_workers(reader: DumpReader, parts_dir: str, opts: IngestOptions) -> ChunkStats:
    n = opts.worker_count()
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    tasks = ctx.Queue(maxsize=2 * n)  # back-pressure: bounded chunks in flight
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_worker_main, args=(tasks, results, parts_dir, i, opts.languages), daemon=True)
        for i in range(n)
    ]
    for p in procs:
        p.start()
    progress = _Progress(reader.size, opts.quiet)
    total = ChunkStats()
    done = 0
    try:
        approx_entities = 0
        budget = opts.limit
        for chunk in reader.chunks():
            if budget is not None:
                chunk, budget = _clip(chunk, budget)
                if chunk is None:
                    break
            while True:
                try:
                    tasks.put(chunk, timeout=0.5)
                    break
                except queue.Full:
                    approx_entities += _drain(results, total, progress, reader)
            approx_entities += _drain(results, total, progress, reader)
        for _ in procs:
            tasks.put(None)
        while done < n:
            kind, a, b = results.get()
            if kind == "done":
                total.merge(b)
                done += 1
            elif kind == "failed":
                raise IngestError(f"worker {a} failed: {b}")
            else:
                progress.update(reader.compressed_bytes_read, a)
        for p in procs:
            p.join()
    finally:
        progress.close()
        for p in procs:
            if p.is_alive():
                p.terminate()
    return total


def _clip(chunk: Chunk, budget: int) -> tuple[Chunk | None, int]:
    """Keep at most `budget` entity lines of the chunk (--limit)."""
    if budget <= 0:
        return None, 0
    lines = chunk.data.split(b"\n")
    kept, used = [], 0
    for line in lines:
        stripped = line.strip()
        is_entity = stripped not in (b"", b"[", b"]", b"[,")
        if is_entity and used >= budget:
            break
        kept.append(line)
        used += is_entity
    data = b"\n".join(kept)
    if len(kept) < len(lines) and not data.endswith(b"\n"):
        data += b"\n"
    return Chunk(data, chunk.first_line, chunk.offset), budget - used


def _drain(results, total: ChunkStats, progress: _Progress, reader: DumpReader) -> int:
    seen = 0
    while True:
        try:
            kind, a, b = results.get_nowait()
        except queue.Empty:
            return seen
        if kind == "failed":
            raise IngestError(f"worker {a} failed: {b}")
        if kind == "progress":
            seen += a
            progress.update(reader.compressed_bytes_read, a)


def ingest(dump: str, out_dir: str, opts: IngestOptions = IngestOptions()) -> dict:
    """Build OUT from DUMP; returns the manifest. Raises IngestError/DumpError, publishing nothing."""
    started = time.time()
    build_dir = staging_dir(out_dir)
    parts_dir = os.path.join(build_dir, "parts")
    os.makedirs(parts_dir)
    try:
        with DumpReader(dump, threads=opts.worker_count()) as reader:
            stats = _run_workers(reader, parts_dir, opts)
            source_hash = reader.sha256() if dump != "-" else reader.sha256()
            compressed = reader.compressed_bytes_read
        if stats.entities == 0 and not stats.errors:
            raise IngestError(f"{dump} holds no entities: is it a Wikidata JSON dump?")
        counts = assemble_tables(build_dir, parts_dir, opts.worker_count(), opts.memory_limit)
        shutil.rmtree(parts_dir)
        with open(os.path.join(build_dir, ERRORS), "wb") as fh:
            for err in stats.errors:
                fh.write(orjson.dumps(err) + b"\n")
        manifest = _manifest(dump, reader, source_hash, compressed, stats, counts, opts, started)
        write_json(os.path.join(build_dir, MANIFEST), manifest)
        publish(build_dir, out_dir, opts.keep_previous)
        return manifest
    except DumpError as exc:
        raise IngestError(str(exc)) from exc
    finally:
        # Anything still at build_dir was not published (failure, Ctrl-C): remove it.
        shutil.rmtree(build_dir, ignore_errors=True)


def _manifest(dump, reader, source_hash, compressed, stats, counts, opts, started) -> dict:
    reasons: dict[str, int] = {}
    for err in stats.errors:
        key = err["reason"].split(":", 1)[0]
        reasons[key] = reasons.get(key, 0) + 1
    return {
        "kind": "kgcheck-index",
        "schema_version": SCHEMA_VERSION,
        "kgcheck_version": __version__,
        "source": {
            "path": os.path.abspath(dump) if dump != "-" else "-",
            "size_bytes": reader.size if reader.size is not None else compressed,
            "sha256": source_hash,
            "compression": reader.compression,
            "dump_date": reader.dump_date(),
            "latest_modified": stats.max_modified,
            "complete_array": stats.saw_open and stats.saw_close,
        },
        "languages": list(opts.languages) + ["mul"],
        "counts": counts,
        "entities_seen": stats.entities,
        "statements_seen": stats.statements,
        "skipped_entities": dict(stats.skipped),
        "bad_lines": {"total": len(stats.errors), "by_reason": reasons},
        "limit": opts.limit,
        "workers": opts.worker_count(),
        "wall_seconds": round(time.time() - started, 3),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
