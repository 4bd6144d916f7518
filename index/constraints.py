"""Exclusivity of properties, read at index build: Wikidata's own constraints first, then the data.

property_constraints: one row per single-value (Q19474404) or single-best-value (Q52060874)
constraint statement (P2302) found on a property entity of the dump, with its separators
(P4155), exceptions (P2303), status (P2316) and the statement id it came from (provenance).

property_stats: per property, how many subjects hold it and how many of them break a
single-best-value reading in the graph itself — more than one distinct best-rank value
(preferred if any, else normal) among statements that do not differ in a time qualifier
(point in time, start time, end time: the separators Wikidata uses for time series).
"""
from __future__ import annotations

SINGLE_VALUE = "Q19474404"
SINGLE_BEST_VALUE = "Q52060874"
CONSTRAINT_KINDS = {SINGLE_VALUE: "single value", SINGLE_BEST_VALUE: "single best value"}
CONSTRAINT_PROPERTY, SEPARATOR, EXCEPTION, STATUS = "P2302", "P4155", "P2303", "P2316"
# Qualifiers that tell apart values of a time series when the dump has no constraint to say so.
TIME_SEPARATORS = ("P585", "P580", "P582")


def build_property_constraints(con) -> int:
    """property_constraints(property, constraint, kind, status, separators, exceptions, statement_id)."""
    kinds = ", ".join(f"('{q}', '{k}')" for q, k in CONSTRAINT_KINDS.items())
    con.execute("DROP TABLE IF EXISTS property_constraints")
    con.execute(f"""
        CREATE TABLE property_constraints AS
        WITH kinds(constraint_id, kind) AS (VALUES {kinds}),
        found AS (
            SELECT s.subject AS property, s.statement_id, s.entity_id AS constraint_id, k.kind
            FROM statements s JOIN kinds k ON k.constraint_id = s.entity_id
            WHERE s.property = '{CONSTRAINT_PROPERTY}' AND s.rank <> 'deprecated' AND s.snaktype = 'value'),
        quals AS (
            SELECT q.subject, q.statement_id, q.property, q.entity_id FROM qualifiers q
            JOIN found f ON f.property = q.subject AND f.statement_id = q.statement_id
            WHERE q.entity_id IS NOT NULL)
        SELECT f.property, f.constraint_id AS "constraint", f.kind,
               (SELECT min(entity_id) FROM quals q WHERE q.subject = f.property AND q.statement_id = f.statement_id
                AND q.property = '{STATUS}') AS status,
               coalesce((SELECT list(DISTINCT entity_id ORDER BY entity_id) FROM quals q WHERE q.subject = f.property
                AND q.statement_id = f.statement_id AND q.property = '{SEPARATOR}'), []) AS separators,
               coalesce((SELECT list(DISTINCT entity_id ORDER BY entity_id) FROM quals q WHERE q.subject = f.property
                AND q.statement_id = f.statement_id AND q.property = '{EXCEPTION}'), []) AS exceptions,
               f.statement_id
        FROM found f ORDER BY f.property, f.statement_id""")
    return con.execute("SELECT count(*) FROM property_constraints").fetchall()[0][0]


def build_property_stats(con) -> int:
    """property_stats(property, subjects, multi_subjects, functionality, dated_share, best_multi_subjects).

    multi_subjects / functionality: subjects with several distinct non-deprecated values (kept for
    readers of older indexes); best_multi_subjects: subjects that break a single-best-value reading
    (from the TEMP table holder_best, index/measures.py, which must exist).
    """
    separators = ", ".join(f"'{p}'" for p in TIME_SEPARATORS)
    con.execute("DROP TABLE IF EXISTS property_stats")
    con.execute(f"""
        CREATE TABLE property_stats AS
        -- Plain DISTINCT + count(*), not count(DISTINCT ...): DuckDB spills the former to disk, not the latter
        -- (a 5M-entity graph ran out of a 2 GB limit here).
        WITH per_subject AS (
            SELECT property, subject, count(value_text) AS n_values FROM (
                SELECT DISTINCT property, subject, value_text FROM statements
                WHERE rank <> 'deprecated' AND snaktype = 'value')
            GROUP BY property, subject),
        best_multi AS (SELECT property, count(*) AS n FROM holder_best WHERE n_best > 1 GROUP BY property),
        dated AS (
            SELECT property, count(*) AS n_dated FROM (
                SELECT DISTINCT s.property, s.statement_id FROM statements s
                JOIN qualifiers q ON q.subject = s.subject AND q.statement_id = s.statement_id
                WHERE q.property IN ({separators}))
            GROUP BY property),
        totals AS (SELECT property, count(*) AS n_statements FROM statements GROUP BY property)
        SELECT p.property, count(*) AS subjects, sum(CASE WHEN n_values > 1 THEN 1 ELSE 0 END) AS multi_subjects,
               1.0 - sum(CASE WHEN n_values > 1 THEN 1 ELSE 0 END) / count(*) AS functionality,
               coalesce(max(d.n_dated), 0) / max(t.n_statements) AS dated_share,
               coalesce(max(b.n), 0) AS best_multi_subjects
        FROM per_subject p JOIN totals t USING (property) LEFT JOIN dated d USING (property)
        LEFT JOIN best_multi b USING (property)
        GROUP BY p.property ORDER BY p.property""")
    return con.execute("SELECT count(*) FROM property_stats").fetchall()[0][0]
