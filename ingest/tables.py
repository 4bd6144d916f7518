"""Part files -> one sorted zstd Parquet file per table, exposed in kg.duckdb as views.

Each table is sorted once by DuckDB and streamed, in order, to a pyarrow Parquet writer
in a thread that overlaps the sort's output. The ingest stops there: kg.duckdb holds
views over the Parquet files (relative paths, so the directory can move), and the index
reads them in place: one copy of each table (index schema 2). Native copies
(materialize_tables, kept for tools that want them) took 34 MB beside 14 MB of Parquet on
wd50k; with 16k-row row groups a point lookup on the Parquet file costs ~11 ms against
92 ms at 100k rows (README, full-dump scale).
Tables are spread over `lanes` that run at once, one per core.
"""
from __future__ import annotations

import math
import os
import queue
import threading

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from .convert import SCHEMAS

# Sort keys: subject first, so Parquet row-group statistics prune lookups by id.
SORT_KEYS = {
    "entities": "id",
    "labels": "id, language, kind, text",
    "statements": "subject, statement_order",
    "qualifiers": "subject, statement_id, qualifier_order",
    "references": "subject, statement_id, reference_order, snak_order",
}
ROW_GROUP_ROWS = 16_384  # point lookups prune to one row group: 16k rows read 8x faster than 100k (README)
# A table of more rows is sorted in key ranges (at most MAX_RANGES, each one more scan of the
# key column): a wide statement row takes ~400 bytes in DuckDB's sort, so 1M rows stay in memory
# where 3M spilled to disk under the 1 GB limit.
RANGE_ROWS = 1_000_000
MAX_RANGES = 4
DROPPED = "_dropped_copies"  # (dup_id, dup_line) of every copy of an entity after its first, while sorting
_KEY_OF = {"entities": "id", "labels": "id"}  # the entity id column; `subject` in the other tables
_UNIQUE_COLUMNS = {"statement_id", "string", "value_text", "text", "label", "description", "modified"}


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def find_duplicates(con: duckdb.DuckDBPyConnection, entity_parts: list[str]) -> list[tuple[str, int, int]]:
    """(id, first line, later line) of every entity line whose id an earlier line of the dump already
    had; those copies' rows are left out of every table (build_tables). One scan of the id column."""
    if not entity_parts:
        return []
    rows = con.execute(
        "SELECT id, list(dump_line ORDER BY dump_line) FROM read_parquet($parts) "
        "GROUP BY id HAVING count(*) > 1 ORDER BY id", {"parts": entity_parts}).fetchall()
    return [(eid, lines[0], line) for eid, lines in rows for line in lines[1:]]


def build_tables(con: duckdb.DuckDBPyConnection, jobs: dict[str, list[str]], out_dir: str,
                 lanes: int, dropped: list[tuple[str, int, int]] = ()) -> dict[str, int]:
    """jobs: table name -> its part files; `dropped`: find_duplicates' copies, left out. Returns rows per table."""
    if dropped:
        copies = pa.table({"dup_id": pa.array([d[0] for d in dropped], pa.string()),  # one insert, however many
                           "dup_line": pa.array([d[2] for d in dropped], pa.int32())})
        con.register("_dropped_arrow", copies)
        con.execute(f"CREATE OR REPLACE TABLE {DROPPED} AS SELECT * FROM _dropped_arrow")
        con.unregister("_dropped_arrow")
    try:
        return _build_tables(con, jobs, out_dir, lanes, bool(dropped))
    finally:
        if dropped:
            con.execute(f"DROP TABLE IF EXISTS {DROPPED}")


def _build_tables(con: duckdb.DuckDBPyConnection, jobs: dict[str, list[str]], out_dir: str,
                  lanes: int, dedupe: bool) -> dict[str, int]:
    sizes = {name: sum(os.path.getsize(p) for p in parts) for name, parts in jobs.items()}
    plan: list[list[str]] = [[] for _ in range(max(1, min(lanes, len(jobs))))]
    load = [0] * len(plan)
    for name in sorted(jobs, key=lambda n: -sizes[n]):  # biggest first, each to the least loaded lane
        i = load.index(min(load))
        plan[i].append(name)
        load[i] += sizes[name]
    counts: dict[str, int] = {}
    errors: list[BaseException] = []
    cursors: list[duckdb.DuckDBPyConnection] = []  # every lane's connections, to interrupt them all

    def stop_all() -> None:
        for c in list(cursors):
            try:
                c.interrupt()
            except duckdb.Error:
                pass

    def lane(names: list[str]) -> None:
        try:
            for name in names:
                if errors:
                    return
                counts[name] = sort_table(con, name, jobs[name], os.path.join(out_dir, f"{name}.parquet"), cursors,
                                          dedupe)
        except BaseException as exc:  # re-raised by the caller's thread
            errors.append(exc)
            stop_all()

    threads = [threading.Thread(target=lane, args=(names,), daemon=True) for names in plan[1:]]
    for t in threads:
        t.start()
    try:
        lane(plan[0])
        for t in threads:
            t.join()
    except BaseException:  # Ctrl-C while waiting: stop the lanes before the connection closes
        stop_all()
        for t in threads:
            t.join()
        raise
    if errors:
        # The first error is the cause; an InterruptException of another lane is its consequence.
        raise next((e for e in errors if not isinstance(e, duckdb.InterruptException)), errors[0])
    return {name: counts[name] for name in jobs}


def _ranges(cur: duckdb.DuckDBPyConnection, parts: list[str], key: str) -> list[tuple[str, dict]]:
    """WHERE clauses (and their parameters) that cut the parts into key ranges of ~RANGE_ROWS rows."""
    rows = cur.execute("SELECT coalesce(sum(num_rows), 0) FROM parquet_file_metadata($parts)",
                       {"parts": parts}).fetchall()[0][0]
    n = min(MAX_RANGES, math.ceil(rows / RANGE_ROWS))
    if n <= 1:
        return [("", {})]
    sample = sorted(r[0] for r in cur.execute(
        f"SELECT {key} FROM read_parquet($parts) USING SAMPLE reservoir(20000 ROWS) REPEATABLE (7)",
        {"parts": parts}).fetchall())
    bounds = sorted({sample[len(sample) * i // n] for i in range(1, n)})
    return ([(f"WHERE {key} < $high", {"high": bounds[0]})]
            + [(f"WHERE {key} >= $low AND {key} < $high", {"low": low, "high": high})
               for low, high in zip(bounds, bounds[1:])]
            + [(f"WHERE {key} >= $low", {"low": bounds[-1]})])


def sort_table(con: duckdb.DuckDBPyConnection, name: str, parts: list[str], target: str,
               cursors: list | None = None, dedupe: bool = False) -> int:
    """Sort one table's parts into `target` (Parquet), range after range; returns its rows."""
    schema = SCHEMAS[name]
    cur = con.cursor()  # a connection per lane: lanes run their statements at once
    cursors = [] if cursors is None else cursors
    cursors.append(cur)
    sink = ParquetSink(target, schema, statistics=[_KEY_OF.get(name, "subject")])
    try:
        for where, params in _ranges(cur, parts, SORT_KEYS[name].split(",")[0]) if parts else []:
            source = "read_parquet($parts)"
            if dedupe:  # rows of a later copy of an entity: out (the dump's first copy wins)
                key = _KEY_OF.get(name, "subject")
                source = (f"(SELECT p.* FROM read_parquet($parts) p ANTI JOIN {DROPPED} d "
                          f"ON p.{key} = d.dup_id AND p.dump_line = d.dup_line)")
            query = f"SELECT * FROM {source} {where} ORDER BY {SORT_KEYS[name]}"
            reader = cur.sql(query, params={"parts": parts, **params}).to_arrow_reader(ROW_GROUP_ROWS)
            try:
                for batch in reader:
                    sink.put(batch if batch.schema == schema else batch.cast(schema))
            finally:
                reader.close()  # never leave a result half read
    except BaseException:
        sink.abort()
        raise
    finally:
        cursors.remove(cur)
        cur.close()
    return sink.close()


def set_search_path(con: duckdb.DuckDBPyConnection, directory: str) -> None:
    con.execute("SET GLOBAL file_search_path = '{}'".format(directory.replace("'", "''")))


def create_views(con: duckdb.DuckDBPyConnection, directory: str, names) -> None:
    """kg.duckdb's tables as views over DIR/<name>.parquet. The path is relative: DuckDB resolves
    it against `file_search_path` (set by KG.open) or the working directory."""
    set_search_path(con, directory)
    for name in names:
        con.execute(f"CREATE OR REPLACE VIEW {quote(name)} AS SELECT * FROM read_parquet('{name}.parquet')")


def is_view(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute("SELECT 1 FROM duckdb_views() WHERE view_name = ? AND NOT internal",
                            [name]).fetchall())


def materialize_tables(con: duckdb.DuckDBPyConnection, directory: str, names) -> list[str]:
    """Replace each view over DIR/<name>.parquet by a native table of the same rows, in the same
    (sorted) order; returns the tables materialised. The Parquet files stay as they are."""
    done = [name for name in names if is_view(con, name)]
    con.execute("BEGIN TRANSACTION")  # all or nothing: an interrupted run leaves the views in place
    try:
        for name in done:
            path = os.path.join(directory, f"{name}.parquet").replace("'", "''")
            con.execute(f"DROP VIEW {quote(name)}")
            con.execute(f"CREATE TABLE {quote(name)} AS SELECT * FROM read_parquet('{path}')")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return done


class ParquetSink:
    """A zstd Parquet file written by a thread from a bounded queue of record batches: compressing
    overlaps the DuckDB insert of the same batches (pyarrow releases the GIL while it writes)."""

    def __init__(self, path: str, schema: pa.Schema, statistics: list[str] | bool = True):
        self.queue: queue.Queue = queue.Queue(maxsize=4)
        self.rows = 0
        self.error: BaseException | None = None
        # No dictionary for the (nearly) unique columns: it would only be tried and dropped.
        dictionary = [c for c in schema.names if c not in _UNIQUE_COLUMNS]
        # Min/max statistics on the lookup key only: DuckDB merges every row group's statistics of every
        # column a query reads, at each query (5M entities, 4,301 row groups: 0.235 s for one subject's
        # statements with statistics on all 30 columns; 0.034 s reading 2 columns), and a key-sorted
        # table's other columns span all values in every row group, so they never prune anything.
        self.writer = pq.ParquetWriter(path, schema, compression="zstd", use_dictionary=dictionary,
                                       write_statistics=statistics)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        pending: list[pa.RecordBatch] = []
        size = 0
        try:
            while (batch := self.queue.get()) is not None:
                pending.append(batch)
                size += batch.num_rows
                if size >= ROW_GROUP_ROWS:  # whole row groups: DuckDB's batches come in odd sizes
                    table = pa.Table.from_batches(pending)
                    whole = size - size % ROW_GROUP_ROWS
                    self.writer.write_table(table.slice(0, whole), row_group_size=ROW_GROUP_ROWS)
                    pending, size = table.slice(whole).to_batches(), size - whole
            if pending:
                self.writer.write_table(pa.Table.from_batches(pending), row_group_size=ROW_GROUP_ROWS)
        except BaseException as exc:  # reported by put() / close()
            self.error = exc
            while self.queue.get() is not None:  # drain so that put() never blocks forever
                pass

    def put(self, batch: pa.RecordBatch) -> None:
        if self.error is not None:
            raise self.error
        self.rows += batch.num_rows
        self.queue.put(batch)

    def close(self) -> int:
        self.queue.put(None)
        self.thread.join()
        self.writer.close()
        if self.error is not None:
            raise self.error
        return self.rows

    def abort(self) -> None:
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()
        try:
            self.writer.close()
        except Exception:  # noqa: BLE001 - the build is being abandoned anyway
            pass
