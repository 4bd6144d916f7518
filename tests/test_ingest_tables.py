"""tables.py: the final sort, cut into key ranges and spread over lanes, loses and reorders nothing."""
from __future__ import annotations

import duckdb
import orjson
import pyarrow.parquet as pq
import pytest

from kgcheck.ingest import tables
from kgcheck.ingest.convert import PartWriter, convert_chunk
from kgcheck.ingest.dump import Chunk
from kgcheck.ingest.rows import TABLES
from kgcheck.ingest.writer import open_database


@pytest.fixture
def parts(tmp_path, entity_maker):
    """Part files of 3 workers, each holding its entities in the (unsorted) order they were read."""
    parts_dir = tmp_path / "parts"
    parts_dir.mkdir()
    for worker in range(3):
        writer = PartWriter(str(parts_dir), worker)
        for start in range(worker * 20, 600, 60):  # ids interleaved across workers, not in string order
            lines = [orjson.dumps(entity_maker(n)) for n in range(start, start + 20)]
            stats = convert_chunk(Chunk(b"\n".join(lines) + b"\n", 1, 0), ("en",), writer)
            assert stats.entities == 20 and not stats.errors
            writer.flush()  # a part per chunk: many small parts, as in a real run
    return parts_dir


@pytest.mark.parametrize("range_rows,lanes", [(10**9, 1), (150, 2), (40, 3)])
def test_ranges_and_lanes_keep_every_row_in_order(parts, tmp_path, monkeypatch, range_rows, lanes):
    monkeypatch.setattr(tables, "RANGE_ROWS", range_rows)
    monkeypatch.setattr(tables, "ROW_GROUP_ROWS", 100)
    out = tmp_path / f"out-{range_rows}-{lanes}"
    out.mkdir()
    jobs = {name: sorted(str(p) for p in parts.glob(f"{name}-*.parquet")) for name in TABLES}
    con = duckdb.connect(str(out / "kg.duckdb"))
    try:
        counts = tables.build_tables(con, jobs, str(out), lanes)
        tables.create_views(con, str(out), TABLES)
        assert all(tables.is_view(con, name) for name in TABLES)
        for name in TABLES:
            keys = tables.SORT_KEYS[name]
            source = con.execute(f"SELECT * FROM read_parquet($p) ORDER BY {keys}", {"p": jobs[name]}).fetchall()
            native = con.execute(f"SELECT * FROM {tables.quote(name)}").fetchall()  # the view: file order
            written = con.execute("SELECT * FROM read_parquet($f)", {"f": str(out / f"{name}.parquet")}).fetchall()
            assert counts[name] == len(source) > 0
            # Sorted on the whole key, so ties inside a key cannot make the comparison flaky.
            key = [c.strip() for c in keys.split(",")]
            names = [d[0] for d in con.execute(f"SELECT * FROM {tables.quote(name)} LIMIT 0").description]
            at = [names.index(k) for k in key]
            assert [[r[i] for i in at] for r in native] == [[r[i] for i in at] for r in source], name
            assert sorted(native, key=repr) == sorted(source, key=repr) and written == native, name
            meta = pq.ParquetFile(out / f"{name}.parquet").metadata
            sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
            assert all(s == 100 for s in sizes[:-1]) and meta.row_group(0).column(0).compression == "ZSTD"
    finally:
        con.close()


def test_a_table_without_parts_is_empty_but_present(tmp_path):
    con = duckdb.connect(str(tmp_path / "kg.duckdb"))
    try:
        counts = tables.build_tables(con, {name: [] for name in TABLES}, str(tmp_path), 2)
        tables.create_views(con, str(tmp_path), TABLES)
        assert counts == {name: 0 for name in TABLES}
        assert con.execute('SELECT count(*) FROM "references"').fetchall() == [(0,)]
    finally:
        con.close()
    assert pq.ParquetFile(tmp_path / "statements.parquet").schema_arrow.names[0] == "statement_id"


def test_views_follow_a_moved_directory_and_materialise_in_order(parts, tmp_path):
    out = tmp_path / "built"
    out.mkdir()
    jobs = {name: sorted(str(p) for p in parts.glob(f"{name}-*.parquet")) for name in TABLES}
    con = duckdb.connect(str(out / "kg.duckdb"))
    try:
        tables.build_tables(con, jobs, str(out), 2)
        tables.create_views(con, str(out), TABLES)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    moved = tmp_path / "moved"
    out.rename(moved)  # an operator moves or renames the index directory
    con = open_database(str(moved), read_only=False)
    try:
        before = {name: con.execute(f"SELECT * FROM {tables.quote(name)}").fetchall() for name in TABLES}
        assert all(before.values())
        assert tables.materialize_tables(con, str(moved), TABLES) == list(TABLES)
        assert not any(tables.is_view(con, name) for name in TABLES)
        after = {name: con.execute(f"SELECT * FROM {tables.quote(name)} ORDER BY rowid").fetchall() for name in TABLES}
        assert after == before
        assert tables.materialize_tables(con, str(moved), TABLES) == []  # already native: nothing to do
    finally:
        con.close()
