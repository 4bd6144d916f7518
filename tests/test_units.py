"""Unit table, unit words and conversion (verifier/units.py)."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.values.units import (
    DIMENSIONLESS, UNITS, convert, dimension_of, normalise_unit_text, scale_between, unit_at, unit_by_id,
    unit_for_text,
)


@pytest.mark.parametrize("text, qid", [
    ("metre", "Q11573"), ("meters", "Q11573"), ("metres", "Q11573"), ("m", "Q11573"),
    ("metres above sea level", "Q11573"), ("kilometre", "Q828224"), ("km", "Q828224"), ("kilometers", "Q828224"),
    ("square kilometre", "Q712226"), ("square kilometers", "Q712226"), ("km²", "Q712226"), ("km2", "Q712226"),
    ("km^2", "Q712226"), ("sq km", "Q712226"), ("Km2", "Q712226"), ("kilometres squared", "Q712226"),
    ("square metres", "Q25343"), ("m²", "Q25343"), ("hectares", "Q35852"), ("ha", "Q35852"),
    ("square miles", "Q232291"), ("sq mi", "Q232291"), ("acres", "Q81292"), ("miles", "Q253276"),
    ("feet", "Q3710"), ("ft", "Q3710"), ("inches", "Q218593"), ("centimetres", "Q174728"), ("mm", "Q174789"),
    ("kilograms", "Q11570"), ("kg", "Q11570"), ("grams", "Q41803"), ("tonnes", "Q191118"), ("metric tons", "Q191118"),
    ("pounds", "Q100995"), ("lbs", "Q100995"), ("seconds", "Q11574"), ("minutes", "Q7727"), ("min", "Q7727"),
    ("hours", "Q25235"), ("days", "Q573"), ("years", "Q577"), ("years old", "Q24564698"),
    ("°C", "Q25267"), ("degrees Celsius", "Q25267"), ("℃", "Q25267"), ("° C", "Q25267"),
    ("°F", "Q42289"), ("degrees Fahrenheit", "Q42289"), ("kelvin", "Q11579"), ("K", "Q11579"),
    ("%", "Q11229"), ("percent", "Q11229"), ("per cent", "Q11229"),
    ("$", "Q4917"), ("US dollars", "Q4917"), ("U.S. dollars", "Q4917"), ("USD", "Q4917"),
    ("€", "Q4916"), ("euros", "Q4916"), ("£", "Q25224"), ("pounds sterling", "Q25224"),
    ("km/h", "Q180154"), ("kilometres per hour", "Q180154"), ("m/s", "Q182429"), ("mph", "Q211256"),
    ("litres", "Q11582"), ("liters", "Q11582"), ("cubic metres", "Q25517"), ("m³", "Q25517"),
    ("bytes", "Q8799"), ("kB", "Q79726"), ("megabytes", "Q79735"), ("GB", "Q79738"),
    ("astronomical units", "Q1811"), ("light-years", "Q531"), ("light years", "Q531"),
    ("people", "Q5"), ("inhabitants", "Q5"),
])
def test_unit_for_text(text, qid):
    unit = unit_for_text(text)
    assert unit is not None and unit.id == qid


@pytest.mark.parametrize("text", ["", "   ", "furlongs", "M", "apples", "in", "the", "k"])
def test_unit_for_text_unknown(text):
    assert unit_for_text(text) is None


def test_every_label_and_symbol_resolves_to_its_own_unit():
    symbols = [s for unit in UNITS.values() for s in unit.symbols]
    assert len(symbols) == len(set(symbols)), "a symbol names two units"
    for unit in UNITS.values():
        assert unit_for_text(unit.label) is unit, unit.label
        for symbol in unit.symbols:
            assert unit_for_text(symbol) is unit, symbol


def test_frequent_wikidata_units_are_covered():
    # The brief's list plus the units wd50k uses most (counted from its quantity values).
    wanted = ("Q11573 Q828224 Q712226 Q25343 Q35852 Q232291 Q81292 Q253276 Q3710 Q218593 Q174728 Q174789 Q11570 "
              "Q41803 Q191118 Q100995 Q11574 Q7727 Q25235 Q573 Q577 Q25267 Q42289 Q11579 Q11229 Q4917 Q4916 "
              "Q25224 Q180154 Q182429 Q11582 Q25517 Q8799 Q79726 Q79735 Q79738 Q1811 Q531 "
              "Q24564698 Q25250 Q794261 Q857027 Q4243638 Q5195628 Q28390 Q1092296 Q613726 Q844211 Q39369 Q5")
    assert [q for q in wanted.split() if q not in UNITS] == []


@pytest.mark.parametrize("a, b", [
    ("square kilometers", "square kilometre"), ("Square Kilometres", "square kilometre"), ("km²", "km2"),
    ("meters", "metre"), ("degrees Celsius", "degree Celsius"), ("inches", "inch"), ("feet", "foot"),
    ("sq. miles", "square mile"), ("light-year", "light years"), ("liters", "litre"),
])
def test_normalise_unit_text_equates_spellings(a, b):
    assert normalise_unit_text(a) == normalise_unit_text(b)


def test_normalise_unit_text_keeps_different_units_apart():
    assert normalise_unit_text("square kilometre") != normalise_unit_text("kilometre")
    assert normalise_unit_text("celsius") != normalise_unit_text("fahrenheit")


def test_unit_by_id_accepts_uris_and_rejects_unknown():
    assert unit_by_id("http://www.wikidata.org/entity/Q712226").label == "square kilometre"
    assert unit_by_id("Q99999999") is None
    assert unit_by_id(None) is None and unit_by_id("1") is None


def test_convert_lengths_areas_and_times():
    assert convert(1, "Q828224", "Q11573") == pytest.approx(1000)
    assert convert(1, "Q232291", "Q712226") == pytest.approx(2.589988110336)
    assert convert(100, "Q35852", "Q712226") == pytest.approx(1)
    assert convert(5280, "Q3710", "Q253276") == pytest.approx(1)
    assert convert(90, "Q7727", "Q25235") == pytest.approx(1.5)
    assert convert(18, "Q577", "Q24564698") == pytest.approx(18)


def test_convert_temperatures_with_offsets():
    assert convert(100, "Q25267", "Q42289") == pytest.approx(212)
    assert convert(32, "Q42289", "Q25267") == pytest.approx(0, abs=1e-9)
    assert convert(0, "Q25267", "Q11579") == pytest.approx(273.15)
    assert convert(-40, "Q42289", "Q25267") == pytest.approx(-40)
    assert scale_between("Q25267", "Q42289") == pytest.approx(1.8)


def test_convert_refuses_other_dimensions_and_unknown_units():
    assert convert(1, "Q11573", "Q11570") is None
    assert convert(1, "Q4917", "Q4916") is None  # no exchange rates offline
    assert convert(1, "Q11229", None) is None  # percent is not a plain count
    assert convert(1, "Q99999999", "Q11573") is None
    assert convert(7, "Q99999999", "Q99999999") == 7
    assert convert(5, "Q5", None) == 5 and convert(5, None, "Q199") == 5
    assert dimension_of(None) == DIMENSIONLESS and dimension_of("Q99999999") is None


def test_unit_at_reads_the_longest_unit_after_a_number():
    text = "It covers 311 square kilometres. Height 12km, 45% water, −12 ° C."
    start, end, unit = unit_at(text, text.index("311") + 3)
    assert (text[start:end], unit.id) == ("square kilometres", "Q712226")
    assert unit_at(text, text.index("12km") + 2)[2].id == "Q828224"
    assert unit_at(text, text.index("45") + 2)[2].id == "Q11229"
    assert unit_at(text, text.index("−12") + 3)[2].id == "Q25267"
    assert unit_at("born in 1962 in Paris", 12) is None


_SAME_DIMENSION = [(a.id, b.id) for a in UNITS.values() for b in UNITS.values() if a.dimension == b.dimension]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_SAME_DIMENSION), st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_convert_round_trips(pair, amount):
    there = convert(amount, pair[0], pair[1])
    back = convert(there, pair[1], pair[0])
    assert math.isclose(back, amount, rel_tol=1e-9, abs_tol=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_unit_lookups_never_raise(text):
    unit_for_text(text)
    normalise_unit_text(text)
    unit_at(text, 0)
