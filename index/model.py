"""The graph vocabulary shared by index/ and verifier/: values, statements, candidates.

All frozen dataclasses: they are facts read from the index, never mutated.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Value kinds: the Wikidata datavalue types, plus the two valueless snak types.
ENTITY = "wikibase-entityid"
STRING = "string"
TIME = "time"
QUANTITY = "quantity"
MONOLINGUAL = "monolingualtext"
COORDINATE = "globecoordinate"
SOMEVALUE = "somevalue"
NOVALUE = "novalue"
INVALID = "invalid"  # a value that broke the Wikibase rules at ingest: shown, never compared

RANKS = ("preferred", "normal", "deprecated")


@dataclass(frozen=True)
class Value:
    """One typed value, as stored in the statement/qualifier/reference tables.

    `kind` says which fields are set. Times keep Wikidata's own form
    ("+1952-03-11T00:00:00Z") with its precision (9 year, 10 month, 11 day,
    8 decade, 7 century); quantities keep the unit as an entity id ("Q712226")
    or None for dimensionless ones; `text` is a human-readable rendering.
    """

    kind: str
    text: str = ""
    entity_id: str | None = None
    string: str | None = None
    language: str | None = None
    time: str | None = None
    precision: int | None = None
    calendar: str | None = None
    amount: float | None = None
    unit: str | None = None
    lower: float | None = None
    upper: float | None = None
    latitude: float | None = None
    longitude: float | None = None
    coord_precision: float | None = None
    globe: str | None = None
    # A quantity's decimals exactly as the dump wrote them ("+0.890"): for display and evidence.
    amount_text: str | None = None
    lower_text: str | None = None
    upper_text: str | None = None
    invalid: str | None = None  # kind INVALID: why (the value's JSON is in `string` and `text`)


@dataclass(frozen=True)
class Snak:
    """A property-value pair inside a statement (qualifier or reference part)."""

    property: str
    value: Value


@dataclass(frozen=True)
class Reference:
    hash: str
    snaks: tuple[Snak, ...] = ()


@dataclass(frozen=True)
class Statement:
    statement_id: str
    subject: str
    property: str
    rank: str
    value: Value
    qualifiers: tuple[Snak, ...] = ()
    references: tuple[Reference, ...] = ()

    def qualifier_values(self, prop: str) -> list[Value]:
        return [q.value for q in self.qualifiers if q.property == prop]


@dataclass(frozen=True)
class Entity:
    id: str
    type: str
    label: str | None
    description: str | None = None
    datatype: str | None = None
    sitelinks: int = 0
    statement_count: int = 0
    modified: str | None = None
    aliases: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Candidate:
    """A ranked answer of search_entities / search_properties."""

    id: str
    label: str | None
    description: str | None
    score: float
    matched_by: str  # "exact", "normalised", "vector"
    matched_text: str = ""
