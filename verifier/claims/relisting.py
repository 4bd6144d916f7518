"""Open listings an edit of a statement they do not cite cannot move.

An open listing (rekeys.listing_key) — NOT_ENOUGH_INFO "the graph lists X, Y, ... not Z" for a claim given by ids,
after no measured test found its property exclusive — reads every statement of its subject and property: each is
related to Z (compare.relate); the conflicting ones' values are the held set on which the by-value and
co-occurrence tests run. A listing of many values cites only the first ones, so most edits of its property touch
statements it does not cite. Such an edit that swaps one entity value for another at the same rank (or edits only
qualifiers or references, which a claim without qualifiers never reads) moves the verdict only when the old or the
new value is related to Z — equal, or above or below it in the located-in / subclass closure: the claim may then be
supported or more specific — or when the by-value or co-occurrence test on the new held set refutes. The cited
statements, the values the reason names and the property's other measures stay as they were (edits of those are
keyed by recheck.py, remeasure.py and rehierarchy.py, whose hits are never skipped here). The reason's count of
further values ("and N more") may then be stale, as the counts other unmoved verdicts quote.
"""
from __future__ import annotations

from kgcheck.verifier.claims.rehierarchy import closure_in, edges_sql
from kgcheck.verifier.claims.remeasure import cooccurrence_outcomes, held_values, parquet_path, value_test_outcomes

_CO_TABLES = ("subject_best", "measure_value", "statements_by_object")


def unmoved_listings(con, old_dir: str, new_dir: str, exclude: set[int]) -> set[int]:
    """Claims of `listing_candidates` (recheck.py: claim, subject, property, z) not in EXCLUDE whose verdict the
    edits of their property's statements cannot move (module text). Reads the tables measured_hits leaves:
    subject_statements (NEW's statements of the measured subjects) and open_pairs."""
    con.execute("CREATE OR REPLACE TEMP TABLE listing_asked AS SELECT * FROM listing_candidates "
                "WHERE claim NOT IN (SELECT unnest(?::BIGINT[]))", [sorted(exclude)])
    asked = {r[0] for r in con.execute("SELECT claim FROM listing_asked").fetchall()}
    new_paths = {n: parquet_path(new_dir, n) for n in _CO_TABLES}
    statements = {d: parquet_path(d, "statements") for d in (old_dir, new_dir)}
    has_pairs = con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'open_pairs'").fetchone()[0]
    if not asked or None in new_paths.values() or None in statements.values() or not has_pairs:
        return set()
    edits = con.execute("""SELECT l.claim, l.z, c.old_entity, c.new_entity, c.subject, c.statement_id
                           FROM listing_asked l JOIN changed_statements c USING (subject, property)
                           WHERE c.change = 'value'""").fetchall()
    moved = _moved_listing(con, statements[old_dir], statements[new_dir])
    # Related to Z in NEW's closure (as compare._relate_entity reads it for a claim given by id): the old value's
    # relation in OLD is NEW's unless a chain edit moved it (then rehierarchy.py keyed the claim, in EXCLUDE).
    above = closure_in(con, edges_sql(new_dir), {e for _, z, old, new, _, _ in edits for e in (z, old, new)})

    def related(z: str, x: str) -> bool:
        return x == z or z in above.get(x, ()) or x in above.get(z, ())

    moved |= {claim for claim, z, old, new, _, _ in edits if related(z, old) or related(z, new)}
    # The tests on NEW's held set: the by-value test wherever that set is exactly the judge's (else unknown: kept).
    held_values(con, new_paths["subject_best"], "SELECT subject, property FROM listing_asked", "listing_held")
    exact = {r[0] for r in con.execute("""SELECT DISTINCT l.claim FROM listing_asked l
                                          SEMI JOIN listing_held USING (subject, property)""").fetchall()}
    by_value = value_test_outcomes(con, new_paths["measure_value"], "listing_held")
    exclusive = {r[0] for r in con.execute("SELECT claim, subject, property FROM listing_asked").fetchall()
                 if by_value.get((r[1], r[2]))}
    con.execute("CREATE OR REPLACE TEMP TABLE listing_pairs AS FROM open_pairs WHERE claim IN "
                "(SELECT claim FROM listing_asked)")
    refuted = {claim for (claim, _), refutes in cooccurrence_outcomes(con, new_paths, "listing_pairs").items()
               if refutes}
    return (asked & exact) - moved - exclusive - refuted


def _moved_listing(con, old_statements: str, new_statements: str) -> set[int]:
    """Claims of listing_asked with a value edit whose rank changed too (the diff reports a statement changed in
    several ways by its value alone), or whose number of distinct values — the count its reason quotes ("and N
    more") — differs between the builds (values told apart by id: two values of one label, counted once in the
    reason, are a rarer case this leaves stale)."""
    pairs = "(subject, property) IN (SELECT (subject, property) FROM listing_asked)"
    rows = {build: f"""SELECT subject, property, statement_id, entity_id, rank FROM read_parquet('{path}')
                       WHERE subject IN (SELECT subject FROM listing_asked) AND {pairs}"""
            for build, path in (("old", old_statements), ("new", new_statements))}
    return {r[0] for r in con.execute(f"""
        WITH o AS ({rows["old"]}), n AS ({rows["new"]}),
        e AS (SELECT l.claim, c.subject, c.statement_id FROM listing_asked l
              JOIN changed_statements c USING (subject, property) WHERE c.change = 'value'),
        counted AS (SELECT 'old' AS build, subject, property, count(DISTINCT entity_id) FILTER (rank <> 'deprecated') AS n
                    FROM o GROUP BY ALL
                    UNION ALL SELECT 'new', subject, property, count(DISTINCT entity_id) FILTER (rank <> 'deprecated')
                    FROM n GROUP BY ALL)
        SELECT e.claim FROM e LEFT JOIN o USING (subject, statement_id) LEFT JOIN n USING (subject, statement_id)
        WHERE o.rank IS DISTINCT FROM n.rank
        UNION SELECT l.claim FROM listing_asked l
        LEFT JOIN (FROM counted WHERE build = 'old') co USING (subject, property)
        LEFT JOIN (FROM counted WHERE build = 'new') cn USING (subject, property)
        WHERE co.n IS DISTINCT FROM cn.n""").fetchall()}
