"""Which results a rebuild can flip through a located-in / part-of / country / subclass chain.

relate() (compare.py) calls a claimed entity less specific than the graph's value when it is among the value's
ancestors over HIERARCHY (Tarzana is in Los Angeles: "born in Los Angeles" is supported by Tarzana), and more
specific when the value is among the claim's. An edit anywhere on such a chain, up to MAX_DEPTH levels above
the value or the claimed entity, moves that relation while the subject's own statements and the statements
the verdict cited stay as they were. The entities whose ancestors may have moved (`moved`) are the subjects of
changed HIERARCHY statements and everything below them, MAX_DEPTH deep over either build's edges. A result
is re-checked when its claimed entity or one of the values its subject holds for the property (in OLD: a
change to those statements is keyed by recheck.py already) is among them and the ancestor relation between
the two differs between the builds — each build's closure computed by the checker's own rule
(facts.ancestor_closure). A claimed value named by text is linked again as the checker links it (its
candidates are the same in both builds unless a label changed, which recheck.py keys) and each candidate is
tested so, as is the text itself against the names of each value's ancestors (relate() also reads a name up
the chain). A result whose subject was named by text is re-checked whenever another entity of that name holds
a moved value of the property (every namesake is tried; the chosen one goes through the tests above).
"""
from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from kgcheck.index.store import HIERARCHY, HIERARCHY_TABLE
from kgcheck.index.text import normalise

from .facts import MAX_DEPTH, ancestor_closure
from .remeasure import parquet_path

OBJ, OBJ_TEXT = "obj", "objt"  # keys of a claimed value given by id / by name (claimed_keys)
_LISTED = ", ".join(f"'{p}'" for p in HIERARCHY)  # the HIERARCHY properties as a SQL list


def claimed_keys(record: dict, subject: str, props: list[str], moved: Moved | None) -> list[tuple]:
    """The keys a result gives this module, one per property it tried: (OBJ, subject, property, claimed entity id)
    or (OBJ_TEXT, subject, property, its name) for a value named by text. With MOVED (`moved_before_keys`) only
    those the tests below can meet: the claimed entity moved, the name is a moved entity's, or the subject holds
    a moved value of the property in OLD."""
    claim = record.get("claim") or {}
    if claim.get("object_id"):
        kind, value = OBJ, claim["object_id"]
    else:
        kind, value = OBJ_TEXT, normalise(claim["object"]) if claim.get("object") else ""
        if not value:
            return []
    reached = moved is None or value in (moved.ids if kind == OBJ else moved.names)
    return [(kind, subject, p, value) for p in props if reached or (subject, p) in moved.held_pairs]


# The keyed (subject, property) pairs with their claimed value: claim, subject, property, z (id), text (name).
_PAIRS = f"""SELECT claim, a AS subject, b AS property, held AS z, NULL AS text FROM keys WHERE kind = '{OBJ}'
             UNION ALL SELECT claim, a, b, NULL, held FROM keys WHERE kind = '{OBJ_TEXT}'"""


@dataclass(frozen=True)
class Moved:
    """What the chain tests can meet, found before the key pass (`moved_before_keys`): the entities whose
    ancestors may have moved, the (subject, property) pairs holding one of them in OLD, and their names."""
    ids: frozenset[str]
    held_pairs: frozenset[tuple[str, str]]
    names: frozenset[str]


def moved_before_keys(con, old_dir: str, new_dir: str, limit: int) -> Moved | None:
    """Make the tables `hierarchy_hits` reads (hierarchy_moved, held_moved) and return what they hold, for the key
    pass to leave out the keys they cannot meet — None when they hold more than LIMIT rows (every key is kept)."""
    if None in (parquet_path(old_dir, "statements"), parquet_path(new_dir, "statements")) or not _moved(
            con, edges_sql(old_dir), edges_sql(new_dir)):
        return Moved(frozenset(), frozenset(), frozenset())  # nothing moved: no chain test can meet a key
    by_object = parquet_path(old_dir, "statements_by_object") or parquet_path(old_dir, "statements")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE held_moved AS SELECT subject, property, entity_id
                    FROM read_parquet('{by_object}') WHERE entity_id IN (SELECT id FROM hierarchy_moved)""")
    if con.execute("SELECT count(*) FROM held_moved").fetchall()[0][0] > limit:
        return None
    return Moved(frozenset(r[0] for r in con.execute("SELECT id FROM hierarchy_moved").fetchall()),
                 frozenset(con.execute("SELECT DISTINCT subject, property FROM held_moved").fetchall()),
                 frozenset(_moved_names(con, old_dir, new_dir)))


def edges_sql(directory: str) -> str:
    """SQL of (subject, property, parent): the HIERARCHY edges of a build as the checker reads them
    (KG.parent_rows: the hierarchy_edges table, or the statements of an index built before it)."""
    table = parquet_path(directory, HIERARCHY_TABLE)
    if table:
        return f"SELECT subject, property, parent FROM read_parquet('{table}')"
    statements = parquet_path(directory, "statements")
    return (f"SELECT subject, property, entity_id AS parent FROM read_parquet('{statements}') WHERE property IN "
            f"({_LISTED}) AND entity_id IS NOT NULL AND rank <> 'deprecated'")


def hierarchy_hits(con, old_dir: str, new_dir: str, moved: Moved | None, link=None) -> set[int]:
    """Lines (the `claim` of `keys`) whose verdict a chain edit may have moved. Reads the `keys` and
    `changed_statements` tables on `con` and those `moved_before_keys` made (MOVED: what it returned); link(texts)
    -> {text: entity ids} links a claimed value named by text (None: every such result reached is re-checked)."""
    if moved is not None and not moved.ids:
        return set()
    old_edges, new_edges = edges_sql(old_dir), edges_sql(new_dir)
    statements = parquet_path(old_dir, "statements")
    con.execute(f"CREATE OR REPLACE TEMP TABLE claimed_pairs AS {_PAIRS}")
    # Only a moved entity's ancestors changed: the pairs with the value or the claimed entity among them.
    exact = con.execute(f"""
        SELECT k.claim, k.z, h.entity_id FROM claimed_pairs k JOIN held_moved h ON k.z IS NOT NULL
            AND k.subject = h.subject AND k.property = h.property
        UNION SELECT k.claim, k.z, s.entity_id FROM claimed_pairs k JOIN read_parquet('{statements}') s
            ON k.z IN (SELECT id FROM hierarchy_moved) AND s.subject = k.subject AND s.property = k.property
        WHERE s.entity_id IS NOT NULL""").fetchall()
    names = moved.names if moved is not None else _moved_names(con, old_dir, new_dir)
    con.register("moved_names", pa.table({"text": sorted(names)}, schema=pa.schema([("text", pa.string())])))
    try:
        # Named by text: a held value moved, or the text names a moved entity (then every held value counts).
        named = con.execute(f"""
            SELECT k.claim, k.text, h.entity_id FROM claimed_pairs k JOIN held_moved h ON k.z IS NULL
                AND k.subject = h.subject AND k.property = h.property
            UNION SELECT k.claim, k.text, s.entity_id FROM claimed_pairs k JOIN read_parquet('{statements}') s
                ON k.text IN (SELECT text FROM moved_names) AND s.subject = k.subject AND s.property = k.property
            WHERE s.entity_id IS NOT NULL""").fetchall()
    finally:
        con.unregister("moved_names")
    if link is None:
        hits = {claim for claim, _, _ in named}
        named = []
    else:
        hits = set()
    linked = link(sorted({text for _, text, _ in named})) if named else {}
    # The closures of the moved entities only: the others' ancestors are the same in both builds.
    moved = {r[0] for r in con.execute("SELECT id FROM hierarchy_moved").fetchall()}
    ids = moved & ({e for _, z, v in exact for e in (z, v)} | {e for _, text, v in named
                                                                 for e in [v, *linked.get(text, ())]})
    before, after = (closure_in(con, edges, ids) for edges in (old_edges, new_edges))
    hits |= {claim for claim, z, v in exact if _moved_between(z, v, before, after)}
    if named:
        # relate() also calls a name found among the value's ancestors less specific (no candidate needed).
        up = _names_above(con, old_dir, before), _names_above(con, new_dir, after)
        hits |= {claim for claim, text, v in named if v in moved and (
                 any(text in up[0].get(a, ()) for a in before[v]) != any(text in up[1].get(a, ()) for a in after[v]))
                 or any(_moved_between(z, v, before, after) for z in linked.get(text, ()))}
    return hits | _namesake_hits(con, old_dir, new_dir)


def _moved(con, old_edges: str, new_edges: str) -> int:
    """hierarchy_moved(id): the entities whose own HIERARCHY edges differ between the builds (a rank change
    between normal and preferred, a qualifier edit, leave them as they were), and everything below them."""
    touched = f"subject IN (SELECT subject FROM changed_statements WHERE property IN ({_LISTED}))"
    con.execute(f"""CREATE OR REPLACE TEMP TABLE hierarchy_moved AS
        WITH RECURSIVE roots AS (
            SELECT DISTINCT subject FROM (
                (SELECT * FROM ({old_edges}) WHERE {touched} EXCEPT SELECT * FROM ({new_edges}) WHERE {touched})
                UNION ALL
                (SELECT * FROM ({new_edges}) WHERE {touched} EXCEPT SELECT * FROM ({old_edges}) WHERE {touched}))),
        below(id, depth) AS (
            SELECT subject, 0 FROM roots
            UNION SELECT e.subject, b.depth + 1 FROM below b
                  JOIN ({old_edges} UNION {new_edges}) e ON e.parent = b.id WHERE b.depth < {MAX_DEPTH})
        SELECT DISTINCT id FROM below""")
    return con.execute("SELECT count(*) FROM hierarchy_moved").fetchall()[0][0]


def _moved_between(z: str, v: str, before: dict[str, set[str]], after: dict[str, set[str]]) -> bool:
    """Did the claim (z) and the value (v) change which one lies above the other? (closures of moved entities)"""
    return ((v in before and (z in before[v]) != (z in after[v]))
            or (z in before and (v in before[z]) != (v in after[z])))


def closure_in(con, edges: str, ids: set[str]) -> dict[str, set[str]]:
    """Per id its ancestors over EDGES (edges_sql), closed as the checker closes them (facts.ancestor_closure)."""
    def parent_rows(frontier):
        return con.execute(f"SELECT subject, property, parent FROM ({edges}) WHERE subject IN (SELECT unnest(?)) "
                           f"AND property IN (SELECT unnest(?))", [sorted(frontier), list(HIERARCHY)]).fetchall()

    return ancestor_closure(parent_rows, ids)


def _labels(directory: str) -> str | None:
    path = parquet_path(directory, "labels")
    return f"read_parquet('{path}')" if path else None


def _names_above(con, directory: str, closure: dict[str, set[str]]) -> dict[str, set[str]]:
    """The normalised labels and aliases, in this build, of every ancestor in `closure`."""
    labels, above = _labels(directory), sorted({a for ancestors in closure.values() for a in ancestors})
    names: dict[str, set[str]] = {}
    if labels and above:
        for eid, text in con.execute(f"SELECT id, text FROM {labels} WHERE id IN (SELECT unnest(?))",
                                     [above]).fetchall():
            if text:
                names.setdefault(eid, set()).add(normalise(text))
    return names


def _moved_names(con, old_dir: str, new_dir: str) -> set[str]:
    """The normalised labels and aliases of the moved entities in either build: a claimed value named so may be
    one of them."""
    names: set[str] = set()
    for labels in filter(None, (_labels(d) for d in (old_dir, new_dir))):
        rows = con.execute(f"SELECT DISTINCT text FROM {labels} WHERE id IN (SELECT id FROM hierarchy_moved)")
        names |= {normalise(text) for text, in rows.fetchall() if text}
    names.discard("")
    return names


def _namesake_hits(con, old_dir: str, new_dir: str) -> set[int]:
    """Results whose subject was named by text when another entity of that name holds a moved value of the
    property (the chosen namesake, the `name` key's held, went through the pair tests)."""
    if not con.execute("SELECT count(*) FROM keys WHERE kind = 'name'").fetchall()[0][0]:
        return set()
    found: set[tuple[str, str, str]] = set()
    for labels in filter(None, (_labels(d) for d in (old_dir, new_dir))):
        rows = con.execute(f"SELECT DISTINCT l.text, h.property, h.subject FROM {labels} l "
                           "JOIN (SELECT DISTINCT subject, property FROM held_moved) h ON h.subject = l.id")
        found |= {(normalise(text), prop, holder) for text, prop, holder in rows.fetchall() if text}
    if not found:
        return set()
    columns = list(zip(*found))
    con.register("namesake_holders", pa.table({"text": columns[0], "property": columns[1], "holder": columns[2]},
                                              schema=pa.schema([("text", pa.string()), ("property", pa.string()),
                                                                ("holder", pa.string())])))
    try:
        return {r[0] for r in con.execute("""
            SELECT k.claim FROM keys k JOIN namesake_holders n ON k.kind = 'name' AND k.a = n.text
                AND k.b = n.property AND n.holder IS DISTINCT FROM k.held""").fetchall()}
    finally:
        con.unregister("namesake_holders")
