"""Free-text fact checking on text-factcheck-dev: are the wrong facts of a text caught?

    python bench/factcheck.py [--index /work/indexes/dense-dev] [--per-kind 200] [--offset 0]
                              [--llm] [--readers linked,words,...] [--about] [--named-topic]
                              [--rephrase inverse|relation-of|possessive]
                              [--other-relation] [--kind true|year|entity] [--dump rows.jsonl] [--closed-world]

Each row of ../shared/bench/text-factcheck-dev.jsonl is a Wikipedia sentence, as written ("true") or
with one fact broken ("corrupted": `kind` year or entity). Every sentence goes through `verify_text`
over an index of wikidata-dense-dev (the gold triples plus wd50k and the sample: most entities are
not the benchmark's), with every property allowed. The subset: per category (true / year / entity),
`--per-kind` rows spread evenly over the file (every n-th row from `--offset`), so all ontologies appear.

Per corrupted kind:
  flagged    a claim on the broken (subject, property) whose verdict is not SUPPORTED
  refuted    such a claim REFUTED
  corrected  such a claim REFUTED with the right value among its corrections
  fooled     a claim on the broken (subject, property) stating the wrong value, SUPPORTED (also reported: the
             wrong value SUPPORTED as any claim's object, whatever its subject)
  silent     no REFUTED claim anywhere in the text
With --other-relation, each true row's fact is said with another relation of its subject (kind "relation": the
value is right, the relation wrong); also reported, the value SUPPORTED under another relation (the one the graph
links, which the text does not state).
True sentences: gold triples SUPPORTED (a claim with the gold subject, property and object, SUPPORTED),
sentences with a false alarm (any REFUTED claim), claims per sentence.
Per reader (the `reader` tag of each claim): claims on true sentences, the share SUPPORTED or matching a
gold triple (precision vs graph), the share REFUTED (false alarms); claims on corrupted sentences that
hit the broken (subject, property).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import time
from collections import Counter, defaultdict
from pathlib import Path

from common import SHARED, need_shared, percentile

DATA = Path(os.environ.get("KGCHECK_SHARED", SHARED)) / "bench" / "text-factcheck-dev.jsonl"


def with_named_topic(row: dict) -> dict | None:
    """The row as a text that names its topic first, as an answer about one thing does: a sentence that opens with
    a description ("The journal was established in 1957.") and never names its subject gets "<subject> is a
    <noun>." before it, the noun its own. None for a row that names its subject or opens otherwise."""
    triples = [row["broken"]] if row.get("broken") else row.get("gold") or []
    m = re.match(r"\s*(?:The|This)\s+([a-z][a-z-]+)\b", row["text"])
    if not triples or not m or triples[0]["subject"].lower() in row["text"].lower():
        return None
    return dict(row, text=f"{triples[0]['subject']} is a {m.group(1)}. {row['text']}")


# How answers often state a fact, each form with the row's fact (the wrong value for an entity row).
REPHRASINGS = {"inverse": "{value} is the {property} of {subject}.",
               "relation-of": "The {property} of {subject} is {value}.",
               "possessive": "{subject}'s {property} is {value}."}


def rephrased(row: dict, form: str) -> dict | None:
    """The row's fact as one sentence of REPHRASINGS[form] (the wrong value for an entity row, the gold value for a
    true row, whose gold is then that triple). None for a year row, a value with no id, or a property whose label
    ends in a preposition ("part of", "located in": read the other way already)."""
    triple = row.get("broken") or (row.get("gold") or [None])[0]
    if not triple or row.get("kind") == "year" or not triple.get("object_id") or \
            re.search(r"\s(?:of|in|on|at|to|for|by|with|from|as)$", triple["predicate"].strip()):
        return None
    value = row["wrong"] if row.get("kind") == "entity" else triple["object"]
    text = REPHRASINGS[form].format(value=value, property=triple["predicate"].strip(), subject=triple["subject"])
    text = text[:1].upper() + text[1:]  # a sentence opens with a capital: "Sitcom is the genre of ...", as written
    return dict(row, text=text, **({"gold": [triple]} if row["label"] == "true" else {}))


def with_other_relation(kg, row: dict) -> dict | None:
    """A true row's fact said with another relation of its subject ("The producer of X is <its director>."), as an
    answer confuses two relations: a corrupted row of kind "relation" whose broken fact is (subject, that other
    property) with the gold value. The other property is one the graph gives the subject with other values and
    the gold value elsewhere (a mix-up of two relations a value may have: director and producer), its label not
    ending in a preposition; of several, the one with the fewest values (then by id). None
    when there is none, or the gold value is no entity."""
    g = (row.get("gold") or [None])[0] if row.get("label") == "true" else None
    if not g or not g.get("object_id"):
        return None
    values: dict[str, set[str]] = defaultdict(set)
    for st in kg.statements(g["subject_id"], details=False):
        if st.value.entity_id:
            values[st.property].add(st.value.entity_id)
    labels = kg.labels(sorted(values))
    roles = {p for (p,) in kg.sql("SELECT DISTINCT property FROM statements_by_object WHERE entity_id = ?",
                                  [g["object_id"]])}  # what the value is a value of anywhere: a plausible mix-up
    others = sorted((len(v), p) for p, v in values.items() if p != g["property_id"] and g["object_id"] not in v
                    and p in roles and labels.get(p)
                    and not re.search(r"\s(?:of|in|on|at|to|for|by|with|from|as)$", labels[p]))
    if not others:
        return None
    pid = others[0][1]
    right_id = sorted(values[pid])[0]
    right = kg.labels([right_id]).get(right_id, right_id)
    text = REPHRASINGS["relation-of"].format(value=g["object"], property=labels[pid], subject=g["subject"])
    return {"id": row["id"] + "-relation", "ontology": row["ontology"], "text": text, "label": "corrupted",
            "kind": "relation", "broken": dict(g, property_id=pid, predicate=labels[pid], object_id=right_id,
                                               object=right),
            "wrong": g["object"], "wrong_id": g["object_id"], "right": right, "linked_as": g["property_id"]}


def with_unattested(kg, row: dict, pools: dict) -> dict | None:
    """An entity row's wrong value replaced by a thing of its kind that the graph never gives the broken property
    (a city no one was born in, here): an answer's error is a plausible value, not always one the graph attests
    elsewhere, which every swap of the dev file is by construction. Kind "unattested"; of the things sharing a class
    with the wrong value and no statement of that property pointing at them, one picked by the row's id. None when
    there is none or the wrong value's text is not in the sentence."""
    from kgcheck.index.measures import INSTANCE_OF
    from kgcheck.verifier.text.schema import classes_of

    b, wrong_id = row.get("broken") or {}, row.get("wrong_id")
    if row.get("kind") != "entity" or not wrong_id or row["wrong"] not in row["text"]:
        return None
    classes = tuple(sorted(classes_of(wrong_id, {wrong_id: kg.statements(wrong_id, details=False)})))
    key = (classes, b["property_id"])
    if key not in pools:
        ids = [r[0] for r in kg.sql(
            "SELECT DISTINCT subject FROM statements WHERE property = ? AND entity_id IN (SELECT unnest(?)) "
            "AND subject NOT IN (SELECT entity_id FROM statements_by_object WHERE property = ?) ORDER BY subject",
            [INSTANCE_OF, list(classes), b["property_id"]])] if classes else []
        labels = kg.labels(ids)
        pools[key] = [(i, labels[i]) for i in ids if labels.get(i)]
    pool = [(i, label) for i, label in pools[key] if i != b["subject_id"] and label not in row["text"]]
    if not pool:
        return None
    new_id, new = pool[sum(map(ord, row["id"])) % len(pool)]
    return dict(row, id=row["id"] + "-unattested", kind="unattested", text=row["text"].replace(row["wrong"], new),
                wrong=new, wrong_id=new_id)


def load_rows(per_kind: int, offset: int = 0, path: Path = DATA) -> list[dict]:
    rows = [json.loads(line) for line in open(need_shared(path), encoding="utf-8")]
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r.get("kind") or "true"].append(r)
    picked = []
    for kind in ("true", "year", "entity"):
        pool = by_kind[kind]
        stride = max(1, len(pool) // max(1, per_kind))
        picked.append(pool[offset % stride::stride][:per_kind] if stride > 1 else pool[offset:offset + per_kind])
    # Interleaved (true, year, entity, true, ...): a run cut short still measures every kind.
    return [r for group in zip(*[g + [None] * (max(map(len, picked)) - len(g)) for g in picked])
            for r in group if r is not None]


def _year(text: str | None):
    from kgcheck.verifier.values import parse_date

    d = parse_date(text or "")
    return d.year if d else None


def _reader(tc) -> str:
    return getattr(tc, "reader", None) or tc.source


def states(tc, value_id: str | None, value_text: str) -> bool:
    """Does the claim state this value (same entity id, else same year, else same words)?"""
    from kgcheck.index.text import normalise

    c = tc.claim
    object_id = c.object_id or next((e.value_id for e in tc.verdict.evidence
                                     if e.relation == "match" and e.value_id), None)
    if value_id and object_id:
        return object_id == value_id
    y1, y2 = _year(c.object), _year(value_text)
    if y1 is not None and y2 is not None:
        return y1 == y2
    return normalise(c.object) == normalise(value_text)


def corrects(tc, broken: dict, right: str) -> bool:
    v = tc.verdict
    if broken.get("object_id"):
        return broken["object_id"] in v.correction_ids
    return any(_year(c) == _year(right) for c in v.corrections)


def subject_named(kg, rows: list[dict]) -> dict[str, bool]:
    """Per row id: does its text name the subject of its broken fact (its first gold triple for a true row) by a
    label or alias the index holds (normalised, whole words)? A row that does not can be flagged only by finding
    its subject some other way (an earlier mention, what the graph links to the other names): with every row of
    a kind, the share that does is about the ceiling of `flagged` for any reader of single sentences."""
    from kgcheck.index.text import normalise

    def subject(row):
        return (row.get("broken") or (row.get("gold") or [{}])[0]).get("subject_id")

    ids = sorted({subject(r) for r in rows if subject(r)})
    names: dict[str, set[str]] = defaultdict(set)
    for eid, norm in kg.lookup_in("SELECT id, norm FROM label_index WHERE id IN ({in})", ids):
        names[eid].add(norm)
    out = {}
    for r in rows:
        text = f" {normalise(r['text'])} "
        out[r["id"]] = any(f" {n} " in text for n in names.get(subject(r), ()) if n)
    return out


def score(rows: list[dict], reports: list, named: dict[str, bool] | None = None) -> dict:
    named = named or {}
    kinds: dict[str, Counter] = defaultdict(Counter)
    readers: dict[str, Counter] = defaultdict(Counter)
    for row, report in zip(rows, reports):
        claims = report.claims
        refuted_any = any(c.verdict.verdict == "REFUTED" for c in claims)
        if row["label"] == "true":
            k = kinds["true"]
            k["n"] += 1
            k["claims"] += len(claims)
            k["false_alarm"] += refuted_any
            for g in row["gold"]:
                k["gold"] += 1
                k["gold_supported"] += any(
                    c.claim.subject_id == g["subject_id"] and c.claim.property_id == g["property_id"]
                    and c.verdict.verdict == "SUPPORTED" and states(c, g["object_id"], g["object"]) for c in claims)
            for c in claims:
                r = readers[_reader(c)]
                r["true_claims"] += 1
                gold = any(c.claim.subject_id == g["subject_id"] and c.claim.property_id == g["property_id"]
                           and states(c, g["object_id"], g["object"]) for g in row["gold"])
                r["true_ok"] += gold or c.verdict.verdict == "SUPPORTED"
                r["true_refuted"] += c.verdict.verdict == "REFUTED"
            continue
        k = kinds[row["kind"]]
        b = row["broken"]
        on = [c for c in claims if c.claim.subject_id == b["subject_id"] and c.claim.property_id == b["property_id"]]
        k["n"] += 1
        k["claims"] += len(claims)
        flagged = any(c.verdict.verdict != "SUPPORTED" for c in on)
        k["flagged"] += flagged
        k["named"] += named.get(row["id"], False)
        k["named_flagged"] += named.get(row["id"], False) and flagged
        k["refuted"] += any(c.verdict.verdict == "REFUTED" for c in on)
        k["corrected"] += any(c.verdict.verdict == "REFUTED" and corrects(c, b, row["right"]) for c in on)
        k["fooled"] += any(c.verdict.verdict == "SUPPORTED" and states(c, row.get("wrong_id"), row["wrong"]) for c in on)
        # Also on another subject: "The film was produced by <wrong studio>" read as the film the graph gives it.
        k["fooled_any"] += any(c.verdict.verdict == "SUPPORTED" and states(c, row.get("wrong_id"), row["wrong"])
                               for c in claims)
        k["as_other"] += any(c.verdict.verdict == "SUPPORTED" and c.claim.subject_id == b["subject_id"] and
                             c.claim.property_id != b["property_id"] and c.claim.object_id == row.get("wrong_id")
                             for c in claims)  # the value SUPPORTED under a relation the text does not state
        k["silent"] += not refuted_any
        for c in claims:
            r = readers[_reader(c)]
            r["corrupt_claims"] += 1
            r["corrupt_hits"] += c in on and c.verdict.verdict != "SUPPORTED"
    return {"kinds": kinds, "readers": readers}


def render(result: dict, latencies: list[float], header: str) -> str:
    lines = [header]
    for kind in ("year", "entity", "relation", "unattested"):
        k = result["kinds"].get(kind)
        if not k:
            continue
        n = k["n"]
        lines.append(f"  {kind:<7} n={n:<5} flagged {k['flagged'] / n:.3f}  refuted {k['refuted'] / n:.3f}  "
                     f"corrected {k['corrected'] / n:.3f}  fooled {k['fooled'] / n:.3f}  silent {k['silent'] / n:.3f}"
                     f"  claims/sent {k['claims'] / n:.2f}")
        lines.append(f"          name their subject {k['named'] / n:.3f} (about the ceiling of flagged), flagged among "
                     f"them {k['named_flagged'] / max(1, k['named']):.3f}, the value SUPPORTED under another relation "
                     f"{k['as_other'] / n:.3f}, the wrong value SUPPORTED of any subject {k['fooled_any'] / n:.3f}")
    k = result["kinds"].get("true")
    if k:
        lines.append(f"  true    n={k['n']:<5} gold SUPPORTED {k['gold_supported'] / max(1, k['gold']):.3f} "
                     f"({k['gold']} gold)  false alarm {k['false_alarm'] / k['n']:.3f}  "
                     f"claims/sent {k['claims'] / k['n']:.2f}")
    for name, r in sorted(result["readers"].items()):
        t = max(1, r["true_claims"])
        lines.append(f"  reader {name:<10} true-sentence claims {r['true_claims']:>5}  precision vs graph "
                     f"{r['true_ok'] / t:.3f}  refuted {r['true_refuted'] / t:.3f}  | corrupted claims "
                     f"{r['corrupt_claims']:>5}, on the broken fact {r['corrupt_hits']:>4}")
    lines.append(f"  latency per sentence: p50 {percentile(latencies, .5):.3f} s, p99 {percentile(latencies, .99):.3f} s")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="/work/indexes/dense-dev")
    ap.add_argument("--per-kind", type=int, default=200, help="rows per category (true, year, entity)")
    ap.add_argument("--offset", type=int, default=0, help="start of the every-n-th sampling in each category")
    ap.add_argument("--llm", action="store_true", help="add the LLM reader (default GGUF)")
    ap.add_argument("--readers", default=None, help="comma-separated readers to keep (default: all)")
    ap.add_argument("--ids", default=None, help="only the rows whose ids this file lists, one a line (to re-run the "
                                                "rows a change moved; headline figures are the whole file's)")
    ap.add_argument("--other-relation", action="store_true",
                    help="each true row's fact said with another relation of its subject (with_other_relation): "
                         "rows of kind 'relation', to be flagged, not SUPPORTED as the relation the graph links")
    ap.add_argument("--kind", choices=("true", "year", "entity"), default=None,
                    help="only this category's rows (the true ones over a graph lacking their facts: lacking.py)")
    ap.add_argument("--unattested", action="store_true",
                    help="each entity row's wrong value replaced by a thing of its kind the graph never gives the "
                         "property (with_unattested): rows of kind 'unattested'")
    ap.add_argument("--dump", default=None, help="write per-row claims as JSONL here (for analysis)")
    ap.add_argument("--about", action="store_true",
                    help="give each text its subject's id as the topic it is about (verify_text(about=...)), as an "
                         "analyst checking an answer knows what the question asked")
    ap.add_argument("--named-topic", action="store_true",
                    help="only the rows that open with a description of a subject they never name, each after a "
                         "sentence naming it (with_named_topic); --per-kind then applies to those rows")
    ap.add_argument("--rephrase", choices=sorted(REPHRASINGS), default=None,
                    help="each true and entity row's fact said in one of these forms (rephrased): 'inverse' "
                         "'<value> is the <property> of <subject>.', 'relation-of' 'The <property> of <subject> is "
                         "<value>.', 'possessive' \"<subject>'s <property> is <value>.\"")
    ap.add_argument("--closed-world", action="store_true",
                    help="judge as `verify --closed-world` does: a value the graph does not list beside the ones it "
                         "gives is REFUTED (with --kind true over dense-lacking: what that costs in false alarms)")
    args = ap.parse_args()

    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker, CheckOptions
    from kgcheck.verifier.text.verify import verify_text

    kg = KG.open(args.index)
    checker = Checker(kg, options=CheckOptions(closed_world=args.closed_world))
    llm = None
    if args.llm:
        from kgcheck.verifier.llm.backends import load_llm

        llm = load_llm(None)
    kwargs = {}
    if args.readers:
        kwargs["readers"] = frozenset(args.readers.split(","))
    rows = load_rows(args.per_kind, args.offset) if not args.named_topic else [
        r for r in map(with_named_topic, load_rows(10 ** 9)) if r is not None]
    if args.rephrase:
        rows = [r for r in (rephrased(row, args.rephrase) for row in rows) if r is not None]
    if args.other_relation:
        rows = [r for r in (with_other_relation(kg, row) for row in rows) if r is not None]
    if args.unattested:
        pools: dict = {}
        rows = [r for r in (with_unattested(kg, row, pools) for row in rows) if r is not None]
    if args.kind:
        rows = [r for r in rows if (r.get("kind") or "true") == args.kind]
    if args.ids:
        wanted = set(Path(args.ids).read_text().split())
        rows = [r for r in rows if r["id"] in wanted]
    if args.named_topic:
        by_kind: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            by_kind[r.get("kind") or "true"].append(r)
        rows = [r for kind_rows in by_kind.values() for r in kind_rows[args.offset:args.offset + args.per_kind]]
    reports, latencies = [], []
    dump = open(args.dump, "w", buffering=1) if args.dump else None  # line-buffered: follow a long run
    for row in rows:
        t = time.perf_counter()
        about = (row.get("broken") or (row.get("gold") or [{}])[0]).get("subject_id") if args.about else None
        report = verify_text(kg, row["text"], llm=llm, checker=checker, about=about, **kwargs)
        latencies.append(time.perf_counter() - t)
        reports.append(report)
        if dump:
            dump.write(json.dumps({"id": row["id"], "claims": [
                [c.claim.subject_id, c.claim.property_id, c.span, c.verdict.verdict, _reader(c),
                 list(c.verdict.corrections[:3]), c.verdict.evidence[0].relation if c.verdict.evidence else None]
                for c in report.claims]}) + "\n")
    counts = Counter(r.get("kind") or "true" for r in rows)
    header = (f"text-factcheck-dev over {args.index}: {len(rows)} rows ({dict(counts)}), every property, "
              f"LLM {'on' if llm else 'off'}, readers {args.readers or 'all'}, offset {args.offset}"
              + (", each after a sentence naming its topic (--named-topic)" if args.named_topic else "")
              + (f", rephrased as {REPHRASINGS[args.rephrase]!r}" if args.rephrase else ""))
    print(render(score(rows, reports, subject_named(kg, rows)), latencies, header))


if __name__ == "__main__":
    main()
