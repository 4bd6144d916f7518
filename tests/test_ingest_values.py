"""values.py / rows.py / convert.py: hand-written cases and hypothesis properties."""
from __future__ import annotations

import math
import re

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcheck.ingest.convert import PartWriter, convert_chunk
from kgcheck.ingest.dump import Chunk
from kgcheck.ingest.rows import RowBuffers, SkipEntity, entity_rows, ordered_snaks
from kgcheck.ingest.values import VALUE_COLUMNS, BadValue, format_amount, format_time, snak_columns, split_time

COL = {name: i for i, (name, _) in enumerate(VALUE_COLUMNS)}
WD = "http://www.wikidata.org/entity/"


def value_of(snak: dict) -> dict:
    return dict(zip(COL, snak_columns(snak)))


def dv_snak(vtype: str, value, datatype: str = "x") -> dict:
    return {"snaktype": "value", "property": "P1", "datatype": datatype, "datavalue": {"type": vtype, "value": value}}


# -- hand-written: each value type ---------------------------------------------------------------

def test_entity_value_with_and_without_id():
    assert value_of(dv_snak("wikibase-entityid", {"entity-type": "item", "numeric-id": 5, "id": "Q5"}))["entity_id"] == "Q5"
    old = value_of(dv_snak("wikibase-entityid", {"entity-type": "property", "numeric-id": 31}))
    assert old["entity_id"] == "P31" and old["value_text"] == "P31"


def test_time_value_keeps_wikidata_form_and_renders_precision():
    v = value_of(dv_snak("time", {"time": "+1952-03-11T00:00:00Z", "timezone": 0, "before": 0, "after": 0,
                                  "precision": 11, "calendarmodel": WD + "Q1985727"}))
    assert (v["time"], v["time_precision"], v["time_calendar"], v["value_text"]) == \
        ("+1952-03-11T00:00:00Z", 11, "Q1985727", "1952-03-11")
    assert format_time("+1952-00-00T00:00:00Z", 11) == "1952"  # month and day 00
    assert format_time("+1950-01-01T00:00:00Z", 8) == "1950s"
    assert format_time("+1801-00-00T00:00:00Z", 7) == "19th century"
    assert format_time("-0044-03-15T00:00:00Z", 11) == "44-03-15 BC"
    assert format_time("+2001-01-01T00:00:00Z", 6) == "3rd millennium"


def test_quantity_value_units_and_bounds():
    v = value_of(dv_snak("quantity", {"amount": "+30689", "unit": WD + "Q712226", "lowerBound": "+30688",
                                      "upperBound": "+30690"}))
    assert (v["amount"], v["unit"], v["lower"], v["upper"], v["value_text"]) == \
        (30689.0, "Q712226", 30688.0, 30690.0, "30689 Q712226")
    dimensionless = value_of(dv_snak("quantity", {"amount": "-1.5", "unit": "1"}))
    assert (dimensionless["unit"], dimensionless["lower"], dimensionless["value_text"]) == (None, None, "-1.5")


def test_string_monolingual_coordinate_and_unknown_values():
    assert value_of(dv_snak("string", "113230702"))["string"] == "113230702"
    mono = value_of(dv_snak("monolingualtext", {"text": "Douglas Noël Adams", "language": "en"}))
    assert (mono["string"], mono["language"]) == ("Douglas Noël Adams", "en")
    geo = value_of(dv_snak("globecoordinate", {"latitude": 52.205, "longitude": 0.119, "altitude": None,
                                               "precision": 0.0001, "globe": WD + "Q2"}))
    assert (geo["latitude"], geo["longitude"], geo["coord_precision"], geo["globe"]) == (52.205, 0.119, 0.0001, "Q2")
    unknown = value_of(dv_snak("musical-notation-v2", {"a": [1, 2]}))
    assert orjson.loads(unknown["string"]) == {"a": [1, 2]}  # kept losslessly


@pytest.mark.parametrize("snaktype", ["somevalue", "novalue"])
def test_valueless_snaks(snaktype):
    v = value_of({"snaktype": snaktype, "property": "P40", "datatype": "wikibase-item"})
    assert (v["snaktype"], v["value_type"], v["datatype"], v["value_text"]) == (snaktype, None, "wikibase-item", snaktype)
    assert all(v[c] is None for c in ("entity_id", "string", "time", "amount", "latitude"))


@pytest.mark.parametrize("snak", [
    dv_snak("string", 5),
    dv_snak("time", {"time": "yesterday", "precision": 11}),
    dv_snak("time", {"time": "+2000-01-01T00:00:00Z", "precision": 300}),
    dv_snak("quantity", {"amount": "lots"}),
    dv_snak("wikibase-entityid", {"numeric-id": "five"}),
    dv_snak("globecoordinate", {"latitude": "north", "longitude": 1}),
    {"snaktype": "value", "property": "P1"},
    "not a snak",
])
def test_malformed_values_are_stored_invalid_never_raised(snak):
    v = value_of(snak)
    assert v["invalid"] and v["string"] == v["value_text"]
    assert orjson.loads(v["string"]) in (snak, snak.get("datavalue") if isinstance(snak, dict) else None)
    typed = ("entity_id", "time", "time_precision", "amount", "lower", "upper", "latitude", "longitude")
    assert all(v[c] is None for c in typed)


@pytest.mark.parametrize("value, reason", [
    ({"time": "+1952-13-45T00:00:00Z", "precision": 11}, "month 13"),
    ({"time": "+1952-02-30T00:00:00Z", "precision": 11}, "day 30"),
    ({"time": "+1951-02-29T00:00:00Z", "precision": 11}, "day 29"),
    ({"time": "+1952-00-05T00:00:00Z", "precision": 9}, "day 5"),
    ({"time": "+1952-3-11T00:00:00Z", "precision": 11}, "is not +YYYY"),
    ({"time": "+1952-03-11T10:00:00Z", "precision": 11}, "is not +YYYY"),
    ({"time": "+12345678901234567-01-01T00:00:00Z", "precision": 9}, "is not +YYYY"),
    ({"time": "+1952-03-11T00:00:00Z", "precision": 99}, "precision 99"),
    ({"time": "+1952-03-11T00:00:00Z", "precision": -100}, "precision -100"),
    ({"time": "+1952-03-11T00:00:00Z", "precision": 15}, "precision 15"),
])
def test_times_breaking_the_wikibase_rules_are_invalid(value, reason):
    v = value_of(dv_snak("time", value))
    assert reason in v["invalid"] and v["time"] is None and v["value_type"] == "time"


@pytest.mark.parametrize("value", [
    {"time": "+1952-02-29T00:00:00Z", "precision": 11}, {"time": "-0044-03-15T00:00:00Z", "precision": 11},
    {"time": "+13798000000-00-00T00:00:00Z", "precision": 0}, {"time": "+2000-12-31T00:00:00Z", "precision": 14},
    {"time": "+00000001952-01-00T00:00:00Z", "precision": 10}, {"time": "+1952-01-01T00:00:00Z"},
])
def test_times_within_the_rules_stay_valid(value):
    v = value_of(dv_snak("time", value))
    assert v["invalid"] is None and v["time"] == value["time"]


@pytest.mark.parametrize("vtype, value, reason", [
    ("quantity", {"amount": "NaN"}, "not a decimal"),
    ("quantity", {"amount": "+inf"}, "not a decimal"),
    ("quantity", {"amount": "+1E+400"}, "not a finite"),
    ("quantity", {"amount": "+1", "upperBound": "1e999"}, "upperBound"),
    ("quantity", {"amount": "1_000"}, "not a decimal"),
    ("quantity", {"amount": True}, "bool"),
    ("globecoordinate", {"latitude": 999, "longitude": 1}, "latitude 999"),
    ("globecoordinate", {"latitude": 1, "longitude": -361}, "longitude -361"),
    ("globecoordinate", {"latitude": "nan", "longitude": 1}, "latitude"),
    ("globecoordinate", {"latitude": 1, "longitude": 1, "precision": "1e400"}, "precision"),
])
def test_non_finite_and_out_of_range_numbers_are_invalid(vtype, value, reason):
    v = value_of(dv_snak(vtype, value))
    assert reason in v["invalid"] and v["amount"] is None and v["latitude"] is None


def test_quantities_keep_the_exact_decimal_beside_the_float():
    v = value_of(dv_snak("quantity", {"amount": "+1234567890123456789.125", "unit": WD + "Q11573",
                                      "lowerBound": "+0.890", "upperBound": "+1234567890123456789.500"}))
    assert v["amount"] == 1234567890123456789.125 and v["amount_text"] == "+1234567890123456789.125"
    assert (v["lower_text"], v["upper_text"]) == ("+0.890", "+1234567890123456789.500")
    assert v["value_text"] == "1234567890123456789.125 Q11573" and v["invalid"] is None
    assert value_of(dv_snak("quantity", {"amount": "+0.890"}))["value_text"] == "0.890"


def test_format_amount_never_raises_on_non_finite():
    assert format_amount(float("inf")) == "inf" and format_amount(float("nan")) == "nan"
    assert format_amount(1e20) == "1e+20" and format_amount(12.0) == "12"


# -- hand-written: entity rows ----------------------------------------------------------------------

def test_lexeme_is_skipped_and_empty_maps_as_lists_are_fine():
    with pytest.raises(SkipEntity):
        entity_rows({"type": "lexeme", "id": "L7"}, ("en",), RowBuffers.empty())
    out = RowBuffers.empty()
    entity_rows({"type": "item", "id": "Q1", "labels": {"en": {"language": "en", "value": "x"}},
                 "descriptions": [], "aliases": [], "claims": [], "sitelinks": []}, ("en",), out)
    assert out.entities[0][:4] == ("Q1", "item", "x", None)


def test_language_priority_and_mul_fallback():
    entity = {"type": "item", "id": "Q42",
              "labels": {"mul": {"language": "mul", "value": "Douglas Adams"}, "de": {"language": "de", "value": "DA"}},
              "descriptions": {"mul": {"language": "mul", "value": "author"}}, "claims": {}}
    out = RowBuffers.empty()
    entity_rows(entity, ("en",), out)
    assert out.entities[0][2:4] == ("Douglas Adams", "author")
    out = RowBuffers.empty()
    entity_rows(entity, ("en", "de"), out)
    assert out.entities[0][2] == "DA"
    assert {(r[1], r[2]) for r in out.labels} == {("de", "DA"), ("mul", "Douglas Adams")}


def test_snaks_follow_the_order_list_and_keep_properties_it_omits():
    groups = {"P1": [{"a": 1}], "P2": [{"b": 2}, {"c": 3}], "P3": [{"d": 4}]}
    assert [p for p, _ in ordered_snaks(groups, ["P2", "P1"])] == ["P2", "P2", "P1", "P3"]
    assert [p for p, _ in ordered_snaks(groups, None)] == ["P1", "P2", "P2", "P3"]


def test_a_malformed_statement_leaves_the_buffers_untouched():
    out = RowBuffers.empty()
    bad = {"type": "item", "id": "Q1", "claims": {"P1": [
        {"id": "Q1$a", "mainsnak": dv_snak("string", "fine")},
        {"id": 5, "mainsnak": dv_snak("string", "fine")}]}}
    with pytest.raises(BadValue):
        entity_rows(bad, ("en",), out)
    assert out.size() == 0 and not out.entities


def test_a_bad_value_keeps_its_statement_and_is_reported():
    out = RowBuffers.empty()
    entity = {"type": "item", "id": "Q1", "claims": {"P1": [
        {"id": "Q1$a", "mainsnak": dv_snak("string", "fine")},
        {"id": "Q1$b", "mainsnak": dv_snak("string", {"not": "a string"}),
         "qualifiers": {"P2": [dv_snak("time", {"time": "+1952-13-45T00:00:00Z", "precision": 11})]}}]}}
    assert entity_rows(entity, ("en",), out) == 2
    assert len(out.statements) == 2 and len(out.qualifiers) == 1
    assert [(t, sid, p) for t, sid, p, _ in out.invalid] == [("statements", "Q1$b", "P1"), ("qualifiers", "Q1$b", "P2")]


# -- hypothesis: format_time ----------------------------------------------------------------------

time_parts = st.tuples(st.sampled_from("+-"), st.integers(0, 10**11), st.integers(0, 12), st.integers(0, 31))


def parse_rendered(text: str) -> tuple[int, int | None, int | None]:
    """An independent reading of format_time's output: (signed year, month, day)."""
    bc = text.endswith(" BC")
    body = text[:-3] if bc else text
    m = re.fullmatch(r"(\d+)(?:-(\d{2}))?(?:-(\d{2}))?", body)
    assert m, text
    year = int(m.group(1))
    return (-year if bc else year), m.group(2) and int(m.group(2)), m.group(3) and int(m.group(3))


@given(time_parts, st.one_of(st.none(), st.integers(-5, 20)))
def test_format_time_never_raises_and_round_trips(parts, precision):
    sign, year, month, day = parts
    text = format_time(f"{sign}{year:04d}-{month:02d}-{day:02d}T00:00:00Z", precision)
    assert isinstance(text, str) and text
    signed = -year if sign == "-" and year else year
    assert split_time(f"{sign}{year:04d}-{month:02d}-{day:02d}T00:00:00Z") == (signed, month, day)
    p = 11 if precision is None else precision
    if p >= 9:
        y, m, d = parse_rendered(text)
        assert y == signed
        if p >= 10 and month:
            assert m == month
            if p >= 11 and day:
                assert d == day
        else:
            assert m is None
    elif p == 8:
        assert text.startswith(f"{year // 10 * 10}s")
    elif p in (6, 7):
        assert re.match(r"\d+(st|nd|rd|th) (century|millennium)", text)


@given(st.text(max_size=40), st.one_of(st.none(), st.integers(-200, 200)))
def test_format_time_on_any_text_returns_or_raises_bad_value(text, precision):
    try:
        assert isinstance(format_time(text, precision), str)
    except BadValue:
        pass


# -- hypothesis: quantities -----------------------------------------------------------------------

decimal = st.builds(
    lambda sign, whole, frac: f"{sign}{whole}" + (f".{frac}" if frac else ""),
    st.sampled_from(["+", "-", ""]), st.integers(0, 10**30), st.one_of(st.none(), st.integers(0, 10**12)),
)


@given(decimal, st.one_of(st.none(), st.tuples(decimal, decimal)), st.sampled_from(["1", WD + "Q11573", None]))
def test_quantity_columns_equal_float_of_input(amount, bounds, unit):
    value = {"amount": amount}
    if unit is not None:
        value["unit"] = unit
    if bounds:
        value["lowerBound"], value["upperBound"] = bounds
    v = value_of(dv_snak("quantity", value))
    assert v["amount"] == float(amount)
    assert (v["lower"], v["upper"]) == ((float(bounds[0]), float(bounds[1])) if bounds else (None, None))
    assert v["unit"] == (None if unit in ("1", None) else "Q11573")
    assert math.isfinite(v["amount"]) and v["value_text"]


# -- hypothesis: convert_chunk on random dump lines, garbage included ------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False),
                    st.text(max_size=8), st.sampled_from(["item", "property", "lexeme", "value", "novalue",
                                                          "time", "quantity", "string", "+1.5", "Q5", "P31"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["id", "type", "value", "time", "amount", "precision", "language", "text",
                                     "snaktype", "datavalue", "mainsnak", "P31", "en", "hash", "snaks", "x"]),
                    inner, max_size=4)), max_leaves=12)


def _mutated_entity(draw_value, key_path):
    base = {"type": "item", "id": "Q1", "labels": {"en": {"language": "en", "value": "one"}},
            "claims": {"P31": [{"id": "Q1$1", "rank": "normal", "mainsnak": dv_snak("time", {
                "time": "+2000-01-01T00:00:00Z", "precision": 11}), "qualifiers": {"P580": [dv_snak("quantity", {
                    "amount": "+1"})]}, "references": [{"hash": "h", "snaks": {"P854": [dv_snak("string", "u")]}}]}]}}
    node = base
    for key in key_path[:-1]:
        node = node[key] if isinstance(node, dict) else node[0]
    if isinstance(node, dict):
        node[key_path[-1]] = draw_value
    return base


paths = st.sampled_from([
    ("type",), ("id",), ("labels",), ("labels", "en"), ("claims",), ("claims", "P31"), ("claims", "P31", 0, "id"),
    ("claims", "P31", 0, "mainsnak"), ("claims", "P31", 0, "rank"), ("claims", "P31", 0, "qualifiers"),
    ("claims", "P31", 0, "references"), ("claims", "P31", 0, "mainsnak", "datavalue"),
    ("claims", "P31", 0, "mainsnak", "datavalue", "value"), ("claims", "P31", 0, "mainsnak", "snaktype"),
    ("descriptions",), ("aliases",), ("sitelinks",), ("modified",), ("datatype",),
])
lines = st.one_of(
    st.builds(lambda v, p: orjson.dumps(_mutated_entity(v, p)), json_values, paths),
    st.builds(orjson.dumps, json_values),
    st.binary(max_size=60),
    st.sampled_from([b"[", b"]", b"", b"  ", b"{", b'{"type":"item","id":"Q2","claims":{}}']),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, max_size=12))
def test_convert_chunk_never_raises_and_accounts_for_every_line(tmp_path_factory, raw_lines):
    raw_lines = [line.replace(b"\n", b" ").replace(b"\r", b" ") for line in raw_lines]
    data = b"".join(line + b",\n" for line in raw_lines)
    writer = PartWriter(str(tmp_path_factory.mktemp("parts")), 0)
    stats = convert_chunk(Chunk(data, 1, 0), ("en",), writer)
    non_empty = [line for line in raw_lines if (line + b",").strip() != b","]
    assert stats.lines == len(non_empty)
    assert stats.entities + sum(stats.skipped.values()) + len(stats.errors) + stats.brackets == stats.lines
    assert len(writer.buffers.entities) == stats.entities
    offsets = [sum(len(x) + 2 for x in raw_lines[:i]) for i in range(len(raw_lines))]
    for err in stats.errors:
        assert err["offset"] == offsets[err["line"] - 1]
    writer.flush()  # every accepted row must convert to Arrow: types were checked per line
