"""Wikidata units: ids, the words and symbols people write for them, and conversion.

Each unit converts to the base unit of its dimension as `base = amount * factor + offset`
(the offset only matters for °C and °F). Currencies get a dimension of their own each:
there are no exchange rates offline, so dollars never compare with euros. The ids were
checked against Wikibase's unit-conversion table and the units that wd50k actually uses.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

DIMENSIONLESS = "1"  # Wikidata's unit "1": plain counts, and what a graph unit None means


@dataclass(frozen=True)
class Unit:
    id: str
    label: str
    dimension: str
    factor: float
    offset: float = 0.0
    symbols: tuple[str, ...] = ()  # matched case-sensitively ("MB" is not "mb")
    names: tuple[str, ...] = ()  # other words for it, matched after normalise_unit_text


_YEAR = 365.25 * 86400
_F = 5 / 9

# (id, label, dimension, factor, offset, symbols, other names)
_TABLE: tuple[tuple, ...] = (
    # length (metre)
    ("Q11573", "metre", "length", 1.0, 0, ("m",),
     ("metres above sea level", "m above sea level", "masl", "m asl", "metres tall", "metre high")),
    ("Q828224", "kilometre", "length", 1e3, 0, ("km",), ()),
    ("Q174728", "centimetre", "length", 1e-2, 0, ("cm",), ()),
    ("Q174789", "millimetre", "length", 1e-3, 0, ("mm",), ()),
    ("Q253276", "mile", "length", 1609.344, 0, ("mi",), ("statute mile",)),
    ("Q3710", "foot", "length", 0.3048, 0, ("ft", "′"), ("feet",)),
    ("Q218593", "inch", "length", 0.0254, 0, ("″",), ()),
    ("Q482798", "yard", "length", 0.9144, 0, ("yd",), ()),
    ("Q93318", "nautical mile", "length", 1852.0, 0, ("nmi",), ()),
    ("Q1811", "astronomical unit", "length", 149597870700.0, 0, ("AU", "au"), ()),
    ("Q531", "light-year", "length", 9.4607304725808e15, 0, ("ly",), ("light year", "lightyear")),
    ("Q12129", "parsec", "length", 3.0856775814913673e16, 0, ("pc",), ()),
    # area (square metre)
    ("Q712226", "square kilometre", "area", 1e6, 0, ("km²", "km2", "km^2", "sq km", "sq. km", "sqkm"),
     ("kilometre squared", "skm")),
    ("Q25343", "square metre", "area", 1.0, 0, ("m²", "m2", "m^2", "sq m", "sq. m"), ("metre squared",)),
    ("Q35852", "hectare", "area", 1e4, 0, ("ha",), ()),
    ("Q232291", "square mile", "area", 2589988.110336, 0, ("mi²", "mi2", "sq mi", "sq. mi", "sq. mi."),
     ("mile squared",)),
    ("Q81292", "acre", "area", 4046.8564224, 0, ("ac",), ()),
    ("Q857027", "square foot", "area", 0.09290304, 0, ("ft²", "ft2", "sq ft", "sq. ft", "sq. ft."), ("square feet",)),
    # volume (cubic metre)
    ("Q25517", "cubic metre", "volume", 1.0, 0, ("m³", "m3", "m^3", "cu m"), ()),
    ("Q11582", "litre", "volume", 1e-3, 0, ("l", "L"), ()),
    ("Q4243638", "cubic kilometre", "volume", 1e9, 0, ("km³", "km3", "km^3", "cu km"), ()),
    ("Q5195628", "cubic hectometre", "volume", 1e6, 0, ("hm³", "hm3"), ()),
    # mass (kilogram)
    ("Q11570", "kilogram", "mass", 1.0, 0, ("kg",), ("kilo",)),
    ("Q41803", "gram", "mass", 1e-3, 0, ("g",), ("gramme",)),
    ("Q191118", "tonne", "mass", 1e3, 0, ("t",), ("metric ton", "metric tonne")),
    ("Q100995", "pound", "mass", 0.45359237, 0, ("lb", "lbs"), ()),
    ("Q613726", "yottagram", "mass", 1e21, 0, ("Yg",), ()),
    # time (second); years as durations and ages share the year's length
    ("Q11574", "second", "time", 1.0, 0, ("s", "sec"), ()),
    ("Q7727", "minute", "time", 60.0, 0, ("min",), ("mins",)),
    ("Q25235", "hour", "time", 3600.0, 0, ("h", "hr", "hrs"), ()),
    ("Q573", "day", "time", 86400.0, 0, ("d",), ()),
    ("Q23387", "week", "time", 604800.0, 0, ("wk",), ()),
    ("Q5151", "month", "time", _YEAR / 12, 0, (), ()),
    ("Q577", "year", "time", _YEAR, 0, ("yr", "yrs"), ()),
    ("Q1092296", "annum", "time", _YEAR, 0, (), ()),
    ("Q24564698", "years old", "time", _YEAR, 0, (), ("year old", "years of age", "year of age")),
    # temperature (kelvin)
    ("Q25267", "degree Celsius", "temperature", 1.0, 273.15, ("°C", "℃", "° C", "ºC"),
     ("celsius", "centigrade", "degree centigrade")),
    ("Q42289", "degree Fahrenheit", "temperature", _F, 273.15 - 32 * _F, ("°F", "℉", "° F", "ºF"), ("fahrenheit",)),
    ("Q11579", "kelvin", "temperature", 1.0, 0, ("K",), ()),
    # speed (metre per second)
    ("Q180154", "kilometre per hour", "speed", 1 / 3.6, 0, ("km/h", "kph", "kmh", "km h−1", "km/hr"),
     ("kilometre an hour",)),
    ("Q182429", "metre per second", "speed", 1.0, 0, ("m/s",), ()),
    ("Q211256", "mile per hour", "speed", 0.44704, 0, ("mph",), ("mile an hour",)),
    ("Q128822", "knot", "speed", 1852 / 3600, 0, ("kn", "kt"), ()),
    # ratios and counts
    ("Q11229", "percent", "ratio", 0.01, 0, ("%",), ("per cent", "pct", "percentage")),
    ("Q181011", "per mille", "ratio", 0.001, 0, ("‰",), ("permille",)),
    ("Q5", "human", DIMENSIONLESS, 1.0, 0, (), ("people", "person", "inhabitant", "resident", "citizen")),
    ("Q6256", "country", DIMENSIONLESS, 1.0, 0, (), ("countries", "member country")),
    # other physical units seen in the data
    ("Q28390", "degree", "angle", 0.017453292519943295, 0, ("°",), ("degree of arc",)),
    ("Q33680", "radian", "angle", 1.0, 0, ("rad",), ()),
    ("Q25250", "volt", "voltage", 1.0, 0, ("V",), ()),
    ("Q25236", "watt", "power", 1.0, 0, ("W",), ()),
    ("Q6982035", "megawatt", "power", 1e6, 0, ("MW",), ()),
    ("Q39369", "hertz", "frequency", 1.0, 0, ("Hz",), ()),
    ("Q732707", "megahertz", "frequency", 1e6, 0, ("MHz",), ()),
    ("Q3276763", "gigahertz", "frequency", 1e9, 0, ("GHz",), ()),
    ("Q794261", "cubic metre per second", "flow", 1.0, 0, ("m³/s", "m3/s", "m^3/s"), ("cumec",)),
    ("Q844211", "kilogram per cubic metre", "density", 1.0, 0, ("kg/m³", "kg/m3"), ()),
    # data size (byte), decimal prefixes as Wikidata defines them
    ("Q8799", "byte", "data", 1.0, 0, ("B",), ()),
    ("Q79726", "kilobyte", "data", 1e3, 0, ("kB", "KB"), ()),
    ("Q79735", "megabyte", "data", 1e6, 0, ("MB",), ()),
    ("Q79738", "gigabyte", "data", 1e9, 0, ("GB",), ()),
    ("Q79741", "terabyte", "data", 1e12, 0, ("TB",), ()),
    # currencies: one dimension each
    ("Q4917", "United States dollar", "", 1.0, 0, ("$", "US$", "USD", "U.S.$"),
     ("US dollar", "U.S. dollar", "dollar", "American dollar")),
    ("Q4916", "euro", "", 1.0, 0, ("€", "EUR"), ()),
    ("Q25224", "pound sterling", "", 1.0, 0, ("£", "GBP"), ("British pound", "pounds sterling")),
    ("Q8146", "Japanese yen", "", 1.0, 0, ("¥", "JPY"), ("yen",)),
    ("Q1104069", "Canadian dollar", "", 1.0, 0, ("C$", "CA$", "CAD"), ()),
    ("Q259502", "Australian dollar", "", 1.0, 0, ("A$", "AU$", "AUD"), ()),
    ("Q25344", "Swiss franc", "", 1.0, 0, ("CHF",), ()),
    ("Q122922", "Swedish krona", "", 1.0, 0, ("SEK",), ("Swedish kronor",)),
    ("Q132643", "Norwegian krone", "", 1.0, 0, ("NOK",), ("Norwegian kroner",)),
    ("Q25417", "Danish krone", "", 1.0, 0, ("DKK",), ("Danish kroner",)),
    ("Q131016", "Czech koruna", "", 1.0, 0, ("CZK",), ()),
    ("Q81893", "hryvnia", "", 1.0, 0, ("UAH", "₴"), ("Ukrainian hryvnia",)),
    ("Q17193", "Philippine peso", "", 1.0, 0, ("PHP", "₱"), ()),
    ("Q190951", "Singapore dollar", "", 1.0, 0, ("S$", "SGD"), ()),
    ("Q160680", "Belarusian ruble", "", 1.0, 0, ("BYN", "BYR"), ()),
    ("Q41044", "Russian ruble", "", 1.0, 0, ("RUB", "₽"), ("rouble", "Russian rouble")),
    ("Q39099", "renminbi", "", 1.0, 0, ("CNY", "RMB"), ("yuan", "Chinese yuan")),
    ("Q80524", "Indian rupee", "", 1.0, 0, ("INR", "₹", "Rs", "Rs."), ("rupee",)),
    ("Q173117", "Brazilian real", "", 1.0, 0, ("R$", "BRL"), ()),
    ("Q4730", "Mexican peso", "", 1.0, 0, ("MXN", "Mex$"), ()),
    ("Q202040", "South Korean won", "", 1.0, 0, ("KRW", "₩"), ()),
)

UNITS: dict[str, Unit] = {
    row[0]: Unit(row[0], row[1], row[2] or f"currency:{row[0]}", row[3], row[4], row[5], row[6])
    for row in _TABLE
}

_SPELLING = (("meter", "metre"), ("liter", "litre"), ("gramm", "gram"), ("kilometer", "kilometre"))
_SUPERSCRIPTS = str.maketrans({"²": "2", "³": "3", "^": "", "−": "-", "º": "°"})
_IRREGULAR = {"feet": "foot", "foot": "foot", "celsius": "celsius", "people": "people", "inches": "inch",
              "countries": "country", "kronor": "krona", "kroner": "krone", "pence": "penny", "centuries": "century",
              "hertz": "hertz", "siemens": "siemens", "lux": "lux", "us": "us", "plus": "plus", "degrees": "degree"}
_WORD = re.compile(r"[a-z]+")


def _singular(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 3 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=8192)
def normalise_unit_text(text: str) -> str:
    """A comparable form of a unit name: "Square Kilometers" == "square kilometre" == "km²"→"km2"."""
    text = unicodedata.normalize("NFKC", text.translate(_SUPERSCRIPTS)).lower().strip()
    text = text.replace(".", " ").replace("-", " ")
    for old, new in _SPELLING:
        text = text.replace(old, new)
    words = [_WORD.sub(lambda m: _singular(m.group()), w) for w in text.split()]
    words = ["square" if w == "sq" else "cubic" if w == "cu" else w for w in words]
    # "kilometres squared" → "square kilometre"
    if len(words) >= 2 and words[-1] in ("squared", "cubed"):
        words = ["square" if words[-1] == "squared" else "cubic"] + words[:-1]
    if words and words[0] == "degree" and len(words) == 2 and words[1] in ("celsius", "fahrenheit", "centigrade"):
        words = words[1:]
    return " ".join(words)


def _build_indexes() -> tuple[dict[str, Unit], dict[str, Unit]]:
    by_symbol: dict[str, Unit] = {}
    by_name: dict[str, Unit] = {}
    for unit in UNITS.values():
        for symbol in unit.symbols:
            by_symbol.setdefault(symbol, unit)
        for name in (unit.label, *unit.names):
            by_name.setdefault(normalise_unit_text(name), unit)
    for unit in UNITS.values():  # lower-case symbols as names, unless a name or symbol already took them
        for symbol in unit.symbols:
            key = normalise_unit_text(symbol)
            clash = any(s.lower() == symbol.lower() and s != symbol for s in by_symbol)
            if len(key) >= 2 and key not in by_name and not clash:
                by_name[key] = unit
    return by_symbol, by_name


_BY_SYMBOL, _BY_NAME = _build_indexes()


def _plain_id(unit_id: str | None) -> str | None:
    """"Q712226" from an id or entity URI; None for Wikidata's dimensionless unit "1" (Q199)."""
    if unit_id is None:
        return None
    unit_id = unit_id.rsplit("/", 1)[-1]
    return None if unit_id in ("1", "Q199", "") else unit_id


def unit_by_id(qid: str | None) -> Unit | None:
    qid = _plain_id(qid)
    return UNITS.get(qid) if qid else None


@lru_cache(maxsize=8192)
def unit_for_text(text: str) -> Unit | None:
    """The unit a written word or symbol names ("km²", "square kilometers", "°C"), or None."""
    text = " ".join(text.split()).rstrip(",;:")
    if not text:
        return None
    unit = _BY_SYMBOL.get(text) or _BY_SYMBOL.get(text.rstrip("."))
    return unit or _BY_NAME.get(normalise_unit_text(text))


_UNIT_TOKEN = re.compile(r"(?:\s+|-?)([^\s,;:()\[\]\"'!?]+)")


def unit_at(text: str, pos: int, max_words: int = 4) -> tuple[int, int, Unit] | None:
    """The longest known unit written right after `pos` in running text: (start, end, unit) or None."""
    tokens, p = [], pos
    for _ in range(max_words):
        m = _UNIT_TOKEN.match(text, p)
        if not m:
            break
        tokens.append((m.start(1), m.end(1)))
        p = m.end()
    for k in range(len(tokens), 0, -1):
        start, end = tokens[0][0], tokens[k - 1][1]
        for stop in (end - 1, end) if text[end - 1] == "." else (end,):  # "km." ends a sentence
            unit = unit_for_text(text[start:stop])
            if unit:
                return start, stop, unit
    return None


def dimension_of(unit_id: str | None) -> str | None:
    """The dimension of a unit id; None (Wikidata's "1") is dimensionless; unknown ids give None."""
    if _plain_id(unit_id) is None:
        return DIMENSIONLESS
    unit = unit_by_id(unit_id)
    return unit.dimension if unit else None


def convert(amount: float, from_unit_id: str | None, to_unit_id: str | None) -> float | None:
    """`amount` in `from_unit_id` expressed in `to_unit_id`; None across dimensions or for unknown ids."""
    from_unit_id, to_unit_id = _plain_id(from_unit_id), _plain_id(to_unit_id)
    if from_unit_id == to_unit_id:
        return amount
    source, target = unit_by_id(from_unit_id), unit_by_id(to_unit_id)
    if from_unit_id is None or to_unit_id is None:  # a count ("people") against the graph's plain number
        if dimension_of(from_unit_id) == dimension_of(to_unit_id) == DIMENSIONLESS:
            return amount
        return None
    if source is None or target is None or source.dimension != target.dimension:
        return None
    return (amount * source.factor + source.offset - target.offset) / target.factor


def scale_between(from_unit_id: str | None, to_unit_id: str | None) -> float | None:
    """How a difference (not a point) scales between two units: °C→°F is 1.8, km→m is 1000."""
    from_unit_id, to_unit_id = _plain_id(from_unit_id), _plain_id(to_unit_id)
    if from_unit_id == to_unit_id:
        return 1.0
    source, target = unit_by_id(from_unit_id), unit_by_id(to_unit_id)
    if source is None or target is None:
        return 1.0 if convert(1.0, from_unit_id, to_unit_id) is not None else None
    if source.dimension != target.dimension:
        return None
    return source.factor / target.factor
