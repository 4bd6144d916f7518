"""Chunk -> rows -> Parquet part files; runs inside each worker process.

Two row builders make the same rows: `kgcheck.ingest._fastrows` (C, ingest/native/: parses each line and
writes Arrow column buffers directly, no Python object per value) and rows.py (Python, over
orjson). The C builder refuses every line it is not sure to convert exactly as rows.py does (bad
JSON, a lexeme, an unknown value type, a type error…); those lines go through rows.py, which
counts, reports or converts them. Without a compiler at install time only rows.py runs; set
KGCHECK_INGEST_PYTHON=1 to force it.

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

try:
    from . import _fastrows
except ImportError:  # built without a C compiler: rows.py alone
    _fastrows = None

# Rows buffered by ALL workers together before part files are written (~500 bytes a row in
# Python tuples): each worker flushes at ROW_BUDGET / workers rows, so memory does not grow
# with the worker count or the dump size.
ROW_BUDGET = 600_000
MIN_FLUSH_ROWS = 20_000
_ARROW_TYPES = {"string": pa.string(), "int8": pa.int8(), "int32": pa.int32(), "float64": pa.float64()}
SCHEMAS = {
    name: pa.schema([(col, _ARROW_TYPES[kind]) for col, kind in cols]) for name, cols in TABLE_COLUMNS.items()
}
_STRUCTS = {name: pa.struct(list(schema)[:-1]) for name, schema in SCHEMAS.items()}  # row tuples: no dump_line
# Column kinds as the C builder spells them; it refuses to start if its layout differs.
_KIND_CODES = {"string": "s", "int8": "b", "int32": "i", "float64": "d"}
NATIVE_KINDS = tuple("".join(_KIND_CODES[kind] for _, kind in cols) for cols in TABLE_COLUMNS.values())
# A string column's offsets are int32 in Arrow's layout: flush long before 2 GiB of text.
NATIVE_STRING_BYTES = 1 << 30


def native_available() -> bool:
    return _fastrows is not None and os.environ.get("KGCHECK_INGEST_PYTHON", "") in ("", "0")


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
    python_lines: int = 0  # entity lines converted by rows.py (the rest, by the C builder)
    invalid_values: Counter = field(default_factory=Counter)  # table -> values stored as invalid
    invalid: list = field(default_factory=list)  # dicts like `errors`, one per invalid value (one chunk's)

    def merge(self, other: "ChunkStats") -> None:
        self.lines += other.lines
        self.brackets += other.brackets
        self.entities += other.entities
        self.statements += other.statements
        self.python_lines += other.python_lines
        self.skipped.update(other.skipped)
        self.invalid_values.update(other.invalid_values)
        self.bad_lines.update(other.bad_lines)
        self.saw_open |= other.saw_open
        self.saw_close |= other.saw_close
        if other.max_modified and (self.max_modified is None or other.max_modified > self.max_modified):
            self.max_modified = other.max_modified


def rows_to_table(name: str, rows: list, lines: list | None = None) -> pa.Table:
    """Row tuples (+ their dump lines) -> Arrow table, converted in C++ as one struct array (no
    Python-level transpose)."""
    schema = SCHEMAS[name]
    if not rows:
        return schema.empty_table()
    table = pa.Table.from_struct_array(pa.array(rows, type=_STRUCTS[name]))
    line = pa.array(lines if lines is not None else [None] * len(rows), type=pa.int32())
    return table.append_column(schema.field(len(schema) - 1), line)


def native_to_table(name: str, rows: int, columns: list) -> pa.Table:
    """The C builder's buffers (validity, [offsets,] values per column) -> Arrow table, no copy."""
    schema = SCHEMAS[name]
    arrays = [pa.Array.from_buffers(field.type, rows, [pa.py_buffer(b) for b in buffers])
              for field, buffers in zip(schema, columns)]
    return pa.Table.from_arrays(arrays, schema=schema)


class PartWriter:
    """Buffers rows and writes them as numbered Parquet part files of one worker.

    `languages` given (and the C builder built): entity lines go to the C builder first."""

    def __init__(self, parts_dir: str, worker: int, flush_rows: int = ROW_BUDGET // 2,
                 languages: tuple[str, ...] | None = None):
        self.parts_dir = parts_dir
        self.worker = worker
        self.flush_rows = max(MIN_FLUSH_ROWS, flush_rows)
        self.buffers = RowBuffers.empty()
        self.native = _fastrows.Builder(tuple(languages), NATIVE_KINDS) \
            if languages is not None and native_available() else None
        self.languages = languages
        self.part = 0

    def size(self) -> int:
        return self.buffers.size() + (self.native.rows() if self.native is not None else 0)

    def maybe_flush(self) -> None:
        if self.size() >= self.flush_rows or \
                (self.native is not None and self.native.string_bytes() >= NATIVE_STRING_BYTES):
            self.flush()

    def tables(self) -> dict[str, pa.Table]:
        """Everything buffered, as one Arrow table per table name; empties the buffers."""
        native = self.native.take() if self.native is not None else [(0, None)] * len(SCHEMAS)
        out = {}
        for (name, rows), (n_native, columns) in zip(self.buffers.tables().items(), native):
            parts = ([native_to_table(name, n_native, columns)] if n_native else []) + \
                    ([rows_to_table(name, rows, self.buffers.line_column(name))] if rows else [])
            out[name] = parts[0] if len(parts) == 1 else pa.concat_tables(parts) if parts else None
        self.buffers = RowBuffers.empty()
        return out

    def flush(self) -> None:
        for name, table in self.tables().items():
            if table is not None:
                path = os.path.join(self.parts_dir, f"{name}-{self.worker:03d}-{self.part:06d}.parquet")
                # Parts are read once by the final sort: cheap lz4, no dictionaries, no statistics.
                pq.write_table(table, path, compression="lz4", use_dictionary=False, write_statistics=False)
        self.part += 1


def _error(stats: ChunkStats, line_no: int, offset: int, kind: str, reason: str, line: bytes) -> None:
    stats.bad_lines[kind] += 1
    stats.errors.append({"line": line_no, "offset": offset, "kind": kind, "reason": reason[:300],
                         "text": line[:200].decode("utf-8", "replace")})


def _invalid(stats: ChunkStats, line_no: int, offset: int, invalid: list) -> None:
    """Values stored as invalid (the statement kept): counted, and reported with their statement id."""
    for table, sid, prop, reason in invalid:
        stats.invalid_values[table] += 1
        stats.invalid.append({"line": line_no, "offset": offset, "kind": "invalid-value", "table": table,
                              "statement_id": sid, "property": prop, "reason": reason})
    invalid.clear()


def convert_chunk(chunk: Chunk, languages: tuple[str, ...], writer: PartWriter) -> ChunkStats:
    """Rows of every entity line of the chunk into `writer`; never raises on bad input.

    Every non-empty line ends up as exactly one of: an entity, a skip (lexeme…), a bad
    line (with its line number and byte offset in the decompressed dump) or a bracket.
    """
    if writer.native is not None and writer.languages == languages:
        stats = _convert_native(chunk, languages, writer)
    else:
        stats = ChunkStats()
        offset = chunk.offset
        line_no = chunk.first_line
        for raw in chunk.data.split(b"\n"):
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
                convert_line(line, line_no, offset, languages, writer.buffers, stats)
            offset += len(raw) + 1
            line_no += 1
    writer.maybe_flush()
    return stats


def _convert_native(chunk: Chunk, languages: tuple[str, ...], writer: PartWriter) -> ChunkStats:
    lines, brackets, entities, statements, saw_open, saw_close, max_modified, refused = \
        writer.native.add_chunk(chunk.data, chunk.first_line, chunk.offset)
    stats = ChunkStats(lines=lines, brackets=brackets, entities=entities, statements=statements,
                       saw_open=saw_open, saw_close=saw_close, max_modified=max_modified)
    for line_no, offset, line in refused:  # rows.py decides these, exactly as without the C builder
        convert_line(line, line_no, offset, languages, writer.buffers, stats)
    return stats


def convert_line(line: bytes, line_no: int, offset: int, languages: tuple[str, ...], buffers: RowBuffers,
                 stats: ChunkStats) -> None:
    """One stripped entity line through rows.py: rows, a skip or a bad line, counted in `stats`."""
    stats.lines += 1
    stats.python_lines += 1
    try:
        entity = orjson.loads(line)
        if type(entity) is not dict:
            raise BadValue("line is not a JSON object")
        before = buffers.lengths()
        stats.statements += entity_rows(entity, languages, buffers)
        buffers.mark_line(line_no, before)
        stats.entities += 1
        if buffers.invalid:
            _invalid(stats, line_no, offset, buffers.invalid)
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
