"""The co-occurrence test (cooccur.py) of open verdicts, evaluated in SQL on both builds of a recheck.

For each claimed value z the subject does not hold, E = max over its held values x of n(x) n(z) m / N (n: other
subjects holding the value, from measure_value; N, m: the property's subjects and the share holding several, from
subject_best; no test below MIN_SUBJECTS); z is excluded when E >= MIN_EXPECTED and no other subject holds z beside
any x (statements_by_object); the verdict refutes when every such z is excluded.

NEW's outcome is one query over every asked pair; OLD's is the results file's own where its verdict says it (the
test refuted it, or it asked the test and went on: measuresql.old_pairs_sql), one query over the few pairs left —
about a third less work than evaluating both builds whole (bench/HISTORY.md, 2026-11-28, fourteenth session). A
recount of only the triples an edit can move was measured and dropped twice (HISTORY, 2026-11-25 and 2026-11-28).
"""
from __future__ import annotations

from .cooccur import MIN_EXPECTED
from .facts import MIN_SUBJECTS
from .measuresql import COOCCURRENCE, old_pairs_sql, parquet_path, recorded_flips_sql

_TABLES = ("subject_best", "measure_value", "statements_by_object")


def cooccurrence_flips(con, old_dir: str, new_dir: str) -> set[int]:
    """Open verdicts whose co-occurrence test comes out otherwise on OLD than on NEW (OLD's outcome read off the
    recorded verdict where it says it: measuresql.recorded_flips_sql). The subject's own values are
    NEW's on both sides (subject_statements, made by remeasure.measured_hits): a change to them is keyed by
    recheck.py already. Leaves TEMP cooccurrence_refutes_on_new(claim): the claims whose test refutes on NEW
    (relisting.py reads it)."""
    con.execute("DROP TABLE IF EXISTS cooccurrence_refutes_on_new")
    paths = {b: {n: parquet_path(d, n) for n in _TABLES} for b, d in (("old", old_dir), ("new", new_dir))}
    if any(None in p.values() for p in paths.values()):
        return set()
    con.execute(f"""CREATE OR REPLACE TEMP TABLE open_pairs AS
        WITH k AS (SELECT DISTINCT claim, subject, property, value AS z FROM measured_keys
                   WHERE reached >= {COOCCURRENCE} AND value IS NOT NULL),
        held AS (SELECT DISTINCT subject, property, entity_id FROM subject_statements
                 WHERE rank <> 'deprecated' AND entity_id IS NOT NULL)
        SELECT k.*, s.entity_id AS x FROM k JOIN held s USING (subject, property)
        WHERE NOT EXISTS (SELECT 1 FROM held h WHERE h.subject = k.subject AND h.property = k.property
                          AND h.entity_id = k.z)""")
    con.execute(f"CREATE OR REPLACE TEMP TABLE cooccurrence_on_new AS "
                f"{cooccurrence_outcomes_sql(paths['new'], 'open_pairs')}")
    con.execute("""CREATE OR REPLACE TEMP TABLE cooccurrence_refutes_on_new AS
                   SELECT DISTINCT claim FROM cooccurrence_on_new WHERE refutes""")
    # OLD's outcome is mostly the recorded verdict's (old_pairs_sql): evaluated only where it does not say it.
    con.execute("CREATE OR REPLACE TEMP TABLE cooccurrence_old_pairs AS "
                f"{old_pairs_sql('open_pairs', 'cooccurrence_on_new', COOCCURRENCE)}")
    con.execute(f"CREATE OR REPLACE TEMP TABLE cooccurrence_on_old AS "
                f"{cooccurrence_outcomes_sql(paths['old'], 'cooccurrence_old_pairs')}")
    flipped = recorded_flips_sql("cooccurrence_on_old", "cooccurrence_on_new", "cooccurrence_old_pairs", COOCCURRENCE)
    return {r[0] for r in con.execute(f"SELECT DISTINCT claim FROM ({flipped})").fetchall()}


def cooccurrence_outcomes_sql(paths: dict[str, str], pairs: str) -> str:
    """SQL of (claim, property, refutes) per (claim, property) of the PAIRS table (open_pairs' columns: claim,
    subject, property, z, x): does the co-occurrence test refute on the build whose subject_best, measure_value and
    statements_by_object PATHS gives (cooccurrence_flips)? Pairs the test does not reach are left out (they do not
    refute)."""
    return f"""
        WITH overall AS (SELECT property, count(*) AS n, count_if(n_best > 1) AS k
                         FROM read_parquet('{paths["subject_best"]}')
                         WHERE property IN (SELECT property FROM {pairs}) GROUP BY 1),
        counts AS (SELECT property, value, subjects FROM read_parquet('{paths["measure_value"]}')
                   WHERE value IN (SELECT x FROM {pairs} UNION SELECT z FROM {pairs})),
        expected AS (SELECT q.claim, q.subject, q.property, q.z,
                            max((coalesce(cx.subjects, 1) - 1) * cz.subjects * o.k / o.n / o.n) AS e
                     FROM {pairs} q JOIN overall o ON o.property = q.property AND o.n >= {MIN_SUBJECTS}
                     JOIN counts cz ON cz.property = q.property AND cz.value = q.z AND cz.subjects > 0
                     LEFT JOIN counts cx ON cx.property = q.property AND cx.value = q.x
                     GROUP BY ALL),
        asked AS (SELECT q.* FROM {pairs} q JOIN expected e USING (claim, subject, property, z)
                  WHERE e.e >= {MIN_EXPECTED}),
        vals AS (SELECT DISTINCT property, entity_id, subject FROM read_parquet('{paths["statements_by_object"]}')
                 WHERE entity_id IN (SELECT x FROM asked UNION SELECT z FROM asked) AND rank <> 'deprecated'),
        -- the holders of both x and z, per distinct (property, x, z) rather than per claim (many claims share
        -- a popular x): the first and last of them tell whether one is not the claim's own subject
        co_held AS (SELECT t.property, t.x, t.z, min(a.subject) AS first, max(a.subject) AS last
                    FROM (SELECT DISTINCT property, x, z FROM asked) t
                    JOIN vals a ON a.property = t.property AND a.entity_id = t.x
                    JOIN vals b ON b.property = t.property AND b.entity_id = t.z AND b.subject = a.subject
                    GROUP BY ALL),
        seen AS (SELECT DISTINCT q.claim, q.property, q.z FROM asked q JOIN co_held h USING (property, x, z)
                 WHERE h.first <> q.subject OR h.last <> q.subject)
        SELECT e.claim, e.property, bool_and(e.e >= {MIN_EXPECTED} AND s.z IS NULL) AS refutes
        FROM expected e LEFT JOIN seen s USING (claim, property, z) GROUP BY 1, 2"""
