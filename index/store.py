"""`KG.open(dir)`: read access to an index directory — entities, statements, search."""
from __future__ import annotations

import os
import sqlite3
import threading
from collections import defaultdict
from typing import Iterable

import duckdb

from kgcheck.ingest.values import VALUE_COLUMNS
from kgcheck.ingest.writer import DB_FILE, open_database, quote

from .manifest import IndexError_, read_manifest  # noqa: F401 - IndexError_ re-exported
from .model import INVALID, NOVALUE, SOMEVALUE, Candidate, Entity, Reference, Snak, Statement, Value

_VALUE_COLS = ", ".join(f'"{c}"' for c, _ in VALUE_COLUMNS)
_STATEMENT_COLS = f"statement_id, subject, property, rank, {_VALUE_COLS}, qualifier_count, reference_count"
_STATEMENT_ORDER = "subject, statement_order"
# Positions in a statement row (_STATEMENT_COLS, as store.table_rows returns them).
ROW_STATEMENT_ID, ROW_SUBJECT, ROW_PROPERTY, ROW_RANK = 0, 1, 2, 3
ROW_ENTITY = 4 + [c for c, _ in VALUE_COLUMNS].index("entity_id")
ROW_QUALIFIER_COUNT, ROW_REFERENCE_COUNT = 4 + len(VALUE_COLUMNS), 5 + len(VALUE_COLUMNS)
HIERARCHY_TABLE = "hierarchy_edges"  # (subject, property, parent), sorted by subject (index/build.py)
# Properties whose closure makes a claimed value "less specific" than the graph's (verifier/claims/facts.py):
# located in the administrative territorial entity, country, location, part of, continent,
# located in/on physical feature, subclass of.
HIERARCHY = ("P131", "P17", "P276", "P361", "P30", "P706", "P279")
_QUALIFIER_COLS = f"statement_id, qualifier_order, property, {_VALUE_COLS}"
_REFERENCE_COLS = f"statement_id, reference_hash, reference_order, snak_order, property, {_VALUE_COLS}"
# Keys per query. Up to DuckDB's dynamic_or_filter_threshold keys, the hash join pushes an IN filter into
# the Parquet scan, which skips every row group whose min/max holds none of them; above it only a min/max
# range is pushed, i.e. a scan of everything between the smallest and the largest key. KG.open raises the
# threshold (default 50) to IN_CHUNK. A query also pays per row group of the file (DuckDB merges their
# statistics: 5M entities, 4,301 row groups, one subject's statements 0.24 s with statistics on all 30
# columns, 0.10 s with statistics on `subject` only, as the ingest now writes them), so fewer, larger queries
# win: 3,000 subjects in one query 1.08 s, in three 1.23 s, in six 1.62 s.
IN_CHUNK = 4000
_VALUE_WIDTH = len(VALUE_COLUMNS)
_FLOAT_AT = tuple(i for i, (_, kind) in enumerate(VALUE_COLUMNS) if kind.startswith("float"))


def table_rows(table, pairs: Iterable[tuple[str, str]] | None = None,
               subjects: Iterable[str] | None = None) -> list[tuple]:
    """The rows of a KG.statement_table as tuples (ROW_*, as DuckDB's fetchall gives them): only those of the
    (subject, property) PAIRS, or of the SUBJECTS, when given."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pairs is not None:  # (the wanted keys in the column's own string type: DuckDB may give large strings)
        separator = pa.scalar("\x1f", table.schema.field("subject").type)
        keys = pc.binary_join_element_wise(table["subject"], table["property"], separator)
        table = table.filter(pc.is_in(keys, pa.array(sorted({f"{s}\x1f{p}" for s, p in pairs}), keys.type)))
    if subjects is not None:
        wanted = pa.array(sorted(set(subjects)), table.schema.field("subject").type)
        table = table.filter(pc.is_in(table["subject"], wanted))
    return list(zip(*(column.to_pylist() for column in table.columns)))


def held_values(table) -> set[tuple[str, str, str | None]]:
    """(subject, property, entity value unless deprecated) of a KG.statement_table's rows, distinct: what the
    subjects hold, three columns of it in Python. A set of the zipped columns: Arrow's group_by took 0.32 s for
    the 134k rows of a 4,172-claim recheck, the set 0.12 s."""
    import pyarrow as pa
    import pyarrow.compute as pc

    entity = table["entity_id"]
    value = pc.if_else(pc.equal(table["rank"], "deprecated"), pa.nulls(len(table), entity.type), entity)
    return set(zip(table["subject"].to_pylist(), table["property"].to_pylist(), value.to_pylist()))


def _chunks(keys: list, size: int | None = None):
    size = size or IN_CHUNK
    for start in range(0, len(keys), size):
        yield keys[start:start + size]


def row_value(row: tuple, start: int) -> Value:
    """VALUE_COLUMNS starting at row[start] -> Value."""
    (snaktype, vtype, _datatype, entity_id, string, language, time, precision, calendar, _tz, _before, _after,
     amount, unit, lower, upper, lat, lon, coord_precision, globe, text,
     amount_text, lower_text, upper_text, invalid) = row[start:start + len(VALUE_COLUMNS)]
    if invalid is not None:  # typed columns empty: only its JSON and the reason were kept
        return Value(kind=INVALID, text=text or "", string=string, invalid=invalid)
    if snaktype != "value":
        return Value(kind=SOMEVALUE if snaktype == "somevalue" else NOVALUE, text=text or snaktype)
    return Value(kind=vtype, text=text or "", entity_id=entity_id, string=string, language=language, time=time,
                 precision=precision, calendar=calendar, amount=amount, unit=unit, lower=lower, upper=upper,
                 latitude=lat, longitude=lon, coord_precision=coord_precision, globe=globe,
                 amount_text=amount_text, lower_text=lower_text, upper_text=upper_text)


class KG:
    """An opened index directory: entities, statements, labels and search, read-only.

    Open one with ``KG.open(directory)`` (a directory made by ``kgcheck build``) and close it, or use it as
    a context manager. Thread-safe: each thread gets its own DuckDB cursor. `entity(id)`, `statements(id)`
    and `statements_about(id)` read the graph; `search_entities(text)` and `search_properties(text)` link
    text to ids (exact and normalised labels and aliases first, then vectors).
    """

    def __init__(self, directory: str, manifest: dict, con: duckdb.DuckDBPyConnection, embedder=None):
        self.directory = directory
        self.manifest = manifest
        self._con = con
        self._local = threading.local()
        self._embedder = embedder
        self._search = None
        self._search_lock = threading.Lock()
        self._tables: dict[str, bool] = {}

    @classmethod
    def open(cls, directory: str, embedder=None) -> "KG":
        """Open an index directory read-only; use it as a context manager (or call `close()`).

        `embedder` is an Embedder, a registered embedder name (loaded on the first vector search), or
        None for the default ($KGCHECK_EMBEDDER, else minilm); it must be the model the index was built with.
        """
        directory = os.path.abspath(directory)
        if not os.path.isdir(directory):
            raise IndexError_(f"no index at {directory}; build one with `kgcheck build DUMP --out {directory}`")
        manifest = read_manifest(directory)
        db = os.path.join(directory, DB_FILE)
        if not os.path.isfile(db):
            raise IndexError_(f"{directory} has no {DB_FILE}: the build is incomplete")
        try:
            con = open_database(directory, read_only=True)
            con.execute(f"SET GLOBAL dynamic_or_filter_threshold = {IN_CHUNK}")
        except duckdb.Error as exc:
            raise IndexError_(f"cannot open {db}: {exc}") from exc
        return cls(directory, manifest, con, embedder)

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> "KG":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- plumbing -------------------------------------------------------------------------------
    def cursor(self) -> duckdb.DuckDBPyConnection:
        cur = getattr(self._local, "cursor", None)
        if cur is None:
            cur = self._con.cursor()
            self._local.cursor = cur
        return cur

    def sql(self, query: str, params: Iterable | None = None) -> list[tuple]:
        return self.cursor().execute(query, params or []).fetchall()

    @property
    def has_lookup_db(self) -> bool:
        return os.path.isfile(os.path.join(self.directory, "lookup.sqlite"))

    def lookup_sql(self, query: str, params: Iterable = ()) -> list[tuple]:
        """Point lookups on lookup.sqlite (label_index, entities), built by `kgcheck index`."""
        lite = getattr(self._local, "lite", None)
        if lite is None:
            uri = "file:" + os.path.join(self.directory, "lookup.sqlite") + "?mode=ro"
            lite = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._local.lite = lite
        return lite.execute(query, list(params)).fetchall()

    def lookup_in(self, query: str, values: list, extra: Iterable = ()) -> list[tuple]:
        """`query` with one `{in}` placeholder for an IN list, run in chunks under SQLite's variable cap."""
        rows: list[tuple] = []
        for start in range(0, len(values), 900):
            part = values[start:start + 900]
            rows.extend(self.lookup_sql(query.format(**{"in": ",".join("?" * len(part))}), list(part) + list(extra)))
        return rows

    def has_lookup_table(self, name: str) -> bool:
        """A table of lookup.sqlite: indexes built before a table existed lack it (label_tails)."""
        key = f"lookup.sqlite:{name}"
        if key not in self._tables:
            self._tables[key] = self.has_lookup_db and bool(self.lookup_sql(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]))
        return self._tables[key]

    @property
    def indexed(self) -> bool:
        return "index" in self.manifest

    def has_table(self, name: str) -> bool:
        # The connection is read-only: what tables exist cannot change while it is open.
        if name not in self._tables:
            self._tables[name] = bool(self.sql(
                "SELECT 1 FROM duckdb_tables() WHERE table_name = $n UNION ALL "
                "SELECT 1 FROM duckdb_views() WHERE view_name = $n AND NOT internal", {"n": name}))
        return self._tables[name]

    # -- entities -------------------------------------------------------------------------------
    def entity(self, eid: str) -> Entity | None:
        if self.has_lookup_db:
            rows = self.lookup_sql("SELECT id, type, label, description, datatype, sitelinks, statement_count, "
                                   "NULL FROM entities WHERE id = ?", [eid])
            aliases = tuple(r[0] for r in self.lookup_sql(
                "SELECT DISTINCT text FROM label_index WHERE id = ? AND kind = 'alias' ORDER BY text", [eid]))
        else:
            rows = self.sql(
                "SELECT id, type, label, description, datatype, sitelinks, statement_count, modified "
                "FROM entities WHERE id = ?", [eid])
            aliases = tuple(r[0] for r in self.sql(
                "SELECT DISTINCT text FROM labels WHERE id = ? AND kind = 'alias' ORDER BY text", [eid]))
        if not rows:
            return None
        return Entity(*rows[0], aliases=aliases)

    def labels(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> label for the ids that have one; dangling ids are simply absent."""
        wanted = sorted({i for i in ids if i})
        if not wanted:
            return {}
        if self.has_lookup_db:
            return dict(self.lookup_in("SELECT id, label FROM entities WHERE id IN ({in}) AND label IS NOT NULL",
                                       wanted))
        rows = self.sql("SELECT id, label FROM entities WHERE id IN (SELECT unnest(?)) AND label IS NOT NULL",
                        [wanted])
        return dict(rows)

    def label(self, eid: str) -> str:
        return self.labels([eid]).get(eid, eid)

    # -- statements -----------------------------------------------------------------------------
    def statements(self, subject: str, property: str | None = None, details: bool = True) -> list[Statement]:
        where, params = ("property = ?", [property]) if property else ("", [])
        return self._assemble(self.subject_rows(_STATEMENT_COLS, [subject], where, params), details)

    def statements_for(self, subjects: Iterable[str], details: bool = False,
                       properties: Iterable[str] | None = None) -> dict[str, list[Statement]]:
        """Bulk: the statements of many subjects (optionally only some properties) in a few reads."""
        where, params = "", []
        if properties is not None:
            where, params = "property IN (SELECT unnest(?))", [sorted(set(properties))]
        return self.statements_from_rows(self.subject_rows(_STATEMENT_COLS, subjects, where, params), details)

    def statement_table(self, subjects: Iterable[str]):
        """Every statement row of the subjects (see ROW_*) in one Arrow table: one read that several steps share (on a
        large graph each read of a subject costs a row group decompressed, whatever it selects), each turning into
        Python (`table_rows`, `held_values`) only what it needs — every row's 33 columns as Python tuples cost
        several times the read; `statements_from_rows` turns those rows into Statements."""
        import pyarrow as pa

        # In the dump's order: without it a large IN list (a hash join) returns rows in an order that varies with
        # the batch, and the evidence listed among equals with it (a recheck's line differed from a full check's).
        query = (f"SELECT {_STATEMENT_COLS} FROM statements WHERE subject IN (SELECT unnest(?)) "
                 f"ORDER BY {_STATEMENT_ORDER}")
        chunks = list(_chunks(sorted(set(subjects)))) or [[]]  # an empty read still gives the columns
        return pa.concat_tables([self.cursor().sql(query, params=[chunk]).to_arrow_table() for chunk in chunks])

    def statements_from_rows(self, rows: list[tuple], details: bool = False) -> dict[str, list[Statement]]:
        out: dict[str, list[Statement]] = defaultdict(list)
        for st in self._assemble(rows, details):
            out[st.subject].append(st)
        return out

    def subject_rows(self, columns: str, subjects: Iterable[str], where: str = "", params: list | None = None,
                     table: str = "statements", order: str = "") -> list[tuple]:
        """`SELECT columns FROM table WHERE subject IN subjects [AND where] [ORDER BY order]`, by sorted subject
        chunks (IN_CHUNK): cost by the row groups the subjects fall in, not by the table size."""
        rows: list[tuple] = []
        extra = f" AND {where}" if where else ""
        order_by = f" ORDER BY {order}" if order else ""
        for chunk in _chunks(sorted(set(subjects))):
            rows.extend(self.sql(f"SELECT {columns} FROM {quote(table)} WHERE subject IN (SELECT unnest(?)){extra}"
                                 f"{order_by}", [chunk] + list(params or [])))
        return rows

    def parent_rows(self, subjects: Iterable[str], properties: Iterable[str],
                    with_property: bool = False) -> list[tuple]:
        """(subject, parent) — with `with_property` (subject, property, parent) — of the subjects' not deprecated
        statements of these HIERARCHY properties: from the narrow hierarchy_edges table, or from the statements
        of an index built before it."""
        listed = [sorted(set(properties))]
        columns = "subject, property, {}" if with_property else "subject, {}"
        if self.has_table(HIERARCHY_TABLE):
            return self.subject_rows(columns.format("parent"), subjects, "property IN (SELECT unnest(?))", listed,
                                     table=HIERARCHY_TABLE)
        return self.subject_rows(columns.format("entity_id"), subjects, "property IN (SELECT unnest(?)) "
                                 "AND entity_id IS NOT NULL AND rank <> 'deprecated'", listed)

    def references_for(self, keys: Iterable[tuple[str, str]]) -> dict[str, tuple[Reference, ...]]:
        """References of many statements, by (subject, statement_id): provenance for evidence, in bulk."""
        keys = list(keys)
        if not keys:
            return {}
        grouped: dict[str, dict[str, list[Snak]]] = defaultdict(dict)
        for r in self._by_subject(_REFERENCE_COLS, "references", keys):
            grouped[r[0]].setdefault(r[1], []).append(Snak(r[4], row_value(r, 5)))
        return {sid: tuple(Reference(h, tuple(snaks)) for h, snaks in refs.items()) for sid, refs in grouped.items()}

    def statements_about(self, object_id: str, details: bool = True) -> list[Statement]:
        """Statements whose value is the entity `object_id` (needs `kgcheck index`)."""
        if not self.has_table("statements_by_object"):
            rows = self.sql(f"SELECT {_STATEMENT_COLS} FROM statements WHERE entity_id = ?", [object_id])
            return self._assemble(rows, details)
        keys = {(r[0], r[1]) for r in self.sql(
            "SELECT subject, statement_order FROM statements_by_object WHERE entity_id = ?", [object_id])}
        if not keys:
            return []
        subjects = sorted({k[0] for k in keys})
        rows = [r for chunk in _chunks(subjects) for r in self.subject_rows(
            f"{_STATEMENT_COLS}, statement_order", chunk, "statement_order IN (SELECT unnest(?))",
            [sorted({k[1] for k in keys if k[0] in chunk})]) if (r[1], r[-1]) in keys]
        return self._assemble(rows, details)

    def subjects_linking_to(self, object_id: str, limit: int = 64) -> list[tuple[str, str]] | None:
        """(subject, property) of the statements whose value is `object_id`; None when more than `limit`
        do (a hub such as a country: it tells nothing about which subject a text means)."""
        if self.has_table("statements_by_object"):
            query = "SELECT subject, property FROM statements_by_object WHERE entity_id = ? LIMIT ?"
        else:
            query = "SELECT subject, property FROM statements WHERE entity_id = ? LIMIT ?"
        rows = self.sql(query, [object_id, limit + 1])
        return None if len(rows) > limit else [(r[0], r[1]) for r in rows]

    def _by_subject(self, cols: str, table: str, keys, order: str = "reference_order, snak_order") -> list[tuple]:
        """Rows of a per-statement table (qualifiers, references) for (subject, statement_id) keys, fetched
        by sorted subject chunks (see subject_rows), in statement_id then `order` order."""
        by_subject: dict[str, set[str]] = defaultdict(set)
        for subject, sid in keys:
            by_subject[subject].add(sid)
        rows: list[tuple] = []
        for chunk in _chunks(sorted(by_subject)):
            ids = sorted({sid for subject in chunk for sid in by_subject[subject]})
            rows.extend(self.subject_rows(cols, chunk, "statement_id IN (SELECT unnest(?))", [ids], table=table,
                                          order=f"statement_id, {order}"))
        return rows

    def _assemble(self, rows: list[tuple], details: bool) -> list[Statement]:
        if not rows:
            return []
        qualifiers: dict[str, list[Snak]] = defaultdict(list)
        references: dict[str, dict[str, list[Snak]]] = defaultdict(dict)
        # Values are immutable: one object per distinct value (a country, a class, a year held by thousands of
        # statements) instead of one per row — building a Value costs several times a lookup of its columns.
        # Not for values with a float (quantities, coordinates): -0.0 and 0.0 are equal keys, not equal values.
        known: dict[tuple, Value] = {}

        def value_at(row: tuple, start: int) -> Value:
            columns = row[start:start + _VALUE_WIDTH]
            for i in _FLOAT_AT:
                if columns[i] is not None:
                    return row_value(row, start)
            value = known.get(columns)
            if value is None:
                value = known[columns] = row_value(row, start)
            return value

        # Only statements that have qualifiers (references) are looked up there: the others' subjects would
        # each cost a row group read for nothing.
        qualified = [(r[1], r[0]) for r in rows if r[ROW_QUALIFIER_COUNT]]
        # Qualifiers are always loaded: verdicts need point in time, start and end times.
        for q in self._by_subject(_QUALIFIER_COLS, "qualifiers", qualified, "qualifier_order"):
            qualifiers[q[0]].append(Snak(q[2], value_at(q, 3)))
        if details:
            referenced = [(r[1], r[0]) for r in rows if r[ROW_REFERENCE_COUNT]]
            for r in self._by_subject(_REFERENCE_COLS, "references", referenced, "reference_order, snak_order"):
                references[r[0]].setdefault(r[1], []).append(Snak(r[4], value_at(r, 5)))
        out = []
        for r in rows:
            sid = r[0]
            refs = tuple(Reference(h, tuple(snaks)) for h, snaks in references.get(sid, {}).items())
            out.append(Statement(sid, r[1], r[2], r[3], value_at(r, 4), tuple(qualifiers.get(sid, ())), refs))
        return out

    # -- search ---------------------------------------------------------------------------------
    def searcher(self):
        with self._search_lock:
            if self._search is None:
                from .search import Searcher

                self._search = Searcher(self, self._embedder)
            return self._search

    def load_embedder_in_background(self) -> threading.Thread:
        """Load the query embedder on a daemon thread (the servers call this at start): a model takes seconds to
        load, and the first request that needs it — a namesake to tell apart, a predicate to match — would pay them
        all. A request arriving meanwhile waits for the same load (get_embedder's lock). A failure is left to the
        first request that needs the embedder, which reports it."""
        def load():
            try:
                self.searcher().embedder
            except Exception:  # noqa: BLE001 - met again, and reported, by the request that needs it
                pass
        thread = threading.Thread(target=load, name="kgcheck-embedder", daemon=True)
        thread.start()
        return thread

    def search_entities(self, text: str, k: int = 5) -> list[Candidate]:
        return self.searcher().entities(text, k)

    def search_properties(self, text: str, k: int = 5) -> list[Candidate]:
        return self.searcher().properties(text, k)
