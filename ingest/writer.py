"""Part files -> sorted Parquet + DuckDB tables + manifest, published atomically."""
from __future__ import annotations

import ctypes
import errno
import glob
import heapq
import json
import os
import re
import shutil
import time

import duckdb

from .rows import TABLES
from .tables import (SORT_KEYS, build_tables, create_views, find_duplicates, quote,  # noqa: F401 - re-exported
                     set_search_path)

SCHEMA_VERSION = 3  # 2: statements.statement_order; 3: amount/lower/upper_text, invalid
DB_FILE = "kg.duckdb"
MANIFEST = "manifest.json"
ERRORS = "errors.jsonl"
MANIFEST_KIND = "kgcheck-index"


class IngestError(Exception):
    """The ingest could not complete; nothing was published."""


def assemble_tables(build_dir: str, parts_dir: str, threads: int, memory_limit: str = "1GB",
                    report: dict | None = None) -> dict[str, int]:
    """Sort each table's parts into one zstd Parquet file, exposed as a view in kg.duckdb (tables.py).

    DuckDB sorts out of core (spilling to build_dir), so memory stays bounded
    whatever the dump size. `report` (if given) receives "duplicates" (find_duplicates) and
    "labels_by_language" (labels and aliases kept per language).
    """
    try:
        return _assemble(build_dir, parts_dir, threads, memory_limit, {} if report is None else report)
    except (duckdb.InterruptException, RuntimeError) as exc:
        # DuckDB turns Ctrl-C into its own error: hand it back as the KeyboardInterrupt it was.
        if isinstance(exc, duckdb.InterruptException) or "interrupted" in str(exc).lower():
            raise KeyboardInterrupt from exc
        raise
    except duckdb.Error as exc:
        raise IngestError(f"sorting the tables failed: {exc}") from exc


def _assemble(build_dir: str, parts_dir: str, threads: int, memory_limit: str, report: dict) -> dict[str, int]:
    con = duckdb.connect(os.path.join(build_dir, DB_FILE))
    try:
        con.execute(f"SET threads = {max(1, threads)}")
        con.execute(f"SET memory_limit = '{memory_limit}'")
        con.execute(f"SET temp_directory = '{os.path.join(build_dir, 'duckdb-tmp')}'")
        jobs = {name: sorted(glob.glob(os.path.join(parts_dir, f"{name}-*.parquet"))) for name in TABLES}
        report["duplicates"] = dropped = find_duplicates(con, jobs["entities"])
        counts = build_tables(con, jobs, build_dir, max(1, threads), dropped)
        create_views(con, build_dir, TABLES)
        report["labels_by_language"] = dict(con.execute(
            "SELECT language, count(*) FROM labels GROUP BY language ORDER BY language").fetchall())
        con.execute("CHECKPOINT")
    finally:
        con.close()
    shutil.rmtree(os.path.join(build_dir, "duckdb-tmp"), ignore_errors=True)
    return counts


def open_database(directory: str, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """A connection to DIR/kg.duckdb whose tables resolve wherever DIR now lives: after ingest they
    are views over DIR/<table>.parquet by relative path, found through `file_search_path`."""
    directory = os.path.abspath(directory)
    con = duckdb.connect(os.path.join(directory, DB_FILE), read_only=read_only)
    set_search_path(con, directory)
    if read_only:
        # Parse each file's footer once, not per query: at 70M statements the footer is 15 MB (4,301 row groups)
        # and re-reading it cost ~0.5 s of every point lookup (bench/scale.py, 5M entities); 40 ms cached.
        con.execute("SET GLOBAL parquet_metadata_cache = true")
    return con


def write_json(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
        fh.write("\n")


def read_manifest(directory: str) -> dict:
    with open(os.path.join(directory, MANIFEST), encoding="utf-8") as fh:
        return json.load(fh)


def staging_dir(out_dir: str) -> str:
    """A fresh build directory beside OUT (same filesystem, so the final rename is atomic)."""
    out_dir = os.path.abspath(out_dir)
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    remove_stale_builds(out_dir)
    path = f"{out_dir}.building-{os.getpid()}-{int(time.time())}"
    os.makedirs(path)
    return path


def remove_stale_builds(out_dir: str) -> None:
    """Builds left by a killed process (their pid is gone) are removed: only directories named exactly as
    staging_dir names them (OUT.building-<pid>-<time>), never another name that merely starts so."""
    prefix = f"{out_dir}.building-"
    for path in glob.glob(glob.escape(prefix) + "*"):
        named = re.fullmatch(r"([0-9]+)-[0-9]+", path[len(prefix):])
        if named and os.path.isdir(path) and not os.path.islink(path) and not pid_alive(int(named[1])):
            shutil.rmtree(path, ignore_errors=True)


def build_staging_dir(out_dir: str) -> str:
    """`kgcheck build`'s OUT.new-<pid> (ingest, then index, then publish); those of dead pids go first."""
    out_dir = os.path.abspath(out_dir)
    remove_stale_staging(out_dir)
    return f"{out_dir}.new-{os.getpid()}"


def remove_stale_staging(out_dir: str) -> list[str]:
    """OUT.new-<pid>[.building-…] left by a `kgcheck build` that was killed (SIGKILL runs no cleanup):
    removed when that pid is gone. Returns the paths removed."""
    removed = []
    prefix = f"{out_dir}.new-"
    for path in glob.glob(glob.escape(prefix) + "*"):
        digits = re.fullmatch(r"([0-9]+)(\.building-[0-9]+-[0-9]+)?", path[len(prefix):])
        if digits and os.path.isdir(path) and not os.path.islink(path) and not pid_alive(int(digits[1])):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def pid_alive(pid: int) -> bool:
    """Is that process still there? (Used by workers: from a forkserver, getppid() is not the parent.)"""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def check_replaceable(out_dir: str) -> None:
    """OUT may be replaced only if it is absent, empty, or a kgcheck index: never a user's other directory."""
    if not os.path.lexists(out_dir):
        return
    if not os.path.isdir(out_dir) or os.path.islink(out_dir):
        raise IngestError(f"{out_dir} exists and is not a directory; choose another --out")
    if not os.listdir(out_dir):
        return
    try:
        kind = read_manifest(out_dir).get("kind")
    except (OSError, ValueError, AttributeError):
        kind = None
    if kind != MANIFEST_KIND:
        raise IngestError(f"{out_dir} exists and is not a kgcheck index (no {MANIFEST}); "
                          "refusing to replace it: choose another --out or remove it")


def check_publishable(out_dir: str, keep_previous: bool) -> None:
    """Before a build starts and again when it is published: OUT, and with --keep-previous OUT.previous
    (removed to make room for the build OUT holds now), may be replaced (check_replaceable)."""
    check_replaceable(out_dir)
    if keep_previous:
        check_replaceable(f"{out_dir}.previous")


def _exchange(a: str, b: str) -> bool:
    """Swap two paths in one renameat2(RENAME_EXCHANGE) call; False where the system lacks it."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EPERM, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), b)


def publish(build_dir: str, out_dir: str, keep_previous: bool) -> None:
    """Move a complete build into place; the old build is kept as OUT.previous or removed.

    Where Linux offers renameat2(RENAME_EXCHANGE) the old and new directories swap in
    one atomic step, so OUT always names a complete index; elsewhere two rename(2)
    calls leave a moment without OUT, but never a partial OUT.
    """
    out_dir = os.path.abspath(out_dir)
    check_publishable(out_dir, keep_previous)
    previous = f"{out_dir}.previous"
    if not os.path.exists(out_dir):
        os.rename(build_dir, out_dir)
        return
    if not os.listdir(out_dir):
        os.rmdir(out_dir)
        os.rename(build_dir, out_dir)
        return
    if keep_previous and os.path.exists(previous):
        shutil.rmtree(previous)
    if _exchange(build_dir, out_dir):
        old = build_dir  # after the swap the old index sits at the build path
    else:
        old = previous if keep_previous else f"{build_dir}.old"
        os.rename(out_dir, old)
        os.rename(build_dir, out_dir)
    if keep_previous:
        if old != previous:
            os.rename(old, previous)
    else:
        shutil.rmtree(old, ignore_errors=True)


def merge_error_files(paths: list[str], target: str) -> int:
    """Per-worker errors-*.jsonl (each in line order) -> one errors.jsonl in line order."""
    files = [open(p, "rb") for p in paths]
    try:
        lines = heapq.merge(*files, key=lambda raw: json.loads(raw)["line"])
        n = 0
        with open(target, "wb") as out:
            for raw in lines:
                out.write(raw)
                n += 1
        return n
    finally:
        for fh in files:
            fh.close()
