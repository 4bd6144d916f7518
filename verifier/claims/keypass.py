"""The key pass of a recheck: which lines of a results file the changes between two builds can reach.

A verdict depends on (a) the statements of its subject for the properties it tried — for rules B
(same object through another property) and C (nothing of the property), on every statement of its
subject, (b) the evidence statements it cited, (c) the facts about those properties (constraints live
on the property entity), and (d) for a claim named by text, which entities carry that name and their
statements of the property (every namesake is tried). The checker never reads statements pointing at
the subject. Each results line becomes keys for these four (rekeys.py); DuckDB joins the keys with the
diff's change tables (index/diff.py): the lines hit are checked again by recheck.py. A result SUPPORTED by a
statement holding exactly the claimed entity (`rekeys.held_value`) is not moved by its property's other
statements taking other values: those are joined only when they come to hold or stop holding that entity, or
change rank; a rule-B/C result, by its subject's other statements only when they come to hold or stop holding
its object (an object named by text: the candidate the checker compares, `_link_objects`). Edits along the
located-in / subclass chains of the compared values: rehierarchy.py; open listings hit only by value edits of
statements they do not cite: relisting.py; graph-wide measures: remeasure.py. Those read only DuckDB tables
(`KeyedResults.indirect_hits`): recheck runs them in a second thread while it checks the directly hit claims.
Not traced: which other property is the loosest (README).
"""
from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from kgcheck.index.measures import DEMONYM
from kgcheck.index.text import normalise
from kgcheck.verifier.claims.bulk import batched
from kgcheck.verifier.claims.check import CheckOptions, looks_literal
from kgcheck.verifier.claims.rehierarchy import Moved, hierarchy_hits, moved_before_keys
from kgcheck.verifier.claims.relisting import unmoved_listings
from kgcheck.verifier.claims.resultsfile import ResultsFile
from kgcheck.verifier.claims import savedkeys
from kgcheck.verifier.claims.rekeys import LISTING, is_result, measured_rows, result_keys
from kgcheck.verifier.claims.remeasure import (changed_measures, has_measures, measure_gate,
                                               measure_tag, measured_hit_sets, parquet_path)
from kgcheck.verifier.errors import VerifierError

KEY_BATCH = 50_000
REACHABLE_MAX = 1_000_000  # change rows up to which the key pass drops keys no change can meet (_reachable)
_KEY_SCHEMA = pa.schema([("claim", pa.int64()), ("kind", pa.string()), ("a", pa.string()), ("b", pa.string()),
                         ("held", pa.string())])


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

# Saved keys (savedkeys.py) are every key of a line; those no change can meet are left out here, as the parsing pass
# leaves them out (`_reachable`): they could only make the joins longer, and `any` keys ask for links.
_TOUCHED = "k.a IN (SELECT subject FROM changed_statements)"
_MEETABLE = f"""SELECT claim, kind, a, b, held FROM saved_keys k WHERE CASE k.kind
    WHEN 'st' THEN k.a IN (SELECT statement_id FROM changed_statements)
    WHEN 'lbl' THEN k.a IN (SELECT id FROM changed_entities)
    WHEN 'ent' THEN k.a IN (SELECT id FROM changed_entities) OR {_TOUCHED}
    WHEN 'sp' THEN {_TOUCHED} WHEN 'any' THEN {_TOUCHED} WHEN '{LISTING}' THEN {_TOUCHED}
    WHEN 'text' THEN k.a IN (SELECT text FROM changed_texts)
    ELSE k.kind NOT IN ({", ".join(f"'{kind}'" for kind in savedkeys.NOT_KEYS)}) END"""


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
    moved: Moved | None  # the chain tests' reach (rehierarchy.moved_before_keys)
    saved: savedkeys.SavedKeys | None = None  # the keys saved beside the file, when they were read instead of it

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
        add(hierarchy_hits(con, old, new, self.moved, self.link) | self.gated)
        for lines in measured:
            add(lines)
        return found


def changed_demonyms(con, old: str, new: str) -> set[str]:
    """The texts, in either build, of the demonym statements the rebuild changed: a claim naming a place by one
    ("citizenship: British") compares with it as with a label (compare._relate_entity), so they are changed texts."""
    ids = [r[0] for r in con.execute("SELECT DISTINCT statement_id FROM changed_statements WHERE property = ?",
                                     [DEMONYM]).fetchall()]
    paths = [p for p in (parquet_path(old, "statements"), parquet_path(new, "statements")) if p]
    return {r[0] for path in (paths if ids else ()) for r in con.execute(
        f"SELECT string FROM read_parquet('{path}') WHERE property = ? AND string IS NOT NULL "
        "AND statement_id IN (SELECT unnest(?))", [DEMONYM, ids]).fetchall()}


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
    label_texts = [r[0] for r in con.execute("SELECT text FROM changed_label_texts").fetchall()]
    for rows in batched(label_texts + sorted(changed_demonyms(con, diff.old, diff.new)), KEY_BATCH):
        texts = pa.table({"text": sorted({normalise(t) for t in rows if t})})
        con.register("texts_batch", texts)
        con.execute("INSERT INTO changed_texts SELECT text FROM texts_batch")
        con.unregister("texts_batch")
    moved = moved_before_keys(con, diff.old, diff.new, REACHABLE_MAX)
    saved = savedkeys.load(results_path) if stored else None  # what `check` noted of each line, as it wrote it
    if saved is not None:
        results = ResultsFile(results_path, saved.starts, saved.bom)
        if saved.closed_world_line is not None and not options.closed_world:
            raise _closed_world(results_path, saved.closed_world_line)
        con.register("saved_keys", saved.table)
        con.execute(f"INSERT INTO keys {_MEETABLE}")
        con.unregister("saved_keys")
        n, others, asked = saved.results, saved.others, saved.asked.to_pydict()
    else:
        results = ResultsFile(results_path)
        can_meet = _reachable(con)  # every key when the change tables are too large to hold
        n, others, asked = _parse_keys(con, results, options, may_move, measured, stored, can_meet,
                                       moved if can_meet else None)
    _namesakes(con, diff.new)
    _link_objects(con, link)
    con.execute(f"CREATE OR REPLACE TABLE hit_claims AS {_HIT}")
    hits = {r[0] for r in con.execute("SELECT claim FROM hit_claims").fetchall()}
    held_back: set[int] = set()
    if stored:  # the listing tests read the measure tables
        con.execute(f"CREATE OR REPLACE TABLE listing_candidates AS {_LISTINGS}")
        held_back = {r[0] for r in con.execute("SELECT claim FROM listing_candidates").fetchall()}
    return KeyedResults(diff, link, results, hits - held_back, held_back, n, others, asked, stored, measured, moved,
                        saved)


def _closed_world(results_path: str, line_number: int) -> VerifierError:
    # Re-checked lines must read as the others were checked, or one file mixes two readings.
    return VerifierError(f"{results_path}:{line_number}: a verdict of `check --closed-world`: give --closed-world to "
                         "re-check these results as they were checked")


def _parse_keys(con, results: ResultsFile, options: CheckOptions, may_move, measured: set[int], stored: bool,
                can_meet: dict, moved_keys) -> tuple[int, int, dict[str, list]]:
    """Key every line of RESULTS by parsing it into the `keys` table (keys no change can meet are left out);
    (results, other lines, the measured results' rows). Lines `may_move` says a measure may move go to MEASURED."""
    n = others = 0
    cols: dict[str, list] = {"claim": [], "kind": [], "a": [], "b": [], "held": []}
    claims, kinds, firsts, seconds, helds = cols.values()
    asked: dict[str, list] = {"claim": [], "subject": [], "property": [], "value": [], "text": [], "reached": []}
    asked_claim, asked_subject, asked_property, asked_value, asked_text, asked_reached = asked.values()

    def flush():
        batch = pa.table(cols, schema=_KEY_SCHEMA)
        con.register("keys_batch", batch)
        con.execute("INSERT INTO keys SELECT * FROM keys_batch")
        con.unregister("keys_batch")
        for v in cols.values():
            v.clear()

    for line_number, _, record in results.records():
        if not is_result(record):
            others += 1
            continue
        n += 1
        if record.get("exclusivity") == "closed-world" and not options.closed_world:
            raise _closed_world(results.path, line_number)
        if may_move is not None and may_move(record):
            measured.add(line_number)
        elif stored:
            for subject, pid, value, text, reached in measured_rows(record):
                asked_claim.append(line_number)
                asked_subject.append(subject)
                asked_property.append(pid)
                asked_value.append(value)
                asked_text.append(text)
                asked_reached.append(reached)
        for kind, a, b, held in result_keys(record, can_meet, moved_keys):  # keys no change can meet are left out
            claims.append(line_number)
            kinds.append(kind)
            firsts.append(a)
            seconds.append(b)
            helds.append(held)
        if len(claims) >= KEY_BATCH:
            flush()
    if claims:
        flush()
    return n, others, asked


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
    """remeasure.measured_hit_sets for the measured results, with their claimed values (ids, or linked names: one
    row per candidate the checker links the name to, `reading` its place in the linker's order)."""
    schema = pa.schema([("claim", pa.int64()), ("subject", pa.string()), ("property", pa.string()),
                        ("value", pa.string()), ("reached", pa.int8()), ("by_text", pa.bool_()),
                        ("reading", pa.int8())])
    table = pa.table(asked, schema=pa.schema([*schema][:-2]).append(pa.field("text", pa.string())))
    # Most claims give their value by id: those rows go in as they are (no Python loop over them).
    by_id = table.filter(pc.is_valid(table["value"])).select(schema.names[:-2])
    by_id = by_id.append_column("by_text", pa.repeat(False, by_id.num_rows))
    by_id = by_id.append_column("reading", pa.repeat(pa.scalar(0, pa.int8()), by_id.num_rows))
    named = table.filter(pc.is_null(table["value"])).to_pydict()
    texts = sorted({t for t in named["text"] if t})
    linked = link(texts) if link and texts else {}
    rows: dict[str, list] = {name: [] for name in schema.names}
    for claim, subject, pid, text, reached in zip(named["claim"], named["subject"], named["property"], named["text"],
                                                  named["reached"]):
        for reading, v in enumerate(linked.get(text) or [None]):
            for column, x in zip(rows, (claim, subject, pid, v, reached, True, reading)):
                rows[column].append(x)
    con.register("asked_batch", pa.concat_tables([by_id, pa.table(rows, schema=schema)]))
    con.execute("CREATE OR REPLACE TABLE measured_keys AS SELECT * FROM asked_batch")
    con.unregister("asked_batch")
    changed_measures(con, old_dir, new_dir, saved=saved)
    yield from measured_hit_sets(con, old_dir, new_dir)


def linker(kg):
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
