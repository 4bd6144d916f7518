"""Chunk -> rows -> Parquet part files; runs inside each worker process."""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from .dump import Chunk
from .rows import TABLE_COLUMNS, TABLES, RowBuffers, SkipEntity, entity_rows
from .values import BadValue

FLUSH_ROWS = 250_000  # rows buffered per worker before a part file is written; bounds memory
_ARROW_TYPES = {"string": pa.string(), "int8": pa.int8(), "int32": pa.int32(), "float64": pa.float64()}
SCHEMAS = {
    name: pa.schema([(col, _ARROW_TYPES[kind]) for col, kind in cols]) for name, cols in TABLE_COLUMNS.items()
}


@dataclass
class ChunkStats:
    lines: int = 0
    entities: int = 0
    statements: int = 0
    skipped: Counter = field(default_factory=Counter)
    errors: list = field(default_factory=list)  # dicts: line, offset, reason
    saw_open: bool = False
    saw_close: bool = False
    max_modified: str | None = None

    def merge(self, other: "ChunkStats") -> None:
        self.lines += other.lines
        self.entities += other.entities
        self.statements += other.statements
        self.skipped.update(other.skipped)
        self.errors.extend(other.errors)
        self.saw_open |= other.saw_open
        self.saw_close |= other.saw_close
        if other.max_modified and (self.max_modified is None or other.max_modified > self.max_modified):
            self.max_modified = other.max_modified


def rows_to_table(name: str, rows: list) -> pa.Table:
    schema = SCHEMAS[name]
    if not rows:
        return schema.empty_table()
    columns = list(zip(*rows))
    return pa.Table.from_arrays(
        [pa.array(col, type=f.type) for col, f in zip(columns, schema)], schema=schema
    )


class PartWriter:
    """Buffers rows and writes them as numbered Parquet part files of one worker."""

    def __init__(self, parts_dir: str, worker: int):
        self.parts_dir = parts_dir
        self.worker = worker
        self.buffers = RowBuffers.empty()
        self.part = 0

    def maybe_flush(self) -> None:
        if self.buffers.size() >= FLUSH_ROWS:
            self.flush()

    def flush(self) -> None:
        for name, rows in self.buffers.tables().items():
            if rows:
                path = os.path.join(self.parts_dir, f"{name}-{self.worker:03d}-{self.part:06d}.parquet")
                # Parts are re-read once by the final sort: fast compression is enough here.
                pq.write_table(rows_to_table(name, rows), path, compression="lz4")
        self.buffers = RowBuffers.empty()
        self.part += 1


def convert_chunk(chunk: Chunk, languages: tuple[str, ...], writer: PartWriter) -> ChunkStats:
    stats = ChunkStats()
    offset = chunk.offset
    line_no = chunk.first_line
    for raw in chunk.data.split(b"\n"):
        line_len = len(raw) + 1
        line = raw.strip()
        if line.endswith(b","):
            line = line[:-1]
        if line:
            stats.lines += 1
        if line == b"[":
            stats.saw_open = True
        elif line == b"]":
            stats.saw_close = True
        elif line:
            try:
                entity = orjson.loads(line)
                if not isinstance(entity, dict):
                    raise BadValue("line is not a JSON object")
                stats.statements += entity_rows(entity, languages, writer.buffers)
                stats.entities += 1
                modified = entity.get("modified")
                if modified and (stats.max_modified is None or modified > stats.max_modified):
                    stats.max_modified = modified
            except SkipEntity as skip:
                stats.skipped[skip.reason] += 1
            except orjson.JSONDecodeError as exc:
                stats.errors.append({"line": line_no, "offset": offset, "reason": f"invalid JSON: {exc}"[:300]})
            except (BadValue, KeyError, TypeError, AttributeError, ValueError) as exc:
                reason = str(exc) if isinstance(exc, BadValue) else f"malformed entity: {exc!r}"
                stats.errors.append({"line": line_no, "offset": offset, "reason": reason[:300]})
        offset += line_len
        line_no += 1
    writer.maybe_flush()
    return stats


def table_names() -> tuple[str, ...]:
    return TABLES
