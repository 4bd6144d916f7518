"""Open-world measures of the graph, counted once at index build, read by the judge with point lookups.

The judge may call a value other than the graph's false only when the graph shows the property takes one
value — overall (property_stats), among subjects of the same class or superclass, among subjects holding
the same value, among subjects that also hold another property (verifier/claims/facts.py, byclass.py,
cooccur.py). Counted at query time those measures scanned the whole statements table once per property
(413 of 430 s of a 300-claim check on a 5M-entity graph); here each is a grouped count, written sorted by
its key in small row groups (index/views.py) so a lookup reads one:

- measure_class(property, class, subjects, several, pooled_subjects, pooled_several): subjects holding the
  property that are instances (P31) of the class, and how many hold several best values; pooled: the same
  counting every subject whose classes are within MAX_DEPTH subclass-of (P279) steps below the class.
- measure_value(property, value, subjects, several): subjects holding the entity value (not deprecated).
- measure_profile(property, other, subjects, several): subjects holding both properties.
- subject_best(subject, property, n_best): holder_best sorted by subject, so a claim's subject reads its own
  count in one row group (counting it from statements and qualifiers per subject cost 5x more).

"Several best values" is one definition everywhere: best_sql (preferred rank if any, else normal; values
told apart by a time qualifier not counted together), the reading of property_stats.best_multi_subjects.
"""
from __future__ import annotations

import os

from .constraints import TIME_SEPARATORS
from .views import parquet_view

INSTANCE_OF, SUBCLASS_OF = "P31", "P279"
DEMONYM = "P1549"  # "British" for the United Kingdom (monolingual text): the schema's own, as P31 is
MAX_DEPTH = 3  # superclass levels a too-small class hands over to (verifier/claims/byclass.py reads it)
MEASURE_TABLES = ("measure_class", "measure_value", "measure_profile", "subject_best")


def demonym_rows(kg) -> tuple[str, list]:
    """(WHERE clause over `statements`, its parameters) for KG's demonym statements in the index's languages, not
    deprecated: what the text's demonym reader and the claims' comparison both read."""
    languages = list((getattr(kg, "manifest", None) or {}).get("languages") or ["en"])
    return ("property = ? AND string IS NOT NULL AND rank <> 'deprecated' AND language IN (SELECT unnest(?))",
            [DEMONYM, languages])


def best_sql() -> str:
    """(property, subject, n_best) for every subject holding a property with a usable value."""
    separators = ", ".join(f"'{p}'" for p in TIME_SEPARATORS)
    return f"""
        WITH usable AS (SELECT subject, property, statement_id, rank, value_text FROM statements
                        WHERE rank <> 'deprecated' AND snaktype = 'value'),
        preferred AS (SELECT property, subject, bool_or(rank = 'preferred') AS has FROM usable
                      GROUP BY property, subject),
        -- an order-free fingerprint of a statement's separator qualifiers (sum of hashes: spillable)
        stamps AS (SELECT q.subject, q.statement_id,
                          sum(hash(q.property || '=' || coalesce(q.value_text, ''))::HUGEINT) AS stamp
                   FROM qualifiers q WHERE q.property IN ({separators}) GROUP BY q.subject, q.statement_id),
        best_values AS (SELECT DISTINCT u.property, u.subject, coalesce(st.stamp, 0) AS stamp, u.value_text
                        FROM usable u JOIN preferred p USING (property, subject)
                        LEFT JOIN stamps st ON st.subject = u.subject AND st.statement_id = u.statement_id
                        WHERE u.rank = 'preferred' OR NOT p.has)
        SELECT property, subject, max(n) AS n_best FROM (
            SELECT property, subject, stamp, count(value_text) AS n FROM best_values GROUP BY property, subject, stamp)
        GROUP BY property, subject"""


def build_holder_best(con, scratch: str) -> int:
    """holder_best(property, subject, n_best), the input of every measure (and of property_stats): a Parquet file
    in `scratch` read through a TEMP view. As a TEMP table (35M rows at 5M entities) it stayed in DuckDB's memory
    while property_stats hashed 70M statements, and 3 of 6 builds under a 2 GB limit ran out (README)."""
    drop_holder_best(con, scratch)
    os.makedirs(scratch, exist_ok=True)
    path = os.path.join(scratch, "holder_best.parquet").replace("'", "''")
    con.execute(f"COPY ({best_sql()}) TO '{path}' (FORMAT parquet, COMPRESSION zstd)")
    con.execute(f"CREATE TEMP VIEW holder_best AS SELECT * FROM read_parquet('{path}')")
    return con.execute("SELECT count(*) FROM holder_best").fetchone()[0]


def drop_holder_best(con, scratch: str) -> None:
    con.execute("DROP VIEW IF EXISTS holder_best")
    con.execute("DROP TABLE IF EXISTS holder_best")
    path = os.path.join(scratch, "holder_best.parquet")
    if os.path.exists(path):
        os.remove(path)


def build_measures(con, directory: str) -> dict[str, int]:
    """Write the measure tables and subject_best (needs holder_best); returns their row counts."""
    con.execute(f"""CREATE OR REPLACE TEMP TABLE subject_class AS
        SELECT DISTINCT subject, entity_id AS class FROM statements
        WHERE property = '{INSTANCE_OF}' AND rank <> 'deprecated' AND entity_id IS NOT NULL""")
    # Every class within MAX_DEPTH subclass-of steps above each class subjects are instances of (itself too):
    # the breadth-first closure byclass.py walks, as joins.
    levels = ["SELECT DISTINCT class, class AS ancestor FROM subject_class"]
    for depth in range(1, MAX_DEPTH + 1):
        levels.append(f"SELECT DISTINCT l.class, p.parent AS ancestor FROM l{depth - 1} l JOIN parents p "
                      "ON p.class = l.ancestor")
    ctes = ", ".join(f"l{i} AS ({q})" for i, q in enumerate(levels))
    union = " UNION ".join(f"SELECT * FROM l{i}" for i in range(len(levels)))
    con.execute(f"""CREATE OR REPLACE TEMP TABLE class_up AS
        WITH parents AS (SELECT DISTINCT subject AS class, entity_id AS parent FROM statements
                         WHERE property = '{SUBCLASS_OF}' AND rank <> 'deprecated' AND entity_id IS NOT NULL),
        {ctes} {union}""")
    counts = {"measure_class": parquet_view(con, directory, "measure_class", """
        WITH direct AS (
            SELECT h.property, c.class, count(*) AS subjects, count_if(h.n_best > 1) AS several
            FROM holder_best h JOIN subject_class c USING (subject) GROUP BY ALL),
        subject_up AS (SELECT DISTINCT c.subject, u.ancestor FROM subject_class c JOIN class_up u USING (class)),
        pooled AS (
            SELECT h.property, s.ancestor AS class, count(*) AS pooled_subjects,
                   count_if(h.n_best > 1) AS pooled_several
            FROM holder_best h JOIN subject_up s USING (subject) GROUP BY ALL)
        SELECT p.property, p.class, coalesce(d.subjects, 0) AS subjects, coalesce(d.several, 0) AS several,
               p.pooled_subjects, p.pooled_several
        FROM pooled p LEFT JOIN direct d USING (property, class) ORDER BY p.property, p.class""")}
    counts["measure_value"] = parquet_view(con, directory, "measure_value", """
        SELECT v.property, v.entity_id AS value, count(*) AS subjects, count_if(h.n_best > 1) AS several
        FROM (SELECT DISTINCT property, entity_id, subject FROM statements
              WHERE entity_id IS NOT NULL AND rank <> 'deprecated') v
        JOIN holder_best h USING (property, subject) GROUP BY ALL ORDER BY 1, 2""")
    counts["measure_profile"] = parquet_view(con, directory, "measure_profile", """
        SELECT h.property, o.property AS other, count(*) AS subjects, count_if(h.n_best > 1) AS several
        FROM holder_best h JOIN (SELECT DISTINCT subject, property FROM statements) o
             ON o.subject = h.subject AND o.property <> h.property
        GROUP BY ALL ORDER BY 1, 2""")
    counts["subject_best"] = parquet_view(con, directory, "subject_best",
                                   "SELECT subject, property, n_best FROM holder_best ORDER BY subject, property")
    con.execute("DROP TABLE IF EXISTS subject_class")
    con.execute("DROP TABLE IF EXISTS class_up")
    return counts
