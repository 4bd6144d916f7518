"""`ingest(dump, out)`: stream a dump through worker processes into a published index directory.

The parent decompresses and cuts line-aligned chunks; N worker processes turn chunks
into Parquet part files; DuckDB then sorts the parts into the final tables. Everything
is built in OUT.building-<pid>-<time> and renamed into place only when complete, so a
failure, Ctrl-C or kill -9 never leaves a partial OUT (stale build dirs of dead pids are
removed by the next run).
"""
from __future__ import annotations

import gc
import glob
import multiprocessing as mp
import os
import queue
import shutil
import signal
import sys
import time
from dataclasses import dataclass

import orjson

from . import __version__
from .convert import ROW_BUDGET, ChunkStats, PartWriter, convert_chunk, native_available
from .dump import Chunk, DumpError, DumpReader, check_source, sniff_compression
from .languages import missing_languages
from .writer import (pid_alive, ERRORS, MANIFEST, MANIFEST_KIND, SCHEMA_VERSION, IngestError, assemble_tables,
                     check_publishable, merge_error_files, publish, staging_dir, write_json)

__all__ = ["IngestError", "IngestOptions", "ingest"]


@dataclass(frozen=True)
class IngestOptions:
    workers: int = 0  # 0 = all cores
    limit: int | None = None  # stop after this many entity lines (smoke runs)
    languages: tuple[str, ...] = ("en",)
    quiet: bool = False
    keep_previous: bool = False
    memory_limit: str = "1GB"  # DuckDB's budget for the final sort (it spills beyond that)
    decoder_threads: int = 0  # 0 = auto: 1 for gzip, as many as workers for bz2

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1


def _die_with_parent() -> None:
    """Linux: the kernel kills this worker when the parent dies (kill -9 included). A worker blocked
    reading a chunk the dead parent only half wrote would otherwise wait forever."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # elsewhere the getppid() check in the task loop is the fallback


def _worker_main(tasks, results, parts_dir: str, worker: int, n_workers: int, languages: tuple[str, ...],
                 parent: int, native: bool) -> None:
    _die_with_parent()
    if not pid_alive(parent):
        return
    # Ctrl-C is the parent's to handle: it stops the workers and removes the build.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Entities and rows hold no reference cycles; the collector would only rescan the row buffers.
    gc.disable()
    writer = PartWriter(parts_dir, worker, ROW_BUDGET // n_workers, languages if native else None)
    total = ChunkStats()
    try:
        with open(os.path.join(parts_dir, f"errors-{worker:03d}.jsonl"), "wb") as errors_out:
            while True:
                try:
                    chunk = tasks.get(timeout=1.0)
                except queue.Empty:
                    if not pid_alive(parent):  # the parent was killed: stop, don't linger as an orphan
                        results.cancel_join_thread()
                        return
                    continue
                if chunk is None:
                    break
                stats = convert_chunk(chunk, languages, writer)
                # In line order: merge_error_files merges the workers' files by line.
                for err in sorted(stats.errors + stats.invalid, key=lambda e: e["line"]):
                    errors_out.write(orjson.dumps(err) + b"\n")
                stats.invalid = []
                if stats.errors:
                    stats.errors = []
                    gc.collect()  # a caught exception leaves a frame/traceback cycle behind
                results.put(("progress", worker, stats.entities))
                total.merge(stats)
        writer.flush()
        results.put(("done", worker, total))
    except BaseException as exc:  # reported to the parent, which aborts the build
        results.put(("failed", worker, f"{type(exc).__name__}: {exc}"))


_THREADED_LIBRARIES = {"torch", "llama_cpp", "faiss", "sentence_transformers"}


class _Progress:
    """A byte-based bar (compressed bytes read of the file size) with entities/s; only on a terminal."""

    def __init__(self, total_bytes: int | None, quiet: bool):
        self.bar = None
        self.entities = 0
        self.start = time.monotonic()
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm

            # Some terminals (fresh ptys, containers) report a 0x0 size: tqdm would then print nothing.
            size = shutil.get_terminal_size((100, 20))
            self.bar = tqdm(total=total_bytes, unit="B", unit_scale=True, desc="ingest", file=sys.stderr,
                            ncols=size.columns or 100, nrows=size.lines or 20)

    def update(self, bytes_done: int, entities: int) -> None:
        self.entities += entities
        if self.bar is not None:
            self.bar.n = bytes_done
            rate = self.entities / max(1e-9, time.monotonic() - self.start)
            self.bar.set_postfix_str(f"{self.entities:,} entities, {rate:,.0f}/s", refresh=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _Workers:
    """N worker processes fed through a bounded queue (back-pressure bounds the chunks in flight)."""

    def __init__(self, n: int, parts_dir: str, languages: tuple[str, ...]):
        # fork is cheapest, but forking a process whose thread pools hold locks (torch's OpenMP,
        # llama.cpp, FAISS loaded by a caller, as in a test run) crashed a child with SIGSEGV in CI:
        # then the workers come from a fresh forkserver instead.
        methods = mp.get_all_start_methods()
        if "fork" in methods and not _THREADED_LIBRARIES & set(sys.modules):
            ctx = mp.get_context("fork")
        else:
            ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.tasks = ctx.Queue(maxsize=2 * n)
        self.results = ctx.Queue()
        self.total = ChunkStats()
        self.done: set[int] = set()
        self.procs = [
            # The parent decides C or Python rows: a forkserver's children have the server's environment.
            ctx.Process(target=_worker_main, args=(self.tasks, self.results, parts_dir, i, n, languages, os.getpid(),
                                                   native_available()), daemon=True)
            for i in range(n)
        ]
        for p in self.procs:
            p.start()
        self.progress: _Progress | None = None
        self.bytes_read = lambda: 0

    def put(self, chunk: Chunk | None) -> None:
        while True:
            try:
                self.tasks.put(chunk, timeout=0.5)
                break
            except queue.Full:
                self.poll(timeout=0)
        self.poll(timeout=0)

    def poll(self, timeout: float) -> None:
        """Handle the messages waiting (or the first one within `timeout`); raise if a worker died."""
        while True:
            try:
                message = self.results.get(timeout=timeout) if timeout else self.results.get_nowait()
            except queue.Empty:
                self._check_alive()
                return
            timeout = 0
            self._handle(*message)

    def _handle(self, kind: str, worker: int, payload) -> None:
        if kind == "failed":
            raise IngestError(f"worker {worker} failed: {payload}")
        if kind == "done":
            self.total.merge(payload)
            self.done.add(worker)
        elif self.progress is not None:
            self.progress.update(self.bytes_read(), payload)

    def _check_alive(self) -> None:
        dead = [i for i, p in enumerate(self.procs) if i not in self.done and not p.is_alive()]
        if not dead:
            return
        # A worker that just finished has flushed its last messages before exiting: read them first.
        while True:
            try:
                self._handle(*self.results.get_nowait())
            except queue.Empty:
                break
        for i in dead:
            if i not in self.done:
                raise IngestError(f"worker {i} died (exit code {self.procs[i].exitcode}) before finishing")

    def finish(self) -> ChunkStats:
        for _ in self.procs:
            self.put(None)
        while len(self.done) < len(self.procs):
            self.poll(timeout=0.5)
        for p in self.procs:
            p.join()
        return self.total

    def stop(self) -> None:
        """Abnormal end: terminate the workers; never block on queued chunks nobody will read."""
        self.tasks.cancel_join_thread()
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            p.join(timeout=5)


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


def _decoder_threads(dump: str, workers: int) -> int:
    """gzip: one rapidgzip thread decodes ~350 MB/s of JSON, several times what the workers convert,
    and a second one only adds work (3.0 vs 4.6 CPU-s for 1.15 GB, taken from the busy workers);
    bz2 (~12 MB/s a core) needs every core it can get."""
    if dump != "-":
        with open(dump, "rb") as fh:
            if sniff_compression(fh.read(4)) == "gzip":
                return 1
    return workers


@dataclass
class _ReadResult:
    stats: ChunkStats
    limit_reached: bool
    source: dict


def _read_dump(dump: str, parts_dir: str, opts: IngestOptions) -> _ReadResult:
    n = opts.worker_count()
    # Workers are forked before the decoder starts its threads: forking a threaded process is unsafe.
    workers = _Workers(n, parts_dir, opts.languages)
    ok = False
    try:
        with DumpReader(dump, threads=opts.decoder_threads or _decoder_threads(dump, n)) as reader:
            workers.progress = _Progress(reader.size, opts.quiet)
            workers.bytes_read = lambda: reader.compressed_bytes_read
            budget, limit_reached = opts.limit, False
            try:
                for chunk in reader.chunks():
                    if budget is not None:
                        chunk, budget = _clip(chunk, budget)
                        limit_reached = budget == 0
                    if chunk is not None:
                        workers.put(chunk)
                    if limit_reached:
                        break
                stats = workers.finish()
            finally:
                workers.progress.close()
            source = reader.describe()
        ok = True
        return _ReadResult(stats, limit_reached, source)
    finally:
        if not ok:
            workers.stop()


def ingest(dump: str, out_dir: str, opts: IngestOptions = IngestOptions()) -> dict:
    """Build OUT from DUMP; returns the manifest. Raises IngestError/DumpError, publishing nothing."""
    started = time.time()
    check_source(dump)
    check_publishable(os.path.abspath(out_dir), opts.keep_previous)
    build_dir = staging_dir(out_dir)
    parts_dir = os.path.join(build_dir, "parts")
    os.makedirs(parts_dir)
    try:
        read = _read_dump(dump, parts_dir, opts)
        stats = read.stats
        converted = time.time()
        if stats.saw_open and not stats.saw_close and not read.limit_reached:
            raise DumpError(f"{dump} is truncated: the dump's closing ']' never came "
                            f"({stats.entities:,} entities read); nothing was published")
        if stats.entities == 0:
            bad = sum(stats.bad_lines.values())
            raise IngestError(f"{dump} holds no items or properties ({bad:,} unreadable lines, "
                              f"{sum(stats.skipped.values()):,} skipped): is it a Wikidata JSON dump?")
        report: dict = {}
        counts = assemble_tables(build_dir, parts_dir, opts.worker_count(), opts.memory_limit, report)
        duplicates, labels = report["duplicates"], report["labels_by_language"]
        error_files = sorted(glob.glob(os.path.join(parts_dir, "errors-*.jsonl")))
        if duplicates:  # reported beside the bad lines, in line order
            error_files.append(_write_duplicates(parts_dir, duplicates))
        merge_error_files(error_files, os.path.join(build_dir, ERRORS))
        shutil.rmtree(parts_dir)
        manifest = _manifest(read, counts, opts, started, converted)
        manifest["labels_by_language"] = labels
        # An id a dump holds on several lines is stored once, from its first line; the copies are listed.
        manifest["duplicate_entities"] = {"ids": len({d[0] for d in duplicates}), "copies_dropped": len(duplicates),
                                          "file": ERRORS}
        manifest["languages_without_labels"] = missing_languages(opts.languages, labels)
        write_json(os.path.join(build_dir, MANIFEST), manifest)
        publish(build_dir, out_dir, opts.keep_previous)
        return manifest
    except DumpError as exc:
        raise IngestError(str(exc)) from exc
    finally:
        # Anything still at build_dir was not published (failure, Ctrl-C): remove it.
        shutil.rmtree(build_dir, ignore_errors=True)


def summary_notes(manifest: dict, out: str) -> list[str]:
    """What the summary adds about the ingest's bad input: invalid values, duplicates, missing languages."""
    notes = []
    invalid = manifest.get("invalid_values", {}).get("total")
    if invalid:
        notes.append(f"  invalid values {invalid:>9,}  (kept, marked invalid; see {out}/{ERRORS})")
    dropped = manifest.get("duplicate_entities", {}).get("copies_dropped")
    if dropped:
        notes.append(f"  duplicate ids {dropped:>10,}  (later copies not stored; see {out}/{ERRORS})")
    notes += [f"  warning: no entity has a label in language {lang!r}"
              for lang in manifest.get("languages_without_labels", ())]
    return notes


def _write_duplicates(parts_dir: str, duplicates: list) -> str:
    path = os.path.join(parts_dir, "errors-duplicates.jsonl")
    with open(path, "wb") as out:
        for eid, first, line in sorted(duplicates, key=lambda d: d[2]):
            out.write(orjson.dumps({"line": line, "kind": "duplicate-entity", "id": eid, "first_line": first,
                                    "reason": f"{eid} already came on line {first}: this copy is not stored"}) + b"\n")
    return path


def _manifest(read: _ReadResult, counts: dict, opts: IngestOptions, started: float, converted: float) -> dict:
    stats = read.stats
    source = dict(read.source)
    source["latest_modified"] = stats.max_modified
    if source["dump_date"] is None and stats.max_modified:
        # No date in the file name: the newest edit in the dump is the best date the content carries.
        source["dump_date"], source["dump_date_from"] = stats.max_modified[:10], "latest modified entity"
    source["complete_array"] = stats.saw_open and stats.saw_close
    source["lines"] = stats.lines
    now = time.time()
    return {
        "kind": MANIFEST_KIND,
        "schema_version": SCHEMA_VERSION,
        "kgcheck_version": __version__,
        "source": source,
        "languages": list(opts.languages) + ["mul"],
        "counts": counts,
        "entities_seen": stats.entities,
        "statements_seen": stats.statements,
        "skipped_entities": dict(sorted(stats.skipped.items())),
        "bad_lines": {"total": sum(stats.bad_lines.values()), "by_reason": dict(sorted(stats.bad_lines.items())),
                      "file": ERRORS},
        # Values that broke the Wikibase rules: stored marked invalid (statement kept), listed in ERRORS.
        "invalid_values": {"total": sum(stats.invalid_values.values()),
                           "by_table": dict(sorted(stats.invalid_values.items())), "file": ERRORS},
        "limit": opts.limit,
        "limit_reached": read.limit_reached,
        "workers": opts.worker_count(),
        # Which converter built the rows: all-Python means the C extension was missing (5x slower).
        "row_builder": {"c_lines": stats.lines - stats.brackets - stats.python_lines,
                        "python_lines": stats.python_lines},
        "wall_seconds": round(now - started, 3),
        "stage_seconds": {"read_and_convert": round(converted - started, 3), "sort_and_write": round(now - converted, 3)},
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
