"""The first request that needs the embedding model, with and without the servers' start-up load of it.

    python bench/first_request.py --index DIR [--idle 20] [--runs 2]

Each run is a fresh process (the model is cached process-wide): the HTTP app is created on DIR, left idle for
`--idle` seconds (a server waiting for its first user), then sent one /verify text whose namesakes are told apart
by their descriptions — a model query — and a second one. `lazy` turns the start-up load off (the model loads in
the first request that needs it, as before), `loaded` is the shipped behaviour. Prints each request's seconds and
the ratio of the medians of the first requests.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

# Upper case leaves every name a namesake question: the description similarity needs the model.
TEXT = "FRIENDS WILL BE FRIENDS WAS THE BAND'S 30TH SINGLE IN THE UK UPON ITS RELEASE ON 9 JUNE 1986, REACHING " \
       "NUMBER 14 IN THE UK."

CHILD = """
import json, sys, time
from fastapi.testclient import TestClient
from kgcheck.index.store import KG
index, mode, idle, text = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
if mode == "lazy":
    KG.load_embedder_in_background = lambda self: None
from kgcheck.verifier.serve.server import create_app
client = TestClient(create_app(index))
time.sleep(idle)
times = []
for _ in range(2):
    start = time.perf_counter()
    status = client.post("/verify", json={"text": text}).status_code
    times.append(round(time.perf_counter() - start, 3))
    assert status == 200, status
print(json.dumps(times))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", required=True)
    ap.add_argument("--idle", type=float, default=20.0)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    firsts: dict[str, list[float]] = {"lazy": [], "loaded": []}
    for _ in range(args.runs):
        for mode in firsts:  # alternating: the machine's drift hits both
            out = subprocess.run([sys.executable, "-c", CHILD, args.index, mode, str(args.idle), TEXT],
                                 capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
            first, second = json.loads(out)
            firsts[mode].append(first)
            print(f"{mode:6}  first request {first:6.2f} s   second {second:5.2f} s")
    lazy, loaded = statistics.median(firsts["lazy"]), statistics.median(firsts["loaded"])
    print(f"first request, median: lazy {lazy:.2f} s, loaded at start {loaded:.2f} s = {loaded / lazy:.2f}x")


if __name__ == "__main__":
    main()
