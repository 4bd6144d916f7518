"""One parsed entity -> rows of the five tables (entities, labels, statements, qualifiers, references)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .values import VALUE_COLUMNS, BadValue, checked_text, snak_columns

KEPT_TYPES = ("item", "property")
FALLBACK_LANGUAGE = "mul"  # language-neutral labels, e.g. Q42's label lives only here

ENTITY_COLUMNS = (
    ("id", "string"), ("type", "string"), ("label", "string"), ("description", "string"),
    ("datatype", "string"), ("sitelinks", "int32"), ("statement_count", "int32"),
    ("modified", "string"),
)
LABEL_COLUMNS = (("id", "string"), ("language", "string"), ("text", "string"), ("kind", "string"))
STATEMENT_COLUMNS = (
    ("statement_id", "string"), ("subject", "string"), ("property", "string"), ("rank", "string"),
    ("statement_order", "int32"), ("qualifier_count", "int32"), ("reference_count", "int32"),
) + VALUE_COLUMNS
QUALIFIER_COLUMNS = (
    ("statement_id", "string"), ("subject", "string"), ("qualifier_order", "int32"),
    ("property", "string"),
) + VALUE_COLUMNS
REFERENCE_COLUMNS = (
    ("statement_id", "string"), ("subject", "string"), ("reference_hash", "string"),
    ("reference_order", "int32"), ("snak_order", "int32"), ("property", "string"),
) + VALUE_COLUMNS

# Every table's last column: the dump line the row came from (provenance, and how the sort keeps only
# the first copy of an entity a dump holds twice). Row tuples omit it: RowBuffers.mark_line adds it.
LINE_COLUMN = ("dump_line", "int32")
MAX_LINE = (1 << 31) - 1  # beyond, dump_line is null (a dump of over 2 billion lines)
TABLE_COLUMNS = {
    "entities": ENTITY_COLUMNS + (LINE_COLUMN,),
    "labels": LABEL_COLUMNS + (LINE_COLUMN,),
    "statements": STATEMENT_COLUMNS + (LINE_COLUMN,),
    "qualifiers": QUALIFIER_COLUMNS + (LINE_COLUMN,),
    "references": REFERENCE_COLUMNS + (LINE_COLUMN,),
}
TABLES = tuple(TABLE_COLUMNS)


class SkipEntity(Exception):
    """Not an item or property (lexeme, mediainfo…): counted, not stored."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class RowBuffers:
    """Row tuples per table, appended to by entity_rows and flushed by the writer."""

    entities: list
    labels: list
    statements: list
    qualifiers: list
    references: list
    # (table, statement_id, property, reason) of each value stored as invalid; the caller reports
    # and empties it (convert.convert_line).
    invalid: list = field(default_factory=list)
    # table -> [(dump line, rows)]: the dump_line column, run-length coded, in row order.
    line_runs: dict = field(default_factory=lambda: {name: [] for name in TABLES})

    @classmethod
    def empty(cls) -> "RowBuffers":
        return cls([], [], [], [], [])

    def size(self) -> int:
        return len(self.statements) + len(self.qualifiers) + len(self.references) + len(self.labels)

    def tables(self) -> dict[str, list]:
        return {name: getattr(self, name) for name in TABLES}

    def lengths(self) -> tuple[int, ...]:
        return tuple(len(getattr(self, name)) for name in TABLES)

    def mark_line(self, line: int, before: tuple[int, ...]) -> None:
        """The rows added since `before` (lengths()) came from dump line `line`."""
        line = line if line <= MAX_LINE else None
        for name, n in zip(TABLES, before):
            added = len(getattr(self, name)) - n
            if added:
                self.line_runs[name].append((line, added))

    def line_column(self, name: str) -> list:
        lines = [line for line, n in self.line_runs[name] for _ in range(n)]
        return lines + [None] * (len(getattr(self, name)) - len(lines))  # rows added without mark_line


def _mapping(value) -> dict:
    """Wikidata serialises an empty map as [] in some dumps; anything else non-dict is malformed."""
    if type(value) is dict:
        return value
    if not value:
        return {}
    raise BadValue(f"expected an object, got {type(value).__name__}")


def _pick(texts: dict, languages: tuple[str, ...]) -> str | None:
    for lang in languages:
        entry = texts.get(lang)
        if entry:
            return checked_text(entry["value"])
    entry = texts.get(FALLBACK_LANGUAGE)
    return checked_text(entry["value"]) if entry else None


def ordered_snaks(groups: dict, order) -> list:
    """(property, snak) pairs in the `*-order` list's order; properties it omits follow in map order."""
    groups = _mapping(groups)
    props = list(dict.fromkeys(order)) if order else []
    if len(props) != len(groups) or not groups.keys() <= set(props):
        props = [p for p in props if p in groups] + [p for p in groups if p not in props]
    return [(p, snak) for p in props for snak in _list(groups.get(p))]


def _list(value) -> list:
    if type(value) is list:
        return value
    if value is None:
        return []
    raise BadValue(f"expected a list, got {type(value).__name__}")


def _qualifier_rows(sid: str, eid: str, qualifiers, order, out: list) -> int:
    n = 0
    for q_prop, snak in ordered_snaks(qualifiers, order):
        out.append((sid, eid, n, q_prop) + snak_columns(snak))
        n += 1
    return n


def _reference_rows(sid: str, eid: str, references, out: list) -> int:
    references = _list(references)
    for r_order, ref in enumerate(references):
        r_hash = checked_text(ref.get("hash"))
        for s_order, (r_prop, snak) in enumerate(ordered_snaks(ref.get("snaks"), ref.get("snaks-order"))):
            out.append((sid, eid, r_hash, r_order, s_order, r_prop) + snak_columns(snak))
    return len(references)


def invalid_seen(rows: list) -> bool:
    """Any row whose value was stored as invalid (its last column, `invalid`, holds the reason)."""
    for r in rows:
        if r[-1] is not None:
            return True
    return False


def entity_rows(entity: dict, languages: tuple[str, ...], out: RowBuffers) -> int:
    """Append the entity's rows to `out`; return its statement count.

    Rows are built in local lists first so that a malformed snak leaves `out` untouched.
    This is the ingest's hot loop: plain loops and tuples, no per-row objects.
    """
    etype = entity.get("type")
    if etype not in KEPT_TYPES:
        raise SkipEntity(f"type:{etype}" if type(etype) is str else "type:missing")
    eid = entity.get("id")
    if not eid or type(eid) is not str:
        raise BadValue("entity without id")
    labels = _mapping(entity.get("labels"))
    descriptions = _mapping(entity.get("descriptions"))
    aliases = _mapping(entity.get("aliases"))
    claims = _mapping(entity.get("claims"))

    label_rows = []
    for lang in languages + (FALLBACK_LANGUAGE,):
        entry = labels.get(lang)
        if entry:
            label_rows.append((eid, lang, checked_text(entry["value"]), "label"))
        for alias in _list(aliases.get(lang)):
            label_rows.append((eid, lang, checked_text(alias["value"]), "alias"))

    statement_rows, qualifier_rows, reference_rows = [], [], []
    add_statement = statement_rows.append
    order = 0
    for prop, statements in claims.items():
        if type(statements) is not list:
            statements = _list(statements)
        for st in statements:
            sid = st["id"]
            mainsnak = st["mainsnak"]
            s_prop = mainsnak.get("property", prop)
            rank = st.get("rank", "normal")
            if type(sid) is not str or type(s_prop) is not str or type(rank) is not str:
                raise BadValue(f"statement of {eid} {prop} has a malformed id, property or rank")
            qualifiers = st.get("qualifiers")
            n_qual = _qualifier_rows(sid, eid, qualifiers, st.get("qualifiers-order"), qualifier_rows) \
                if qualifiers else 0
            references = st.get("references")
            n_ref = _reference_rows(sid, eid, references, reference_rows) if references else 0
            add_statement((sid, eid, s_prop, rank, order, n_qual, n_ref) + snak_columns(mainsnak))
            order += 1

    # The entity row last of the checks: a line refused here must leave no invalid-value report behind.
    entity_row = (
        eid, etype, _pick(labels, languages), _pick(descriptions, languages), checked_text(entity.get("datatype")),
        len(_mapping(entity.get("sitelinks"))), len(statement_rows), checked_text(entity.get("modified")),
    )
    if invalid_seen(statement_rows) or invalid_seen(qualifier_rows) or invalid_seen(reference_rows):
        for table, rows, prop_at in (("statements", statement_rows, 2), ("qualifiers", qualifier_rows, 3),
                                     ("references", reference_rows, 5)):
            out.invalid.extend((table, r[0], r[prop_at], r[-1]) for r in rows if r[-1] is not None)
    out.entities.append(entity_row)
    out.labels.extend(label_rows)
    out.statements.extend(statement_rows)
    out.qualifiers.extend(qualifier_rows)
    out.references.extend(reference_rows)
    return len(statement_rows)
