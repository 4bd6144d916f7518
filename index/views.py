"""Index files the build writes beside the ingest's tables: a sorted Parquet file, read through a view."""
from __future__ import annotations

import os

LOOKUP_ROW_GROUP = 16_384  # Parquet row group of the lookup-by-key files (see README: point lookups)


def parquet_view(con, directory: str, name: str, query: str) -> int:
    """Write `query` (sorted by the caller's lookup key) to DIR/<name>.parquet in small row groups, replace any
    table or view `name` with a view over it (by relative path: the directory may move), return its rows."""
    target = os.path.join(directory, f"{name}.parquet")
    for kind, in con.execute("SELECT 'TABLE' FROM duckdb_tables() WHERE table_name = $n UNION ALL "
                             "SELECT 'VIEW' FROM duckdb_views() WHERE view_name = $n", {"n": name}).fetchall():
        con.execute(f"DROP {kind} {name}")
    con.execute(f"COPY ({query}) TO '{target}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {LOOKUP_ROW_GROUP})")
    con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{name}.parquet')")
    return con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
