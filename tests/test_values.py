"""Written dates and quantities: parsing, finding in sentences, typed comparison (verifier/values.py)."""
import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.values.units import unit_for_text
from kgcheck.verifier.values import (
    DateMatch, QuantityMatch, WrittenDate, WrittenQuantity, compare_dates, compare_quantities, find_dates,
    find_quantities, format_date, graph_date, parse_date, parse_quantity,
)

SHARED = Path(__file__).resolve().parents[2] / "shared"
CLAIMS = SHARED / "bench" / "claims-dev.jsonl"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# ---------------------------------------------------------------- parse_date

@pytest.mark.parametrize("text, expected", [
    ("1952-03-11", (1952, 3, 11, 11)), ("1952-3-11", (1952, 3, 11, 11)), ("11 March 1952", (1952, 3, 11, 11)),
    ("March 11, 1952", (1952, 3, 11, 11)), ("March 11 1952", (1952, 3, 11, 11)),
    ("11th of March 1952", (1952, 3, 11, 11)), ("the 11th of March, 1952", (1952, 3, 11, 11)),
    ("Mar. 11, 1952", (1952, 3, 11, 11)), ("Sept. 5, 1906", (1906, 9, 5, 11)), ("11.03.1952", (1952, 3, 11, 11)),
    ("1952/03/11", (1952, 3, 11, 11)), ("13/03/1952", (1952, 3, 13, 11)), ("03/13/1952", (1952, 3, 13, 11)),
    ("11/03/1952", (1952, 3, 11, 11)),  # ambiguous: read day first (SLASH_DATES_DAY_FIRST)
    ("Tuesday, 11 March 1952", (1952, 3, 11, 11)), ("on 11 March 1952.", (1952, 3, 11, 11)),
    ("+1952-03-11T00:00:00Z", (1952, 3, 11, 11)), ("+1952-03-00T00:00:00Z", (1952, 3, None, 10)),
    ("+1952-00-00T00:00:00Z", (1952, None, None, 9)), ("-0044-03-15T00:00:00Z", (-44, 3, 15, 11)),
    ("November 1941", (1941, 11, None, 10)), ("Nov 1941", (1941, 11, None, 10)), ("Nov. 1941", (1941, 11, None, 10)),
    ("1941-11", (1941, 11, None, 10)), ("1941", (1941, None, None, 9)), ("c. 1941", (1941, None, None, 9)),
    ("the 1940s", (1940, None, None, 8)), ("1940s", (1940, None, None, 8)), ("1940's", (1940, None, None, 8)),
    ("mid-1990s", (1990, None, None, 8)), ("19th century", (1900, None, None, 7)),
    ("the nineteenth century", (1900, None, None, 7)), ("5th century BC", (-500, None, None, 7)),
    ("2nd millennium", (2000, None, None, 6)), ("AD 330", (330, None, None, 9)), ("330 AD", (330, None, None, 9)),
    ("330 CE", (330, None, None, 9)), ("44 BC", (-44, None, None, 9)), ("44 BCE", (-44, None, None, 9)),
    ("44 B.C.", (-44, None, None, 9)), ("15 March 44 BC", (-44, 3, 15, 11)), ("19 August 14", (14, 8, 19, 11)),
])
def test_parse_date_formats(text, expected):
    assert parse_date(text) == WrittenDate(*expected)


@pytest.mark.parametrize("text", ["", "garbage", "1952-13-01", "31 February 1952", "30 Februar 1952", "March",
                                  "0 BC", "March 11", "11 Marchember 1952", "1952-03-11-12", "12.5 km", "$1,952"])
def test_parse_date_rejects(text):
    assert parse_date(text) is None


# ---------------------------------------------------------------- find_dates

@pytest.mark.parametrize("sentence, spans", [
    ("He was born on 11 March 1952 in Cambridge", ["11 March 1952"]),
    ("born in 1962", ["1962"]),
    ("He died on March 11, 1952, aged 49.", ["March 11, 1952"]),
    ("The war lasted 1939-1945 in Europe", ["1939", "1945"]),
    ("Built in the 1940s and restored in the 19th century.", ["1940s", "19th century"]),
    ("Constantine founded it in 330 AD; Caesar died in 44 BC.", ["330 AD", "44 BC"]),
    ("The area is 311 square kilometres and 1404 square kilometre.", []),
    ("It reached 1500 m in 1901.", ["1901"]),
    ("In 300 cases the Boeing 747-400 landed, COVID-19 aside.", []),
    ("In his 40s he moved; may 2000 people come?", []),
    ("Released on 1952-03-11 and again in November 1960.", ["1952-03-11", "November 1960"]),
    ("It costs $1999 and flight 1066 was late", []),
    ("It was produced by 20th Century Fox in the 20th Century.", ["20th Century"]),  # the studio's name: no date
    ("Art of the 5th century BC Greek world", ["5th century BC"]),
])
def test_find_dates(sentence, spans):
    assert [sentence[s:e] for s, e, _ in find_dates(sentence)] == spans


def test_find_dates_returns_the_parsed_dates():
    (_, _, date), = find_dates("He was born on 11 March 1952 in Cambridge")
    assert date == WrittenDate(1952, 3, 11, 11)


# ---------------------------------------------------------------- graph dates and comparison

def test_graph_date_lowers_precision_for_00():
    assert graph_date("+1952-00-00T00:00:00Z", 11) == WrittenDate(1952, None, None, 9)
    assert graph_date("+1952-03-00T00:00:00Z", 11) == WrittenDate(1952, 3, None, 10)
    assert graph_date("+1952-03-11T00:00:00Z", 9) == WrittenDate(1952, None, None, 9)
    assert graph_date("-13798000000-00-00T00:00:00Z", 3).year == -13798000000
    with pytest.raises(ValueError):
        graph_date("yesterday", 11)


@pytest.mark.parametrize("time, precision, text", [
    ("+1952-03-11T00:00:00Z", 11, "11 March 1952"), ("+1952-03-11T00:00:00Z", 10, "March 1952"),
    ("+1952-03-11T00:00:00Z", 9, "1952"), ("+1945-00-00T00:00:00Z", 8, "1940s"),
    ("+1900-00-00T00:00:00Z", 7, "19th century"), ("+1801-00-00T00:00:00Z", 7, "19th century"),
    ("+2001-00-00T00:00:00Z", 7, "21st century"), ("-0044-00-00T00:00:00Z", 9, "44 BC"),
    ("-0044-03-15T00:00:00Z", 11, "15 March 44 BC"), ("+2000-00-00T00:00:00Z", 6, "2nd millennium"),
    ("+1952-00-00T00:00:00Z", 11, "1952"),
])
def test_format_date(time, precision, text):
    assert format_date(time, precision) == text


@pytest.mark.parametrize("claim, time, precision, expected", [
    ("11 March 1952", "+1952-03-11T00:00:00Z", 11, DateMatch.EQUAL),
    ("1952", "+1952-03-11T00:00:00Z", 11, DateMatch.CLAIM_LESS_PRECISE),
    ("March 1952", "+1952-03-11T00:00:00Z", 11, DateMatch.CLAIM_LESS_PRECISE),
    ("1950s", "+1952-03-11T00:00:00Z", 11, DateMatch.CLAIM_LESS_PRECISE),
    ("1952-03-11", "+1952-00-00T00:00:00Z", 9, DateMatch.CLAIM_MORE_PRECISE),
    ("1952", "+1950-00-00T00:00:00Z", 8, DateMatch.CLAIM_MORE_PRECISE),
    ("1886-05-13", "+1883-05-13T00:00:00Z", 11, DateMatch.CONFLICT),
    ("March 1952", "+1952-04-02T00:00:00Z", 11, DateMatch.CONFLICT),
    ("1844-11-03", "+1844-11-14T00:00:00Z", 11, DateMatch.CONFLICT),
    ("1960s", "+1952-03-11T00:00:00Z", 11, DateMatch.CONFLICT),
    ("19th century", "+1850-00-00T00:00:00Z", 9, DateMatch.CLAIM_LESS_PRECISE),
    ("1901", "+1900-00-00T00:00:00Z", 7, DateMatch.CONFLICT),  # 1901 is in the 20th century
    ("44 BC", "-0044-03-15T00:00:00Z", 11, DateMatch.CLAIM_LESS_PRECISE),
    ("44 AD", "-0044-03-15T00:00:00Z", 11, DateMatch.CONFLICT),
])
def test_compare_dates(claim, time, precision, expected):
    assert compare_dates(parse_date(claim), time, precision) == expected


# ---------------------------------------------------------------- date properties

day_dates = st.builds(lambda y, m, d: (y, m, d), st.integers(1000, 2099), st.integers(1, 12), st.integers(1, 28))
DAY_FORMATS = [
    lambda y, m, d: f"{y}-{m:02d}-{d:02d}", lambda y, m, d: f"{y}-{m}-{d}",
    lambda y, m, d: f"{d} {MONTHS[m - 1]} {y}", lambda y, m, d: f"{MONTHS[m - 1]} {d}, {y}",
    lambda y, m, d: f"{MONTHS[m - 1]} {d} {y}", lambda y, m, d: f"{ordinal(d)} of {MONTHS[m - 1]} {y}",
    lambda y, m, d: f"{MONTHS[m - 1][:3]}. {d}, {y}", lambda y, m, d: f"{d:02d}.{m:02d}.{y}",
    lambda y, m, d: f"{y}/{m:02d}/{d:02d}", lambda y, m, d: f"{d}-{MONTHS[m - 1][:3]}-{y}",
    lambda y, m, d: f"{d}/{m}/{y}" if d > 12 else f"{m}/{d}/{y}" if m > 12 else f"{d}/{m}/{y}",
    lambda y, m, d: f"{m}/{d}/{y}" if d > 12 else f"{d}/{m}/{y}",
]
MONTH_FORMATS = [lambda y, m: f"{MONTHS[m - 1]} {y}", lambda y, m: f"{MONTHS[m - 1][:3]} {y}",
                 lambda y, m: f"{y}-{m:02d}"]
YEAR_FORMATS = [lambda y: f"{y}", lambda y: f"AD {y}", lambda y: f"{y} AD", lambda y: f"{y} CE"]


@given(day_dates, st.sampled_from(range(len(DAY_FORMATS))))
def test_day_formats_round_trip(ymd, which):
    y, m, d = ymd
    assert parse_date(DAY_FORMATS[which](y, m, d)) == WrittenDate(y, m, d, 11)


@given(day_dates, st.sampled_from(range(len(MONTH_FORMATS))), st.sampled_from(range(len(YEAR_FORMATS))))
def test_month_year_decade_century_formats_round_trip(ymd, month_format, year_format):
    y, m, _ = ymd
    assert parse_date(MONTH_FORMATS[month_format](y, m)) == WrittenDate(y, m, None, 10)
    assert parse_date(YEAR_FORMATS[year_format](y)) == WrittenDate(y, None, None, 9)
    assert parse_date(f"{y} BC") == WrittenDate(-y, None, None, 9)
    assert parse_date(f"the {y // 10 * 10}s") == WrittenDate(y // 10 * 10, None, None, 8)
    century = parse_date(f"{ordinal((y - 1) // 100 + 1)} century")
    assert century.precision == 7
    assert compare_dates(century, f"+{y}-00-00T00:00:00Z", 9) == DateMatch.CLAIM_LESS_PRECISE


@given(day_dates, st.sampled_from(range(len(DAY_FORMATS) - 2)))
def test_find_dates_in_a_sentence_round_trips(ymd, which):
    y, m, d = ymd
    written = DAY_FORMATS[which](y, m, d)
    sentence = f"He was born on {written} in Cambridge, and moved in {y + 1}."
    found = find_dates(sentence)
    assert [sentence[s:e] for s, e, _ in found] == [written, str(y + 1)]
    assert found[0][2] == WrittenDate(y, m, d, 11)


graph_dates = st.builds(lambda y, m, d, p: WrittenDate(y, m if p >= 10 else None, d if p >= 11 else None, p),
                        st.integers(-3000, 2100).filter(bool), st.integers(1, 12), st.integers(1, 28),
                        st.sampled_from([11, 10, 9, 8, 7, 6]))


@given(graph_dates)
def test_compare_dates_is_reflexive_and_coarsening_is_consistent(date):
    assert compare_dates(date, date.to_time(), date.precision) == DateMatch.EQUAL
    assert graph_date(date.to_time(), date.precision) == date
    for coarser in range(date.precision - 1, 5, -1):
        claim = graph_date(date.to_time(), coarser)
        assert compare_dates(claim, date.to_time(), date.precision) == DateMatch.CLAIM_LESS_PRECISE
        assert compare_dates(date, claim.to_time(), coarser) == DateMatch.CLAIM_MORE_PRECISE


SWAPPED = {DateMatch.EQUAL: DateMatch.EQUAL, DateMatch.CONFLICT: DateMatch.CONFLICT,
           DateMatch.CLAIM_LESS_PRECISE: DateMatch.CLAIM_MORE_PRECISE,
           DateMatch.CLAIM_MORE_PRECISE: DateMatch.CLAIM_LESS_PRECISE}


@given(graph_dates, graph_dates)
def test_compare_dates_is_symmetric(a, b):
    forward = compare_dates(a, b.to_time(), b.precision)
    assert compare_dates(b, a.to_time(), a.precision) == SWAPPED[forward]
    if a.precision >= 9 and b.precision >= 9 and a.year != b.year:
        assert forward == DateMatch.CONFLICT


# ---------------------------------------------------------------- quantities

@pytest.mark.parametrize("text, amount, unit_text, unit_id", [
    ("311 square kilometre", 311, "square kilometre", "Q712226"),
    ("2,075 square kilometre", 2075, "square kilometre", "Q712226"), ("31,205,576", 31205576, None, None),
    ("1404 square kilometre", 1404, "square kilometre", "Q712226"), ("92 minute", 92, "minute", "Q7727"),
    ("1.5 million", 1.5e6, None, None), ("3.2 billion", 3.2e9, None, None), ("12 km²", 12, "km²", "Q712226"),
    ("12 km2", 12, "km2", "Q712226"), ("5,400 km^2", 5400, "km^2", "Q712226"), ("154 metres", 154, "metres", "Q11573"),
    ("154 m", 154, "m", "Q11573"), ("−12 °C", -12, "°C", "Q25267"), ("-2.20 metre", -2.2, "metre", "Q11573"),
    ("about 300", 300, None, None), ("1 234 567", 1234567, None, None), ("1\u2009234\u2009567", 1234567, None, None),
    ("1\u00a0234", 1234, None, None), ("1.234.567", 1234567, None, None), ("1.234,5", 1234.5, None, None),
    ("1.234", 1.234, None, None), ("$1.5 million", 1.5e6, "$", "Q4917"),
    ("1.5 million US dollars", 1.5e6, "US dollars", "Q4917"), ("45%", 45, "%", "Q11229"),
    ("11,401.09 square kilometre", 11401.09, "square kilometre", "Q712226"), ("2.5e6", 2.5e6, None, None),
    ("US$1.1 million", 1.1e6, "US$", "Q4917"), ("£3bn", 3e9, "£", "Q25224"), ("5 furlongs", 5, "furlongs", None),
])
def test_parse_quantity(text, amount, unit_text, unit_id):
    q = parse_quantity(text)
    assert q.amount == pytest.approx(amount) and q.unit_text == unit_text
    unit = unit_for_text(q.unit_text) if q.unit_text else None
    assert (unit.id if unit else None) == unit_id


def test_parse_quantity_bounds_and_rounding():
    assert parse_quantity("311±2") == WrittenQuantity(311, None, 309, 313, 1.0, False)
    assert parse_quantity("311 ± 2 km").unit_text == "km"
    assert (parse_quantity("more than 300 people").lower, parse_quantity("more than 300 people").upper) == (300, None)
    assert parse_quantity("under 50").upper == 50
    ranged = parse_quantity("300–400 metres")
    assert (ranged.lower, ranged.upper, ranged.unit_text, ranged.approximate) == (300, 400, "metres", True)
    assert parse_quantity("1.5 million").step == pytest.approx(1e5)
    assert parse_quantity("about 300").approximate and parse_quantity("about 300").step == 100
    assert not parse_quantity("31,205,576").approximate and parse_quantity("2.53 km").step == pytest.approx(0.01)


@pytest.mark.parametrize("text", ["", "garbage", "km", "1952-03-11", "12 apples and 14 pears and more stuff", "--"])
def test_parse_quantity_rejects(text):
    assert parse_quantity(text) is None


@pytest.mark.parametrize("sentence, spans", [
    ("The area is 311 square kilometres and 1404 square kilometre.",
     ["311 square kilometres", "1404 square kilometre"]),
    ("Population 31,205,576 in 2011.", ["31,205,576"]),
    ("It is 12km² wide, 45% water, −12 °C in winter", ["12km²", "45%", "−12 °C"]),
    ("With US$1.1 million in grant support", ["US$1.1 million"]),
    ("COVID-19 killed about 1.5 million people in the 21st century", ["about 1.5 million people"]),
    ("He was born on 11 March 1952 and is 1.85 m tall", ["1.85 m"]),
    ("It has 2 075 residents and a 100-metre tower", ["2 075 residents", "100-metre"]),
])
def test_find_quantities(sentence, spans):
    assert [sentence[s:e] for s, e, _ in find_quantities(sentence)] == spans


def test_compare_quantities():
    q = parse_quantity
    assert compare_quantities(q("311 square kilometre"), None, 311.0, "Q712226") == QuantityMatch.EQUAL
    assert compare_quantities(q("311"), None, 311.0, "Q712226") == QuantityMatch.EQUAL  # bare number, graph's unit
    assert compare_quantities(q("120 square miles"), None, 310.8, "Q712226") == QuantityMatch.EQUAL
    assert compare_quantities(q("1.5 million"), None, 1_523_000, None) == QuantityMatch.APPROXIMATE
    assert compare_quantities(q("1.5 million people"), None, 1_523_000, None) == QuantityMatch.APPROXIMATE
    assert compare_quantities(q("1.5 million"), None, 1_623_000, None) == QuantityMatch.CONFLICT
    assert compare_quantities(q("1,259 metre"), None, 2250, "Q11573") == QuantityMatch.CONFLICT
    assert compare_quantities(q("1,500"), None, 1523, None) == QuantityMatch.APPROXIMATE
    assert compare_quantities(q("200"), None, 249, None) == QuantityMatch.CONFLICT  # too far for bare rounding
    assert compare_quantities(q("12 kilograms"), None, 12, "Q11573") == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q("12 furlongs"), None, 12, "Q11573") == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q("12 furlongs"), "Q11573", 12, "Q11573") == QuantityMatch.EQUAL  # caller matched labels
    assert compare_quantities(q("45%"), None, 45, None) == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q("45%"), None, 45, "Q11229") == QuantityMatch.EQUAL
    assert compare_quantities(q("$1.5 million"), None, 1.5e6, "Q4916") == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q("212 °F"), None, 100, "Q25267") == QuantityMatch.EQUAL
    assert compare_quantities(q("313"), None, 311, "Q712226", 309, 314) == QuantityMatch.EQUAL  # graph bounds
    assert compare_quantities(q("311±2"), None, 312, None) == QuantityMatch.EQUAL
    assert compare_quantities(q("more than 300"), None, 350, None) == QuantityMatch.APPROXIMATE
    assert compare_quantities(q("more than 300"), None, 250, None) == QuantityMatch.CONFLICT


def test_compare_quantities_rel_tol_is_a_parameter():
    claim = parse_quantity("1,040 metre")
    assert compare_quantities(claim, None, 1000, "Q11573") == QuantityMatch.CONFLICT
    assert compare_quantities(claim, None, 1000, "Q11573", rel_tol=0.05) == QuantityMatch.EQUAL


SEPARATED = {",": ",", "space": " ", "thin": "\u2009", "nbsp": "\u00a0", "none": ""}
UNIT_WORDS = [("square kilometres", "Q712226"), ("km²", "Q712226"), ("metres", "Q11573"), ("ft", "Q3710"),
              ("kg", "Q11570"), ("°C", "Q25267"), ("hours", "Q25235"), ("%", "Q11229"), ("sq mi", "Q232291")]


def group(n: int, separator: str) -> str:
    text = f"{n:,}"
    return text.replace(",", separator)


@settings(max_examples=200)
@given(st.integers(0, 10**10), st.integers(0, 99), st.booleans(), st.sampled_from(sorted(SEPARATED)),
       st.sampled_from(UNIT_WORDS), st.booleans())
def test_quantities_round_trip(whole, cents, with_decimals, separator, unit, negative):
    written = group(whole, SEPARATED[separator]) + (f".{cents:02d}" if with_decimals else "")
    written = ("−" if negative else "") + written
    expected = (whole + (cents / 100 if with_decimals else 0)) * (-1 if negative else 1)
    q = parse_quantity(f"{written} {unit[0]}")
    assert q.amount == pytest.approx(expected) and unit_for_text(q.unit_text).id == unit[1]
    sentence = f"The value was {written} {unit[0]} in that place."
    (start, end, found), = find_quantities(sentence)
    assert found.amount == pytest.approx(expected) and unit_for_text(found.unit_text).id == unit[1]
    assert compare_quantities(found, None, expected, unit[1]) == QuantityMatch.EQUAL


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.from_regex(r"[\d ,.\-/+−±%$a-zA-Z]{0,30}", fullmatch=True)))
def test_never_raise_on_arbitrary_text(text):
    assert parse_date(text) is None or isinstance(parse_date(text), WrittenDate)
    assert parse_quantity(text) is None or isinstance(parse_quantity(text), WrittenQuantity)
    for start, end, date in find_dates(text):
        assert 0 <= start < end <= len(text) and isinstance(date, WrittenDate)
    for start, end, quantity in find_quantities(text):
        assert 0 <= start < end <= len(text) and isinstance(quantity, WrittenQuantity)


# ---------------------------------------------------------------- real claims

@pytest.mark.shared
@pytest.mark.skipif(not CLAIMS.exists(), reason=f"{CLAIMS} absent (shared data not checked out beside the repo)")
def test_claims_dev_dates_and_quantities():
    rows = [json.loads(line) for line in CLAIMS.open(encoding="utf-8")]
    texts = [(r["kind"], r[f]) for r in rows if r["kind"] in ("date", "quantity") for f in ("object", "correct")
             if f in r]
    parsed = sum((parse_date(t) if kind == "date" else parse_quantity(t)) is not None for kind, t in texts)
    assert parsed / len(texts) >= 0.995, f"parsed {parsed}/{len(texts)}"

    refuted_dates = [r for r in rows if r["kind"] == "date" and r["label"] == "REFUTED" and "correct" in r]
    conflicts = 0
    for r in refuted_dates:
        claim, correct = parse_date(r["object"]), parse_date(r["correct"])
        conflicts += bool(claim and correct) and compare_dates(claim, correct.to_time(), correct.precision) == \
            DateMatch.CONFLICT
    assert conflicts / len(refuted_dates) >= 0.99, f"{conflicts}/{len(refuted_dates)} refuted dates conflict"

    refuted_quantities = [r for r in rows if r["kind"] == "quantity" and r["label"] == "REFUTED" and "correct" in r]
    conflicts = 0
    for r in refuted_quantities:
        claim, correct = parse_quantity(r["object"]), parse_quantity(r["correct"])
        graph_unit = unit_for_text(correct.unit_text).id if correct.unit_text else None
        conflicts += compare_quantities(claim, None, correct.amount, graph_unit) == QuantityMatch.CONFLICT
    assert conflicts / len(refuted_quantities) >= 0.99, f"{conflicts}/{len(refuted_quantities)} refuted quantities"
    # A true value against itself must never conflict.
    for r in refuted_quantities:
        correct = parse_quantity(r["correct"])
        graph_unit = unit_for_text(correct.unit_text).id if correct.unit_text else None
        assert compare_quantities(correct, None, correct.amount, graph_unit) == QuantityMatch.EQUAL
