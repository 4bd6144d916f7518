"""Re-checking a results file after the index was rebuilt: only the claims the changes can reach.

A verdict depends on (a) the statements of its subject for the properties it tried — for rules B
(same object through another property) and C (nothing of the property), on every statement of its
subject, (b) the evidence statements it cited, (c) the facts about those properties (constraints live
on the property entity), and (d) for a claim named by text, which entities carry that name and their
statements of the property (every namesake is tried). The checker never reads statements pointing at
the subject. Each results line becomes keys for these four (rekeys.py); DuckDB joins the keys with the
diff's change tables (index/diff.py) and only the claims hit are checked again on the new index. A result
SUPPORTED by a statement holding exactly the claimed entity (`rekeys.held_value`) is not moved by its
property's other statements taking other values: those are joined only when they come to hold or stop
holding that entity, or change rank; a rule-B/C result, by its subject's other statements only when they
come to hold or stop holding its object (an object named by text: the candidate the checker compares,
`_link_objects`). Edits along the located-in / subclass chains of the compared values: rehierarchy.py; open
listings hit only by value edits of statements they do not cite: relisting.py. Those tests and the measures'
(remeasure.py) read only DuckDB tables: they run in a second thread while the directly hit claims are checked.
Not traced: which other property is the loosest (README).
"""
from __future__ import annotations

import os
import queue
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import orjson
import pyarrow as pa

from kgcheck.index.text import normalise
from kgcheck.verifier.claims.bulk import batched
from kgcheck.verifier.claims.check import Checker, CheckOptions, looks_literal
from kgcheck.verifier.claims.rehierarchy import hierarchy_hits
from kgcheck.verifier.claims.relisting import unmoved_listings
from kgcheck.verifier.claims.resultsfile import ResultsFile
from kgcheck.verifier.claims.rekeys import LISTING, is_result, result_keys
from kgcheck.verifier.claims.remeasure import (TESTS_READ, changed_measures, has_measures, is_measured, measure_gate,
                                               measure_tag, measured_hit_sets, parquet_path)
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.serialize import verdict_to_dict
from kgcheck.verifier.formats.writers import refuse_foreign_output, refuse_output_as_input, table_format
from kgcheck.verifier.claims.gcpause import with_fewer_collections
from kgcheck.verifier.model import Claim, Verdict

KEY_BATCH = 50_000
REACHABLE_MAX = 1_000_000  # change rows up to which the key pass drops keys no change can meet (_reachable)
_KEY_SCHEMA = pa.schema([("claim", pa.int64()), ("kind", pa.string()), ("a", pa.string()), ("b", pa.string()),
                         ("held", pa.string())])


@dataclass
class RecheckSummary:
    results: int = 0
    rechecked: int = 0
    flipped: list = field(default_factory=list)  # {id, old, new}
    flips: Counter = field(default_factory=Counter)
    measures_changed: int = 0  # re-checked because a graph-wide measure their verdict read or a chain edit may have moved
    listings_unmoved: int = 0  # open listings hit only by edits of statements they do not cite that cannot move them
    not_results: int = 0  # lines that are not results (error records, other shapes): copied as they were
    seconds_diff: float = 0.0
    seconds_check: float = 0.0

    def to_dict(self, max_flips: int | None = None) -> dict:
        return {"results": self.results, "not_results": self.not_results, "rechecked": self.rechecked,
                "flipped": len(self.flipped),
                "flips": dict(self.flips), "measures_changed": self.measures_changed,
                "listings_unmoved": self.listings_unmoved, "seconds_diff": round(self.seconds_diff, 3),
                "seconds_check": round(self.seconds_check, 3),
                "flipped_claims": self.flipped[:max_flips] if max_flips is not None else self.flipped}


# Every way a key meets a change, the `sp` way (a statement of the result's subject and property) first. UNION (not
# OR) so that each is a plain hash join.
_SP_HIT = """SELECT k.claim FROM keys k JOIN changed_statements c ON k.kind = 'sp' AND k.a = c.subject AND k.b = c.property
      AND (k.held IS NULL OR c.change = 'rank' OR k.held IN (c.old_entity, c.new_entity))"""
_OTHER_HITS = """SELECT k.claim FROM keys k JOIN changed_statements c ON k.kind = 'st' AND k.a = c.statement_id
UNION SELECT k.claim FROM keys k JOIN changed_statements c ON k.kind = 'any' AND k.a = c.subject
      AND (k.held IS NULL OR c.change IN ('added', 'removed', 'rank') OR k.held IN (c.old_entity, c.new_entity))
UNION SELECT k.claim FROM keys k JOIN changed_statements c ON k.kind = 'ent' AND k.a = c.subject
UNION SELECT k.claim FROM keys k JOIN changed_entities e ON k.kind IN ('lbl', 'ent') AND k.a = e.id
UNION SELECT k.claim FROM keys k JOIN changed_texts t ON k.kind = 'text' AND k.a = t.text
UNION SELECT k.claim FROM keys k JOIN namesakes n ON k.kind = 'name' AND k.a = n.text
      JOIN changed_statements c ON c.subject = n.id AND c.property = k.b"""
_HIT = f"{_SP_HIT}\nUNION {_OTHER_HITS}"
# Open listings (rekeys.listing_key) hit by nothing but edits of their property's statements they do not cite (a
# cited one is an `st` hit) that change an entity value for another, or only qualifiers or references (which an
# open listing of a claim without qualifiers never reads): relisting.py tells whether such an edit can move them.
_LISTINGS = f"""SELECT l.claim, l.a AS subject, l.b AS property, l.held AS z FROM keys l
WHERE l.kind = '{LISTING}' AND l.claim IN (SELECT claim FROM hit_claims)
  AND l.claim NOT IN ({_OTHER_HITS})
  AND NOT EXISTS (SELECT 1 FROM changed_statements c WHERE c.subject = l.a AND c.property = l.b
                  AND NOT (c.change IN ('qualifiers', 'references')
                           OR c.change = 'value' AND c.old_entity IS NOT NULL AND c.new_entity IS NOT NULL))"""


@dataclass
class KeyedResults:
    """The first pass over a results file (`key_results`): the lines whose own keys meet a change (`hits`), and
    what the indirect tests need — chain edits (rehierarchy.py) and graph-wide measures (remeasure.py) — which
    read only DuckDB tables, so that `recheck` runs them while it checks the hits."""
    diff: object
    link: object
    file: ResultsFile  # read once by the key pass: the lines to check again are read back by offset
    hits: set[int]
    held_back: set[int]  # open listings hit only by edits relisting.py may find harmless: decided with the others
    results: int
    others: int
    asked: dict[str, list]
    stored: bool
    gated: set[int]  # measured results of builds without measure tables that `measure_gate` says may move

    def indirect_hits(self, publish=None) -> set[int]:
        """Lines a chain edit or a moved measure may flip (some may be among `hits` too), and the held-back
        listings whose edits may move them. publish(lines): called with each test's lines as soon as it has them
        (all of them are in the result too): the tests that find the most run first."""
        con, old, new = self.diff.con, self.diff.old, self.diff.new
        found: set[int] = set()

        def add(lines: set[int]) -> None:
            found.update(lines)
            if publish:
                publish(lines)

        measured = iter(())
        if self.stored:
            measured = _measured_hit_sets(con, old, new, self.asked, self.link,
                                          saved=self.diff.saved_extra.get("changed_measures") == measure_tag())
            add(next(measured))  # the co-occurrence test: the listings read its outcome on NEW
            if self.held_back:  # (lines already found need no listing test: a smaller set only saves work)
                add(self.held_back - unmoved_listings(con, old, new, exclude=found))
        add(hierarchy_hits(con, old, new, self.link) | self.gated)
        for lines in measured:
            add(lines)
        return found


def key_results(diff, results_path: str, link=None, options: CheckOptions = CheckOptions()) -> KeyedResults:
    """Key every result of the file (rekeys.py) into the `keys` table and join them with the change tables. Results
    are keyed by line, not by claim id, so that the later passes find their lines without parsing the others (and
    ids repeated in a file stay apart). link(texts) -> {text: entity ids}: how the checker links a claimed object
    named by text (its measures are read too); None reads only object ids."""
    con = diff.con
    stored = has_measures(diff.old, diff.new)
    may_move, measured = (None if stored else measure_gate(con)), set()
    con.execute("CREATE OR REPLACE TABLE keys (claim BIGINT, kind VARCHAR, a VARCHAR, b VARCHAR, held VARCHAR)")
    # The diff keeps raw label texts; claims are keyed by the normalised form the label index uses.
    con.execute("CREATE OR REPLACE TABLE changed_texts (text VARCHAR)")
    for rows in batched((r[0] for r in con.execute("SELECT text FROM changed_label_texts").fetchall()), KEY_BATCH):
        texts = pa.table({"text": sorted({normalise(t) for t in rows if t})})
        con.register("texts_batch", texts)
        con.execute("INSERT INTO changed_texts SELECT text FROM texts_batch")
        con.unregister("texts_batch")
    n = others = 0
    cols: dict[str, list] = {"claim": [], "kind": [], "a": [], "b": [], "held": []}
    claims, kinds, firsts, seconds, helds = cols.values()
    asked: dict[str, list] = {"claim": [], "subject": [], "property": [], "value": [], "text": [], "reached": []}

    def flush():
        batch = pa.table(cols, schema=_KEY_SCHEMA)
        con.register("keys_batch", batch)
        con.execute("INSERT INTO keys SELECT * FROM keys_batch")
        con.unregister("keys_batch")
        for v in cols.values():
            v.clear()

    can_meet = _reachable(con)
    results = ResultsFile(results_path)
    for line_number, _, record in results.records():
        if not is_result(record):
            others += 1
            continue
        n += 1
        # Re-checked lines must read as the others were checked, or one file mixes two readings.
        if record.get("exclusivity") == "closed-world" and not options.closed_world:
            raise VerifierError(f"{results_path}:{line_number}: a verdict of `check --closed-world`: give "
                                "--closed-world to re-check these results as they were checked")
        if may_move is not None and may_move(record):
            measured.add(line_number)
        elif stored and is_measured(record) and record.get("subject_id"):
            claim = record.get("claim") or {}
            for pid in record["property_ids"]:
                for column, value in zip(asked, (line_number, record["subject_id"], pid, claim.get("object_id"),
                                                 claim.get("object") or None, TESTS_READ[record["exclusivity"]])):
                    asked[column].append(value)
        for kind, a, b, held in result_keys(record, can_meet):  # keys no change can meet are left out
            claims.append(line_number)
            kinds.append(kind)
            firsts.append(a)
            seconds.append(b)
            helds.append(held)
        if len(claims) >= KEY_BATCH:
            flush()
    if claims:
        flush()
    _namesakes(con, diff.new)
    _link_objects(con, link)
    con.execute(f"CREATE OR REPLACE TABLE hit_claims AS {_HIT}")
    hits = {r[0] for r in con.execute("SELECT claim FROM hit_claims").fetchall()}
    held_back: set[int] = set()
    if stored:  # the listing tests read the measure tables
        con.execute(f"CREATE OR REPLACE TABLE listing_candidates AS {_LISTINGS}")
        held_back = {r[0] for r in con.execute("SELECT claim FROM listing_candidates").fetchall()}
    return KeyedResults(diff, link, results, hits - held_back, held_back, n, others, asked, stored, measured)


def _reachable(con) -> dict[str, set[str]]:
    """Per kind of key read by `_HIT` alone and joined there on its first part (`st` a statement id, `lbl` an
    entity, `ent` a property, `any` a subject, `text` a name), the values a change can meet, when the diff is small
    enough to hold them in memory (else {}: every key is joined). Most results cite statements and name subjects,
    properties and texts no edit touched: their keys would only make the join longer (and `any` keys ask for links,
    `_link_objects`)."""
    sizes = [con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
             for t in ("changed_statements", "changed_entities", "changed_texts")]
    if max(sizes) > REACHABLE_MAX:
        return {}

    def column(sql: str) -> set[str]:
        return {r[0] for r in con.execute(sql).fetchall()}

    entities, subjects = column("SELECT id FROM changed_entities"), column("SELECT subject FROM changed_statements")
    return {"st": column("SELECT statement_id FROM changed_statements"), "lbl": entities, "ent": entities | subjects,
            "any": subjects, "text": column("SELECT text FROM changed_texts")}


def _namesakes(con, new_dir: str) -> None:
    """namesakes(text, id): the normalised labels and aliases (in NEW) of the subjects whose statements changed,
    the names under which the checker finds them by label, so that a claim naming its subject is joined with
    every changed entity of that name (from the changed side: a handful of entities, not every claimed name)."""
    con.execute("CREATE OR REPLACE TABLE namesakes (text VARCHAR, id VARCHAR)")
    labels = parquet_path(new_dir, "labels")
    if not labels or not con.execute("SELECT count(*) FROM keys WHERE kind = 'name'").fetchone()[0]:
        return
    rows = con.execute(f"""SELECT DISTINCT id, text FROM read_parquet('{labels}')
                           WHERE id IN (SELECT DISTINCT subject FROM changed_statements)""").fetchall()
    pairs = {(normalise(text), eid) for eid, text in rows if text and normalise(text)}
    con.register("namesakes_batch", pa.table({"text": [t for t, _ in pairs], "id": [i for _, i in pairs]},
                                             schema=pa.schema([("text", pa.string()), ("id", pa.string())])))
    con.execute("INSERT INTO namesakes SELECT * FROM namesakes_batch")
    con.unregister("namesakes_batch")


def _link_objects(con, link) -> None:
    """The `any` keys of objects named by text hold the candidate rule B compares a subject's other values with:
    the first the checker links the text to ('' when none, or for a date or number the checker never links), so
    that a value edit elsewhere re-checks the result only when it makes or unmakes that link."""
    texts = [r[0] for r in con.execute("SELECT DISTINCT b FROM keys WHERE kind = 'any' AND b IS NOT NULL").fetchall()]
    if not texts or link is None:
        return  # held stays NULL: every change to the subject's statements re-checks
    named = [t for t in texts if t and not looks_literal(t)]
    linked = link(named) if named else {}
    first = {t: (linked.get(t) or [""])[0] for t in texts}
    con.register("object_links", pa.table({"text": list(first), "first": list(first.values())},
                                          schema=pa.schema([("text", pa.string()), ("first", pa.string())])))
    try:
        con.execute("""UPDATE keys SET held = o.first FROM object_links o
                       WHERE keys.kind = 'any' AND keys.held IS NULL AND keys.b = o.text""")
    finally:
        con.unregister("object_links")


def _measured_hit_sets(con, old_dir: str, new_dir: str, asked: dict[str, list], link, saved: bool = False):
    """remeasure.measured_hit_sets for the measured results, with their claimed values (ids, or linked names)."""
    texts = sorted({t for t, v in zip(asked["text"], asked["value"]) if t and not v})
    linked = link(texts) if link and texts else {}
    rows: dict[str, list] = {"claim": [], "subject": [], "property": [], "value": [], "reached": [], "by_text": []}
    for claim, subject, pid, value, text, reached in zip(*asked.values()):
        for v in [value] if value else (linked.get(text) or [None]):
            for column, x in zip(rows, (claim, subject, pid, v, reached, not value)):
                rows[column].append(x)
    schema = pa.schema([("claim", pa.int64())] + [(c, pa.string()) for c in list(rows)[1:-2]]
                       + [("reached", pa.int8()), ("by_text", pa.bool_())])
    con.register("asked_batch", pa.table(rows, schema=schema))
    con.execute("CREATE OR REPLACE TABLE measured_keys AS SELECT * FROM asked_batch")
    con.unregister("asked_batch")
    changed_measures(con, old_dir, new_dir, saved=saved)
    yield from measured_hit_sets(con, old_dir, new_dir)


def _linker(kg):
    """Names to entity ids as the checker links a claimed object (exact and normalised labels, 3 at most). The
    keys, the chain-edit test and the measures each ask for their texts: each text is looked up once."""
    known: dict[str, list[str]] = {}

    def link(texts: list[str]) -> dict[str, list[str]]:
        missing = sorted({t for t in texts if t not in known})
        if missing:
            found = kg.searcher().entities_bulk(missing, k=3, vectors=False)
            known.update({t: [c.id for c in found.get(t) or ()] for t in missing})
        return {t: known[t] for t in texts}

    return link


def _refuse_tables(results_path: str, out_path: str) -> None:
    """A recheck reads and writes the JSON lines `kgcheck check` writes: a CSV or Parquet table of results holds
    only the best evidence statement, not what a recheck follows (every cited statement, the measures read)."""
    try:
        with open(results_path, "rb") as fh:
            parquet = fh.read(4) == b"PAR1"
    except OSError as exc:
        raise VerifierError(f"cannot read {results_path}: {exc.strerror}") from exc
    found = table_format(results_path) or ("parquet" if parquet else None)
    if found:
        raise VerifierError(f"{results_path} is a {found.upper()} table of results: its flat columns lack the evidence "
                            "and measures a recheck follows; check to a .jsonl output to re-check it after a rebuild")
    if table_format(out_path):
        raise VerifierError(f"recheck writes JSON lines: give an output ending in .jsonl, not {out_path}")


def claim_of(record: dict) -> Claim:
    """The claim as it was given, rebuilt from its result line (verdict_to_dict's `claim`)."""
    c = record.get("claim") or {}
    return Claim(id=str(record["id"]), subject=c.get("subject") or "", predicate=c.get("predicate") or "",
                 object=c.get("object") or "", subject_id=c.get("subject_id"), property_id=c.get("property_id"),
                 object_id=c.get("object_id"),
                 qualifiers=tuple((str(p), str(v)) for p, v in c.get("qualifiers") or ()), kind=c.get("kind"))


def _check_lines(checker: Checker, results: ResultsFile, wanted: set[int], todo: dict[int, tuple[Claim, dict]],
                 batch_size: int) -> dict[int, Verdict]:
    """Check the claims of the `wanted` lines again (recorded in `todo`: the claim and the old line's fields).
    The lines are gathered first and checked together: they are few and scattered over the file, and one call
    per window of records would pay the checker's per-call costs (statement fetches by subject chunks,
    exclusivity measures) once per window instead of once. Only their lines are parsed again."""
    if not wanted:
        return {}
    mine: dict[int, Claim] = {}
    for line_number, line in results.lines(wanted).items():
        rec = orjson.loads(line)
        mine[line_number] = claim_of(rec)
        todo[line_number] = mine[line_number], {k: rec.get(k) for k in ("id", "verdict", "claim")}
    # One batch for every predicate the claims use (as `eval` does), not one encode per claim.
    checker.facts.prefetch_predicates({claim.predicate for claim in mine.values() if claim.predicate})
    fresh: dict[int, Verdict] = {}
    for group in batched(list(mine), batch_size):
        fresh.update(zip(group, checker.check([mine[n] for n in group])))
    return fresh


@with_fewer_collections
def recheck(kg, diff, results_path: str, out_path: str, options: CheckOptions = CheckOptions(),
            batch_size: int = 20000) -> RecheckSummary:
    """Write `out_path`: RESULTS with the reachable claims checked again on `kg` (the new index)."""
    refuse_output_as_input(results_path, out_path, "the results file")
    _refuse_tables(results_path, out_path)
    refuse_foreign_output(out_path, "results")
    summary = RecheckSummary()
    started = time.monotonic()
    keyed = key_results(diff, results_path, _linker(kg), options)
    summary.results, summary.not_results = keyed.results, keyed.others
    summary.seconds_diff = time.monotonic() - started
    checker = Checker(kg, options=options)
    started = time.monotonic()
    todo: dict[int, tuple[Claim, dict]] = {}
    # Verdicts read off graph-wide measures or chain edits can flip without a change to their own statements: those
    # tests are DuckDB queries on the diff's connection (the GIL released), so they run on a second core while
    # this thread checks the claims whose own keys were hit, then the lines each test publishes as it finishes
    # (the last test's lines are all that is left to check when the thread ends).
    published: queue.SimpleQueue = queue.SimpleQueue()
    with ThreadPoolExecutor(1, thread_name_prefix="kgcheck-indirect") as pool:
        indirect = pool.submit(keyed.indirect_hits, published.put)
        fresh = _check_lines(checker, keyed.file, keyed.hits, todo, batch_size)
        checked = set(keyed.hits)
        while not (indirect.done() and published.empty()):
            try:
                lines = published.get(timeout=0.05)
            except queue.Empty:
                continue
            while not published.empty():
                lines = lines | published.get()
            fresh.update(_check_lines(checker, keyed.file, lines - checked, todo, batch_size))
            checked |= lines
        moved = indirect.result() - keyed.hits
    summary.listings_unmoved = len(keyed.held_back - moved)
    summary.measures_changed = len(moved - keyed.held_back)
    fresh.update(_check_lines(checker, keyed.file, moved - checked, todo, batch_size))  # empty: all were published
    replaced: dict[int, bytes] = {}
    for line_number in sorted(fresh):
        verdict, rec = fresh[line_number], todo[line_number][1]
        summary.rechecked += 1
        if verdict.verdict != rec["verdict"]:
            summary.flips[f"{rec['verdict']}->{verdict.verdict}"] += 1
            summary.flipped.append({"id": rec["id"], "old": rec["verdict"], "new": verdict.verdict,
                                    "claim": rec.get("claim")})
        replaced[line_number] = orjson.dumps(verdict_to_dict(verdict)) + b"\n"
    tmp = f"{out_path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as out:
            keyed.file.rewrite(out, replaced)
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    summary.seconds_check = time.monotonic() - started
    return summary
