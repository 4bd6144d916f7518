"""The vector stage of `kgcheck index`: texts streamed from a sorted Parquet file, encoded block by block
(on-disk cache first, then the embedder: local, multi-process, or Ray actors), added to FAISS shards."""
from __future__ import annotations

import os
import sqlite3
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .vectors import TRAIN_MAX, EmbeddingCache, EncodeStats, FaissSink, choose_index_type, nlist_for

ENCODE_BLOCK = 8192  # texts per encode call: large enough for full batches, small enough for a live progress bar
EMBED_CHOICES = ("labels", "aliases", "none")
TEXTS_DB = "texts.sqlite"  # FAISS row -> text (the Searcher looks rows up; it never loads them all)


def entity_text_sql(embed: str, min_sitelinks: int) -> str | None:
    """The distinct item texts to embed: labels only, or labels and aliases, of items with enough sitelinks."""
    if embed == "none":
        return None
    kind = " AND l.kind = 'label'" if embed == "labels" else ""
    popular = f" AND coalesce(e.sitelinks, 0) >= {int(min_sitelinks)}" if min_sitelinks > 0 else ""
    return ("SELECT DISTINCT l.text FROM labels l JOIN entities e ON e.id = l.id "
            f"WHERE e.type = 'item'{kind}{popular} ORDER BY 1")


def encode_with_cache(texts: list[str], encode, cache: EmbeddingCache) -> tuple[np.ndarray, EncodeStats]:
    """Vectors of `texts` (float32, unit rows): cached ones read, the rest encoded by `encode` and cached."""
    started = time.monotonic()
    matrix, missing = cache.lookup(texts)
    if missing:
        block = [texts[i] for i in missing]
        vectors = np.asarray(encode(block), dtype=np.float32)
        cache.add(block, vectors)
        matrix[missing] = vectors.astype(np.float16).astype(np.float32)  # as a later cache hit will read it
    # float16 round trips are not exactly unit length: renormalise so scores stay cosines.
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1, norms)
    return matrix, EncodeStats(len(texts), len(texts) - len(missing), len(missing), time.monotonic() - started)


class LocalEncoder:
    """Encodes a Parquet file of texts block by block in this process (or its sentence-transformers pool)."""

    def __init__(self, embedder):
        self.embedder = embedder

    def encode_file(self, path: str, cache: EmbeddingCache, progress) -> None:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=ENCODE_BLOCK, columns=["text"]):
            texts = batch.column(0).to_pylist()
            cache.add(texts, np.asarray(self.embedder.encode(texts), dtype=np.float32))
            progress(len(texts))


def encode_entity_texts(con, sql: str, work_dir: str, encoder, dim: int, cache: EmbeddingCache,
                        index_type: str | None, quiet: bool) -> tuple[dict, EncodeStats]:
    """Three streaming passes over the texts, sorted once by DuckDB (out of core) into a Parquet file:
    1. cache lookups: hits go to this build's cache, misses to missing.parquet;
    2. the encoder (local, or Ray actors over Ray Data blocks) fills the cache with the misses;
    3. every text read back from the cache: a sample trains the index, blocks are added to FAISS shards,
       and each block's texts go to texts.sqlite under their row number."""
    started = time.monotonic()
    sorted_path = os.path.join(work_dir, "texts.tmp.parquet")
    missing_path = os.path.join(work_dir, "missing.tmp.parquet")
    con.execute(f"COPY ({sql}) TO '{sorted_path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ENCODE_BLOCK})")
    pf = pq.ParquetFile(sorted_path)
    n = pf.metadata.num_rows
    n_missing = 0
    writer = pq.ParquetWriter(missing_path, pa.schema([("text", pa.string())]))
    for batch in pf.iter_batches(batch_size=ENCODE_BLOCK, columns=["text"]):
        texts = batch.column(0).to_pylist()
        _, missing = cache.lookup(texts)
        if missing:
            writer.write_table(pa.table({"text": [texts[i] for i in missing]}))
            n_missing += len(missing)
    writer.close()
    bar = None
    if not quiet and sys.stderr.isatty() and n_missing:
        from tqdm import tqdm

        bar = tqdm(total=n_missing, unit=" texts", desc="embed", file=sys.stderr)
    encoder.encode_file(missing_path, cache, bar.update if bar is not None else (lambda k: None))
    if bar is not None:
        bar.close()
    os.remove(missing_path)
    chosen = choose_index_type(n, index_type)
    sample = None
    if chosen != "flat" and n:
        size = min(n, max(nlist_for(n) * 39, min(TRAIN_MAX, n)))
        texts = [r[0] for r in con.execute(
            f"SELECT text FROM read_parquet('{sorted_path}') USING SAMPLE reservoir({size} ROWS) REPEATABLE (7)"
        ).fetchall()]
        sample = _cached_vectors(texts, cache)
    sink = FaissSink(chosen, dim, n, work_dir, "entities", sample)
    del sample
    texts_db = sqlite3.connect(os.path.join(work_dir, TEXTS_DB))
    texts_db.execute("PRAGMA journal_mode = OFF")
    texts_db.execute("CREATE TABLE texts (row INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    row = 0
    for batch in pf.iter_batches(batch_size=ENCODE_BLOCK, columns=["text"]):
        texts = batch.column(0).to_pylist()
        sink.add(_cached_vectors(texts, cache))
        texts_db.executemany("INSERT INTO texts VALUES (?, ?)", zip(range(row, row + len(texts)), texts))
        row += len(texts)
    texts_db.commit()
    texts_db.close()
    shards = sink.close()
    os.remove(sorted_path)
    stats = EncodeStats(n, n - n_missing, n_missing, time.monotonic() - started)
    return {"faiss_index_type": chosen, "entity_shards": shards, "entity_vectors": n}, stats


def _cached_vectors(texts: list[str], cache: EmbeddingCache) -> np.ndarray:
    matrix, missing = cache.lookup(texts)
    if missing:
        raise RuntimeError(f"{len(missing)} texts missing from the embedding cache after encoding")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1, norms)
    return matrix


def write_property_vectors(rows: list[tuple[str, str, str]], encode, cache: EmbeddingCache, work_dir: str,
                           dim: int) -> EncodeStats:
    """Property texts are few (tens of thousands): one flat index, texts in a small Parquet file."""
    vectors, stats = encode_with_cache([r[1] for r in rows], encode, cache)
    import faiss

    index = faiss.IndexFlatIP(dim)
    index.add(vectors)
    faiss.write_index(index, os.path.join(work_dir, "properties.faiss"))  # the name verifier/claims/facts.py reads
    pq.write_table(pa.table({"id": [r[0] for r in rows], "text": [r[1] for r in rows],
                             "kind": [r[2] for r in rows]}), os.path.join(work_dir, "property_texts.parquet"))
    return stats
