"""Human-readable rendering of values and statements, with labels resolved."""
from __future__ import annotations

import decimal
from typing import Iterable

from kgcheck.ingest.values import BadValue, display_decimal, format_amount, format_time, split_time

from .model import COORDINATE, ENTITY, INVALID, MONOLINGUAL, NOVALUE, QUANTITY, SOMEVALUE, TIME, Statement, Value

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def human_date(time: str, precision: int | None) -> str:
    """'+1952-03-11T00:00:00Z' at day precision -> '11 March 1952'; coarser precisions as format_time."""
    try:
        year, month, day = split_time(time)
    except BadValue:
        return str(time)  # ingest validates times; an odd one is shown as stored, never a crash
    precision = 11 if precision is None else precision
    era = " BC" if year < 0 else ""
    if not 0 <= month <= 12:
        return str(time)
    if precision >= 11 and month and day:
        return f"{day} {MONTHS[month - 1]} {abs(year)}{era}"
    if precision == 10 and month:
        return f"{MONTHS[month - 1]} {abs(year)}{era}"
    return format_time(time, precision)


def amount_text(value: Value) -> str:
    """A quantity's amount as the dump wrote it ("0.890", 20 digits kept); the float only without it."""
    if value.amount_text:
        return display_decimal(value.amount_text)
    return format_amount(value.amount) if value.amount is not None else value.text


def _spread(value: Value) -> str | None:
    """The larger distance from the amount to a bound, computed on the exact decimals ("0.005")."""
    if value.lower is None or value.upper is None or (value.lower, value.upper) == (value.amount,) * 2:
        return None
    try:
        amount, lower, upper = (decimal.Decimal(t) for t in (value.amount_text, value.lower_text, value.upper_text))
        return str(max(upper - amount, amount - lower))
    except (TypeError, decimal.InvalidOperation):  # no exact text (a JSON number in the dump)
        return format_amount(round(max(value.upper - value.amount, value.amount - value.lower), 12))


def value_entity_ids(value: Value) -> list[str]:
    return [i for i in (value.entity_id, value.unit) if i]


def statement_entity_ids(statements: Iterable[Statement]) -> set[str]:
    """Every id a rendering of these statements needs a label for."""
    ids: set[str] = set()
    for st in statements:
        ids.add(st.property)
        ids.update(value_entity_ids(st.value))
        for q in st.qualifiers:
            ids.add(q.property)
            ids.update(value_entity_ids(q.value))
        for ref in st.references:
            for s in ref.snaks:
                ids.add(s.property)
                ids.update(value_entity_ids(s.value))
    return ids


def render_value(value: Value, labels: dict[str, str]) -> str:
    if value.kind == ENTITY:
        label = labels.get(value.entity_id)
        return f"{label} ({value.entity_id})" if label else value.entity_id or ""
    if value.kind == TIME:
        return human_date(value.time, value.precision) if value.time else value.text
    if value.kind == QUANTITY:
        text = amount_text(value)
        spread = _spread(value)
        if spread:
            text += f" (±{spread})"
        if value.unit:
            text += " " + labels.get(value.unit, value.unit)
        return text
    if value.kind == MONOLINGUAL:
        return f"{value.string} [{value.language}]"
    if value.kind == COORDINATE and value.latitude is not None and value.longitude is not None:
        return f"{value.latitude:.5g}, {value.longitude:.5g}"
    if value.kind == INVALID:
        return f"(invalid value: {value.text or value.string or ''})"
    if value.kind == SOMEVALUE:
        return "(unknown value)"
    if value.kind == NOVALUE:
        return "(no value)"
    return value.text or value.string or ""


def plain_value(value: Value, labels: dict[str, str]) -> str:
    """Like render_value, without ids: for sentences and corrections."""
    if value.kind == ENTITY:
        return labels.get(value.entity_id, value.entity_id or "")
    if value.kind == QUANTITY:  # no uncertainty: a correction reads as a plain amount and unit
        text = amount_text(value)
        return text + (" " + labels.get(value.unit, value.unit) if value.unit else "")
    return render_value(value, labels)


def statement_dict(st: Statement, labels: dict[str, str]) -> dict:
    """JSON form of a statement with labels, used by `show --json`, evidence and the HTTP API."""
    return {
        "statement_id": st.statement_id,
        "subject": st.subject,
        "subject_label": labels.get(st.subject),
        "property": st.property,
        "property_label": labels.get(st.property),
        "rank": st.rank,
        "value": render_value(st.value, labels),
        "value_id": st.value.entity_id,
        **({"value_invalid": st.value.invalid} if st.value.invalid else {}),
        "qualifiers": [{"property": q.property, "property_label": labels.get(q.property),
                        "value": render_value(q.value, labels)} for q in st.qualifiers],
        "references": [{"hash": r.hash, "snaks": [{"property": s.property, "property_label": labels.get(s.property),
                                                   "value": render_value(s.value, labels)} for s in r.snaks]}
                       for r in st.references],
    }


def statement_lines(st: Statement, labels: dict[str, str], references: bool = True) -> list[str]:
    rank = "" if st.rank == "normal" else f" [{st.rank}]"
    lines = [f"{labels.get(st.property, st.property)} ({st.property}): {render_value(st.value, labels)}{rank}"]
    for q in st.qualifiers:
        lines.append(f"    {labels.get(q.property, q.property)}: {render_value(q.value, labels)}")
    if references:
        for ref in st.references:
            parts = "; ".join(f"{labels.get(s.property, s.property)}: {render_value(s.value, labels)}"
                              for s in ref.snaks)
            lines.append(f"    ref: {parts}")
    return lines
