"""The by-class test of recheck (remeasure.py): the classes a keyed subject reaches and the loosest measured one,
evaluated in SQL on each build — for counts that moved (`loosest_class_flips`) and for a subject whose own classes
were edited (`class_edit_flips`)."""
from __future__ import annotations

from kgcheck.index.measures import INSTANCE_OF, MAX_DEPTH, SUBCLASS_OF
from kgcheck.index.store import HIERARCHY_TABLE

from .facts import MIN_SUBJECTS
from .measuresql import BY_CLASS, decides_sql, flipped_sql, parquet_path

CLASS_EDITS = ("value", "added", "removed", "rank")  # changes of an instance-of statement that can change a class set


def subclass_edges_sql(directory: str) -> str:
    """SQL for a build's subclass-of edges (subject, entity_id), not deprecated: the narrow hierarchy_edges table
    of a current build (index/build.py), else the statements file."""
    edges = parquet_path(directory, HIERARCHY_TABLE)
    if edges:
        return f"SELECT subject, parent AS entity_id FROM read_parquet('{edges}') WHERE property = '{SUBCLASS_OF}'"
    return (f"SELECT subject, entity_id FROM read_parquet('{parquet_path(directory, 'statements')}') "
            f"WHERE property = '{SUBCLASS_OF}' AND rank <> 'deprecated' AND entity_id IS NOT NULL")


def class_chain(keys: str = "k", statements: str = "subject_statements") -> str:
    """CTEs c0..c<MAX_DEPTH> (claim, property, class, depth): the classes of each keyed subject (the CTE `keys`;
    its instance-of values in `statements`) and their superclasses step by step (the CTE `parents`) — the walk of
    the by-class measures."""
    chain = [f"""c0 AS (SELECT DISTINCT k.claim, k.property, s.entity_id AS class, 0 AS depth
                        FROM {keys} k JOIN {statements} s ON s.subject = k.subject
                        AND s.property = '{INSTANCE_OF}' AND s.rank <> 'deprecated' WHERE s.entity_id IS NOT NULL)"""]
    for depth in range(1, MAX_DEPTH + 1):
        chain.append(f"""c{depth} AS (SELECT DISTINCT c.claim, c.property, p.entity_id AS class, {depth} AS depth
                                      FROM c{depth - 1} c JOIN parents p ON p.subject = c.class)""")
    return ", ".join(chain)


def _reached(keys: str, statements: str, edges: str) -> str:
    """SQL (claim, property, class, depth): every class the keyed subjects reach, at its nearest depth."""
    union = " UNION ALL ".join(f"SELECT * FROM c{d}" for d in range(MAX_DEPTH + 1))
    return f"""WITH parents AS ({edges}), {class_chain(keys, statements)}
               SELECT claim, property, class, min(depth) AS depth FROM ({union}) GROUP BY ALL"""


def _loosest(con, candidates: str, measure_class: str) -> dict[tuple[int, str], tuple[bool, str]]:
    """Per (claim, property) of CANDIDATES (claim, property, class, depth): (exclusive, class) of the loosest
    measured class on a build's MEASURE_CLASS table (byclass.nearest_measured: the nearest depth with a class of
    MIN_SUBJECTS, direct counts at depth 0 and pooled above; highest share, then the smallest id). Pairs with no
    measured class are left out."""
    con.execute(decides_sql())
    rows = con.execute(_loosest_sql(candidates, measure_class)).fetchall()
    return {(claim, pid): (bool(exclusive), cls) for claim, pid, exclusive, cls in rows}


def _loosest_sql(candidates: str, measure_class: str) -> str:
    """The SQL of _loosest: (claim, property, exclusive, class); needs decides_sql's macros."""
    return f"""
        WITH m AS (FROM read_parquet('{measure_class}') WHERE property IN (SELECT DISTINCT property FROM {candidates})),
        counted AS (SELECT c.claim, c.property, c.class, c.depth,
                           CASE WHEN c.depth = 0 THEN m.subjects ELSE m.pooled_subjects END AS n,
                           CASE WHEN c.depth = 0 THEN m.several ELSE m.pooled_several END AS x
                    FROM {candidates} c JOIN m ON m.property = c.property AND m.class = c.class),
        measured AS (SELECT * FROM counted WHERE n >= {MIN_SUBJECTS}),
        nearest AS (SELECT claim, property, min(depth) AS depth FROM measured GROUP BY ALL),
        ranked AS (SELECT o.claim, o.property, o.class, exclusive(o.n, o.x) AS exclusive,
                          row_number() OVER (PARTITION BY o.claim, o.property ORDER BY o.x / o.n DESC, o.class) AS r
                   FROM measured o JOIN nearest USING (claim, property, depth))
        SELECT claim, property, exclusive, class FROM ranked WHERE r = 1"""


def loosest_class_flips(con, old_dir: str, new_dir: str) -> set[int]:
    """Claims whose by-class test comes out otherwise on OLD than on NEW although no row's own outcome changed:
    the test reads the *loosest* measured class (byclass.nearest_measured — the subject's own classes with
    MIN_SUBJECTS, else the nearest superclasses' pooled counts, up to MAX_DEPTH levels; highest share, then the
    smallest id), and a row whose counts moved can become the loosest ("sovereign state" 2/50, not exclusive,
    on OLD; "country" 5/121, exclusive, on NEW). Only for claims one of whose classes has a row in
    changed_measures (counts that moved); evaluated on both builds' measure_class over NEW's classes and subclass
    edges (changes to those: `class_edit_flips`, and measured_hits for subclass edges)."""
    tables = {b: parquet_path(d, "measure_class") for b, d in (("old", old_dir), ("new", new_dir))}
    if None in tables.values():
        return set()
    # The classes each claim reaches (NEW's) are the same on both sides: walked once, counted per build.
    keys = f"(SELECT DISTINCT claim, subject, property FROM measured_keys WHERE reached >= {BY_CLASS})"
    con.execute(f"""CREATE OR REPLACE TEMP TABLE loosest_candidates AS
        WITH r AS ({_reached(keys, "subject_statements", subclass_edges_sql(new_dir))}),
        moved AS (SELECT DISTINCT r.claim, r.property FROM r JOIN changed_measures x
                  ON x.kind = 'measure_class' AND x.property = r.property AND x.key = r.class)
        SELECT r.* FROM r JOIN moved USING (claim, property)""")
    con.execute(decides_sql())
    moved = flipped_sql(*(_loosest_sql("loosest_candidates", tables[b]) for b in ("old", "new")), "claim, property",
                        "exclusive")
    return {r[0] for r in con.execute(f"SELECT DISTINCT claim FROM ({moved})").fetchall()}


def class_edit_flips(con, old_dir: str, new_dir: str) -> set[int] | None:
    """Claims that asked the by-class test (measured_keys, reached >= BY_CLASS) whose subject had an instance-of
    statement edited, and whose test comes out otherwise on OLD — OLD's classes, subclass edges and counts — than
    on NEW — NEW's; for a verdict the class test decided (exclusive on both), also when another class became the
    loosest (its reason and confidence name that class). None when a build lacks the tables: then every such claim
    is re-checked (measured_hits)."""
    paths = {b: (parquet_path(d, "measure_class"), parquet_path(d, "statements"), subclass_edges_sql(d))
             for b, d in (("old", old_dir), ("new", new_dir))}
    if any(None in p[:2] for p in paths.values()):
        return None
    edits = ", ".join(f"'{c}'" for c in CLASS_EDITS)
    con.execute(f"""CREATE OR REPLACE TEMP TABLE class_edited AS
        SELECT DISTINCT claim, subject, property FROM measured_keys WHERE reached >= {BY_CLASS}
        AND subject IN (SELECT subject FROM changed_statements WHERE property = '{INSTANCE_OF}' AND change IN ({edits}))""")
    outcome = {}
    for build, (measure_class, statements, edges) in paths.items():
        con.execute(f"""CREATE OR REPLACE TEMP TABLE class_own AS
            SELECT subject, property, entity_id, rank FROM read_parquet('{statements}')
            WHERE property = '{INSTANCE_OF}' AND subject IN (SELECT subject FROM class_edited)""")
        con.execute(f"CREATE OR REPLACE TEMP TABLE class_reached AS {_reached('class_edited', 'class_own', edges)}")
        outcome[build] = _loosest(con, "class_reached", measure_class)
    unmeasured = (False, None)
    return {claim for claim, pid in set(outcome["old"]) | set(outcome["new"])
            if (old := outcome["old"].get((claim, pid), unmeasured)) != (new := outcome["new"].get((claim, pid),
                                                                                                   unmeasured))
            and (old[0] != new[0] or old[0])}
