"""Which results a rebuild can flip through the graph-wide measures rather than through their own statements.

Open-world verdicts (judge.py) read measures of the whole graph: how many subjects hold several values of a
property, overall, within the subject's class (and its superclasses), among holders of its value, among
subjects sharing another property, and which values co-occur. An edit anywhere (a subject moved to another
class, a second value added elsewhere) can tip one of them, so a claim whose own statements did not change may
still flip.

Both builds store those measures as tables (index/measures.py), so the diff compares them by a join
(`changed_measures`) and a result is re-checked only when a measure row its verdict read changed
(`measured_hits`): the property's overall counts; the rows of the subject's classes and of their superclasses
(up to the hand-over depth) or a subclass-of edge among them; the rows of the subject's other properties;
the by-value test evaluated on both builds where its held values are known (`loosest_value_flips`), else the
rows of its values and of the claimed values, or a statement of the property with one of those values
(co-occurrence); or a change to the properties the subject holds; an edit of its own classes re-checks it when
its by-class test on each build's classes comes out otherwise (reclass.py) (its own statements of the claimed
property are keyed by recheck.py already). A row counts as changed when the measured test's
outcome on it changed. A verdict that found nothing exclusive reads co-occurrence too: its test is evaluated
in SQL on both builds (recooccur.py), and the result is re-checked when the outcome differs; so is the
trace test (trace.py `trace_flips`). Counts
that moved without changing any outcome leave the verdict as it was, though the counts its reason quotes and
its confidence may be stale (bench/diff.py counts those). Not traced: the measures of a namesake the verdict
did not choose. Builds without measure tables (index schema 2) fall back to `measure_gate`:
re-check every measured result whose property, classes or held properties changed anywhere.
"""
from __future__ import annotations

import hashlib

from kgcheck.index.measures import INSTANCE_OF, MAX_DEPTH, MEASURE_TABLES, SUBCLASS_OF

from .measuresql import (BY_CLASS, BY_PROFILE, BY_VALUE, MEASURED, TESTS_READ, decides_sql, flipped_sql,
                         parquet_path)
from .recooccur import cooccurrence_flips
from .trace import trace_flips
from .reclass import class_chain, class_edit_flips, loosest_class_flips, subclass_edges_sql

CLASS_PROPERTIES = (INSTANCE_OF, SUBCLASS_OF)  # what the by-class measures group subjects by
_KEYED = {"measure_class": ("class", "subjects, several, pooled_subjects, pooled_several"),
          "measure_value": ("value", "subjects, several"), "measure_profile": ("other", "subjects, several")}


def is_measured(record: dict) -> bool:
    return record.get("exclusivity") in MEASURED and bool(record.get("property_ids"))


def has_measures(old_dir: str, new_dir: str) -> bool:
    """Both builds store the measure tables (index schema 3 and later)."""
    return all(parquet_path(d, n) for d in (old_dir, new_dir) for n in MEASURE_TABLES)


CHANGED_MEASURES_VERSION = 1  # raise when changed_measures compares otherwise: saved tables are then made again


def measure_tag() -> str:
    """What a saved changed_measures table was made under: the comparison's version, the measured test (its
    thresholds) and the tables compared."""
    made = f"{CHANGED_MEASURES_VERSION}|{decides_sql()}|{_KEYED!r}"
    return hashlib.sha256(made.encode()).hexdigest()[:16]


def save_measure_changes(diff) -> dict[str, str]:
    """`kgcheck build --keep-previous`: changed_measures of every property, saved with the change tables
    (index/diff.py `save(extra)`), so that each recheck of the pair reads it instead of comparing the measure
    tables again. Nothing when either build lacks the measure tables."""
    if not has_measures(diff.old, diff.new):
        return {}
    changed_measures(diff.con, diff.old, diff.new, every=True)
    return {"changed_measures": measure_tag()}


def changed_measures(con, old_dir: str, new_dir: str, every: bool = False, saved: bool = False) -> None:
    """changed_measures(kind, property, key, decides): measure rows of the properties in measured_keys (`every`:
    of all properties) that differ between the builds ('property': its overall counts, key NULL); decides: the
    measured test's outcome on the row differs too (a count that moved without crossing a threshold leaves every
    verdict that only tests it as it was). Only the asked properties: every verdict reads the rows of its own
    property, and the tables are sorted by property, so the others' row groups are skipped. `saved`: the table
    saved at build time (save_measure_changes, same measure_tag) is there as saved_changed_measures: take its
    rows of the asked properties. Needs has_measures."""
    asked = "true" if every else "property IN (SELECT DISTINCT property FROM measured_keys)"
    if saved:
        con.execute(f"CREATE OR REPLACE TABLE changed_measures AS FROM saved_changed_measures WHERE {asked}")
        return
    con.execute(decides_sql())
    paths = {n: (parquet_path(old_dir, n), parquet_path(new_dir, n)) for n in MEASURE_TABLES}
    tests = {"measure_class": "[decision({0}.subjects, {0}.several), decision({0}.pooled_subjects, {0}.pooled_several)]",
             "measure_value": "others({0}.subjects, {0}.several)", "measure_profile": "others({0}.subjects, {0}.several)"}
    parts = []
    for name, (key, columns) in _KEYED.items():
        old, new = paths[name]
        differs = " OR ".join(f"o.{c} <> n.{c}" for c in columns.split(", "))
        test = tests[name]
        parts.append(f"""SELECT '{name}' AS kind, coalesce(o.property, n.property) AS property,
                                coalesce(o.{key}, n.{key}) AS key,
                                {test.format('o')} IS DISTINCT FROM {test.format('n')} AS decides
                         FROM (FROM read_parquet('{old}') WHERE {asked}) o
                         FULL OUTER JOIN (FROM read_parquet('{new}') WHERE {asked}) n USING (property, {key})
                         WHERE o.property IS NULL OR n.property IS NULL OR {differs}""")
    old, new = paths["subject_best"]
    overall = ("SELECT property, count(*) AS subjects, count_if(n_best > 1) AS several FROM read_parquet('{}') "
               f"WHERE {asked} GROUP BY 1")
    parts.append(f"""SELECT 'property', coalesce(o.property, n.property), NULL,
                            decision(o.subjects, o.several) IS DISTINCT FROM decision(n.subjects, n.several)
                     FROM ({overall.format(old)}) o FULL OUTER JOIN ({overall.format(new)}) n USING (property)
                     WHERE o.property IS NULL OR n.property IS NULL OR o.subjects <> n.subjects
                        OR o.several <> n.several""")
    con.execute("CREATE OR REPLACE TABLE changed_measures AS " + " UNION ALL ".join(parts))


def _subject_statements(con, new_dir: str) -> None:
    """TEMP subject_statements: NEW's statements of the measured results' subjects, read once for both tests."""
    statements = parquet_path(new_dir, "statements")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE subject_statements AS
        SELECT subject, property, statement_id, entity_id, rank FROM read_parquet('{statements}')
        WHERE subject IN (SELECT DISTINCT subject FROM measured_keys)""")


def measured_hits(con, old_dir: str, new_dir: str) -> set[int]:
    """Claims of measured_keys(claim, subject, property, value, reached) — value: a claimed value id or NULL;
    reached: TESTS_READ of its exclusivity (COOCCURRENCE: it found nothing exclusive and asked the co-occurrence
    counts) — whose verdict read a measure row whose test's outcome changed (see the module text), or, for an
    open verdict, whose co-occurrence test (`cooccurrence_flips`) decides otherwise on the two builds."""
    return set().union(*measured_hit_sets(con, old_dir, new_dir))


def measured_hit_sets(con, old_dir: str, new_dir: str):
    """measured_hits test by test, as each finishes (recheck checks them meanwhile): the co-occurrence test first
    (the slowest, with the most claims; relisting.py reads the table it leaves), then the measure rows, then the
    loosest class."""
    _subject_statements(con, new_dir)
    yield cooccurrence_flips(con, old_dir, new_dir)
    yield trace_flips(con, old_dir, new_dir)
    # A subject whose own classes were edited: its by-class test on each build's classes (else re-checked).
    class_edits = class_edit_flips(con, old_dir, new_dir)
    class_edited = f"c.property = '{INSTANCE_OF}' AND k.reached >= {BY_CLASS} OR " if class_edits is None else ""
    value_test_flips = loosest_value_flips(con, old_dir, new_dir)
    classes = " UNION ".join(f"SELECT claim, property, class FROM c{d}" for d in range(MAX_DEPTH + 1))
    rows = con.execute(f"""
        WITH k AS (SELECT DISTINCT claim, subject, property, reached FROM measured_keys),
        by_class AS (SELECT * FROM k WHERE reached >= {BY_CLASS}),
        every AS (SELECT subject, property, entity_id, rank FROM subject_statements),
        own AS (SELECT subject, property, entity_id FROM every WHERE rank <> 'deprecated'),
        parents AS ({subclass_edges_sql(new_dir)}),
        {class_chain("by_class")},
        classes AS ({classes}),
        value_moved AS (SELECT property, key FROM changed_measures WHERE kind = 'measure_value' AND decides),
        vals AS (SELECT q.claim, q.property FROM measured_keys q
                 JOIN value_moved m ON m.property = q.property AND m.key = q.value
                 WHERE q.value IS NOT NULL AND q.reached >= {BY_VALUE}
                 UNION SELECT k.claim, k.property FROM k JOIN own s USING (subject, property)
                 JOIN value_moved m ON m.property = s.property AND m.key = s.entity_id
                 WHERE s.entity_id IS NOT NULL AND k.reached >= {BY_VALUE}),
        profile_moved AS (SELECT property, key FROM changed_measures WHERE kind = 'measure_profile' AND decides)
        SELECT k.claim FROM k JOIN changed_measures m ON m.kind = 'property' AND m.property = k.property
              AND m.decides
        UNION SELECT k.claim FROM k JOIN changed_statements c ON c.subject = k.subject
              AND ({class_edited}c.change IN ('added', 'removed') AND k.reached >= {BY_PROFILE})
        UNION SELECT c.claim FROM classes c JOIN changed_measures m
              ON m.kind = 'measure_class' AND m.property = c.property AND m.key = c.class AND m.decides
        UNION SELECT c.claim FROM classes c JOIN changed_statements s
              ON s.subject = c.class AND s.property = '{SUBCLASS_OF}'
        UNION SELECT k.claim FROM k JOIN every s USING (subject)
              JOIN profile_moved m ON m.property = k.property AND m.key = s.property
              WHERE s.property <> k.property AND k.reached >= {BY_PROFILE}
        UNION SELECT v.claim FROM vals v
              WHERE NOT EXISTS (SELECT 1 FROM value_test_exact e
                                WHERE e.claim = v.claim AND e.property = v.property)""").fetchall()
    yield {r[0] for r in rows} | value_test_flips | (class_edits or set())
    yield loosest_class_flips(con, old_dir, new_dir)


def loosest_value_flips(con, old_dir: str, new_dir: str) -> set[int]:
    """Claims whose by-value test comes out otherwise on OLD than on NEW, evaluated exactly as the checker runs it
    (facts.value_exclusivity: cooccur.held_alone over the held values, the loosest — highest share of other
    holders with several values, then the smallest id — decides) wherever the held set is known exactly: the
    subject's statements of the property are all non-deprecated entity values (then each is a conflict: judge.py's
    `held`), for a claim given by id (by name, a value without a label is left out of `held`). A held value's row
    whose counts moved without its own outcome changing still switches the loosest, so every moved row counts.
    Leaves TEMP value_test_exact(claim, subject, property): the pairs evaluated here; measured_hits keys the
    others by the rows' own outcomes. The subject's own statements are NEW's on both sides (a change to them is
    keyed by recheck.py already)."""
    con.execute("CREATE OR REPLACE TEMP TABLE value_test_exact (claim BIGINT, subject VARCHAR, property VARCHAR)")
    values = {b: parquet_path(d, "measure_value") for b, d in (("old", old_dir), ("new", new_dir))}
    best = parquet_path(new_dir, "subject_best")
    if None in values.values() or best is None:
        return set()
    # The held values depend on the subject and property alone: one row per (subject, property, value), kept for
    # the pairs whose held set is exact and one of whose values' rows moved; counted for both builds.
    keyed = f"SELECT DISTINCT claim, subject, property FROM measured_keys WHERE reached >= {BY_VALUE} AND NOT by_text"
    held_values(con, best, f"""SELECT DISTINCT s.subject, s.property FROM ({keyed}) q
                               JOIN subject_statements s USING (subject, property)
                               JOIN changed_measures m ON m.kind = 'measure_value' AND m.property = s.property
                                    AND m.key = s.entity_id""", "value_held")
    con.execute(f"""INSERT INTO value_test_exact SELECT k.* FROM ({keyed}) k
                    SEMI JOIN (SELECT DISTINCT subject, property FROM value_held) USING (subject, property)""")
    con.execute(decides_sql())
    moved = flipped_sql(*(_value_outcomes_sql(values[b], "value_held") for b in ("old", "new")),
                        "subject, property", "exclusive")
    return {r[0] for r in con.execute(f"""SELECT DISTINCT e.claim FROM value_test_exact e
                                          JOIN ({moved}) m USING (subject, property)""").fetchall()}


def held_values(con, best: str, pairs: str, name: str) -> None:
    """TEMP table NAME(subject, property, x, mine): the held values (subject_statements, NEW) of the (subject,
    property) PAIRS (SQL) whose held set is the judge's exactly — every statement of the pair a non-deprecated
    entity value; mine: whether the subject holds several (subject_best at BEST)."""
    con.execute(f"""CREATE OR REPLACE TEMP TABLE {name} AS
        WITH held AS (SELECT DISTINCT s.subject, s.property, s.entity_id AS x, s.rank
                      FROM (SELECT DISTINCT subject, property FROM ({pairs})) q
                      JOIN subject_statements s USING (subject, property)),
        exact AS (SELECT subject, property FROM held GROUP BY ALL
                  HAVING count(x) = count(*) AND count_if(rank = 'deprecated') = 0),
        mine AS (SELECT e.subject, e.property, (coalesce(b.n_best, 1) > 1)::INT AS mine
                 FROM exact e LEFT JOIN (FROM read_parquet('{best}') WHERE subject IN (SELECT subject FROM exact)) b
                 USING (subject, property))
        SELECT h.subject, h.property, h.x, mine.mine FROM held h JOIN mine USING (subject, property)""")


def value_test_outcomes(con, measure_value: str, held: str) -> dict[tuple[str, str], bool]:
    """Per (subject, property) of the HELD table (held_values): does the by-value test on those values find the
    property exclusive, counted on the MEASURE_VALUE table of a build (facts.value_exclusivity: cooccur.held_alone
    over the held values, the loosest — highest share of other holders with several values, then the smallest id
    — decides)?"""
    con.execute(decides_sql())
    rows = con.execute(_value_outcomes_sql(measure_value, held)).fetchall()
    return {(subject, pid): bool(exclusive) for subject, pid, exclusive in rows}


def _value_outcomes_sql(measure_value: str, held: str) -> str:
    """The SQL of value_test_outcomes: (subject, property, exclusive); needs decides_sql's macros."""
    return f"""
        WITH m AS (FROM read_parquet('{measure_value}') WHERE property IN (SELECT DISTINCT property FROM {held})
                   AND value IN (SELECT x FROM {held})),
        counted AS (SELECT h.subject, h.property, h.x, coalesce(m.subjects, 1) - 1 AS n,
                           coalesce(m.several, h.mine) - h.mine AS k
                    FROM {held} h LEFT JOIN m ON m.property = h.property AND m.value = h.x),
        shared AS (SELECT *, CASE WHEN n > 0 THEN k / n ELSE 1.0 END AS share FROM counted),
        loosest AS (SELECT subject, property, max(share) AS share FROM shared GROUP BY ALL)
        SELECT s.subject, s.property, arg_min(exclusive(s.n, s.k), s.x) AS exclusive
        FROM shared s JOIN loosest l USING (subject, property, share) GROUP BY ALL"""


def measure_inputs_changed(con) -> tuple[set[str], bool]:
    """From a diff's `changed_statements`: the properties whose statements changed (not only in their
    references), and whether classes or the properties subjects hold changed (then every measure may move)."""
    properties = {r[0] for r in con.execute(
        "SELECT DISTINCT property FROM changed_statements WHERE change <> 'references'").fetchall()}
    held_changed = con.execute(
        "SELECT count(*) FROM changed_statements WHERE change IN ('added', 'removed')").fetchone()[0] > 0
    return properties, held_changed or bool(properties & set(CLASS_PROPERTIES))


def measure_gate(con):
    """For builds without measure tables: did a result's verdict read a graph-wide measure the diff may have
    moved? (conservative: any change to its property, to classes, or to which properties subjects hold)"""
    properties, everything = measure_inputs_changed(con)

    def may_move(rec: dict) -> bool:
        pids = rec.get("property_ids") or ()
        return is_measured(rec) and (everything or pids[0] in properties)

    return may_move
