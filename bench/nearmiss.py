"""Near-miss answers: a wrong value of the right kind that the graph links to the subject by another relation.

    python bench/nearmiss.py [--index /work/indexes/dense4] [--n 600] [--per-property 40] [--seed 0]
                             [--max-share 0.05] [--forms inverse,relation-of,possessive]
                             [--dump rows.jsonl]

An answer's wrong value is seldom a random thing: it is the subject's largest city given as its capital, its
producer given as its director — a thing the graph links to the subject by another relation. A reader that takes
the graph's links for what the sentence says then finds that other link and reports it SUPPORTED: the wrong answer
reads all green. text-factcheck-dev's swaps are other subjects' values of the same relation, which the graph seldom
links to the subject, so it does not see this.

The facts: statements (subject, property, value) of the index whose property is single-valued by measure (at most
5 % of its ≥ 20 subjects hold several best values: the judge's own exclusivity threshold, verifier/claims/
thresholds.py; `--max-share` widens it), the subject holding that one value; the near miss: a thing the graph links to the subject by another
property (either way), sharing a class with the value, that is the same property's value for some other subject
(a plausible answer), picked by a
hash of the ids (`--seed`), at most `--per-property` facts per property. Each fact is said in each form
(factcheck.py's REPHRASINGS: "<value> is the <property> of <subject>.", ...), once with the near miss and once
with the graph's value.

Per form, on the wrong sentences: flagged (a claim on the subject and property not SUPPORTED), REFUTED, corrected
(REFUTED with the graph's value among its corrections), all green (claims, every one SUPPORTED: the reader is
fooled), silent (no REFUTED claim); on the right ones: gold SUPPORTED (a claim on the subject, property and value),
false alarm (a REFUTED claim).
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from common import percentile
from factcheck import REPHRASINGS

_PREPOSITION_END = (" of", " in", " on", " at", " to", " for", " by", " with", " from", " as")

_FACTS = """
WITH single_valued AS (SELECT property FROM property_stats WHERE subjects >= 20 AND {multi} <= {share} * subjects),
one AS (SELECT subject, property, min(entity_id) AS value FROM statements JOIN single_valued USING (property)
        WHERE entity_id IS NOT NULL AND rank <> 'deprecated' GROUP BY 1, 2 HAVING count(DISTINCT entity_id) = 1),
near AS (SELECT subject, entity_id AS other, property AS via FROM statements WHERE entity_id IS NOT NULL
         UNION ALL SELECT entity_id, subject, property FROM statements WHERE entity_id IS NOT NULL),
pairs AS (SELECT DISTINCT o.subject, o.property, o.value, n.other FROM one o JOIN near n USING (subject)
          WHERE n.via <> o.property AND n.other <> o.value AND n.other <> o.subject
            AND n.other IN (SELECT entity_id FROM statements_by_object b WHERE b.property = o.property)),
picked AS (SELECT *, row_number() OVER (PARTITION BY subject, property ORDER BY hash(other || ?)) AS k FROM pairs)
SELECT subject, property, value, other FROM picked WHERE k = 1 ORDER BY hash(subject || property || ?)
"""


def near_misses(kg, facts, n: int, per_property: int, seed: int, max_share: float = 0.05) -> list[dict]:
    """The facts and their near misses (module text); a near miss that contains the value or lies inside it
    (facts.ancestors: "United Kingdom" for a birthplace in Glasgow) is left out: the answer is then less
    specific, not wrong. The near miss shares a class with the value (a city for a city: "United Kingdom" for a
    birthplace in Glasgow is less specific where the graph's own hierarchy does not reach it)."""
    columns = {r[0] for r in kg.sql("SELECT column_name FROM information_schema.columns "
                                    "WHERE table_name = 'property_stats'")}
    multi = "best_multi_subjects" if "best_multi_subjects" in columns else "multi_subjects"
    rows = kg.sql(_FACTS.format(multi=multi, share=float(max_share)), [str(seed), str(seed)])
    labels = kg.labels(sorted({x for r in rows for x in r}))
    facts.prefetch_ancestors({x for r in rows for x in (r[2], r[3])})
    typed = kg.statements_for(sorted({x for r in rows for x in (r[2], r[3])}), properties=("P31",))
    classes = {eid: {st.value.entity_id for st in sts} for eid, sts in typed.items()}
    out, per = [], Counter()
    for subject, pid, value, other in rows:
        names = [labels.get(x) for x in (subject, pid, value, other)]
        if not all(names) or names[1].endswith(_PREPOSITION_END) or names[3] == names[2] or \
                len({names[0].lower(), names[2].lower(), names[3].lower()}) < 3 or per[pid] >= per_property or \
                other in facts.ancestors(value) or value in facts.ancestors(other) or \
                not classes.get(value, set()) & classes.get(other, set()):
            continue
        per[pid] += 1
        out.append({"subject_id": subject, "property_id": pid, "value_id": value, "wrong_id": other,
                    "subject": names[0], "property": names[1], "value": names[2], "wrong": names[3]})
        if len(out) >= n:
            break
    return out


def score(reports: list, facts: list[dict], wrong: bool) -> Counter:
    k = Counter()
    for report, f in zip(reports, facts):
        on = [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == (f["subject_id"],
                                                                                           f["property_id"])]
        verdicts = [c.verdict.verdict for c in report.claims]
        k["n"] += 1
        if wrong:
            k["flagged"] += any(c.verdict.verdict != "SUPPORTED" for c in on)
            k["refuted"] += any(c.verdict.verdict == "REFUTED" for c in on)
            k["corrected"] += any(c.verdict.verdict == "REFUTED" and f["value"] in c.verdict.corrections for c in on)
            k["all_green"] += bool(verdicts) and all(v == "SUPPORTED" for v in verdicts)
            k["silent"] += "REFUTED" not in verdicts
        else:
            k["gold"] += any(c.verdict.verdict == "SUPPORTED" and c.claim.object_id == f["value_id"] for c in on)
            k["false_alarm"] += "REFUTED" in verdicts
    return k


def form_arguments(doc: str, n: int) -> argparse.ArgumentParser:
    """The arguments of a bench that says facts in REPHRASINGS' forms (this one, reversed.py)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--index", default="/work/indexes/dense4")
    ap.add_argument("--n", type=int, default=n)
    ap.add_argument("--per-property", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--forms", default="inverse,relation-of,possessive")
    ap.add_argument("--dump", help="write each sentence's claims (JSON lines)")
    return ap


def main() -> None:
    ap = form_arguments(__doc__, 600)
    ap.add_argument("--max-share", type=float, default=0.05,
                    help="the properties: at most this share of their subjects hold several values (0.05: those the "
                         "judge refutes by measure; higher takes properties where a near miss is NOT_ENOUGH_INFO)")
    args = ap.parse_args()

    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker
    kg = KG.open(args.index)
    checker = Checker(kg)
    facts = near_misses(kg, checker.facts, args.n, args.per_property, args.seed, args.max_share)
    print(f"near misses over {args.index}: {len(facts)} facts of {len({f['property_id'] for f in facts})} "
          f"properties at most {args.max_share:.0%} of whose subjects hold several values (seed {args.seed})")
    for form, w, r, latencies in each_form(kg, checker, facts, args.forms.split(","), args.dump, score,
                                           lambda f, wrong: (f["wrong" if wrong else "value"], f["subject"])):
        n = max(1, w["n"])
        print(f"  {form:<12} wrong: flagged {w['flagged'] / n:.3f}  refuted {w['refuted'] / n:.3f}  corrected "
              f"{w['corrected'] / n:.3f}  all green {w['all_green'] / n:.3f}  silent {w['silent'] / n:.3f}  |  "
              f"right: gold SUPPORTED {r['gold'] / n:.3f}  false alarm {r['false_alarm'] / n:.3f}  |  "
              f"p50 {percentile(latencies, 0.5):.3f} s")


def each_form(kg, checker, facts: list[dict], forms: list[str], dump_path, score, names, templates=REPHRASINGS,
              dump_mode: str = "w"):
    """Per form (TEMPLATES, REPHRASINGS by default), each fact said wrong and right — names(fact, wrong) -> (value,
    subject) — and verified: yields (form, score of the wrong sentences, of the right ones, latencies); DUMP_PATH
    gets each sentence's claims (DUMP_MODE "a": after another run's)."""
    from kgcheck.verifier.text.verify import verify_text

    dump = open(dump_path, dump_mode) if dump_path else None
    try:
        for form in forms:
            latencies, result = [], {}
            for wrong in (True, False):
                reports = []
                for f in facts:
                    value, subject = names(f, wrong)
                    text = templates[form].format(value=value, property=f["property"], subject=subject)
                    text = text[:1].upper() + text[1:]
                    started = time.perf_counter()
                    reports.append(verify_text(kg, text, checker=checker))
                    latencies.append(time.perf_counter() - started)
                    if dump:
                        dump.write(json.dumps({"form": form, "wrong": wrong, "text": text, "fact": f, "claims": [
                            [c.claim.subject_id, c.claim.property_id, c.span, c.verdict.verdict, c.reader]
                            for c in reports[-1].claims]}) + "\n")
                result[wrong] = score(reports, facts, wrong)
            yield form, result[True], result[False], latencies
    finally:
        if dump:
            dump.close()

if __name__ == "__main__":
    main()
