"""Written quantities: parse "2,075 square kilometre", "1.5 million", "−12 °C"; compare with graph amounts."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

from kgcheck.verifier.values.dates import find_dates_cached
from kgcheck.verifier.values.units import convert, scale_between, unit_at, unit_for_text

_DIGIT = re.compile(r"\d")

# ---------------------------------------------------------------- quantities

@dataclass(frozen=True)
class WrittenQuantity:
    amount: float
    unit_text: str | None = None
    lower: float | None = None
    upper: float | None = None
    step: float = 1.0  # place value of the last written digit ("1.5 million" → 100,000; "300" → 100)
    approximate: bool = False  # "about", "more than", "1.5 million", a range: the writer rounded on purpose


class QuantityMatch(str, Enum):
    EQUAL = "EQUAL"
    APPROXIMATE = "APPROXIMATE"  # within the rounding the claim's written digits imply: weaker support
    CONFLICT = "CONFLICT"
    INCOMPARABLE = "INCOMPARABLE"


_SCALES = {"thousand": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12, "tn": 1e12,
           "lakh": 1e5, "crore": 1e7, "k": 1e3, "m": 1e6, "b": 1e9}
_LOWER_BOUNDS = ("more than", "over", "at least", "above", "greater than", "in excess of")
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_NUMBER = (r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[\u00a0\u2009\u202f ]\d{3})+(?:[.,]\d+)?"
           r"|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d+(?:\.\d+)?|\.\d+")
_HEAD = (r"(?:(?P<approx>about|approximately|approx\.?|around|roughly|circa|ca?\.|some|nearly|almost|"
         r"an estimated|estimated|~|≈|∼)\s*)?(?:(?P<bound>more than|over|at least|above|greater than|in excess of|"
         r"less than|under|below|fewer than|at most|up to|no more than)\s+)?"
         r"(?P<cur>US\$|U\.S\.\$|CA?\$|AU?\$|S\$|R\$|Mex\$|\$|€|£|¥|₹|₽|₩|₴|₱)?\s?(?P<sign>[-−–+])?"
         r"(?P<num><NUMBER>)"
         r"(?:\s*[×x*]\s*10\s*\^?\s*(?P<exp>[-−]?\d{1,3}|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)|[eE](?P<e>[-+]?\d{1,3}))?"
         r"(?:\s*(?P<scale>thousand|million|mn|billion|bn|trillion|tn|lakh|crore)(?![a-z])"
         r"|(?P<short>[kmb]n?)(?![a-z]))?"
         r"(?:\s*(?P<pm>±|\+/-|\+-)\s*(?P<err>\d+(?:\.\d+)?))?")
# A whole string may use a decimal comma ("2,5"); in running text "1,2" is more likely a list.
_QUANTITY_FULL = re.compile(_HEAD.replace("<NUMBER>", r"\d+,(?!\d{3}(?!\d))\d+|" + _NUMBER), re.I)
# A quick filter on where a quantity can start: it halves the time finditer takes.
_QUANTITY_START = (r"(?<![\w.,])(?=[\d.$€£¥₹₽₩₴₱~≈∼+\-−–]|about|approx|around|roughly|circa|ca?\.|some|nearly|"
                   r"almost|an estimated|estimated|more|over|at |above|greater|in excess|less|under|below|fewer|"
                   r"up to|no more|U\.?S|CA?\$|AU?\$|S\$|R\$|Mex\$)")
_QUANTITY_IN_TEXT = re.compile(_QUANTITY_START + _HEAD.replace("<NUMBER>", _NUMBER), re.I)
_GROUP_SPACE = re.compile(r"[\u00a0\u2009\u202f ]")
_COMMA_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+")
_LEADING_ZERO = re.compile(r"0\d")
_RANGE = re.compile(r"\s*(?:-|–|—|to)\s*(?P<num>" + _NUMBER + ")", re.I)


def _number(raw: str) -> tuple[float, float]:
    """The value of a written number and the place value of its last digit."""
    raw = _GROUP_SPACE.sub("", raw)
    if "," in raw and "." in raw:
        raw = raw.replace(",", "") if raw.rfind(".") > raw.rfind(",") else raw.replace(".", "").replace(",", ".")
    elif "," in raw:
        raw = raw.replace(",", "") if _COMMA_GROUPS.fullmatch(raw) else raw.replace(",", ".")
    elif raw.count(".") > 1:
        raw = raw.replace(".", "")
    whole, _, decimals = raw.partition(".")
    if decimals:
        return float(raw), 10.0 ** -len(decimals)
    zeros = len(whole) - len(whole.rstrip("0"))
    return float(whole), 10.0 ** zeros if zeros < len(whole) else 1.0


def _quantity(m: re.Match) -> tuple[WrittenQuantity, int, float] | None:
    """The quantity a head match states (unit not yet read), where its text ends, its multiplier."""
    g = m.groupdict()
    value, step = _number(g["num"])
    multiplier, end = 1.0, m.end()
    exponent = g["exp"] or g["e"]
    if exponent:
        power = int(exponent.translate(_SUPERSCRIPT_DIGITS).replace("−", "-"))
        if abs(power) > 300:
            return None
        multiplier *= 10.0 ** power
    if g["scale"]:
        multiplier *= _SCALES[g["scale"].lower()]
    elif g["short"]:
        if g["cur"]:  # "$1.5m", "£3bn"; without a currency "5m" is five metres
            multiplier *= _SCALES[g["short"].lower()[0]]
        else:
            end = m.start("short")
    if g["sign"] in ("-", "−", "–"):
        value = -value
    amount = value * multiplier
    lower = upper = None
    if g["pm"]:
        err = float(g["err"]) * multiplier
        lower, upper = amount - err, amount + err
    bound = (g["bound"] or "").lower()
    if bound:
        lower, upper = (amount, None) if bound in _LOWER_BOUNDS else (None, amount)
    approximate = bool(g["approx"] or g["scale"] or bound or (g["short"] and g["cur"]))
    return WrittenQuantity(amount, g["cur"], lower, upper, step * multiplier, approximate), end, multiplier


@lru_cache(maxsize=65536)
def parse_quantity(text: str) -> WrittenQuantity | None:
    """The quantity a whole string states ("2,075 square kilometre", "$1.5 million", "−12 °C"), or None."""
    if not isinstance(text, str):
        return None
    s = " ".join(text.split()).strip(" ,;")
    m = _QUANTITY_FULL.match(s)
    if not m or len(s) > 80:
        return None
    head = _quantity(m)
    if head is None:
        return None
    q, end, multiplier = head
    rest = s[end:]
    r = _RANGE.match(rest)
    second = _quantity(_QUANTITY_FULL.match(rest, r.start("num"))) if r else None
    if second and q.lower is None and q.upper is None:  # "300–400 metres", "1.5 to 2 million"
        second, second_end, second_multiplier = second
        low, high = sorted((q.amount if multiplier != 1 else q.amount * second_multiplier, second.amount))
        q, rest = WrittenQuantity((low + high) / 2, q.unit_text, low, high, second.step, True), rest[second_end:]
    rest = rest.strip().lstrip("-").strip().rstrip(".")
    if rest and (_DIGIT.search(rest) or len(rest.split()) > 4) and not unit_for_text(rest):
        return None
    return replace(q, unit_text=rest) if rest and (unit_for_text(rest) or not q.unit_text) else q


@lru_cache(maxsize=16384)
def _find_quantities(text: str) -> tuple[tuple[int, int, WrittenQuantity], ...]:
    dates = find_dates_cached(text)
    found = []
    for m in _QUANTITY_IN_TEXT.finditer(text):
        head = _quantity(m)
        if head is None:
            continue
        start, (q, end, _) = m.start(), head
        if m["sign"] and m.start("sign") > 0 and text[m.start("sign") - 1].isalnum():
            continue  # "1990-2000", "COVID-19"
        if start >= 2 and text[start - 1] in "-/–" and text[start - 2].isalnum():
            continue
        if _LEADING_ZERO.match(m["num"]):
            continue  # "075", "007": codes, not amounts
        if any(s < m.end("num") and m.start("num") < e for s, e, _ in dates):
            continue
        unit = unit_at(text, end)
        if unit and not q.unit_text:
            q, end = replace(q, unit_text=text[unit[0]:unit[1]]), unit[1]
        elif end < len(text) and text[end].isalpha():
            continue  # "19th", "3D"
        found.append((start, end, q))
    return tuple(found)


def find_quantities(text: str) -> list[tuple[int, int, WrittenQuantity]]:
    """(start, end, quantity) of every number written inside a sentence that is not part of a date."""
    return list(_find_quantities(text)) if isinstance(text, str) else []


def compare_quantities(claim: WrittenQuantity, claim_unit_id: str | None, graph_amount: float,
                       graph_unit_id: str | None, graph_lower: float | None = None,
                       graph_upper: float | None = None, rel_tol: float = 0.01) -> QuantityMatch:
    """Compare a written quantity with a graph quantity after converting the claim to the graph's unit.

    A claim without a unit is read in the graph's unit ("area 311" means km² when the graph says km²).
    A stated unit that is not known (pass the graph's unit id when its label matches) is INCOMPARABLE.
    """
    unit_id = claim_unit_id
    if unit_id is None and claim.unit_text:
        unit = unit_for_text(claim.unit_text)
        if unit is None:
            return QuantityMatch.INCOMPARABLE
        unit_id = unit.id
    elif unit_id is None:
        unit_id = graph_unit_id  # a bare number
    scale = scale_between(unit_id, graph_unit_id)
    amount = convert(claim.amount, unit_id, graph_unit_id)
    if amount is None or scale is None:
        return QuantityMatch.INCOMPARABLE
    g_low = graph_lower if graph_lower is not None else graph_amount
    g_high = graph_upper if graph_upper is not None else graph_amount
    tolerance = rel_tol * max(abs(graph_amount), abs(amount))
    if claim.lower is not None or claim.upper is not None:
        low = convert(claim.lower, unit_id, graph_unit_id) if claim.lower is not None else float("-inf")
        high = convert(claim.upper, unit_id, graph_unit_id) if claim.upper is not None else float("inf")
        if low - tolerance <= g_high and g_low <= high + tolerance:
            return QuantityMatch.APPROXIMATE if claim.approximate else QuantityMatch.EQUAL
        return QuantityMatch.CONFLICT
    if abs(amount - graph_amount) <= tolerance or g_low <= amount <= g_high:
        return QuantityMatch.EQUAL
    distance = min(abs(amount - g_low), abs(amount - g_high), abs(amount - graph_amount))
    if distance <= claim.step * abs(scale) / 2 and (claim.approximate or distance <= 0.05 * abs(graph_amount)):
        return QuantityMatch.APPROXIMATE
    return QuantityMatch.CONFLICT
