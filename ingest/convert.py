"""Chunk -> rows -> Parquet part files; runs inside each worker process.

Why Python rows and not DuckDB's JSON functions (C++): measured on the 221k-entity bench dump, one
thread, casting each line to a typed struct and unnesting it into the five tables in SQL took
1.4 s (parse) + 3.5 s (rows) per 100 MB with another job on the machine, about twice orjson + rows.py
(~2.3 CPU-s per 100 MB in the ingest bench):
the nested unnests copy every statement several times.
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from .dump import Chunk
from .rows import TABLE_COLUMNS, RowBuffers, SkipEntity, entity_rows
from .values import BadValue

# Rows buffered by ALL workers together before part files are written (~500 bytes a row in
# Python tuples): each worker flushes at ROW_BUDGET / workers rows, so memory does not grow
# with the worker count or the dump size.
ROW_BUDGET = 600_000
MIN_FLUSH_ROWS = 20_000
_ARROW_TYPES = {"string": pa.string(), "int8": pa.int8(), "int32": pa.int32(), "float64": pa.float64()}
SCHEMAS = {
    name: pa.schema([(col, _ARROW_TYPES[kind]) for col, kind in cols]) for name, cols in TABLE_COLUMNS.items()
}
_STRUCTS = {name: pa.struct(list(schema)) for name, schema in SCHEMAS.items()}


@dataclass
class ChunkStats:
    """What one chunk (or, merged, the whole dump) held. `errors` holds one chunk's bad lines only:
    workers move them to their errors file, so memory stays bounded however bad the dump."""

    lines: int = 0  # non-empty lines
    brackets: int = 0  # the array's `[` and `]` lines
    entities: int = 0
    statements: int = 0
    skipped: Counter = field(default_factory=Counter)
    bad_lines: Counter = field(default_factory=Counter)  # kind -> count
    errors: list = field(default_factory=list)  # dicts: line, offset, kind, reason, text
    saw_open: bool = False
    saw_close: bool = False
    max_modified: str | None = None

    def merge(self, other: "ChunkStats") -> None:
        self.lines += other.lines
        self.brackets += other.brackets
        self.entities += other.entities
        self.statements += other.statements
        self.skipped.update(other.skipped)
        self.bad_lines.update(other.bad_lines)
        self.saw_open |= other.saw_open
        self.saw_close |= other.saw_close
        if other.max_modified and (self.max_modified is None or other.max_modified > self.max_modified):
            self.max_modified = other.max_modified


def rows_to_table(name: str, rows: list) -> pa.Table:
    """Row tuples -> Arrow table, converted in C++ as one struct array (no Python-level transpose)."""
    schema = SCHEMAS[name]
    if not rows:
        return schema.empty_table()
    return pa.Table.from_struct_array(pa.array(rows, type=_STRUCTS[name]))


class PartWriter:
    """Buffers rows and writes them as numbered Parquet part files of one worker."""

    def __init__(self, parts_dir: str, worker: int, flush_rows: int = ROW_BUDGET // 2):
        self.parts_dir = parts_dir
        self.worker = worker
        self.flush_rows = max(MIN_FLUSH_ROWS, flush_rows)
        self.buffers = RowBuffers.empty()
        self.part = 0

    def maybe_flush(self) -> None:
        if self.buffers.size() >= self.flush_rows:
            self.flush()

    def flush(self) -> None:
        for name, rows in self.buffers.tables().items():
            if rows:
                path = os.path.join(self.parts_dir, f"{name}-{self.worker:03d}-{self.part:06d}.parquet")
                # Parts are read once by the final sort: cheap lz4, no dictionaries, no statistics.
                pq.write_table(rows_to_table(name, rows), path, compression="lz4", use_dictionary=False,
                               write_statistics=False)
        self.buffers = RowBuffers.empty()
        self.part += 1


def _error(stats: ChunkStats, line_no: int, offset: int, kind: str, reason: str, line: bytes) -> None:
    stats.bad_lines[kind] += 1
    stats.errors.append({"line": line_no, "offset": offset, "kind": kind, "reason": reason[:300],
                         "text": line[:200].decode("utf-8", "replace")})


def convert_chunk(chunk: Chunk, languages: tuple[str, ...], writer: PartWriter) -> ChunkStats:
    """Rows of every entity line of the chunk into `writer`; never raises on bad input.

    Every non-empty line ends up as exactly one of: an entity, a skip (lexeme…), a bad
    line (with its line number and byte offset in the decompressed dump) or a bracket.
    """
    stats = ChunkStats()
    offset = chunk.offset
    line_no = chunk.first_line
    buffers = writer.buffers
    loads = orjson.loads
    for raw in chunk.data.split(b"\n"):
        line_len = len(raw) + 1
        line = raw.strip()
        if line.endswith(b","):
            line = line[:-1]
        if not line:
            pass
        elif line == b"[":
            stats.lines += 1
            stats.brackets += 1
            stats.saw_open = True
        elif line == b"]":
            stats.lines += 1
            stats.brackets += 1
            stats.saw_close = True
        else:
            stats.lines += 1
            try:
                entity = loads(line)
                if type(entity) is not dict:
                    raise BadValue("line is not a JSON object")
                stats.statements += entity_rows(entity, languages, buffers)
                stats.entities += 1
                modified = entity.get("modified")
                if modified and (stats.max_modified is None or modified > stats.max_modified):
                    stats.max_modified = modified
            except SkipEntity as skip:
                stats.skipped[skip.reason] += 1
            except orjson.JSONDecodeError as exc:
                _error(stats, line_no, offset, "invalid-json", f"invalid JSON: {exc}", line)
            except BadValue as exc:
                _error(stats, line_no, offset, "bad-value", str(exc), line)
            except Exception as exc:  # noqa: BLE001 - any malformed entity costs one line, never the ingest
                _error(stats, line_no, offset, "malformed-entity", f"malformed entity: {exc!r}", line)
        offset += line_len
        line_no += 1
    writer.maybe_flush()
    return stats
