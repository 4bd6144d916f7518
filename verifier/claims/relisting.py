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
keyed by recheck.py, remeasure.py and rehierarchy.py, whose hits are never skipped here), and so does whether the
subject holds several best values at once (a measured share does not refute beside them: judge.py), which an edit
of a time qualifier may change. The reason's count of
further values ("and N more") may then be stale, as the counts other unmoved verdicts quote.
"""
from __future__ import annotations

from kgcheck.verifier.claims.rehierarchy import closure_in, edges_sql
from kgcheck.verifier.claims.remeasure import held_values, parquet_path, value_test_outcomes

def unmoved_listings(con, old_dir: str, new_dir: str, exclude: set[int]) -> set[int]:
    """Claims of `listing_candidates` (recheck.py: claim, subject, property, z) not in EXCLUDE whose verdict the
    edits of their property's statements cannot move (module text). Reads the tables measured_hits leaves:
    subject_statements (NEW's statements of the measured subjects) and cooccurrence_refutes_on_new."""
    con.execute("CREATE OR REPLACE TEMP TABLE listing_asked AS SELECT * FROM listing_candidates "
                "WHERE claim NOT IN (SELECT unnest(?::BIGINT[]))", [sorted(exclude)])
    asked = {r[0] for r in con.execute("SELECT claim FROM listing_asked").fetchall()}
    best, old_statements = parquet_path(new_dir, "subject_best"), parquet_path(old_dir, "statements")
    measure_value = parquet_path(new_dir, "measure_value")
    cooccurrence = con.execute("SELECT count(*) FROM duckdb_tables() "
                               "WHERE table_name = 'cooccurrence_refutes_on_new'").fetchall()[0][0]
    if not asked or None in (best, old_statements, measure_value) or not cooccurrence:
        return set()
    con.execute("""CREATE OR REPLACE TEMP TABLE listing_edits AS
                   SELECT l.claim, l.z, c.old_entity, c.new_entity, c.subject, c.statement_id
                   FROM listing_asked l JOIN changed_statements c USING (subject, property)
                   WHERE c.change = 'value'""")
    edits = con.execute("SELECT claim, z, old_entity, new_entity FROM listing_edits").fetchall()
    moved = _moved_listing(con, old_statements) | _several_moved(con, parquet_path(old_dir, "subject_best"), best)
    # Related to Z in NEW's closure (as compare._relate_entity reads it for a claim given by id): the old value's
    # relation in OLD is NEW's unless a chain edit moved it (then rehierarchy.py keyed the claim, in EXCLUDE).
    above = closure_in(con, edges_sql(new_dir), {e for _, z, old, new in edits for e in (z, old, new)})

    def related(z: str, x: str) -> bool:
        return x == z or z in above.get(x, ()) or x in above.get(z, ())

    moved |= {claim for claim, z, old, new in edits if related(z, old) or related(z, new)}
    # The tests on NEW's held set: the by-value test wherever that set is exactly the judge's (else unknown: kept).
    held_values(con, best, "SELECT subject, property FROM listing_asked", "listing_held")
    exact = {r[0] for r in con.execute("""SELECT DISTINCT l.claim FROM listing_asked l
                                          SEMI JOIN listing_held USING (subject, property)""").fetchall()}
    by_value = value_test_outcomes(con, measure_value, "listing_held")
    exclusive = {r[0] for r in con.execute("SELECT claim, subject, property FROM listing_asked").fetchall()
                 if by_value.get((r[1], r[2]))}
    refuted = {r[0] for r in con.execute("SELECT claim FROM cooccurrence_refutes_on_new "
                                         "SEMI JOIN listing_asked USING (claim)").fetchall()}
    return (asked & exact) - moved - exclusive - refuted


def _several_moved(con, old_best: str | None, new_best: str) -> set[int]:
    """Claims of listing_asked whose subject holds several best values of the property on one build and not on the
    other (an edit of a time qualifier can do it): the judge's own-several test (judge.holds_several, the reading
    of subject_best) read otherwise there. Every claim when OLD has no such table."""
    if old_best is None:
        return {r[0] for r in con.execute("SELECT claim FROM listing_asked").fetchall()}
    return {r[0] for r in con.execute(f"""
        SELECT l.claim FROM listing_asked l
        LEFT JOIN read_parquet('{old_best}') o USING (subject, property)
        LEFT JOIN read_parquet('{new_best}') n USING (subject, property)
        WHERE coalesce(o.n_best, 0) > 1 IS DISTINCT FROM coalesce(n.n_best, 0) > 1""").fetchall()}


def _moved_listing(con, old_statements: str) -> set[int]:
    """Claims of listing_asked with a value edit (listing_edits) whose rank changed too (the diff reports a statement
    changed in several ways by its value alone), or whose number of distinct values — the count its reason quotes
    ("and N more") — differs between the builds (values told apart by id: two values of one label, counted once in
    the reason, are a rarer case this leaves stale). NEW's statements are subject_statements'."""
    pairs = "(subject, property) IN (SELECT (subject, property) FROM listing_asked)"
    return {r[0] for r in con.execute(f"""
        WITH o AS (SELECT subject, property, statement_id, entity_id, rank FROM read_parquet('{old_statements}')
                   WHERE subject IN (SELECT subject FROM listing_asked) AND {pairs}),
        n AS (FROM subject_statements WHERE {pairs}),
        counted AS (SELECT 'old' AS build, subject, property, count(DISTINCT entity_id) FILTER (rank <> 'deprecated') AS n
                    FROM o GROUP BY ALL
                    UNION ALL SELECT 'new', subject, property, count(DISTINCT entity_id) FILTER (rank <> 'deprecated')
                    FROM n GROUP BY ALL)
        SELECT e.claim FROM listing_edits e LEFT JOIN o USING (subject, statement_id)
        LEFT JOIN n USING (subject, statement_id)
        WHERE o.rank IS DISTINCT FROM n.rank
        UNION SELECT l.claim FROM listing_asked l
        LEFT JOIN (FROM counted WHERE build = 'old') co USING (subject, property)
        LEFT JOIN (FROM counted WHERE build = 'new') cn USING (subject, property)
        WHERE co.n IS DISTINCT FROM cn.n""").fetchall()}
