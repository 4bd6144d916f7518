"""The one place that turns a Wikidata snak into typed columns and a display text.

Every table with values (statements, qualifiers, references) uses the same
column layout, VALUE_COLUMNS, so one parser serves all three.
"""
from __future__ import annotations

import math
import re

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
    # Schema 3: a quantity's decimals exactly as the dump wrote them (the floats above are for
    # comparison, these for display and evidence), and why a value broke the Wikibase rules.
    ("amount_text", "string"),
    ("lower_text", "string"),
    ("upper_text", "string"),
    ("invalid", "string"),
)
N_VALUE_COLUMNS = len(VALUE_COLUMNS)
_EMPTY = (None,) * 18  # the typed columns from entity_id to value_text
_NO_EXTRA = (None, None, None, None)  # amount_text, lower_text, upper_text, invalid

# Wikibase's rules for a valid value (what its own validators accept), checked at ingest; a value
# that breaks them is stored with its typed columns empty, its JSON in `string` and the reason in
# `invalid`, so that no reader ever has to parse it (the statement itself is kept).
_TIME = re.compile(r"([+-])([0-9]{1,16})-([0-9]{2})-([0-9]{2})T00:00:00Z\Z")
# A decimal as Python's float() and C's strtod() read alike (ASCII digits, no '_', no inf/nan).
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
MAX_TIME_PRECISION = 14  # 0 = billion years ... 14 = second

_CENTURY_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


class BadValue(ValueError):
    """A datavalue that does not follow the dump format."""


class InvalidValue(BadValue):
    """A datavalue of the right shape whose content breaks the Wikibase rules (month 13, latitude 999)."""


def check_time(time, precision) -> None:
    """Raise InvalidValue unless `time` is '+YYYY-MM-DDT00:00:00Z' with a real month and day (or 0)
    and precision is 0..14. February has 29 days in every year divisible by 4: the rule of both
    calendars Wikidata uses (Julian and proleptic Gregorian) for all but century years."""
    m = _TIME.match(time) if type(time) is str else None
    if m is None:
        raise InvalidValue(f"time {time!r} is not +YYYY-MM-DDT00:00:00Z"[:160])
    year, month, day = int(m[2]), int(m[3]), int(m[4])
    if month > 12:
        raise InvalidValue(f"time {time!r}: month {month} is not 1-12 (or 0)")
    limit = 0 if month == 0 else 28 if month == 2 and year % 4 else _MONTH_DAYS[month - 1]
    if day > limit:
        raise InvalidValue(f"time {time!r}: day {day} is not within the month (or 0)")
    if precision is not None and not (type(precision) is int and 0 <= precision <= MAX_TIME_PRECISION):
        raise InvalidValue(f"time precision {precision!r} is not 0-{MAX_TIME_PRECISION}"[:120])


def decimal_of(x, what: str) -> tuple[float, str]:
    """(float, exact text) of a dump decimal ("+0.890" stays "+0.890"); finite or InvalidValue."""
    if type(x) is str:
        if not _DECIMAL.match(x):
            raise InvalidValue(f"{what} {x!r} is not a decimal number"[:120])
        value, text = float(x), x
    elif type(x) is int or type(x) is float:
        value, text = float(x), (str(x) if type(x) is int else repr(x))
    else:
        raise InvalidValue(f"{what} is a {type(x).__name__}, not a number")
    if not math.isfinite(value):
        raise InvalidValue(f"{what} {text[:40]!r} is not a finite number (overflow, inf or nan)")
    return value, text


def display_decimal(text: str) -> str:
    """A dump decimal as people write it: '+1952' -> '1952', '-0.5' stays."""
    return text[1:] if text.startswith("+") else text


def _coordinate(x, what: str, limit: float) -> float:
    value = decimal_of(x, what)[0]
    if not -limit <= value <= limit:
        raise InvalidValue(f"{what} {value!r} is outside -{limit:g}..{limit:g}")
    return value


def _raw(x) -> str:
    """The datavalue as JSON, kept whole in an invalid value's `string` column."""
    try:
        return orjson.dumps(x).decode()
    except (TypeError, orjson.JSONEncodeError):
        return repr(x)


def _invalid_columns(snak, reason: str) -> tuple:
    """The columns of a value that broke the rules: the snak's types, its JSON, the reason."""
    snaktype = snak.get("snaktype", "value") if type(snak) is dict else None
    datatype = snak.get("datatype") if type(snak) is dict else None
    datavalue = snak.get("datavalue") if type(snak) is dict else None
    vtype = datavalue.get("type") if type(datavalue) is dict else None
    raw = _raw(datavalue if datavalue is not None else snak)
    return ((snaktype if type(snaktype) is str else None, vtype if type(vtype) is str else None,
             datatype if type(datatype) is str else None, None, raw) + (None,) * 15
            + (raw, None, None, None, reason[:300]))


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
    """A snak -> tuple in VALUE_COLUMNS order. Never raises: a value that is malformed or breaks the
    Wikibase rules comes back marked invalid (last column = the reason), so it costs no statement.

    Types are checked here, per snak, so that a bad value never breaks a batch's conversion to Arrow.
    """
    try:
        return _value_columns(snak)
    except BadValue as exc:
        return _invalid_columns(snak, str(exc))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            orjson.JSONEncodeError) as exc:
        prop = snak.get("property") if isinstance(snak, dict) else None
        return _invalid_columns(snak, f"bad {prop if type(prop) is str else '?'} datavalue: {exc!r}")


def _value_columns(snak: dict) -> tuple:
    snaktype = snak.get("snaktype", "value")
    datatype = snak.get("datatype")
    if type(datatype) is not str:
        checked_text(datatype)
    if snaktype != "value":
        return (checked_text(snaktype), None, datatype) + _EMPTY[:-1] + (snaktype,) + _NO_EXTRA
    datavalue = snak["datavalue"]
    vtype = datavalue["type"]
    v = datavalue["value"]
    if vtype == "wikibase-entityid":
        eid = v.get("id")
        if not eid or type(eid) is not str:
            eid = entity_id_of(v)
        return ("value", vtype, datatype, eid, None, None, None, None, None, None, None, None,
                None, None, None, None, None, None, None, None, eid) + _NO_EXTRA
    if vtype == "string":
        if type(v) is not str:
            raise BadValue("string datavalue is not a string")
        return ("value", vtype, datatype, None, v, None, None, None, None, None, None, None,
                None, None, None, None, None, None, None, None, v) + _NO_EXTRA
    if vtype == "time":
        t = v["time"]
        precision = v.get("precision")
        check_time(t, precision)
        return ("value", vtype, datatype, None, None, None, t, precision,
                strip_entity_uri(v.get("calendarmodel")), _int32(v.get("timezone")), _int32(v.get("before")),
                _int32(v.get("after")), None, None, None, None, None, None, None, None,
                format_time(t, precision)) + _NO_EXTRA
    if vtype == "quantity":
        amount, amount_text = decimal_of(v["amount"], "amount")
        lower, lower_text = _bound(v.get("lowerBound"), "lowerBound")
        upper, upper_text = _bound(v.get("upperBound"), "upperBound")
        unit = strip_entity_uri(v.get("unit"))
        text = display_decimal(amount_text) + (f" {unit}" if unit else "")
        return ("value", vtype, datatype, None, None, None, None, None, None, None, None, None,
                amount, unit, lower, upper, None, None, None, None, text, amount_text, lower_text, upper_text, None)
    if vtype == "monolingualtext":
        text = checked_text(v["text"])
        return ("value", vtype, datatype, None, text, checked_text(v["language"]), None, None, None, None,
                None, None, None, None, None, None, None, None, None, None, text) + _NO_EXTRA
    if vtype == "globecoordinate":
        lat = _coordinate(v["latitude"], "latitude", 90)
        lon = _coordinate(v["longitude"], "longitude", 360)
        precision = v.get("precision")
        return ("value", vtype, datatype, None, None, None, None, None, None, None, None, None,
                None, None, None, None, lat, lon, None if precision is None else decimal_of(precision, "precision")[0],
                strip_entity_uri(v.get("globe")), f"{lat:.6g}, {lon:.6g}") + _NO_EXTRA
    # A datavalue type this version does not know: keep it losslessly as JSON.
    raw = orjson.dumps(v).decode()
    return ("value", checked_text(vtype), datatype, None, raw, None, None, None, None, None, None, None,
            None, None, None, None, None, None, None, None, raw) + _NO_EXTRA


def _bound(x, what: str) -> tuple[float | None, str | None]:
    return (None, None) if x is None else decimal_of(x, what)
