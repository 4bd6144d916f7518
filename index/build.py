"""`kgcheck index DIR`: label index, object lookup table and FAISS vectors over an ingested directory."""
from __future__ import annotations

import json
import os
import shutil
import sys
import time

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from kgcheck.ingest import __version__
from kgcheck.ingest.rows import TABLES
from kgcheck.ingest.tables import materialize_tables
from kgcheck.ingest.writer import DB_FILE, MANIFEST, open_database

from .manifest import INDEX_SCHEMA_VERSION, VECTORS_DIR, IndexError_, read_manifest
from .text import normalise
from .vectors import CACHE_FILE, EmbeddingCache, EncodeStats, build_faiss, choose_index_type, save_faiss

ENCODE_BLOCK = 8192  # texts per encode call: large enough for full batches, small enough for a live progress bar


def _entity_texts(con) -> list[str]:
    rows = con.execute(
        "SELECT DISTINCT l.text FROM labels l JOIN entities e ON e.id = l.id WHERE e.type = 'item' ORDER BY 1"
    ).fetchall()
    return [r[0] for r in rows]


def _property_rows(con) -> list[tuple[str, str, str]]:
    """(pid, text, kind) for property labels, aliases and 'label: description' strings."""
    rows = con.execute(
        "SELECT l.id, l.text, l.kind FROM labels l JOIN entities e ON e.id = l.id WHERE e.type = 'property' "
        "UNION ALL SELECT id, label || ': ' || description, 'description' FROM entities "
        "WHERE type = 'property' AND label IS NOT NULL AND description IS NOT NULL ORDER BY 1, 2"
    ).fetchall()
    return [tuple(r) for r in rows]


def _build_label_index(con) -> int:
    """label_index(norm, id, text, kind, language, type, sitelinks, statement_count), sorted by norm."""
    table = con.sql(
        "SELECT l.id, l.text, l.kind, l.language, e.type, e.sitelinks, e.statement_count "
        "FROM labels l JOIN entities e ON e.id = l.id"
    ).to_arrow_table()
    norms = pa.array([normalise(t) for t in table.column("text").to_pylist()], pa.string())
    table = table.append_column("norm", norms)
    con.register("label_rows", table)
    con.execute("DROP TABLE IF EXISTS label_index")
    con.execute(
        "CREATE TABLE label_index AS SELECT DISTINCT norm, id, text, kind, language, type, sitelinks, "
        "statement_count FROM label_rows WHERE norm <> '' ORDER BY norm, id"
    )
    con.unregister("label_rows")
    return con.execute("SELECT count(*) FROM label_index").fetchall()[0][0]


LOOKUP_DB = "lookup.sqlite"


def _build_property_stats(con) -> int:
    """How single-valued each property is in practice, and whether it is a time series (point in time).

    functionality = share of subjects with exactly one distinct non-deprecated value.
    """
    con.execute("DROP TABLE IF EXISTS property_stats")
    con.execute("""
        CREATE TABLE property_stats AS
        WITH per_subject AS (
            SELECT property, subject, count(DISTINCT value_text) AS n_values
            FROM statements WHERE rank <> 'deprecated' AND snaktype = 'value' GROUP BY property, subject),
        dated AS (
            SELECT s.property, count(DISTINCT s.statement_id) AS n_dated FROM statements s
            JOIN qualifiers q ON q.subject = s.subject AND q.statement_id = s.statement_id
            WHERE q.property IN ('P585', 'P580', 'P582') GROUP BY s.property),
        totals AS (SELECT property, count(*) AS n_statements FROM statements GROUP BY property)
        SELECT p.property, count(*) AS subjects, sum(CASE WHEN n_values > 1 THEN 1 ELSE 0 END) AS multi_subjects,
               1.0 - sum(CASE WHEN n_values > 1 THEN 1 ELSE 0 END) / count(*) AS functionality,
               coalesce(max(d.n_dated), 0) / max(t.n_statements) AS dated_share
        FROM per_subject p JOIN totals t USING (property) LEFT JOIN dated d USING (property)
        GROUP BY p.property ORDER BY p.property""")
    return con.execute("SELECT count(*) FROM property_stats").fetchall()[0][0]


def _build_lookup_db(con, path: str) -> None:
    """SQLite copies of label_index and entities: B-tree point lookups in microseconds, where DuckDB,
    built for scans, takes milliseconds a query. Search and label resolution use this file."""
    import sqlite3

    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    lite = sqlite3.connect(tmp)
    try:
        lite.execute("PRAGMA journal_mode = OFF")
        lite.execute("PRAGMA synchronous = OFF")
        lite.execute("CREATE TABLE label_index (norm TEXT, id TEXT, text TEXT, kind TEXT, type TEXT, "
                     "sitelinks INTEGER, statement_count INTEGER)")
        lite.execute("CREATE TABLE entities (id TEXT PRIMARY KEY, type TEXT, label TEXT, description TEXT, "
                     "datatype TEXT, sitelinks INTEGER, statement_count INTEGER) WITHOUT ROWID")
        for query, insert in (
            ("SELECT norm, id, text, kind, type, sitelinks, statement_count FROM label_index",
             "INSERT INTO label_index VALUES (?, ?, ?, ?, ?, ?, ?)"),
            ("SELECT id, type, label, description, datatype, sitelinks, statement_count FROM entities",
             "INSERT OR IGNORE INTO entities VALUES (?, ?, ?, ?, ?, ?, ?)"),
        ):
            reader = con.sql(query).to_arrow_reader(batch_size=100_000)
            for batch in reader:
                lite.executemany(insert, zip(*(col.to_pylist() for col in batch.columns)))
        lite.execute("CREATE INDEX label_norm ON label_index (norm)")
        lite.execute("CREATE INDEX label_text ON label_index (text)")
        lite.execute("CREATE INDEX label_id ON label_index (id)")  # names of an entity (facts.names, extraction)
        lite.commit()
    finally:
        lite.close()
    os.replace(tmp, path)


def _build_object_table(con) -> int:
    con.execute("DROP TABLE IF EXISTS statements_by_object")
    con.execute(
        "CREATE TABLE statements_by_object AS SELECT entity_id, subject, statement_id, property FROM statements "
        "WHERE entity_id IS NOT NULL ORDER BY entity_id"
    )
    return con.execute("SELECT count(*) FROM statements_by_object").fetchall()[0][0]


def encode_with_cache(texts: list[str], embedder, cache: EmbeddingCache, quiet: bool) -> tuple[np.ndarray, EncodeStats]:
    started = time.monotonic()
    found, missing = cache.lookup(texts)
    bar = None
    if not quiet and sys.stderr.isatty() and missing:
        from tqdm import tqdm

        bar = tqdm(total=len(missing), unit=" labels", desc="embed", file=sys.stderr)
    for start in range(0, len(missing), ENCODE_BLOCK):
        block = missing[start:start + ENCODE_BLOCK]
        block_texts = [texts[i] for i in block]
        vectors = embedder.encode(block_texts)
        cache.add(block_texts, vectors)
        for i, vec in zip(block, vectors):
            found[i] = vec
        if bar is not None:
            bar.update(len(block))
    if bar is not None:
        bar.close()
    matrix = np.asarray(found, dtype=np.float32).reshape(len(texts), embedder.dim) if texts else \
        np.zeros((0, embedder.dim), np.float32)
    # float16 round trips are not exactly unit length: renormalise so scores stay cosines.
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1, norms)
    stats = EncodeStats(len(texts), len(texts) - len(missing), len(missing), time.monotonic() - started)
    return matrix, stats


def build_index(directory: str, embedder=None, index_type: str | None = None, reuse: list[str] | None = None,
                quiet: bool = False) -> dict:
    """Add the search layer to an ingested directory; returns the updated manifest.

    `embedder` is an Embedder, a registered name (``kgcheck.embedders``), or None for the default.
    """
    started = time.time()
    directory = os.path.abspath(directory)
    manifest = read_manifest(directory)
    if embedder is None or isinstance(embedder, str):
        from .embed import get_embedder

        embedder = get_embedder(embedder) if embedder else get_embedder()
    cache = EmbeddingCache()
    for source in [directory] + [os.path.abspath(r) for r in (reuse or [])] + [directory + ".previous"]:
        cache.load(os.path.join(source, VECTORS_DIR, CACHE_FILE), embedder.name)
    vectors_tmp = os.path.join(directory, VECTORS_DIR + ".building")
    shutil.rmtree(vectors_tmp, ignore_errors=True)
    os.makedirs(vectors_tmp)
    try:
        con = open_database(directory, read_only=False)
        try:
            materialize_tables(con, directory, TABLES)  # views over Parquet -> native tables: faster lookups
            n_labels = _build_label_index(con)
            n_objects = _build_object_table(con)
            n_props = _build_property_stats(con)
            _build_lookup_db(con, os.path.join(directory, LOOKUP_DB))
            entity_texts = _entity_texts(con)
            prop_rows = _property_rows(con)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        ent_vectors, ent_stats = encode_with_cache(entity_texts, embedder, cache, quiet)
        prop_vectors, prop_stats = encode_with_cache([r[1] for r in prop_rows], embedder, cache, quiet)
        chosen = choose_index_type(len(entity_texts), index_type)
        save_faiss(build_faiss(ent_vectors, chosen), os.path.join(vectors_tmp, "entities.faiss"))
        save_faiss(build_faiss(prop_vectors, "flat"), os.path.join(vectors_tmp, "properties.faiss"))
        pq.write_table(pa.table({"text": entity_texts}), os.path.join(vectors_tmp, "entity_texts.parquet"))
        pq.write_table(pa.table({"id": [r[0] for r in prop_rows], "text": [r[1] for r in prop_rows],
                                 "kind": [r[2] for r in prop_rows]}),
                       os.path.join(vectors_tmp, "property_texts.parquet"))
        cache.save(os.path.join(vectors_tmp, CACHE_FILE), embedder.name,
                   entity_texts + [r[1] for r in prop_rows])
        final = os.path.join(directory, VECTORS_DIR)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(vectors_tmp, final)
    finally:
        shutil.rmtree(vectors_tmp, ignore_errors=True)
    encoded = ent_stats.encoded + prop_stats.encoded
    manifest["index"] = {
        "index_schema_version": INDEX_SCHEMA_VERSION,
        "kgcheck_version": __version__,
        "model": embedder.name,
        "dimension": embedder.dim,
        "faiss_index_type": chosen,
        "property_index_type": "flat",
        "counts": {"entity_vectors": len(entity_texts), "property_vectors": len(prop_rows),
                   "label_index": n_labels, "statements_by_object": n_objects,
                   "property_stats": n_props},
        "embeddings": {"reused": ent_stats.reused + prop_stats.reused, "encoded": encoded,
                       "encode_seconds": round(ent_stats.seconds + prop_stats.seconds, 3)},
        "wall_seconds": round(time.time() - started, 3),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    tmp = os.path.join(directory, MANIFEST + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, os.path.join(directory, MANIFEST))
    return manifest
