"""A graph that lacks what the true sentences say: false alarms where users meet them.

    python bench/lacking.py [--out /work/indexes/dense-lacking.json.gz]
    kgcheck build /work/indexes/dense-lacking.json.gz --out /work/indexes/dense-lacking
    python bench/factcheck.py --index /work/indexes/dense-lacking --kind true --per-kind 100000 [--about]

text-factcheck-dev's true sentences are checked over wikidata-dense-dev, which holds every gold triple: a false
alarm there is measured only on facts the graph already holds. An answer an analyst checks states true facts the
graph may lack. This writes wikidata-dense-dev without the gold statements of the true sentences (the statement of
the gold subject and property whose value is the gold object, or for a date the gold year), so that factcheck.py's
"false alarm" on the true rows is the share of true texts with a REFUTED claim when the graph does not know what
they say (the right verdict for those facts is NOT_ENOUGH_INFO). Prints how many statements were dropped and how
many gold triples matched none (already absent).
"""
from __future__ import annotations

import argparse
import bz2
import gzip
import json
import os
import sys
from collections import defaultdict

from common import SHARED, need_shared

DUMP = SHARED / "data" / "wikidata-dense-dev.json.bz2"
ROWS = SHARED / "bench" / "text-factcheck-dev.jsonl"


def gold_of_true_rows(path) -> dict[str, dict[str, set]]:
    """subject -> property -> the gold values (entity ids; years as ints for dates)."""
    gold: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for line in open(need_shared(path), encoding="utf-8"):
        row = json.loads(line)
        if row.get("label") != "true":
            continue
        for g in row.get("gold") or ():
            value = g.get("object_id") or _year(g.get("object"))
            if g.get("subject_id") and g.get("property_id") and value:
                gold[g["subject_id"]][g["property_id"]].add(value)
    return gold


def _year(text: str | None) -> int | None:
    digits = [w for w in (text or "").replace(",", " ").split() if w.isdigit() and len(w) == 4]
    return int(digits[-1]) if digits else None


def _value(snak: dict):
    """The snak's entity id, or its date's year, or None."""
    value = (snak.get("datavalue") or {}).get("value")
    if isinstance(value, dict) and value.get("id"):
        return value["id"]
    if isinstance(value, dict) and isinstance(value.get("time"), str):
        try:
            return int(value["time"][1:5]) if value["time"][0] in "+-" else None
        except ValueError:
            return None
    return None


def without_gold(entity: dict, gold: dict[str, dict[str, set]], matched: set) -> int:
    """Drop the entity's gold statements (in place); how many were dropped."""
    mine = gold.get(entity.get("id"), {})
    dropped = 0
    for pid, values in mine.items():
        statements = entity.get("claims", {}).get(pid)
        if not statements:
            continue
        kept = []
        for st in statements:
            v = _value(st.get("mainsnak") or {})
            if v in values:
                matched.add((entity["id"], pid, v))
                dropped += 1
            else:
                kept.append(st)
        entity["claims"][pid] = kept
    return dropped


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", default=str(DUMP))
    ap.add_argument("--out", default="/work/indexes/dense-lacking.json.gz")
    args = ap.parse_args()
    if os.path.exists(args.out):
        sys.exit(f"{args.out} exists: give another --out (a file is never overwritten)")
    gold = gold_of_true_rows(ROWS)
    wanted = {(s, p, v) for s, ps in gold.items() for p, vs in ps.items() for v in vs}
    matched: set = set()
    dropped = entities = 0
    opener = bz2.open if args.dump.endswith(".bz2") else gzip.open if args.dump.endswith(".gz") else open
    tmp = args.out + ".tmp"
    with opener(need_shared(__import__("pathlib").Path(args.dump)), "rt", encoding="utf-8") as src, \
            gzip.open(tmp, "wt", encoding="utf-8", compresslevel=1) as out:
        out.write("[\n")
        first = True
        for line in src:
            line = line.strip().rstrip(",")
            if line in ("[", "]", ""):
                continue
            entity = json.loads(line)
            dropped += without_gold(entity, gold, matched)
            entities += 1
            out.write(("" if first else ",\n") + json.dumps(entity, ensure_ascii=False))
            first = False
        out.write("\n]\n")
    os.replace(tmp, args.out)
    print(f"{args.out}: {entities} entities, {dropped} gold statements dropped; {len(matched)} of {len(wanted)} "
          f"gold triples of the true sentences found in the graph (the rest it never held as written)")


if __name__ == "__main__":
    main()
