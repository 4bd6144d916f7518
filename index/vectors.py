"""FAISS indexes chosen by size, and the embedding cache keyed by text hash."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

FLAT_MAX = 1_000_000  # above this many vectors an exact index costs too much memory and time
INDEX_TYPES = ("flat", "ivfpq", "hnsw")
CACHE_FILE = "embedding-cache.parquet"


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def choose_index_type(n_vectors: int, requested: str | None) -> str:
    if requested:
        if requested not in INDEX_TYPES:
            raise ValueError(f"unknown index type {requested!r}; choose one of {', '.join(INDEX_TYPES)}")
        return requested
    return "flat" if n_vectors <= FLAT_MAX else "ivfpq"


def build_faiss(vectors: np.ndarray, index_type: str):
    """Inner-product index over L2-normalised vectors (= cosine)."""
    import faiss

    n, dim = vectors.shape
    if index_type == "flat" or n == 0:
        index = faiss.IndexFlatIP(dim)
    elif index_type == "hnsw":
        index = faiss.IndexHNSWSQ(dim, faiss.ScalarQuantizer.QT_8bit, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efSearch = 64
        index.train(vectors[: min(n, 200_000)])
    else:
        nlist = max(1, min(int(4 * np.sqrt(n)), n // 39))
        m = 48 if dim % 48 == 0 else 16
        quantizer = faiss.IndexFlatIP(dim)
        index = faiss.IndexIVFPQ(quantizer, dim, nlist, m, 8, faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(0)
        sample = vectors[rng.choice(n, size=min(n, max(nlist * 39, 100_000)), replace=False)]
        index.train(sample)
        index.nprobe = 16
    if n:
        index.add(vectors)
    return index


def save_faiss(index, path: str) -> None:
    import faiss

    faiss.write_index(index, path)


def load_faiss(path: str):
    import faiss

    return faiss.read_index(path)


class EmbeddingCache:
    """text hash -> vector (float16 on disk), carried from one build to the next."""

    def __init__(self):
        self._vectors: dict[bytes, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._vectors)

    def load(self, path: str, model_name: str) -> int:
        """Merge a cache file if it was made by the same model; returns how many entries it added."""
        if not os.path.isfile(path):
            return 0
        table = pq.read_table(path)
        if (table.schema.metadata or {}).get(b"model", b"").decode() != model_name:
            return 0
        keys = table.column("key").to_pylist()
        flat = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        dim = len(flat) // max(1, len(keys))
        matrix = flat.reshape(len(keys), dim)
        before = len(self._vectors)
        for key, vec in zip(keys, matrix):
            self._vectors.setdefault(key, vec)
        return len(self._vectors) - before

    def lookup(self, texts: list[str]) -> tuple[list[np.ndarray | None], list[int]]:
        """Cached vectors (or None) and the positions that still need encoding."""
        found, missing = [], []
        for i, text in enumerate(texts):
            vec = self._vectors.get(text_key(text))
            found.append(vec)
            if vec is None:
                missing.append(i)
        return found, missing

    def add(self, texts: list[str], vectors: np.ndarray) -> None:
        for text, vec in zip(texts, vectors.astype(np.float16)):
            self._vectors[text_key(text)] = vec

    def save(self, path: str, model_name: str, keep: list[str]) -> None:
        """Write the entries for `keep` (the texts of this build) only, so the cache does not grow forever."""
        keys, rows = [], []
        for text in keep:
            key = text_key(text)
            vec = self._vectors.get(key)
            if vec is not None:
                keys.append(key)
                rows.append(vec)
        dim = rows[0].shape[0] if rows else 0
        flat = pa.array(np.asarray(rows, dtype=np.float16).reshape(-1) if rows else np.zeros(0, np.float16))
        vectors = pa.FixedSizeListArray.from_arrays(flat, dim) if dim else pa.array([], pa.list_(pa.float16()))
        table = pa.table({"key": pa.array(keys, pa.binary(16)), "vector": vectors})
        table = table.replace_schema_metadata({"model": model_name})
        pq.write_table(table, path, compression="zstd")


@dataclass(frozen=True)
class EncodeStats:
    texts: int
    reused: int
    encoded: int
    seconds: float
