"""The verifier's vocabulary: claims in, verdicts with evidence out."""
from __future__ import annotations

from dataclasses import dataclass, field

SUPPORTED = "SUPPORTED"
REFUTED = "REFUTED"
NOT_ENOUGH_INFO = "NOT_ENOUGH_INFO"
VERDICTS = (SUPPORTED, REFUTED, NOT_ENOUGH_INFO)


@dataclass(frozen=True)
class Claim:
    """One (subject, predicate, object) claim as text, optionally with Wikidata ids.

    `qualifiers` are (predicate, object) text pairs ("point in time", "2019").
    `kind` is a hint ("date", "quantity", "entity", "string") when the source knows it.
    """

    id: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    subject_id: str | None = None
    property_id: str | None = None
    object_id: str | None = None
    qualifiers: tuple[tuple[str, str], ...] = ()
    kind: str | None = None
    source_line: int | None = None


@dataclass(frozen=True)
class BadClaim:
    """A line of a claims file that could not be read: reported, never dropped."""

    id: str
    line: int
    error: str
    raw: str = ""


@dataclass(frozen=True)
class Evidence:
    """A graph statement offered for or against a claim, with its provenance."""

    statement_id: str
    subject: str
    subject_label: str | None
    property: str
    property_label: str | None
    value: str
    value_id: str | None
    rank: str
    score: float
    relation: str  # "match", "less-specific", "conflict", "other-value", "related"
    qualifiers: tuple[tuple[str, str], ...] = ()
    references: tuple[tuple[tuple[str, str], ...], ...] = ()


@dataclass(frozen=True)
class Verdict:
    claim: Claim
    verdict: str
    confidence: float
    rule: str  # "A", "B", "C" (GPToLODS) or "none"
    reason: str
    subject_id: str | None = None
    property_ids: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    corrections: tuple[str, ...] = ()
    correction_ids: tuple[str, ...] = field(default=())
    error: str | None = None
    # What made a conflicting value count (or not) as false: "constraint" (Wikidata's P2302), "measured"
    # (few subjects hold several values), "class" / "value" / "profile" (the same measure among the subjects of
    # its class, holding its value, sharing another property), "co-occurrence" (values never seen together
    # although expected), "none" (open world), "closed-world"; in free text "reverse" (the graph states the claim
    # the other way round, for a property it never holds both ways); None when no value conflicted.
    exclusivity: str | None = None
