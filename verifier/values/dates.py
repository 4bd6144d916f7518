"""Written dates: parse them, find them in sentences, compare them with graph time values.

Dates compare at the coarser of the two precisions (Wikidata's 11 day … 7 century), as written:
Wikidata stores a date in its own calendar model (Julian for most dates before 1583), and so do the
sources people copy from, so no calendar conversion is done. BC years are negative ("44 BC" = -44,
Wikidata's JSON numbering, no year 0). Slash dates whose order cannot be told (03/04/1952) are read
day first, as most of the world writes them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from kgcheck.verifier.values.units import DIMENSIONLESS, unit_at

DAY, MONTH, YEAR, DECADE, CENTURY, MILLENNIUM = 11, 10, 9, 8, 7, 6
SLASH_DATES_DAY_FIRST = True  # 03/04/1952 is 3 April 1952 (documented choice; 13/04 and 04/13 are not ambiguous)

_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December")
_MONTHS = {name.lower(): i + 1 for i, name in enumerate(_MONTH_NAMES)}
_MONTHS.update({name[:3].lower(): i + 1 for i, name in enumerate(_MONTH_NAMES)})
_MONTHS["sept"] = 9
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # 29 Feb: Julian leap years differ
_ORDINAL_WORDS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())}
_ORDINAL_WORDS.update({"twenty-first": 21, "twenty first": 21})


@dataclass(frozen=True)
class WrittenDate:
    year: int
    month: int | None
    day: int | None
    precision: int

    def to_time(self) -> str:
        """Wikidata's form of this date: "+1952-03-11T00:00:00Z" (00 for what is not known)."""
        sign = "-" if self.year < 0 else "+"
        return f"{sign}{abs(self.year):04d}-{self.month or 0:02d}-{self.day or 0:02d}T00:00:00Z"


class DateMatch(str, Enum):
    EQUAL = "EQUAL"
    CLAIM_LESS_PRECISE = "CLAIM_LESS_PRECISE"  # "1952" against 1952-03-11: consistent, supports
    CLAIM_MORE_PRECISE = "CLAIM_MORE_PRECISE"  # "1952-03-11" against year 1952: the graph cannot confirm the day
    CONFLICT = "CONFLICT"


_MON = r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december" \
       r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?![a-z])"
_ERA = r"(?P<era>b\.\s?c\.?(?:\s?e\.?)?|bce|bc|c\.\s?e\.?|ce|a\.\s?d\.?|ad)(?![a-z])"  # "BC." ends a sentence
_YR = r"(?P<year>\d{1,4})(?!\d)"
_ORD = r"(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>" + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True)) + "))"
# (name, hint, regex): _build reads each name; the hint is a cheap test that skips a pattern in running
# text (most sentences hold no month, era or century). Order matters only for parse_date's first fullmatch.
_DATE_PATTERNS = (
    ("iso", "numeric", r"(?P<sign>[+-])?(?P<year>\d{1,11})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?:T\d\d:\d\d:\d\dZ?)?"),
    ("ymd", "numeric", r"(?P<year>\d{4})[/.](?P<month>\d{1,2})[/.](?P<day>\d{1,2})"),
    ("dmy", "numeric", r"(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<year>\d{4})"),
    ("slash", "numeric", r"(?P<a>\d{1,2})(?P<sep>[/-])(?P<b>\d{1,2})(?P=sep)(?P<year>\d{4})"),
    ("d_mon_y", "month", r"(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?[\s-]+" + _MON + r",?[\s-]+" + _YR
     + r"(?:\s*" + _ERA + ")?"),
    ("mon_d_y", "month", _MON + r"\s+(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+" + _YR + r"(?:\s*" + _ERA + ")?"),
    ("mon_y", "month", _MON + r",?\s+(?:of\s+)?" + _YR + r"(?:\s*" + _ERA + ")?"),
    ("ym", "numeric", r"(?P<year>\d{4})-(?P<month>\d{2})"),
    ("decade", "decade", r"(?P<year>\d{0,3}0)'?s(?:\s*" + _ERA + ")?"),
    ("century", "century", _ORD + r"[\s-]+century(?:\s*" + _ERA + ")?"),
    ("millennium", "millennium", _ORD + r"[\s-]+millenn?i?um(?:\s*" + _ERA + ")?"),
    ("era_year", "era", r"(?P<pre>a\.?\s?d\.?|c\.?\s?e\.?)\s*" + _YR),
    ("year_era", "era", _YR + r"\s*" + _ERA),
    ("year", "year", r"(?P<sign>-)?" + _YR),
)
_FULL = tuple((name, re.compile(rx, re.I)) for name, _, rx in _DATE_PATTERNS)
# In sentences: no word or number glued on either side; "ym" is left out ("the 2010-11 season").
# Hyphens may touch: "1939-1945" holds two years, and "11-03-1952" outgrows its parts (longest span wins).
_IN_TEXT = tuple((name, hint, re.compile(r"(?<![\w+])(?<!\d[.,/:])" + (_YR if name == "year" else rx)
                                         + r"(?![\w])(?![.,/:]\d)", re.I))
                 for name, hint, rx in _DATE_PATTERNS if name != "ym")
_MONTH_WORD = re.compile(_MON, re.I)
_MONTH_PREFIXES = tuple(name[:3].lower() for name in _MONTH_NAMES)
_DIGIT = re.compile(r"\d")
_DIGIT_SEPARATOR_DIGIT = re.compile(r"\d[-/.]\d")
_ERA_WORD = re.compile(r"(?<![a-z])(?:a\.?\s?d|b\.?\s?c|c\.?\s?e)(?![a-z])", re.I)


def _hints(text: str) -> dict[str, bool]:
    lower = text.lower()
    return {"numeric": _DIGIT_SEPARATOR_DIGIT.search(text) is not None, "year": True,
            "month": any(p in lower for p in _MONTH_PREFIXES) and _MONTH_WORD.search(text) is not None,
            "era": _ERA_WORD.search(text) is not None, "decade": "0s" in lower or "0's" in lower,
            "century": "centur" in lower, "millennium": "millen" in lower}


_NOISE = re.compile(r"^(?:(?:on|in|the|circa|c\.|ca\.|about|around|approximately|early|mid|late|"
                    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day,?)(?:\s+|-|(?<=\.)))+", re.I)
_YEAR_CONTEXT = re.compile(r"(?:\b(?:in|since|until|till|from|by|circa|year|around|before|after)|\bc\.)\s*$",
                           re.I)
_NOT_YEAR_BEFORE = re.compile(r"(?:[$€£¥#]|\bno\.|\bnumber|\bpages?|\bpp?\.|\broute|\bflight|\bmodel|\btype)\s*$",
                              re.I)
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")
_GRAPH_TIME = re.compile(r"\s*([+-]?)(\d+)-(\d\d)-(\d\d)")
_FUNCTION_WORDS = frozenset("in and or at on to as when after before he she it they the his her its under "
                            "during until while with from by for of was were is".split())


def _signed_year(m: re.Match, strict: bool) -> int | None:
    digits = m["year"]
    era = (m.groupdict().get("era") or m.groupdict().get("pre") or "").lower()
    if strict and len(digits) < 3 and not era:
        return None  # "March 11" is not March of the year 11
    year = int(digits)
    if era.startswith("b"):
        return -year if year else None
    if m.groupdict().get("sign") == "-":
        return -year
    return year


def _make(year: int | None, month: int | None, day: int | None, precision: int) -> WrittenDate | None:
    if year is None or (month is not None and not 1 <= month <= 12):
        return None
    if day is not None and not 1 <= day <= _DAYS_IN_MONTH[month - 1]:
        return None
    return WrittenDate(year, month if precision >= MONTH else None, day if precision >= DAY else None, precision)


def _build(name: str, m: re.Match, strict: bool) -> WrittenDate | None:
    g = m.groupdict()
    if name == "iso":
        if strict and (len(g["year"]) != 4 or g["sign"]):
            return None
        year, month, day = _signed_year(m, False), int(g["month"]), int(g["day"])
        if month == 0:  # Wikidata's form keeps 00 for an unknown month or day
            return None if day else _make(year, None, None, YEAR)
        return _make(year, month, day or None, DAY if day else MONTH)
    if name in ("ymd", "dmy"):
        return _make(int(g["year"]), int(g["month"]), int(g["day"]), DAY)
    if name == "slash":
        a, b = int(g["a"]), int(g["b"])
        day_first = a > 12 or (b <= 12 and SLASH_DATES_DAY_FIRST)
        return _make(int(g["year"]), b if day_first else a, a if day_first else b, DAY)
    if name in ("d_mon_y", "mon_d_y", "mon_y"):
        if strict and g["mon"][0].islower():
            return None  # "may" and "march" are verbs in running text
        month = _MONTHS[g["mon"].lower()]
        day = int(g["day"]) if name != "mon_y" else None
        # "March 11" has no year; "19 August 14" is the year 14 (Augustus died then), in running text too rare
        return _make(_signed_year(m, strict or day is None), month, day, DAY if day else MONTH)
    if name == "ym":
        return _make(int(g["year"]), int(g["month"]), None, MONTH)
    if name == "decade":
        if strict and len(g["year"]) < 4 and not g["era"]:
            return None  # "in his 40s" is an age
        return _make(_signed_year(m, False), None, None, DECADE)
    if name in ("century", "millennium"):
        n = int(g["n"]) if g["n"] else _ORDINAL_WORDS[" ".join(g["w"].lower().split())]
        if n == 0:
            return None
        span = 100 if name == "century" else 1000
        era = (g["era"] or "").lower()
        return _make(-n * span if era.startswith("b") else n * span, None, None, CENTURY if span == 100 else MILLENNIUM)
    return _make(_signed_year(m, False), None, None, YEAR)  # "era_year", "year_era", "year"


@lru_cache(maxsize=65536)
def parse_date(text: str) -> WrittenDate | None:
    """The date a whole string states ("11 March 1952", "1940s", "44 BC", "+1952-03-11T00:00:00Z"), or None."""
    if not isinstance(text, str):
        return None
    s = _NOISE.sub("", " ".join(text.split()).strip(" ,;")).rstrip(" .,;")  # "44 B.C" still reads as BC
    if not s or len(s) > 60:
        return None
    for name, pattern in _FULL:
        m = pattern.fullmatch(s)
        if m:
            found = _build(name, m, strict=False)
            if found:
                return found
    return None


def _bare_year_ok(text: str, m: re.Match) -> bool:
    """A bare number in a sentence is a year only where years stand ("born in 1962", "in 330 Constantine")."""
    digits, start, end = m["year"], m.start(), m.end()
    if _NOT_YEAR_BEFORE.search(text, max(0, start - 12), start):
        return False
    unit = unit_at(text, end)
    if unit and unit[2].dimension != DIMENSIONLESS:
        return False  # "1404 square kilometres", "1500 m"
    in_year_context = _YEAR_CONTEXT.search(text, max(0, start - 12), start) is not None
    if len(digits) == 4:  # "2000 people came" counts, "in 1990 people moved" dates
        return 1000 <= int(digits) <= 2100 and (unit is None or in_year_context)
    if len(digits) != 3 or not in_year_context:
        return False
    follower = _NEXT_WORD.match(text, end)
    return follower is None or follower.group(1)[0].isupper() or follower.group(1).lower() in _FUNCTION_WORDS


@lru_cache(maxsize=16384)
def find_dates_cached(text: str) -> tuple[tuple[int, int, WrittenDate], ...]:
    """`find_dates` as an immutable, cached tuple (quantities ask again for the same sentence)."""
    hints = _hints(text)
    if not _DIGIT.search(text) and not hints["century"] and not hints["millennium"]:
        return ()
    found: list[tuple[int, int, WrittenDate]] = []
    for name, hint, pattern in _IN_TEXT:
        for m in pattern.finditer(text) if hints[hint] else ():
            if name == "year" and not _bare_year_ok(text, m):
                continue
            if name in ("century", "millennium") and _opens_a_name(text, m):
                continue
            date = _build(name, m, strict=True)
            if date:
                found.append((m.start(), m.end(), date))
    chosen: list[tuple[int, int, WrittenDate]] = []
    for start, end, date in sorted(found, key=lambda f: (f[0] - f[1], f[0])):  # longest first
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, date))
    return tuple(sorted(chosen, key=lambda f: f[0]))


_CAPITALISED_PERIOD = re.compile(r"\b(?:Century|Millennium)\b")
_NAME_GOES_ON = re.compile(r" [A-Z]")


def _opens_a_name(text: str, m) -> bool:
    """"20th Century Fox", "21st Century Breakdown": a capitalised century right before a capitalised word opens a
    name (the studio, the album), no date."""
    return _CAPITALISED_PERIOD.search(m.group()) is not None and _NAME_GOES_ON.match(text, m.end()) is not None


def find_dates(text: str) -> list[tuple[int, int, WrittenDate]]:
    """(start, end, date) of every date written inside a sentence, left to right."""
    return list(find_dates_cached(text)) if isinstance(text, str) else []


def inside_dates(start: int, end: int, dates) -> bool:
    """Does text[start:end] lie inside one of `dates` (find_dates of the same text)? "July" of "16 July 2005" names
    a month, but there it is part of a date: no value of its own."""
    return any(s <= start and end <= e for s, e, _ in dates)


@lru_cache(maxsize=65536)
def graph_date(time: str, precision: int) -> WrittenDate:
    """A graph time value ("+1952-03-11T00:00:00Z", precision 11) as a WrittenDate; 00 lowers the precision."""
    m = _GRAPH_TIME.match(time)
    if not m:
        raise ValueError(f"not a Wikidata time value: {time!r}")
    year = -int(m[2]) if m[1] == "-" else int(m[2])
    month, day = int(m[3]), int(m[4])
    if month > 12 or day > 31 or precision is None or not 0 <= precision <= 14:
        raise ValueError(f"not a valid Wikidata time value: {time!r} at precision {precision!r}")
    precision = min(precision, DAY if day else MONTH if month else YEAR)
    return WrittenDate(year, month if precision >= MONTH else None, day if precision >= DAY else None, precision)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _period(year: int, precision: int) -> int:
    """The number of the decade / century / … that holds `year`, signed like the year."""
    sign, y = (-1 if year < 0 else 1), abs(year)
    if precision == CENTURY:
        return sign * ((y - 1) // 100 + 1)
    if precision == MILLENNIUM:
        return sign * ((y - 1) // 1000 + 1)
    return sign * (y // 10 ** (YEAR - precision))


def format_date(time: str, precision: int) -> str:
    """A graph date for people: "11 March 1952", "March 1952", "1952", "1940s", "19th century", "44 BC"."""
    d = graph_date(time, precision)
    bc = " BC" if d.year < 0 else ""
    if d.precision >= DAY:
        return f"{d.day} {_MONTH_NAMES[d.month - 1]} {abs(d.year)}{bc}"
    if d.precision == MONTH:
        return f"{_MONTH_NAMES[d.month - 1]} {abs(d.year)}{bc}"
    if d.precision == DECADE:
        return f"{abs(d.year) // 10 * 10}s{bc}"
    if d.precision in (CENTURY, MILLENNIUM):
        word = "century" if d.precision == CENTURY else "millennium"
        return f"{_ordinal(abs(_period(d.year, d.precision)))} {word}{bc}"
    return f"{abs(d.year)}{bc}"


def _key(d: WrittenDate, precision: int) -> tuple:
    if precision >= DAY:
        return d.year, d.month, d.day
    if precision == MONTH:
        return d.year, d.month
    return (d.year,) if precision == YEAR else (_period(d.year, precision),)


def compare_dates(claim: WrittenDate, graph_time: str, graph_precision: int) -> DateMatch:
    """Compare at the coarser of the two precisions only; see DateMatch."""
    graph = graph_date(graph_time, graph_precision)
    precision = min(claim.precision, graph.precision)
    if _key(claim, precision) != _key(graph, precision):
        return DateMatch.CONFLICT
    if claim.precision == graph.precision:
        return DateMatch.EQUAL
    return DateMatch.CLAIM_LESS_PRECISE if claim.precision < graph.precision else DateMatch.CLAIM_MORE_PRECISE
