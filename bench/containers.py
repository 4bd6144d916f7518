"""Answers that name a place's container: "born in England" of a man born in Cambridge, "born in France" of him.

    python bench/containers.py [--index /work/indexes/dense4] [--n 400] [--seed 0] [--dump rows.jsonl]

An answer seldom names the town a person was born in; it names the country ("Einstein was born in Germany"). The
graph holds the town, and places it — or fails to — in a region, a country, a continent. text-factcheck-dev's rows
name what their gold statements hold, so they do not see this.

The facts: statements (subject, property, value) of the index whose property has a name ending in "in" (the index's
labels and aliases: "born in", "died in", "located in") and is single-valued by measure (at most 5 % of its ≥ 20
subjects hold several best values, the judge's own threshold), the subject holding that one value. The true
container: a thing the value is placed in directly (a HIERARCHY edge of its own: further up, a chain may run through
an edge that is no containment), not itself a value of the property for anyone, picked by a hash of the ids (`--seed`); the false one: a thing sharing a class with it that neither contains
the value nor lies in or contains the true one (another country). Each is said as "<subject> was <name> <container>."
("<subject> died in <container>." for a name opening on "died"). The lacking one: the false container said of another
subject of the same class that the graph gives no value of the property ("Barack Obama was born in Kenya" over a graph
with no birthplace of his) — a claim the graph cannot judge, to be shown NOT_ENOUGH_INFO, not passed over in silence.

Prints, on the true sentences: SUPPORTED (a claim on the subject and property, SUPPORTED), claimed at all, false alarm
(a REFUTED claim); on the false ones: flagged (a claim on the subject and property not SUPPORTED), REFUTED, corrected
(REFUTED with the graph's value), fooled (SUPPORTED on the subject and property), caught (a REFUTED claim of any
property: "based in Chile" refuted as the club's country); on the lacking ones: claimed (a claim on the subject and
property), false alarm (a REFUTED claim), SUPPORTED (a claim on the subject and property SUPPORTED: nothing supports it).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import Counter

from common import percentile

_FACTS = """
WITH single_valued AS (SELECT property FROM property_stats WHERE subjects >= 20 AND {multi} <= 0.05 * subjects
                       AND property IN (SELECT unnest(?))),
one AS (SELECT subject, property, min(entity_id) AS value FROM statements JOIN single_valued USING (property)
        WHERE entity_id IS NOT NULL AND rank <> 'deprecated' GROUP BY 1, 2 HAVING count(DISTINCT entity_id) = 1)
SELECT subject, property, value FROM one ORDER BY hash(subject || property || ?)
"""


def _pick(items: list, *key) -> object:
    """One of ITEMS by a hash of KEY that is the same in every run (Python's own string hash is salted per process)."""
    return items[int(hashlib.sha1("|".join(map(str, key)).encode()).hexdigest(), 16) % len(items)]


def _classes(kg, ids) -> dict[str, set[str]]:
    out = {i: set() for i in ids}
    for st_list in kg.statements_for(sorted(ids), properties=("P31",)).values():
        for st in st_list:
            if st.value.entity_id:
                out.setdefault(st.subject, set()).add(st.value.entity_id)
    return out


def container_facts(kg, facts, n: int, seed: int) -> list[dict]:
    from kgcheck.index.store import HIERARCHY
    from kgcheck.verifier.text.schema import GraphSchema

    schema = GraphSchema.of(kg)
    names: dict[str, str] = {}
    for norm, pid in kg.lookup_sql("SELECT norm, id FROM label_index WHERE type = 'property'"):
        if norm.endswith(" in") and schema.datatype(pid) == "wikibase-item" and \
                (pid not in names or len(norm) < len(names[pid])):
            names[pid] = norm
    columns = {r[0] for r in kg.sql("SELECT column_name FROM information_schema.columns "
                                    "WHERE table_name = 'property_stats'")}
    multi = "best_multi_subjects" if "best_multi_subjects" in columns else "multi_subjects"
    rows = kg.sql(_FACTS.format(multi=multi), [sorted(names), str(seed)])
    # members of each class, to draw a false container from (one query)
    members: dict[str, list[str]] = {}
    for subject, cls in kg.sql("SELECT subject, entity_id FROM statements WHERE property = 'P31' AND entity_id IS NOT NULL"):
        members.setdefault(cls, []).append(subject)
    holding = {pid: {r[0] for r in kg.sql("SELECT DISTINCT subject FROM statements WHERE property = ?", [pid])}
               for pid in sorted(names)}
    out = []
    for subject, pid, value in rows:
        ancestors = facts.ancestors(value)
        # the value's own containers only: a chain further up may run through an edge that is no containment (the
        # contiguous United States "located in" Kansas, its centre), which would make a true container false
        direct = {parent for _, parent in kg.parent_rows([value], HIERARCHY) if parent in ancestors}
        held = schema.roles(sorted(direct)) if direct else {}
        true = sorted(a for a in direct if not held.get(a, {}).get(pid) and facts.label(a))
        if not true:
            continue
        container = _pick(true, subject, seed)
        kinds = _classes(kg, [container])[container]
        pool = sorted({m for k in kinds for m in members.get(k, ()) if m != container})
        pool = [m for m in pool if m not in ancestors and container not in facts.ancestors(m)
                and m not in facts.ancestors(container) and facts.label(m)]
        if not pool:
            continue
        wrong = _pick(pool, subject, pid, seed)
        label = facts.label(subject)
        if not label:
            continue
        # another subject of the subject's classes the graph gives no value of the property (it holds something)
        peers = sorted({m for k in _classes(kg, [subject])[subject] for m in members.get(k, ())
                        if m not in holding[pid] and facts.label(m)})
        peer = _pick(peers, subject, pid, seed, "lacking") if peers else None  # none: no lacking row (same sample)
        said = names[pid] if names[pid].startswith("died ") else f"was {names[pid]}"  # "was born in", "died in"
        out.append({"subject_id": subject, "property_id": pid, "value": value, "name": names[pid],
                    "true": f"{label} {said} {facts.label(container)}.", "container": container,
                    "false": f"{label} {said} {facts.label(wrong)}.", "wrong": wrong,
                    "lacking": peer and f"{facts.label(peer)} {said} {facts.label(wrong)}.", "lacking_id": peer})
        if len(out) >= n:
            break
    return out


def main() -> None:
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.text.verify import verify_text

    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/work/indexes/dense4")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dump", default=None)
    args = ap.parse_args()
    kg = KG.open(args.index)
    checker = Checker(kg)
    rows = container_facts(kg, checker.facts, args.n, args.seed)
    counts, latencies = Counter(), []
    dump = open(args.dump, "w") if args.dump else None
    for row in rows:
        for kind in ("true", "false", "lacking"):
            if not row[kind]:
                continue
            counts[f"{kind} rows"] += 1
            t = time.perf_counter()
            report = verify_text(kg, row[kind], checker=checker)
            latencies.append(time.perf_counter() - t)
            subject = row["lacking_id"] if kind == "lacking" else row["subject_id"]
            on = [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == (subject, row["property_id"])]
            verdicts = {c.verdict.verdict for c in on}
            if kind == "true":
                counts["true supported"] += "SUPPORTED" in verdicts
                counts["true claimed"] += bool(on)
                counts["true false alarm"] += any(c.verdict.verdict == "REFUTED" for c in report.claims)
            elif kind == "lacking":
                counts["lacking claimed"] += bool(on)
                counts["lacking false alarm"] += any(c.verdict.verdict == "REFUTED" for c in report.claims)
                counts["lacking supported"] += "SUPPORTED" in verdicts
            else:
                counts["false flagged"] += bool(verdicts - {"SUPPORTED"})
                counts["false refuted"] += "REFUTED" in verdicts
                counts["false corrected"] += any(c.verdict.verdict == "REFUTED" and row["value"] in
                                                 c.verdict.correction_ids for c in on)
                counts["false fooled"] += "SUPPORTED" in verdicts
                counts["false caught"] += any(c.verdict.verdict == "REFUTED" for c in report.claims)
            if dump:
                dump.write(json.dumps({"row": row, "kind": kind, "claims": [
                    [c.claim.subject_id, c.claim.property_id, c.span, c.verdict.verdict, c.reader] for c in report.claims]})
                    + "\n")
    n = len(rows) or 1
    print(f"containers over {args.index}: {len(rows)} facts ({Counter(r['property_id'] for r in rows).most_common(6)}), "
          f"seed {args.seed}")
    print(f"  true  (a container of the graph's value): SUPPORTED {counts['true supported'] / n:.3f}  claimed "
          f"{counts['true claimed'] / n:.3f}  false alarm {counts['true false alarm'] / n:.3f}")
    print(f"  false (another thing of the container's class): flagged {counts['false flagged'] / n:.3f}  REFUTED "
          f"{counts['false refuted'] / n:.3f}  corrected {counts['false corrected'] / n:.3f}  fooled "
          f"{counts['false fooled'] / n:.3f}  caught (a REFUTED claim, any property) {counts['false caught'] / n:.3f}")
    m = counts["lacking rows"] or 1
    print(f"  lacking (the false container said of a subject the graph gives no value; {counts['lacking rows']} rows): "
          f"claimed {counts['lacking claimed'] / m:.3f}  false alarm {counts['lacking false alarm'] / m:.3f}  "
          f"SUPPORTED {counts['lacking supported'] / m:.3f}")
    print(f"  latency per sentence: p50 {percentile(latencies, 0.5):.3f} s, p99 {percentile(latencies, 0.99):.3f} s")


if __name__ == "__main__":
    main()
