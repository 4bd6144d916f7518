"""Load on loopback: a bounded burst of concurrent /check and /verify requests against `kgcheck serve`.

    python bench/serve.py [--index DIR] [--requests 200] [--clients 16] [--abusers 6] [--no-abuse]

Starts the server in this process (uvicorn thread, 127.0.0.1, a free port), sends the burst
with N client threads, prints requests/s, p50/p99 latency and the error count, and stops.

Abuse phase (issue 17): the same burst again while `--abusers` clients each send /verify texts at the
server's text cap (the most expensive request it accepts; real dev sentences when ../shared is there)
and one over it, and a poller asks /health every 0.25 s. Prints the normal clients' p99 without and with
the abuse (target: at most 2x) and whether /health answered throughout. Every loop is bounded.
"""
from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from common import ROOT, SHARED, percentile

TEXT = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. Charles Michel was born in Brussels."
CLAIMS = [{"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"},
          {"subject": "Belgium", "predicate": "capital", "object": "Brussels"},
          {"subject": "Belgium", "predicate": "population", "object": "12 million"}]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default=None, help="default: the fixture, built into a temp dir")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--abusers", type=int, default=6)
    ap.add_argument("--abuse-rounds", type=int, default=2, help="at-cap texts each abuser sends")
    ap.add_argument("--no-abuse", action="store_true")
    ap.add_argument("--timeout", type=float, default=30.0, help="the server's time cap per request")
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
    app = create_app(index, request_timeout_s=args.timeout)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    client = httpx.Client(timeout=120)
    client.post(f"{base}/verify", json={"text": TEXT})  # warm-up: model and caches
    limits = client.get(f"{base}/health").json()["limits"]

    def one(i: int) -> tuple[str, float, bool]:
        t = time.perf_counter()
        if i % 2:
            r = client.post(f"{base}/check", json=CLAIMS)
        else:
            r = client.post(f"{base}/verify", json={"text": TEXT, "fix": True})
        return ("check" if i % 2 else "verify", time.perf_counter() - t, r.status_code == 200)

    def burst(label: str, requests: int | None = None) -> list:
        requests = requests or args.requests
        started = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            results = list(pool.map(one, range(requests)))
        if label == "warm-up":  # caches and lazily loaded tables: not part of either measured phase
            return results
        wall = time.perf_counter() - started
        errors = sum(not ok for *_, ok in results)
        print(f"{label}: {requests} requests, {args.clients} concurrent clients, {wall:.1f} s: "
              f"{requests / wall:.1f} requests/s, errors {errors}")
        for kind in ("check", "verify"):
            lat = [t for k, t, _ in results if k == kind]
            print(f"  /{kind}: p50 {percentile(lat, .5) * 1000:.0f} ms, p99 {percentile(lat, .99) * 1000:.0f} ms")
        return results

    try:
        burst("warm-up", 2 * args.clients)
        calm = burst("normal load")
        if not args.no_abuse:
            abuse(base, client, burst, calm, limits, args)
    finally:
        client.close()
        server.should_exit = True
        thread.join(10)  # a clean stop: no native objects torn down under a running thread


def long_text(chars: int) -> str:
    """Real dev sentences up to `chars` characters (else the demo text repeated)."""
    path = SHARED / "bench" / "text-factcheck-dev.jsonl"
    if path.exists():
        from bench_text_scaling import make_text

        texts = list(dict.fromkeys(json.loads(line)["text"] for line in open(path, encoding="utf-8")))
        return make_text(texts[::-1], chars)  # from the end: not the sentences the normal clients send
    return (TEXT + " ") * (chars // (len(TEXT) + 1))


def abuse(base, client, burst, calm, limits, args) -> None:
    cap = limits["max_text_chars"]
    heavy = long_text(cap)
    done = threading.Event()
    statuses: Counter = Counter()
    health: list[tuple[float, int]] = []

    def abuser(n: int) -> None:
        with httpx_client() as c:
            statuses[c.post(f"{base}/verify", json={"text": heavy + " x" * cap}).status_code] += 1  # over the cap
            for _ in range(args.abuse_rounds):
                if done.is_set():
                    return
                statuses[c.post(f"{base}/verify", json={"text": heavy}).status_code] += 1

    def poll_health() -> None:
        with httpx_client() as c:
            for _ in range(100_000):  # bounded; stops when the phase ends
                if done.is_set():
                    return
                t = time.perf_counter()
                try:
                    code = c.get(f"{base}/health", timeout=5).status_code
                except Exception:  # noqa: BLE001 - a timeout is what we are looking for
                    code = 0
                health.append((time.perf_counter() - t, code))
                time.sleep(0.25)

    side = [threading.Thread(target=abuser, args=(i,)) for i in range(args.abusers)]
    side.append(threading.Thread(target=poll_health))
    for t in side:
        t.start()
    time.sleep(1.0)  # the at-cap texts are being worked on when the burst starts
    try:
        loud = burst(f"with {args.abusers} abusers sending {len(heavy):,}-character texts (the cap)")
    finally:
        done.set()
        for t in side:
            t.join(args.timeout * (args.abuse_rounds + 2))
    before = percentile([t for *_, t, _ in [(k, t, ok) for k, t, ok in calm]], .99)
    after = percentile([t for k, t, ok in loud], .99)
    print(f"normal clients' p99 (all requests): {before * 1000:.0f} ms without abuse, {after * 1000:.0f} ms "
          f"with: x{after / before:.2f} (target <= 2)")
    print(f"abusive /verify answers: {dict(sorted(statuses.items()))} (413 = over the cap, 504 = stopped at "
          f"the {args.timeout:g} s cap)")
    ok = sum(code == 200 for _, code in health)
    print(f"/health: {ok}/{len(health)} polls answered 200, slowest {max(t for t, _ in health) * 1000:.0f} ms"
          if health else "/health: not polled")


def httpx_client():
    import httpx

    return httpx.Client(timeout=600)


if __name__ == "__main__":
    main()
