"""Fuzzing the ingest over dump lines: a well-formed value snak of every datatype, mutated, placed as
main snak, qualifier and reference of entity lines. Shared by tests/test_fuzz_dump.py (a bounded run
in CI) and bench/fuzz.py (a longer campaign).

`check_dump_lines` asserts, for one chunk of such lines: no exception; every line accounted for (an
entity, a skip, a bad line) and every value stored as invalid reported with its statement id; the
rows convert to Arrow; both row builders (rows.py and the C builder, when built) make the same rows;
and every stored value goes through the readers (row_value, render_value, relate) without raising.
"""
from __future__ import annotations

import copy
import tempfile

import orjson
from hypothesis import strategies as st

from kgcheck.index.render import plain_value, render_value
from kgcheck.index.store import row_value
from kgcheck.ingest import convert
from kgcheck.ingest.convert import PartWriter, convert_chunk
from kgcheck.ingest.dump import Chunk
from kgcheck.ingest.rows import TABLE_COLUMNS
from kgcheck.verifier.claims.compare import ClaimObject, GraphFacts, relate

WD = "http://www.wikidata.org/entity/"

# datatype -> (datavalue type, a well-formed value) as the dumps write them.
WELL_FORMED = {
    "wikibase-item": ("wikibase-entityid", {"entity-type": "item", "numeric-id": 42, "id": "Q42"}),
    "wikibase-property": ("wikibase-entityid", {"entity-type": "property", "numeric-id": 31, "id": "P31"}),
    "wikibase-lexeme": ("wikibase-entityid", {"entity-type": "lexeme", "numeric-id": 7, "id": "L7"}),
    "entity-schema": ("wikibase-entityid", {"entity-type": "entity-schema", "id": "E10"}),
    "string": ("string", "abc"),
    "external-id": ("string", "0000 0001 2103 2683"),
    "url": ("string", "https://example.org/x"),
    "commonsMedia": ("string", "Example.jpg"),
    "math": ("string", "x^2"),
    "musical-notation": ("string", "c'4"),
    "geo-shape": ("string", "Data:Example.map"),
    "tabular-data": ("string", "Data:Example.tab"),
    "time": ("time", {"time": "+1952-03-11T00:00:00Z", "timezone": 0, "before": 0, "after": 0, "precision": 11,
                      "calendarmodel": WD + "Q1985727"}),
    "quantity": ("quantity", {"amount": "+311", "unit": WD + "Q712226", "lowerBound": "+310.5",
                              "upperBound": "+311.5"}),
    "globe-coordinate": ("globecoordinate", {"latitude": 52.205, "longitude": 0.119, "altitude": None,
                                             "precision": 0.001, "globe": WD + "Q2"}),
    "monolingualtext": ("monolingualtext", {"text": "Cambridge", "language": "en"}),
}
DATATYPES = tuple(WELL_FORMED)

# Values at the edges of what the parsers and the Wikibase rules accept.
EDGE_VALUES = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 15, 99, -100, 2**31, -2**31 - 1, 2**63 - 1, 10**30, 1e308, -0.0, 0.5,
                     "", " ", "+inf", "-inf", "NaN", "+1E+400", "1e-400", "1_000", " 5", "+.5", "5.", "0x10",
                     "+1952-13-45T00:00:00Z", "+1952-3-11T00:00:00Z", "+1951-02-29T00:00:00Z",
                     "+1952-02-29T00:00:00Z", "+1952-00-05T00:00:00Z", "+1952-03-11T10:00:00Z",
                     "-0044-03-15T00:00:00Z", "+13798000000-00-00T00:00:00Z", "+12345678901234567-01-01T00:00:00Z",
                     "+1234567890123456789.125", "-0.000000000000000000001", "+0.890", "1", WD, WD + "Q11573",
                     "Q42", "P31", "x" * 300, "é", "\u0663", "a\u0000b", "\U0001F600", [], {}, [1], {"id": "Q1"}]),
    st.integers(-2**70, 2**70), st.floats(allow_nan=False), st.text(max_size=12),
    st.text(alphabet="+-0123456789TZ:.eE", max_size=26))


@st.composite
def _mutated_text(draw, text: str) -> str:
    """One character of `text` replaced, inserted or deleted."""
    if not text:
        return draw(st.text(max_size=3))
    i = draw(st.integers(0, len(text) - 1))
    c = draw(st.sampled_from("+-0123456789TZ:.e x"))
    op = draw(st.sampled_from(["replace", "insert", "delete"]))
    return text[:i] + ("" if op == "delete" else c) + text[i + (op != "insert"):]


@st.composite
def value_snaks(draw, prop: str = "P1") -> dict:
    """A well-formed snak of a drawn datatype, then 0-3 mutations of its value, type or snak type."""
    datatype = draw(st.sampled_from(DATATYPES))
    vtype, value = WELL_FORMED[datatype]
    snak = {"snaktype": "value", "property": prop, "datatype": datatype,
            "datavalue": {"type": vtype, "value": copy.deepcopy(value)}}
    for _ in range(draw(st.integers(0, 3))):
        dv = snak.get("datavalue")
        kind = draw(st.sampled_from(["field", "field", "field", "text", "drop-field", "value", "type", "snaktype",
                                     "drop-datavalue", "datatype"]))
        v = dv.get("value") if isinstance(dv, dict) else None
        if kind in ("field", "text", "drop-field") and isinstance(v, dict) and v:
            key = draw(st.sampled_from(sorted(v)))
            if kind == "field":
                v[key] = draw(EDGE_VALUES)
            elif kind == "text" and isinstance(v[key], str):
                v[key] = draw(_mutated_text(v[key]))
            elif kind == "drop-field":
                del v[key]
        elif kind == "text" and isinstance(v, str):
            dv["value"] = draw(_mutated_text(v))
        elif kind == "value" and isinstance(dv, dict):
            dv["value"] = draw(EDGE_VALUES)
        elif kind == "type" and isinstance(dv, dict):
            dv["type"] = draw(st.one_of(st.sampled_from(sorted({t for t, _ in WELL_FORMED.values()})), EDGE_VALUES))
        elif kind == "snaktype":
            snak["snaktype"] = draw(st.one_of(st.sampled_from(["somevalue", "novalue", "value"]), EDGE_VALUES))
        elif kind == "drop-datavalue":
            snak.pop("datavalue", None)
        elif kind == "datatype":
            snak["datatype"] = draw(EDGE_VALUES)
    return snak


@st.composite
def entity_lines(draw) -> bytes:
    """One dump line: an item whose statements hold mutated snaks as main snak, qualifier, reference."""
    n = draw(st.integers(1, 3))
    qid = f"Q{draw(st.integers(1, 5))}"
    claims = {}
    for i in range(n):
        prop = f"P{draw(st.integers(1, 4))}"
        st_ = {"id": f"{qid}${i}", "rank": draw(st.sampled_from(["normal", "preferred", "deprecated"])),
               "type": "statement", "mainsnak": draw(value_snaks(prop))}
        if draw(st.booleans()):
            st_["qualifiers"] = {"P580": [draw(value_snaks("P580"))]}
            st_["qualifiers-order"] = ["P580"]
        if draw(st.booleans()):
            st_["references"] = [{"hash": "h", "snaks": {"P854": [draw(value_snaks("P854"))]},
                                  "snaks-order": ["P854"]}]
        claims.setdefault(prop, []).append(st_)
    entity = {"type": "item", "id": qid, "labels": {"en": {"language": "en", "value": f"thing {qid}"}},
              "claims": claims, "modified": "2024-01-01T00:00:00Z"}
    try:
        return orjson.dumps(entity)
    except (TypeError, orjson.JSONEncodeError):  # a lone surrogate: JSON orjson will not write
        return orjson.dumps({"type": "item", "id": qid, "claims": {}})


dump_chunks = st.lists(st.one_of(entity_lines(), entity_lines(), st.binary(max_size=40)), min_size=1, max_size=6)


class _NoFacts(GraphFacts):
    def names(self, eid):
        return set()

    def ancestors(self, eid):
        return set()

    def label(self, eid):
        return None


_CLAIMS = [ClaimObject(t) for t in ("100", "311", "11 March 1952", "1952", "Cambridge", "52.2, 0.12", "")]
_VALUE_START = {"statements": 7, "qualifiers": 4, "references": 6}


def _convert(lines: list[bytes], native: bool):
    with tempfile.TemporaryDirectory() as parts:
        writer = PartWriter(parts, 0, 10**9, ("en",) if native else None)
        data = b"".join(line.replace(b"\n", b" ").replace(b"\r", b" ") + b",\n" for line in lines)
        stats = convert_chunk(Chunk(data, 1, 0), ("en",), writer)
        tables = writer.tables()
        return data, stats, {name: (t.to_pylist() if t is not None else []) for name, t in tables.items()}


def check_dump_lines(lines: list[bytes]) -> None:
    """One fuzz case: see the module docstring. Raises AssertionError (or whatever broke) on a failure."""
    data, stats, tables = _convert(lines, native=False)
    stripped = (x.strip() for x in data.split(b"\n"))
    non_empty = [x for x in stripped if (x[:-1] if x.endswith(b",") else x)]  # as convert_chunk cuts lines
    assert stats.lines == len(non_empty)
    assert stats.entities + sum(stats.skipped.values()) + sum(stats.bad_lines.values()) + stats.brackets == stats.lines
    assert len(tables["entities"]) == stats.entities
    invalid_rows = [(name, r["statement_id"]) for name in _VALUE_START for r in tables[name] if r["invalid"]]
    assert sorted(invalid_rows) == sorted((e["table"], e["statement_id"]) for e in stats.invalid)
    assert sum(stats.invalid_values.values()) == len(invalid_rows)
    if convert.native_available():
        _, c_stats, c_tables = _convert(lines, native=True)
        for field in ("lines", "entities", "statements", "skipped", "bad_lines", "errors", "invalid"):
            assert getattr(c_stats, field) == getattr(stats, field), field
        for name in tables:
            assert sorted(map(repr, c_tables[name])) == sorted(map(repr, tables[name])), name
    facts = _NoFacts()
    for name, start in _VALUE_START.items():
        columns = [c for c, _ in TABLE_COLUMNS[name]]
        for row in tables[name]:
            value = row_value(tuple(row[c] for c in columns), start)
            render_value(value, {})
            plain_value(value, {})
            for claim in _CLAIMS:
                relate(claim, value, facts)
