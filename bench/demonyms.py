"""Nationalities and origins said as demonyms: "X is an American writer", as an answer describes a person or a work.

    python bench/demonyms.py [--index /work/indexes/dense4] [--n 400] [--per-property 150] [--seed 0] [--structured]
                             [--predicative]

The facts, from the index alone: item statements (subject, property, place) whose place has a demonym in the graph
(P1549, English) and whose subject has a noun to describe it by — the label of its occupation (P106) for a person,
else of its class (P31) — at most one a subject and `--per-property` a property, picked by a hash of the ids. Each is
said "<subject> is a(n) <demonym> <noun>." right, and wrong: the demonym of another place of the same class that the
subject holds no statement of (one of those, by a hash of the subject's id).

On the right sentences: SUPPORTED (a claim of the subject on the demonym, SUPPORTED), false alarm (a REFUTED claim);
on the wrong ones: flagged (a claim of the subject on the wrong demonym, not SUPPORTED), REFUTED, fooled (such a
claim SUPPORTED), no claim of it (none on the wrong demonym). The demonym is read as the reader reads it: "Italian"
is Italy, the most described of its holders, whichever holder the fact was drawn from. The same sentences run
through older code (a `git worktree` of an earlier commit on PYTHONPATH) show what the demonym reading adds.

`--predicative`: each said "<subject> is <demonym>." (the demonym the whole predicate).
`--structured`: the same facts as a pipeline's triples, {subject_id, property_id, object: "<demonym>"} (the object by
its text, as a table of nationalities gives it), through `Checker.check`: right SUPPORTED / REFUTED; wrong REFUTED /
SUPPORTED (fooled).
"""
from __future__ import annotations

import argparse
import time
import zlib
from collections import Counter

from common import percentile

_FACTS = """
WITH demonym AS (SELECT subject AS place, min(string) AS word FROM statements
                 WHERE property = 'P1549' AND language = 'en' AND rank <> 'deprecated' GROUP BY 1),
placed AS (SELECT s.subject, s.property, s.entity_id AS place, d.word,
                  row_number() OVER (PARTITION BY s.subject ORDER BY hash(s.statement_id || ?)) AS k
           FROM statements s JOIN demonym d ON d.place = s.entity_id
           WHERE s.rank <> 'deprecated' AND s.property <> 'P1549')
SELECT subject, property, place, word FROM placed WHERE k = 1 ORDER BY hash(subject || ?)
"""


def facts_of(kg, n: int, per_property: int, seed: int) -> list[dict]:
    rows = kg.sql(_FACTS, [str(seed), str(seed)])
    subjects = sorted({r[0] for r in rows})
    nouns: dict[str, str] = {}
    for pid in ("P106", "P31"):  # a person by occupation, else a thing by its class
        for subject, value in kg.sql("SELECT subject, min(entity_id) FROM statements WHERE property = ? AND "
                                     "subject IN (SELECT unnest(?)) GROUP BY 1", [pid, subjects]):
            nouns.setdefault(subject, value)
    places = {r[2] for r in rows}
    place_class = dict(kg.sql("SELECT subject, min(entity_id) FROM statements WHERE property = 'P31' AND "
                              "subject IN (SELECT unnest(?)) GROUP BY 1", [sorted(places)]))
    words = {r[2]: r[3] for r in rows}
    by_class: dict[str, list[str]] = {}
    for place, cls in sorted(place_class.items()):
        by_class.setdefault(cls, []).append(place)
    labels = kg.labels(subjects + sorted(set(nouns.values())))
    held = {(s, e) for s, e in kg.sql("SELECT subject, entity_id FROM statements WHERE subject IN (SELECT unnest(?)) "
                                       "AND entity_id IS NOT NULL", [subjects])}
    out, per = [], Counter()
    for subject, pid, place, word in rows:
        noun = labels.get(nouns.get(subject))
        if not noun or not labels.get(subject) or per[pid] >= per_property or place not in place_class:
            continue
        others = [p for p in by_class[place_class[place]] if p != place and (subject, p) not in held
                  and words[p].lower() != word.lower()]
        if not others:
            continue
        wrong = others[zlib.crc32(f"{subject}{seed}".encode()) % len(others)]  # not hash(): salted per process
        per[pid] += 1
        out.append({"subject_id": subject, "subject": labels[subject], "property_id": pid, "noun": noun,
                    "place": place, "word": word, "wrong": wrong, "wrong_word": words[wrong]})
        if len(out) >= n:
            break
    return out


def sentence(f: dict, wrong: bool, predicative: bool = False) -> str:
    word = f["wrong_word" if wrong else "word"]
    if predicative:
        return f"{f['subject']} is {word}."
    return f"{f['subject']} is {'an' if word[:1].lower() in 'aeiou' else 'a'} {word} {f['noun']}."


def structured(checker, facts: list[dict]) -> None:
    from kgcheck.verifier.model import Claim

    def claims(wrong: bool) -> list:
        return [Claim(id=str(i), subject=f["subject"], predicate=checker.facts.label(f["property_id"]) or "",
                      object=f["wrong_word" if wrong else "word"], subject_id=f["subject_id"],
                      property_id=f["property_id"]) for i, f in enumerate(facts)]

    started = time.perf_counter()
    right, wrong = (Counter(v.verdict for v in checker.check(claims(w))) for w in (False, True))
    n = max(1, len(facts))
    print(f"  structured: right SUPPORTED {right['SUPPORTED'] / n:.3f}  REFUTED {right['REFUTED'] / n:.3f}  |  wrong: "
          f"REFUTED {wrong['REFUTED'] / n:.3f}  SUPPORTED (fooled) {wrong['SUPPORTED'] / n:.3f}  |  "
          f"{2 * len(facts) / (time.perf_counter() - started):.0f} claims/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", default="/work/indexes/dense4")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--per-property", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--structured", action="store_true", help="check the facts as structured claims")
    ap.add_argument("--predicative", action="store_true", help='say each fact "<subject> is <demonym>."')
    args = ap.parse_args()

    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.text.verify import verify_text
    kg = KG.open(args.index)
    checker = Checker(kg)
    facts = facts_of(kg, args.n, args.per_property, args.seed)
    print(f"demonyms over {args.index}: {len(facts)} facts of {dict(Counter(f['property_id'] for f in facts))}")
    if args.structured:
        return structured(checker, facts)
    score, latencies = Counter(), []
    for f in facts:
        for wrong in (False, True):
            started = time.perf_counter()
            claims = verify_text(kg, sentence(f, wrong, args.predicative), checker=checker).claims
            latencies.append(time.perf_counter() - started)
            word = f["wrong_word" if wrong else "word"]
            on = [c for c in claims if c.claim.subject_id == f["subject_id"] and c.span == word]
            if wrong:
                score["flagged"] += any(c.verdict.verdict != "SUPPORTED" for c in on)
                score["refuted"] += any(c.verdict.verdict == "REFUTED" for c in on)
                score["fooled"] += any(c.verdict.verdict == "SUPPORTED" for c in on)
                score["silent"] += not on
            else:
                score["supported"] += any(c.verdict.verdict == "SUPPORTED" for c in on)
                score["false_alarm"] += any(c.verdict.verdict == "REFUTED" for c in claims)
    n = max(1, len(facts))
    print(f"  right: SUPPORTED {score['supported'] / n:.3f}  false alarm {score['false_alarm'] / n:.3f}  |  wrong: "
          f"flagged {score['flagged'] / n:.3f}  refuted {score['refuted'] / n:.3f}  fooled {score['fooled'] / n:.3f}  "
          f"no claim of it {score['silent'] / n:.3f}  |  p50 {percentile(latencies, 0.5):.3f} s")


if __name__ == "__main__":
    main()
