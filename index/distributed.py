"""Ray for what outgrows one machine: `kgcheck index --ray` encodes the texts the cache lacks on Ray actors
(each loads the model once) fed by Ray Data blocks read from the index directory on shared storage.

ADDRESS: "auto" (the cluster `ray start` made), "local" (a fresh local cluster; tests), or host:port /
ray://host:10001. Ray is optional: `pip install kgcheck[ray]`.
"""
from __future__ import annotations

import os

import numpy as np

ACTOR_BATCH = 1024  # texts per actor call; each actor sorts its batch by token count before the forward pass


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached."""


def connect(address: str, num_cpus: int | None = None):
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable("--ray needs Ray: pip install 'kgcheck[ray]'") from exc
    if not ray.is_initialized():
        kwargs = {"include_dashboard": False, "log_to_driver": False, "ignore_reinit_error": True}
        try:
            if address == "local":
                ray.init(num_cpus=num_cpus or os.cpu_count(), **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except (ConnectionError, RuntimeError) as exc:
            raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {exc}") from exc
    return ray


class EmbedActor:
    """A Ray Data actor: builds the embedder once, then encodes batch after batch."""

    def __init__(self, spec):
        cls, kwargs = spec
        self.embedder = cls(**kwargs)

    def __call__(self, batch: dict) -> dict:
        texts = [str(t) for t in batch["text"]]
        return {"text": np.asarray(texts, dtype=object),
                "vector": np.asarray(self.embedder.encode(texts), dtype=np.float32)}


class RayEncoder:
    """encode_file() over Ray Data: the file of texts to encode is read by the cluster (shared storage),
    vectors come back to the driver, which writes them to the embedding cache."""

    def __init__(self, embedder, address: str, actors: int | None = None):
        self.ray = connect(address)
        self.spec = embedder.spec()
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        # One CPU stays free for Ray Data's read tasks: with every CPU held by an actor they never
        # get scheduled and the pipeline waits forever (seen on a 2-CPU cluster).
        self.actors = actors or max(1, cpus - 1)

    def encode_file(self, path: str, cache, progress) -> None:
        import pyarrow.parquet as pq

        if pq.ParquetFile(path).metadata.num_rows == 0:
            return
        ds = self.ray.data.read_parquet(os.path.abspath(path)).map_batches(
            EmbedActor, fn_constructor_args=(self.spec,), batch_size=ACTOR_BATCH, concurrency=self.actors,
            num_cpus=1, batch_format="numpy")
        for batch in ds.iter_batches(batch_size=ACTOR_BATCH, batch_format="numpy"):
            texts = [str(t) for t in batch["text"]]
            cache.add(texts, np.asarray(batch["vector"], dtype=np.float32))
            progress(len(texts))
