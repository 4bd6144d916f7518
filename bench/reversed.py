"""Relations stated the other way round: "Jean-Michel Jarre is the father of Maurice Jarre", where the graph holds
Maurice Jarre as Jean-Michel's father — the reversal an answer often makes, and one a reader fooled by the graph's
link reports SUPPORTED (the link between the two names is there, the relation named is the link's own).

    python bench/reversed.py [--index /work/indexes/dense4] [--n 400] [--per-property 40] [--seed 0]
                             [--forms inverse,relation-of,possessive,relational] [--dump rows.jsonl]

The facts: item statements (subject, property, value) of the index, both named, whose property the graph never holds
both ways by measure — at least MIN_SUBJECTS (20) statements, at most 5 % of them held the other way too, the 95 %
Wilson bound under 10 % (verifier/claims/thresholds.py: the judge's own thresholds for "takes one value"); for
those a reversed statement is wrong by the graph's own record. One fact per subject, at most `--per-property` per
property, picked by a hash of the ids (`--seed`); no property whose label ends in a preposition ("part of": said
"X is the part of Y" it reads neither way). Each fact is said in each form (factcheck.py's REPHRASINGS) with
subject and value swapped (wrong) and as the graph holds it (right). The form `relational` takes the other
properties, those whose label ends in a preposition, read left to right as the graph names them: "<subject> is
<property> <value>." ("Aliens is followed by Alien": the graph holds Alien followed by Aliens, and Aliens follows
Alien — a link that reads all green unless the words' direction is read).

Per form, on the wrong sentences (nearmiss.py's score): flagged (a claim on the swapped subject and the property,
not SUPPORTED), REFUTED, all green (claims, every one SUPPORTED: the reader is fooled), silent (no REFUTED claim);
on the right ones: gold SUPPORTED (a claim of the fact, SUPPORTED), false alarm (a REFUTED claim).
"""
from __future__ import annotations

from collections import Counter

from common import percentile
from factcheck import REPHRASINGS
from nearmiss import each_form, form_arguments
from nearmiss import score as nearmiss_score

_PREPOSITION_END = (" of", " in", " on", " at", " to", " for", " by", " with", " from", " as")
RELATIONAL = {"relational": "{subject} is {property} {value}."}  # labels ending in a preposition, read in order

_REVERSAL = """
SELECT s.property, count(*), count(*) FILTER (WHERE EXISTS (SELECT 1 FROM statements r WHERE r.property = s.property
       AND r.subject = s.entity_id AND r.entity_id = s.subject))
FROM statements s WHERE s.entity_id IS NOT NULL AND s.rank <> 'deprecated' AND s.entity_id <> s.subject GROUP BY 1
"""
_FACTS = """
SELECT subject, property, entity_id FROM (
    SELECT subject, property, entity_id, row_number() OVER (PARTITION BY subject ORDER BY hash(statement_id || ?)) AS k
    FROM statements WHERE entity_id IS NOT NULL AND rank <> 'deprecated' AND entity_id <> subject
      AND property IN (SELECT unnest(?)))
WHERE k = 1 ORDER BY hash(subject || property || ?)
"""


def reversible_facts(kg, n: int, per_property: int, seed: int, relational: bool = False) -> list[dict]:
    """Facts of properties never held both ways; `relational`: only those whose label ends in a preposition (else
    only the others)."""
    from kgcheck.verifier.claims.thresholds import MAX_MULTI_SHARE, MAX_MULTI_UPPER, MIN_SUBJECTS, wilson_upper

    never_both = sorted(p for p, total, both in kg.sql(_REVERSAL) if total >= MIN_SUBJECTS and
                        both <= MAX_MULTI_SHARE * total and wilson_upper(both, total) <= MAX_MULTI_UPPER)
    rows = kg.sql(_FACTS, [str(seed), never_both, str(seed)])
    labels = kg.labels(sorted({x for r in rows for x in r}))
    out, per = [], Counter()
    for subject, pid, value in rows:
        names = [labels.get(x) for x in (subject, pid, value)]
        if not all(names) or names[1].endswith(_PREPOSITION_END) != relational or names[0].lower() == names[2].lower() or \
                per[pid] >= per_property:
            continue
        per[pid] += 1
        out.append({"subject_id": subject, "property_id": pid, "value_id": value,
                    "subject": names[0], "property": names[1], "value": names[2]})
        if len(out) >= n:
            break
    return out


def score(reports: list, facts: list[dict], wrong: bool) -> Counter:
    """nearmiss.score, a wrong sentence's claims looked for on its own subject: the graph's value."""
    return nearmiss_score(reports, [dict(f, subject_id=f["value_id"]) for f in facts] if wrong else facts, wrong)


def main() -> None:
    args = form_arguments(__doc__, 400).parse_args()

    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker
    kg = KG.open(args.index)
    checker = Checker(kg)
    forms = args.forms.split(",")
    runs = [(False, [f for f in forms if f not in RELATIONAL], REPHRASINGS),
            (True, [f for f in forms if f in RELATIONAL], RELATIONAL)]
    mode = "w"
    for relational, these, templates in runs:
        if not these:
            continue
        facts = reversible_facts(kg, args.n, args.per_property, args.seed, relational)
        print(f"reversed relations over {args.index}: {len(facts)} facts of {len({f['property_id'] for f in facts})} "
              f"properties never held both ways{', labels ending in a preposition' if relational else ''} (seed "
              f"{args.seed}): {Counter(f['property_id'] for f in facts).most_common(8)}")
        # wrong: the graph's value said as the subject, and the subject as the value
        for form, w, r, latencies in each_form(kg, checker, facts, these, args.dump, score,
                                               lambda f, wrong: (f["subject"], f["value"]) if wrong else
                                               (f["value"], f["subject"]), templates, mode):
            n = max(1, w["n"])
            print(f"  {form:<12} wrong: flagged {w['flagged'] / n:.3f}  refuted {w['refuted'] / n:.3f}  all green "
                  f"{w['all_green'] / n:.3f}  silent {w['silent'] / n:.3f}  |  right: gold SUPPORTED "
                  f"{r['gold'] / n:.3f}  false alarm {r['false_alarm'] / n:.3f}  |  p50 "
                  f"{percentile(latencies, 0.5):.3f} s")
        mode = "a"

if __name__ == "__main__":
    main()
