"""`kgcheck check --ray`: batches of claims checked by Ray actors that each open the index once from shared
storage (the same path on every node) and keep one Checker; verdicts come back in input order.

At most 2 batches per actor are in flight, so memory stays bounded for files of millions of claims.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator

from kgcheck.index.distributed import connect
from kgcheck.verifier.claims.bulk import BATCH, batched
from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.model import BadClaim, Claim, Verdict


class CheckWorker:
    def __init__(self, index_dir: str, options: CheckOptions, embedder_spec=None):
        from kgcheck.index.store import KG

        embedder = None
        if embedder_spec is not None:
            cls, kwargs = embedder_spec
            embedder = cls(**kwargs)
        self.kg = KG.open(index_dir, embedder=embedder)
        self.checker = Checker(self.kg, options=options)

    def check(self, claims: list[Claim]) -> list[Verdict]:
        return self.checker.check(claims)


def ray_check_stream(index_dir: str, items: Iterable[Claim | BadClaim], skip, options: CheckOptions,
                     address: str, workers: int | None = None, embedder_spec=None,
                     batch_size: int = BATCH) -> Iterator[Verdict | BadClaim]:
    """Like bulk.check_stream, the batches spread over `workers` actors (default: one per cluster CPU)."""
    ray = connect(address)
    n = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1)(CheckWorker)
    actors = [remote.remote(index_dir, options, embedder_spec) for _ in range(n)]
    inflight: deque = deque()

    def emit(batch, future):
        verdicts = iter(ray.get(future)) if future is not None else iter(())
        for item in batch:
            if isinstance(item, BadClaim):
                yield item
            elif item.id not in skip:
                yield next(verdicts)

    try:
        for i, batch in enumerate(batched(items, batch_size)):
            claims = [c for c in batch if isinstance(c, Claim) and c.id not in skip]
            inflight.append((batch, actors[i % n].check.remote(claims) if claims else None))
            if len(inflight) >= 2 * n:
                yield from emit(*inflight.popleft())
        while inflight:
            yield from emit(*inflight.popleft())
    finally:
        for actor in actors:
            ray.kill(actor)
