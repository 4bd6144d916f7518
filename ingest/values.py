"""The one place that turns a Wikidata snak into typed columns and a display text.

Every table with values (statements, qualifiers, references) uses the same
column layout, VALUE_COLUMNS, so one parser serves all three.
"""
from __future__ import annotations

import math

import orjson

ENTITY_PREFIX = "http://www.wikidata.org/entity/"

# Column name -> Arrow type name; the order is the order of the tuple snak_columns returns.
VALUE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("snaktype", "string"),
    ("value_type", "string"),
    ("datatype", "string"),
    ("entity_id", "string"),
    ("string", "string"),
    ("language", "string"),
    ("time", "string"),
    ("time_precision", "int8"),
    ("time_calendar", "string"),
    ("time_timezone", "int32"),
    ("time_before", "int32"),
    ("time_after", "int32"),
    ("amount", "float64"),
    ("unit", "string"),
    ("lower", "float64"),
    ("upper", "float64"),
    ("latitude", "float64"),
    ("longitude", "float64"),
    ("coord_precision", "float64"),
    ("globe", "string"),
    ("value_text", "string"),
)
N_VALUE_COLUMNS = len(VALUE_COLUMNS)
_EMPTY = (None,) * (N_VALUE_COLUMNS - 3)

_CENTURY_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


class BadValue(ValueError):
    """A datavalue that does not follow the dump format."""


def strip_entity_uri(uri: str | None) -> str | None:
    if uri is None or uri == "1":
        return None  # "1" is Wikidata's unit for dimensionless quantities
    if type(uri) is not str:
        raise BadValue(f"expected an entity URI, got {type(uri).__name__}")
    if uri.startswith(ENTITY_PREFIX):
        return uri[len(ENTITY_PREFIX):]
    return uri


def entity_id_of(value: dict) -> str:
    """The id of a wikibase-entityid value; old dumps only carry numeric-id."""
    eid = value.get("id")
    if eid and type(eid) is str:
        return eid
    numeric = value["numeric-id"]
    if type(numeric) is not int:
        raise BadValue(f"entity id {eid!r} / numeric-id {numeric!r} is not an id"[:120])
    prefix = {"item": "Q", "property": "P", "lexeme": "L"}.get(value.get("entity-type"), "Q")
    return f"{prefix}{numeric}"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{_CENTURY_SUFFIX.get(n % 10, 'th')}"


def split_time(time: str) -> tuple[int, int, int]:
    """'+1952-03-11T00:00:00Z' -> (1952, 3, 11); BCE years are negative. Raises BadValue if malformed."""
    try:
        sign = -1 if time[0] == "-" else 1
        body = time[1:] if time[0] in "+-" else time
        year, month, day = body.split("T", 1)[0].rsplit("-", 2)
        return sign * int(year), int(month), int(day)
    except (TypeError, ValueError, IndexError) as exc:
        raise BadValue(f"not a Wikidata time: {time!r}") from exc


def format_time(time: str, precision: int | None) -> str:
    """A date rendered at its precision: 1952-03-11, 1952-03, 1952, 1950s, 19th century."""
    year, month, day = split_time(time)
    precision = 11 if precision is None else precision
    era = " BC" if year < 0 else ""
    ayear = abs(year)
    if precision >= 11 and month and day:
        return f"{year:04d}-{month:02d}-{day:02d}" if year >= 0 else f"{ayear}-{month:02d}-{day:02d}{era}"
    if precision >= 10 and month:
        return f"{year:04d}-{month:02d}" if year >= 0 else f"{ayear}-{month:02d}{era}"
    if precision >= 9:
        return f"{ayear}{era}"
    if precision == 8:
        return f"{ayear // 10 * 10}s{era}"
    if precision == 7:
        return f"{_ordinal((ayear - 1) // 100 + 1)} century{era}"
    if precision == 6:
        return f"{_ordinal((ayear - 1) // 1000 + 1)} millennium{era}"
    return f"{ayear}{era} (precision {precision})"


def format_amount(amount: float) -> str:
    if math.isfinite(amount) and amount == int(amount) and abs(amount) < 1e15:
        return str(int(amount))
    return repr(amount)


def _num(text) -> float | None:
    return None if text is None else float(text)


def checked_text(x) -> str | None:
    """x if it is a string or None; anything else would break a string column later."""
    if x is None or type(x) is str:
        return x
    raise BadValue(f"expected a string, got {type(x).__name__}")


def _int_in(x, low: int, high: int) -> int | None:
    if x is None or (type(x) is int and low <= x <= high):
        return x
    raise BadValue(f"expected an integer in [{low}, {high}], got {x!r}"[:120])


def _int32(x) -> int | None:
    return _int_in(x, -(1 << 31), (1 << 31) - 1)


def snak_columns(snak: dict) -> tuple:
    """A snak -> tuple in VALUE_COLUMNS order. Raises BadValue (only) on malformed input.

    Types are checked here, per snak, so that a bad value costs one line and never
    a whole batch's conversion to Arrow later on.
    """
    try:
        snaktype = snak.get("snaktype", "value")
        datatype = snak.get("datatype")
        if type(datatype) is not str:
            checked_text(datatype)
        if snaktype != "value":
            return (checked_text(snaktype), None, datatype) + _EMPTY[:-1] + (snaktype,)
        datavalue = snak["datavalue"]
        vtype = datavalue["type"]
        v = datavalue["value"]
        if vtype == "wikibase-entityid":
            eid = v.get("id")
            if not eid or type(eid) is not str:
                eid = entity_id_of(v)
            return ("value", vtype, datatype, eid, None, None, None, None, None, None, None, None,
                    None, None, None, None, None, None, None, None, eid)
        if vtype == "string":
            if type(v) is not str:
                raise BadValue("string datavalue is not a string")
            return ("value", vtype, datatype, None, v, None, None, None, None, None, None, None,
                    None, None, None, None, None, None, None, None, v)
        if vtype == "time":
            t = v["time"]
            precision = _int_in(v.get("precision"), -128, 127)
            return ("value", vtype, datatype, None, None, None, t, precision,
                    strip_entity_uri(v.get("calendarmodel")), _int32(v.get("timezone")), _int32(v.get("before")),
                    _int32(v.get("after")), None, None, None, None, None, None, None, None,
                    format_time(t, precision))
        if vtype == "quantity":
            amount = float(v["amount"])
            unit = strip_entity_uri(v.get("unit"))
            text = format_amount(amount) + (f" {unit}" if unit else "")
            return ("value", vtype, datatype, None, None, None, None, None, None, None, None, None,
                    amount, unit, _num(v.get("lowerBound")), _num(v.get("upperBound")),
                    None, None, None, None, text)
        if vtype == "monolingualtext":
            text = checked_text(v["text"])
            return ("value", vtype, datatype, None, text, checked_text(v["language"]), None, None, None, None,
                    None, None, None, None, None, None, None, None, None, None, text)
        if vtype == "globecoordinate":
            lat, lon = float(v["latitude"]), float(v["longitude"])
            precision = v.get("precision")
            return ("value", vtype, datatype, None, None, None, None, None, None, None, None, None,
                    None, None, None, None, lat, lon, None if precision is None else float(precision),
                    strip_entity_uri(v.get("globe")), f"{lat:.6g}, {lon:.6g}")
        # A datavalue type this version does not know: keep it losslessly as JSON.
        raw = orjson.dumps(v).decode()
        return ("value", checked_text(vtype), datatype, None, raw, None, None, None, None, None, None, None,
                None, None, None, None, None, None, None, None, raw)
    except BadValue:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            orjson.JSONEncodeError) as exc:
        prop = snak.get("property") if isinstance(snak, dict) else None
        raise BadValue(f"bad {prop if type(prop) is str else '?'} datavalue: {exc!r}"[:300]) from exc
