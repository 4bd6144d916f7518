"""Open-world verdicts: false refutations of true facts the graph lacks, and claims-dev over the same graph.

    python bench/openworld.py [--index /work/indexes/wd50k-ow] [--closed-world] [--worst 12] [--errors FILE]

openworld-dev.jsonl: `removed` claims state a value taken out of the graph (true in the world):
REFUTED is a false refutation; `kept` claims state a value still there: SUPPORTED.
claims-dev.jsonl gives the same results over this graph as over wd50k, so one index serves both.
Prints: false refutation (share of removed), kept SUPPORTED, the worst properties, claims-dev
C1 / C3 / false support, which source decided each REFUTED (constraint / measured / none), and the
reliability table (per confidence bin, the share of correct verdicts) over both files: by the gold label, and
counting SUPPORTED right on a removed claim (a true fact the graph still implies: see `right`).
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter, defaultdict

from common import SHARED, need_shared

BINS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def right(gold: dict, verdict, world: bool = False) -> bool:
    """The verdict is the gold label; with `world`, SUPPORTED is right too on a removed claim: the claim is a true
    fact by construction, and a support means the graph still implies it (a value of a subclass, another
    statement with the same value), which the label (written as if the graph lacked the fact) cannot know."""
    return gold["label"] == verdict.verdict or (world and gold.get("set") == "removed" and verdict.verdict == "SUPPORTED")


def reliability(pairs, world: bool = False) -> list[tuple[str, int, float, float]]:
    """(bin, n, mean confidence, share correct) per confidence bin."""
    rows = []
    lo = 0.0
    for hi in BINS:
        inside = [(v.confidence, right(g, v, world)) for g, v in pairs if lo <= v.confidence < hi]
        if inside:
            rows.append((f"[{lo:.1f},{min(hi, 1.0):.1f})", len(inside), sum(c for c, _ in inside) / len(inside),
                         sum(ok for _, ok in inside) / len(inside)))
        lo = hi
    return rows


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The two-sided 95 % Wilson interval of a share measured on n verdicts."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (share * (1 - share) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def calibrated(conf: float, acc: float, n: int) -> str:
    """'' when the share correct is within 0.1 of the mean confidence; 'n too small' when it is not but its 95 %
    interval still reaches that band (2 verdicts cannot tell 0.77 from 1.0); '> 0.1' otherwise."""
    if abs(conf - acc) <= 0.1:
        return ""
    low, high = wilson(acc, n)
    return "  n too small to tell" if low <= conf + 0.1 and high >= conf - 0.1 else "  > 0.1"


def print_reliability(title: str, pairs, world: bool = False) -> None:
    print(f"reliability ({title}): bin, n, mean confidence, share correct (95 % interval), |gap|")
    for name, n, conf, acc in reliability(pairs, world):
        low, high = wilson(acc, n)
        print(f"  {name:<10} {n:>6}  {conf:.3f}  {acc:.3f} ({low:.3f}-{high:.3f})  {abs(conf - acc):.3f}"
              f"{calibrated(conf, acc, n)}")


def print_namesakes(pairs) -> None:
    """Supports where namesakes the text cannot tell apart hold another value, and the false support they add."""
    doubted = [(g, v) for g, v in pairs if v.verdict == "SUPPORTED" and "do not hold the value" in v.reason]
    wrong = [(g, v) for g, v in pairs if v.verdict == "SUPPORTED" and g["label"] != "SUPPORTED"]
    other = [(g, v) for g, v in wrong if g.get("subject_id") and v.subject_id != g["subject_id"]]
    not_supported = sum(g["label"] != "SUPPORTED" for g, _ in pairs)
    print(f"  namesakes: {sum('namesakes' in v.reason for _, v in pairs)} verdicts name one of several namesakes; "
          f"{len(doubted)} supports doubted (namesakes disagree), {sum(g['label'] == 'SUPPORTED' for g, _ in doubted)} "
          f"of them right; false support through an entity other than the gold subject: {len(other)} of "
          f"{not_supported} = {len(other) / max(1, not_supported):.2%} (all false support {len(wrong)})")


def source_of(verdict) -> str:
    return getattr(verdict, "exclusivity", None) or "-"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/work/indexes/wd50k-ow")
    ap.add_argument("--closed-world", action="store_true")
    ap.add_argument("--worst", type=int, default=12)
    ap.add_argument("--errors", default=None, help="write misjudged openworld claims here (JSONL)")
    args = ap.parse_args()
    ow = need_shared(SHARED / "bench" / "openworld-dev.jsonl")
    dev = need_shared(SHARED / "bench" / "claims-dev.jsonl")

    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import CheckOptions
    from kgcheck.verifier.claims.evaluate import evaluate

    options = CheckOptions(closed_world=True) if args.closed_world else CheckOptions()
    kg = KG.open(args.index)
    with tempfile.TemporaryDirectory() as tmp:
        # openworld's `kind` says removed/kept, claims-dev's the object's kind: move it aside for the reader.
        ow_file = os.path.join(tmp, "openworld.jsonl")
        with open(ow, encoding="utf-8") as src, open(ow_file, "w", encoding="utf-8") as dst:
            for line in src:
                if line.strip():
                    row = json.loads(line)
                    row["set"] = row.pop("kind")
                    dst.write(json.dumps(row) + "\n")
        _, ow_pairs = evaluate(kg, ow_file, options)
    removed = [(g, v) for g, v in ow_pairs if g["set"] == "removed"]
    kept = [(g, v) for g, v in ow_pairs if g["set"] == "kept"]
    false_ref = sum(v.verdict == "REFUTED" for _, v in removed)
    print(f"openworld-dev: removed {len(removed)}, false refutation {false_ref} = {false_ref / len(removed):.2%} "
          f"(target <= 3%); removed -> NOT_ENOUGH_INFO {sum(v.verdict == 'NOT_ENOUGH_INFO' for _, v in removed) / len(removed):.2%}, "
          f"-> SUPPORTED {sum(v.verdict == 'SUPPORTED' for _, v in removed) / len(removed):.2%}")
    print(f"  kept {len(kept)}, SUPPORTED {sum(v.verdict == 'SUPPORTED' for _, v in kept) / len(kept):.2%} "
          f"(target >= 99%)")
    per_prop: dict[str, Counter] = defaultdict(Counter)
    for g, v in removed:
        per_prop[g["property_id"]][v.verdict] += 1
        per_prop[g["property_id"]]["src:" + source_of(v)] += v.verdict == "REFUTED"
    worst = sorted(per_prop.items(), key=lambda kv: -kv[1]["REFUTED"])[: args.worst]
    print("  worst properties (removed claims): property, refuted / total, deciding source")
    for pid, c in worst:
        if not c["REFUTED"]:
            break
        total = sum(n for k, n in c.items() if not k.startswith("src:"))
        srcs = ", ".join(f"{k[4:]} {n}" for k, n in c.items() if k.startswith("src:") and n)
        print(f"    {pid:<8} {c['REFUTED']:>4} / {total:<4} {srcs}")
    if args.errors:
        from kgcheck.verifier.formats.serialize import verdict_to_dict

        with open(args.errors, "w") as fh:
            for g, v in ow_pairs:
                if g["label"] != v.verdict:
                    fh.write(json.dumps({"gold": g, "got": verdict_to_dict(v)}) + "\n")

    report, dev_pairs = evaluate(kg, str(dev), options)
    print(f"claims-dev over the same graph: C1 {report['C1']:.2%} (>= 95%), C3 {report['C3']:.2%} (>= 85%), "
          f"false support {report['false_support']:.2%} (<= 2%), accuracy {report['accuracy']:.2%}; "
          f"{report['claims_per_second']:,.0f} claims/s warm")
    print(f"  by corruption: {report['by_corruption']}")
    sources = Counter(source_of(v) for _, v in dev_pairs if v.verdict == "REFUTED")
    print(f"  REFUTED decided by: {dict(sources)}")
    print_namesakes(dev_pairs)
    print_reliability("openworld-dev", ow_pairs)
    print_reliability("claims-dev", dev_pairs)
    print_reliability("both", ow_pairs + dev_pairs)
    print_reliability("both, a removed true fact SUPPORTED counted right", ow_pairs + dev_pairs, world=True)


if __name__ == "__main__":
    main()
