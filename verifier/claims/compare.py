"""Typed comparison of a claimed object with one graph statement's value.

The result is a Relation: how the claim stands to that statement. Dates honour
precision, quantities units and tolerance, entities ids, names and the
located-in/part-of/subclass hierarchy; strings are compared normalised.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property

from kgcheck.index.model import COORDINATE, ENTITY, INVALID, MONOLINGUAL, NOVALUE, QUANTITY, SOMEVALUE, STRING, TIME, Statement, Value
from kgcheck.index.text import normalise

from kgcheck.verifier.values.units import normalise_unit_text
from kgcheck.verifier.values import DateMatch, QuantityMatch, compare_dates, compare_quantities, parse_date, parse_quantity

# Relations, strongest support first.
MATCH = "match"
APPROXIMATE = "approximate"  # rounded number, coarser date
LESS_SPECIFIC = "less-specific"  # claim names an ancestor of the graph value (England for Cambridge)
MORE_PRECISE = "more-precise"  # claim is more precise than the graph can confirm (a day where the graph has a year)
MORE_SPECIFIC = "more-specific"  # claim names a place inside the graph value
UNKNOWN = "unknown-value"  # graph says "some value" (somevalue snak)
NO_VALUE = "no-value"  # graph says "no value" (novalue snak)
CONFLICT = "conflict"
INCOMPARABLE = "incomparable"

SUPPORTING = (MATCH, APPROXIMATE, LESS_SPECIFIC, MORE_PRECISE)
SUPPORT_STRENGTH = {MATCH: 0.97, APPROXIMATE: 0.85, LESS_SPECIFIC: 0.8, MORE_PRECISE: 0.65}


@dataclass
class ClaimObject:
    """The claimed object, parsed lazily in every way it could be read."""

    text: str
    object_id: str | None = None
    rel_tol: float = 0.01
    linked_ids: tuple[str, ...] = field(default=())  # candidate ids of the object text, filled by the caller

    @cached_property
    def norm(self) -> str:
        return normalise(self.text)

    @cached_property
    def date(self):
        return parse_date(self.text) if self.text else None

    @cached_property
    def quantity(self):
        return parse_quantity(self.text) if self.text else None


class GraphFacts(ABC):
    """What comparisons need to know beyond the statement itself (names, hierarchy, unit labels)."""

    @abstractmethod
    def names(self, eid: str) -> set[str]:  # normalised label and aliases
        """The normalised label and aliases of `eid`."""

    @abstractmethod
    def ancestors(self, eid: str) -> set[str]:  # located-in / part-of / country / subclass closure
        """What `eid` lies in or is part of (transitively)."""

    @abstractmethod
    def label(self, eid: str) -> str | None:
        """The label of `eid`, or None."""

    def demonyms(self, eid: str) -> set[str]:  # normalised: "british" for the United Kingdom
        """What the graph calls the people or things of place `eid` (its demonyms): a claim naming a country by one
        ("citizenship: British") names that country. None unless the facts read them."""
        return set()


def relate(obj: ClaimObject, value: Value, facts: GraphFacts) -> str:
    kind = value.kind
    if kind == SOMEVALUE:
        return UNKNOWN
    if kind == NOVALUE:
        return NO_VALUE
    if kind == INVALID:  # broke the Wikibase rules at ingest: shown as evidence of nothing
        return INCOMPARABLE
    if kind == ENTITY:
        return _relate_entity(obj, value.entity_id, facts)
    if kind == TIME:
        if obj.date is None:
            return INCOMPARABLE
        try:
            match = compare_dates(obj.date, value.time, value.precision or 11)
        except ValueError:
            return INCOMPARABLE
        return {DateMatch.EQUAL: MATCH, DateMatch.CLAIM_LESS_PRECISE: APPROXIMATE,
                DateMatch.CLAIM_MORE_PRECISE: MORE_PRECISE}.get(match, CONFLICT)
    if kind == QUANTITY:
        return _relate_quantity(obj, value, facts)
    if kind in (STRING, MONOLINGUAL):
        if not obj.norm:
            return INCOMPARABLE
        return MATCH if normalise(value.string or "") == obj.norm else CONFLICT
    if kind == COORDINATE:
        return INCOMPARABLE
    return MATCH if normalise(value.text) == obj.norm else INCOMPARABLE


def _named(obj: ClaimObject, facts: GraphFacts) -> set[str]:
    """The object text's linked candidates that the text names outright (all of them when none is)."""
    named = {c for c in obj.linked_ids if obj.norm in facts.names(c)}
    return named or set(obj.linked_ids)


def _relate_entity(obj: ClaimObject, value_id: str, facts: GraphFacts) -> str:
    if obj.object_id:
        if obj.object_id == value_id:
            return MATCH
    elif obj.norm and (obj.norm in facts.names(value_id) or obj.norm in facts.demonyms(value_id)):
        return MATCH
    if not obj.object_id and not facts.names(value_id):
        return INCOMPARABLE  # a dangling id (no label in this graph): nothing to compare the name with
    if obj.object_id or obj.norm:
        ancestors = facts.ancestors(value_id)
        claimed = {obj.object_id} if obj.object_id else _named(obj, facts)
        if claimed & ancestors:
            return LESS_SPECIFIC
        if not obj.object_id and any(obj.norm in facts.names(a) for a in ancestors):
            return LESS_SPECIFIC
        # Only the best-linked reading: "Chile" is the country, not Santiago (alias "Chile") in the UK's closure.
        best = obj.object_id or next((c for c in obj.linked_ids if c in claimed), None)
        if best and value_id in facts.ancestors(best):
            return MORE_SPECIFIC
    return CONFLICT if (obj.object_id or obj.norm) else INCOMPARABLE


def _relate_quantity(obj: ClaimObject, value: Value, facts: GraphFacts) -> str:
    quantity = obj.quantity
    if quantity is None or value.amount is None:
        return INCOMPARABLE
    claim_unit = None
    if quantity.unit_text and value.unit:
        # A unit the table does not know still matches when it is the graph unit's own name.
        label = facts.label(value.unit)
        if label and normalise_unit_text(label) == normalise_unit_text(quantity.unit_text):
            claim_unit = value.unit
    match = compare_quantities(quantity, claim_unit, value.amount, value.unit, value.lower, value.upper,
                               rel_tol=obj.rel_tol)
    return {QuantityMatch.EQUAL: MATCH, QuantityMatch.APPROXIMATE: APPROXIMATE,
            QuantityMatch.CONFLICT: CONFLICT}.get(match, INCOMPARABLE)


def qualifiers_agree(claim_qualifiers: list[tuple[str, ClaimObject]], st: Statement, facts: GraphFacts) -> bool:
    """False when the statement holds a qualifier the claim contradicts ("in 2019" vs point in time 2000)."""
    for pid, qobj in claim_qualifiers:
        values = st.qualifier_values(pid)
        if values and not any(relate(qobj, v, facts) in SUPPORTING for v in values):
            return False
    return True
