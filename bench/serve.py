"""Load on loopback: a bounded burst of concurrent /check and /verify requests against `kgcheck serve`.

    python bench/serve.py [--index DIR] [--requests 200] [--clients 16]

Starts the server in this process (uvicorn thread, 127.0.0.1, a free port), sends the burst
with N client threads, prints requests/s, p50/p99 latency and the error count, and stops.
"""
from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from common import ROOT, percentile

TEXT = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. Charles Michel was born in Brussels."
CLAIMS = [{"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"},
          {"subject": "Belgium", "predicate": "capital", "object": "Brussels"},
          {"subject": "Belgium", "predicate": "population", "object": "12 million"}]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default=None, help="default: the fixture, built into a temp dir")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--clients", type=int, default=16)
    args = ap.parse_args()

    import httpx
    import uvicorn

    from kgcheck.verifier.serve.server import create_app

    index = args.index
    if index is None:
        from kgcheck.index.build import build_index
        from kgcheck.ingest.pipeline import IngestOptions, ingest

        index = tempfile.mkdtemp() + "/kg"
        ingest(str(ROOT / "tests" / "fixtures" / "mini-dump.json"), index, IngestOptions(quiet=True))
        build_index(index, quiet=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(index), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    client = httpx.Client(timeout=60)
    client.post(f"{base}/verify", json={"text": TEXT})  # warm-up: model and caches

    def one(i: int) -> tuple[str, float, bool]:
        t = time.perf_counter()
        if i % 2:
            r = client.post(f"{base}/check", json=CLAIMS)
        else:
            r = client.post(f"{base}/verify", json={"text": TEXT, "fix": True})
        return ("check" if i % 2 else "verify", time.perf_counter() - t, r.status_code == 200)

    started = time.perf_counter()
    with ThreadPoolExecutor(args.clients) as pool:
        results = list(pool.map(one, range(args.requests)))
    wall = time.perf_counter() - started
    client.close()
    server.should_exit = True
    thread.join(10)  # a clean stop: no native objects torn down under a running thread
    errors = sum(not ok for *_, ok in results)
    print(f"{args.requests} requests, {args.clients} concurrent clients, {wall:.1f} s: "
          f"{args.requests / wall:.1f} requests/s, errors {errors}")
    for kind in ("check", "verify"):
        lat = [t for k, t, _ in results if k == kind]
        print(f"  /{kind}: p50 {percentile(lat, .5) * 1000:.0f} ms, p99 {percentile(lat, .99) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
