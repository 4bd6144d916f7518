"""The trace test's measures: how often a true value the graph lacks leaves no trace in the subject's neighbourhood.

A wrong value claimed beside the graph's (a swapped country, a swapped place) usually has nothing to do with the
subject: no other statement of the subject holds it, and no neighbour of the subject (an entity one statement
away, either way) is linked to it. A true value the graph lacks often has: the film's director is from that
country, the town's district lies in that region. How often a true value is *untraced* is measured on the
graph itself, leave-one-out: for subjects holding a property with several values, each value in turn is taken
as the claim with its own statement set aside (the test never reads the claimed property's statements of the
subject), and the share of those values no path reaches is the property's untraced rate.

A claimed value is traced from subject s (claimed property p) when it is
- a value of another statement of s (any property but p), or the subject of a statement whose value is s; or
- linked, by a statement either way, to such a neighbour n of s (n other than s).
The same SQL (`traced_sql`) measures the rates at build time, decides claims at check time and re-decides them
on both builds in a recheck (verifier/claims/trace.py), so the three agree.

Tables (sorted by property, small row groups: a lookup reads one):
- measure_degree(property, bucket, subjects, several): subjects holding the property (holder_best), grouped by
  how richly the graph describes them — bucket = floor(log2(distinct properties of the subject)) — and how many
  hold several best values. A subject the graph says little about holds one value far more often.
- measure_trace(property, samples, untraced): the leave-one-out trace test over at most TRACE_SAMPLES values.
- measure_trace_value(property, value, samples, untraced): the same samples split by value, for the values with
  at least VALUE_MIN_SAMPLES of them: a value many things point at (a country, a language) is reached by many
  paths, so a true one is untraced far less often than the property's values overall. Optional: an index built
  before it has none and the checker reads the property's rate alone.
"""
from __future__ import annotations

from .views import parquet_view

TRACE_SAMPLES = 1000  # values per property the untraced rate is measured on: bounds the build's work per property
TRACE_TABLES = ("measure_degree", "measure_trace")
TRACE_VALUE_TABLE = "measure_trace_value"
# The fewest samples a value's own rate is kept on: the fewest the checker reads a measure on
# (verifier/claims/thresholds.MIN_SUBJECTS; tests/test_trace_value.py checks they agree).
VALUE_MIN_SAMPLES = 20


def traced_sql(asked: str, statements: str, by_object: str) -> str:
    """SQL of the ids of ASKED (id, subject, property, value) whose value is traced from the subject (module text).
    STATEMENTS (subject, property, entity_id, rank) and BY_OBJECT (entity_id, subject, rank): table names or
    read_parquet(...) of one build. Every lookup is keyed by the asked subjects and values only."""
    return f"""
        WITH a AS (SELECT id, subject, property, value FROM {asked}),
        near_subject AS (
            SELECT a.id, s.entity_id AS n FROM a JOIN {statements} s ON s.subject = a.subject
            WHERE s.subject IN (SELECT subject FROM a) AND s.property <> a.property AND s.entity_id IS NOT NULL
              AND s.rank <> 'deprecated'
            UNION SELECT a.id, o.subject AS n FROM a JOIN {by_object} o ON o.entity_id = a.subject
            WHERE o.entity_id IN (SELECT subject FROM a) AND o.rank <> 'deprecated'),
        -- the value's statements are read only where they meet a neighbour: a value many things point at (a
        -- country, "human") is never listed whole
        beside AS (SELECT ns.id, ns.n, a.value FROM near_subject ns JOIN a USING (id) WHERE ns.n <> a.subject)
        SELECT DISTINCT ns.id FROM near_subject ns JOIN a USING (id) WHERE ns.n = a.value
        UNION SELECT DISTINCT b.id FROM beside b JOIN {by_object} o ON o.entity_id = b.value AND o.subject = b.n
        WHERE o.entity_id IN (SELECT value FROM a) AND o.rank <> 'deprecated'
        UNION SELECT DISTINCT b.id FROM beside b JOIN {statements} s ON s.subject = b.value AND s.entity_id = b.n
        WHERE s.subject IN (SELECT value FROM a) AND s.rank <> 'deprecated'"""


def build_trace_measures(con, directory: str) -> dict[str, int]:
    """Write measure_degree, measure_trace and measure_trace_value (needs holder_best and the statements table);
    their row counts."""
    counts = {"measure_degree": parquet_view(con, directory, "measure_degree", """
        WITH described AS (SELECT subject, count(DISTINCT property) AS n FROM statements GROUP BY subject)
        SELECT h.property, floor(log2(d.n))::INTEGER AS bucket, count(*) AS subjects,
               count_if(h.n_best > 1) AS several
        FROM holder_best h JOIN described d USING (subject) GROUP BY ALL ORDER BY 1, 2""")}
    con.execute(f"""CREATE OR REPLACE TEMP TABLE trace_asked AS
        WITH pairs AS (SELECT DISTINCT subject, property, entity_id AS value FROM statements
                       WHERE entity_id IS NOT NULL AND rank <> 'deprecated'),
        several AS (SELECT subject, property FROM pairs GROUP BY ALL HAVING count(*) > 1),
        ranked AS (SELECT p.*, row_number() OVER (PARTITION BY p.property
                                                  ORDER BY hash(p.subject || '|' || p.value), p.subject, p.value) AS r
                   FROM pairs p SEMI JOIN several USING (subject, property))
        SELECT row_number() OVER () AS id, subject, property, value FROM ranked WHERE r <= {TRACE_SAMPLES}""")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE trace_hit AS
        {traced_sql('trace_asked', 'statements', 'statements_by_object')}""")
    counts["measure_trace"] = parquet_view(con, directory, "measure_trace", """
        SELECT a.property, count(*) AS samples, count(*) - count(h.id) AS untraced
        FROM trace_asked a LEFT JOIN trace_hit h USING (id) GROUP BY ALL ORDER BY 1""")
    counts[TRACE_VALUE_TABLE] = parquet_view(con, directory, TRACE_VALUE_TABLE, f"""
        SELECT a.property, a.value, count(*) AS samples, count(*) - count(h.id) AS untraced
        FROM trace_asked a LEFT JOIN trace_hit h USING (id) GROUP BY ALL
        HAVING count(*) >= {VALUE_MIN_SAMPLES} ORDER BY 1, 2""")
    con.execute("DROP TABLE IF EXISTS trace_asked")
    con.execute("DROP TABLE IF EXISTS trace_hit")
    return counts
