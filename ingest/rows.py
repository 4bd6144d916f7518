"""One parsed entity -> rows of the five tables (entities, labels, statements, qualifiers, references)."""
from __future__ import annotations

from dataclasses import dataclass

from .values import VALUE_COLUMNS, BadValue, snak_columns

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
    ("qualifier_count", "int32"), ("reference_count", "int32"),
) + VALUE_COLUMNS
QUALIFIER_COLUMNS = (
    ("statement_id", "string"), ("subject", "string"), ("qualifier_order", "int32"),
    ("property", "string"),
) + VALUE_COLUMNS
REFERENCE_COLUMNS = (
    ("statement_id", "string"), ("subject", "string"), ("reference_hash", "string"),
    ("reference_order", "int32"), ("snak_order", "int32"), ("property", "string"),
) + VALUE_COLUMNS

TABLE_COLUMNS = {
    "entities": ENTITY_COLUMNS,
    "labels": LABEL_COLUMNS,
    "statements": STATEMENT_COLUMNS,
    "qualifiers": QUALIFIER_COLUMNS,
    "references": REFERENCE_COLUMNS,
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

    @classmethod
    def empty(cls) -> "RowBuffers":
        return cls([], [], [], [], [])

    def size(self) -> int:
        return len(self.statements) + len(self.qualifiers) + len(self.references) + len(self.labels)

    def tables(self) -> dict[str, list]:
        return {name: getattr(self, name) for name in TABLES}


def _pick(texts: dict, languages: tuple[str, ...]) -> str | None:
    for lang in languages:
        entry = texts.get(lang)
        if entry:
            return entry["value"]
    entry = texts.get(FALLBACK_LANGUAGE)
    return entry["value"] if entry else None


def _ordered_snaks(groups: dict, order: list | None):
    for prop in order or groups:
        for snak in groups.get(prop, ()):
            yield prop, snak


def entity_rows(entity: dict, languages: tuple[str, ...], out: RowBuffers) -> int:
    """Append the entity's rows to `out`; return its statement count.

    Rows are built in local lists first so that a malformed snak leaves `out` untouched.
    """
    etype = entity.get("type")
    eid = entity.get("id")
    if etype not in KEPT_TYPES:
        raise SkipEntity(f"type:{etype}")
    if not eid:
        raise BadValue("entity without id")
    labels = entity.get("labels") or {}
    descriptions = entity.get("descriptions") or {}
    aliases = entity.get("aliases") or {}
    claims = entity.get("claims") or {}
    if isinstance(labels, list) or isinstance(claims, list):
        # Wikidata serialises empty maps as [] in some dumps.
        labels = labels or {}
        claims = claims or {}
        descriptions = descriptions or {}
        aliases = aliases or {}

    label_rows = []
    for lang in languages + (FALLBACK_LANGUAGE,):
        entry = labels.get(lang)
        if entry:
            label_rows.append((eid, lang, entry["value"], "label"))
        for alias in (aliases.get(lang) or ()) if isinstance(aliases, dict) else ():
            label_rows.append((eid, lang, alias["value"], "alias"))

    statement_rows, qualifier_rows, reference_rows = [], [], []
    for prop, statements in claims.items():
        for st in statements:
            sid = st.get("id")
            mainsnak = st.get("mainsnak")
            if not sid or not isinstance(mainsnak, dict):
                raise BadValue(f"statement of {eid} {prop} without id or mainsnak")
            qualifiers = st.get("qualifiers") or {}
            references = st.get("references") or []
            n_qual = 0
            for q_prop, snak in _ordered_snaks(qualifiers, st.get("qualifiers-order")):
                qualifier_rows.append((sid, eid, n_qual, q_prop) + snak_columns(snak))
                n_qual += 1
            for r_order, ref in enumerate(references):
                r_hash = ref.get("hash")
                for s_order, (r_prop, snak) in enumerate(
                    _ordered_snaks(ref.get("snaks") or {}, ref.get("snaks-order"))
                ):
                    reference_rows.append((sid, eid, r_hash, r_order, s_order, r_prop) + snak_columns(snak))
            statement_rows.append(
                (sid, eid, mainsnak.get("property", prop), st.get("rank", "normal"), n_qual, len(references))
                + snak_columns(mainsnak)
            )

    out.entities.append((
        eid, etype, _pick(labels, languages), _pick(descriptions, languages), entity.get("datatype"),
        len(entity.get("sitelinks") or ()), len(statement_rows), entity.get("modified"),
    ))
    out.labels.extend(label_rows)
    out.statements.extend(statement_rows)
    out.qualifiers.extend(qualifier_rows)
    out.references.extend(reference_rows)
    return len(statement_rows)
