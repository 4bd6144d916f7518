"""FAISS indexes chosen by size and filled batch by batch, and the on-disk embedding cache keyed by text hash."""
from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass

import numpy as np

FLAT_MAX = 1_000_000  # above this many vectors an exact index costs too much memory and time
INDEX_TYPES = ("flat", "ivfsq8", "ivfpq", "hnsw")
COMPRESSED_DEFAULT = "ivfsq8"  # above FLAT_MAX: 4x smaller than flat (recall loss in README, bench/scale.py)
SHARD_VECTORS = 2_000_000  # vectors held in memory per FAISS shard while building (SQ8: ~0.8 GB)
TRAIN_MAX = 200_000  # sample that trains the coarse quantizer / codebooks
CACHE_FILE = "embedding-cache.sqlite"
LEGACY_CACHE_FILE = "embedding-cache.parquet"  # index schema 1: read (streamed) so old builds still help


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def choose_index_type(n_vectors: int, requested: str | None) -> str:
    if requested:
        if requested not in INDEX_TYPES:
            raise ValueError(f"unknown index type {requested!r}; choose one of {', '.join(INDEX_TYPES)}")
        return requested
    return "flat" if n_vectors <= FLAT_MAX else COMPRESSED_DEFAULT


def nlist_for(n: int) -> int:
    return max(1, min(int(4 * np.sqrt(n)), n // 39))


def empty_index(index_type: str, dim: int, n_total: int, sample: np.ndarray | None):
    """An index ready for add(): trained on `sample` when the type needs training."""
    import faiss

    if index_type == "flat" or n_total == 0:
        return faiss.IndexFlatIP(dim)
    if index_type == "hnsw":
        index = faiss.IndexHNSWSQ(dim, faiss.ScalarQuantizer.QT_8bit, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efSearch = 64
    else:
        quantizer = faiss.IndexFlatIP(dim)
        nlist = nlist_for(n_total)
        if index_type == "ivfsq8":
            index = faiss.IndexIVFScalarQuantizer(quantizer, dim, nlist, faiss.ScalarQuantizer.QT_8bit,
                                                  faiss.METRIC_INNER_PRODUCT)
        else:
            m = 48 if dim % 48 == 0 else 16
            index = faiss.IndexIVFPQ(quantizer, dim, nlist, m, 8, faiss.METRIC_INNER_PRODUCT)
        index.nprobe = 16
    index.train(sample)
    return index


class FaissSink:
    """Adds vectors batch by batch; every SHARD_VECTORS rows the shard is written out and a fresh copy of
    the trained empty index takes over, so memory holds one shard whatever the total."""

    def __init__(self, index_type: str, dim: int, n_total: int, directory: str, name: str,
                 sample: np.ndarray | None = None):
        import faiss

        self._faiss = faiss
        self.directory, self.name = directory, name
        self.index_type = index_type
        self._template = faiss.serialize_index(empty_index(index_type, dim, n_total, sample))
        self._index = faiss.deserialize_index(self._template)
        self.shards: list[str] = []
        self.rows = 0

    def add(self, vectors: np.ndarray) -> None:
        while len(vectors):
            room = SHARD_VECTORS - self._index.ntotal
            self._index.add(np.ascontiguousarray(vectors[:room], dtype=np.float32))
            self.rows += min(room, len(vectors))
            vectors = vectors[room:]
            if self._index.ntotal >= SHARD_VECTORS:
                self._flush()

    def _flush(self) -> None:
        name = f"{self.name}-{len(self.shards):03d}.faiss"
        self._faiss.write_index(self._index, os.path.join(self.directory, name))
        self.shards.append(name)
        self._index = self._faiss.deserialize_index(self._template)

    def close(self) -> list[str]:
        if self._index.ntotal or not self.shards:
            self._flush()
        return self.shards


class ShardedIndex:
    """Searches each shard (rows numbered across shards in order) and merges the top k."""

    def __init__(self, paths: list[str]):
        import faiss

        self.shards = [faiss.read_index(p) for p in paths]
        self.offsets = np.cumsum([0] + [s.ntotal for s in self.shards])[:-1]
        self.ntotal = int(sum(s.ntotal for s in self.shards))

    def search(self, matrix: np.ndarray, k: int):
        if len(self.shards) == 1:
            return self.shards[0].search(matrix, k)
        parts = [(s.search(matrix, k), off) for s, off in zip(self.shards, self.offsets)]
        scores = np.concatenate([p[0][0] for p in parts], axis=1)
        rows = np.concatenate([np.where(found >= 0, found + off, -1) for (_, found), off in parts], axis=1)
        order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        return np.take_along_axis(scores, order, 1), np.take_along_axis(rows, order, 1)


def save_faiss(index, path: str) -> None:
    import faiss

    faiss.write_index(index, path)


def load_faiss(path: str):
    import faiss

    return faiss.read_index(path)


class EmbeddingCache:
    """text hash -> float16 vector in a SQLite file (WITHOUT ROWID B-tree on the key): lookups by key,
    nothing held in memory. A build writes a new cache holding exactly its own texts (so it does not
    grow forever) and reads older caches of the same model to skip re-encoding."""

    def __init__(self, path: str, model_name: str, dim: int):
        self.model_name, self.dim = model_name, dim
        if os.path.exists(path):
            os.remove(path)
        self._db = sqlite3.connect(path)
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute("CREATE TABLE meta (model TEXT, dim INTEGER)")
        self._db.execute("INSERT INTO meta VALUES (?, ?)", (model_name, dim))
        self._db.execute("CREATE TABLE cache (key BLOB PRIMARY KEY, vector BLOB) WITHOUT ROWID")
        self._db.commit()
        self._sources: list[sqlite3.Connection] = []

    def attach(self, path: str, scratch_dir: str | None = None) -> bool:
        """Read an older cache (same model and dimension) from now on; a legacy Parquet cache is
        streamed into a SQLite copy in scratch_dir first."""
        if path.endswith(".parquet"):
            if not os.path.isfile(path) or scratch_dir is None:
                return False
            path = _convert_legacy(path, os.path.join(scratch_dir, f"legacy-{len(self._sources)}.sqlite"))
            if path is None:
                return False
        if not os.path.isfile(path):
            return False
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            model, dim = db.execute("SELECT model, dim FROM meta").fetchone() or (None, None)
        except sqlite3.Error:
            db.close()
            return False
        if model != self.model_name or dim != self.dim:
            db.close()
            return False
        self._sources.append(db)
        return True

    def lookup(self, texts: list[str]) -> tuple[np.ndarray, list[int]]:
        """(vectors, positions still to encode); found rows are also written to this build's cache."""
        keys = [text_key(t) for t in texts]
        out = np.zeros((len(texts), self.dim), np.float32)
        where: dict[bytes, list[int]] = {}
        for i, key in enumerate(keys):
            where.setdefault(key, []).append(i)
        for db in [self._db] + self._sources:
            wanted = list(where)
            found = []
            for start in range(0, len(wanted), 900):
                part = wanted[start:start + 900]
                found.extend(db.execute(f"SELECT key, vector FROM cache WHERE key IN ({','.join('?' * len(part))})",
                                        part).fetchall())
            for key, blob in found:
                vec = np.frombuffer(blob, np.float16)
                for i in where.pop(key, ()):
                    out[i] = vec
            if db is not self._db and found:
                self._db.executemany("INSERT OR IGNORE INTO cache VALUES (?, ?)", found)
            if not where:
                break
        missing = sorted(i for positions in where.values() for i in positions)
        return out, missing

    def add(self, texts: list[str], vectors: np.ndarray) -> None:
        rows = [(text_key(t), v.tobytes()) for t, v in zip(texts, vectors.astype(np.float16))]
        self._db.executemany("INSERT OR IGNORE INTO cache VALUES (?, ?)", rows)

    def close(self) -> None:
        self._db.commit()
        self._db.close()
        for db in self._sources:
            db.close()


def _convert_legacy(parquet_path: str, target: str) -> str | None:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(parquet_path)
    model = (pf.schema_arrow.metadata or {}).get(b"model", b"").decode()
    if os.path.exists(target):
        os.remove(target)
    db = sqlite3.connect(target)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("CREATE TABLE cache (key BLOB PRIMARY KEY, vector BLOB) WITHOUT ROWID")
    dim = 0
    for batch in pf.iter_batches(batch_size=50_000):
        keys = batch.column(0).to_pylist()
        flat = batch.column(1).flatten().to_numpy(zero_copy_only=False).astype(np.float16)
        dim = len(flat) // max(1, len(keys)) or dim
        matrix = flat.reshape(len(keys), dim) if keys else flat
        db.executemany("INSERT OR IGNORE INTO cache VALUES (?, ?)", zip(keys, (v.tobytes() for v in matrix)))
    db.execute("CREATE TABLE meta (model TEXT, dim INTEGER)")
    db.execute("INSERT INTO meta VALUES (?, ?)", (model, dim))
    db.commit()
    db.close()
    return target


@dataclass(frozen=True)
class EncodeStats:
    texts: int
    reused: int
    encoded: int
    seconds: float

    def __add__(self, other: "EncodeStats") -> "EncodeStats":
        return EncodeStats(self.texts + other.texts, self.reused + other.reused, self.encoded + other.encoded,
                           self.seconds + other.seconds)
