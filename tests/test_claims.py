"""Reading claim files of every format into Claims, with one BadClaim per bad line (verifier/claims.py)."""
import io
import itertools
import json
import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcheck.verifier.formats.base import make_claim
from kgcheck.verifier.formats.readers import parse_claim_dict, read_claims, wikidata_id
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.model import BadClaim, Claim

SHARED = Path(__file__).resolve().parents[2] / "shared"
CLAIMS_DEV = SHARED / "bench" / "claims-dev.jsonl"


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return str(path)


def read(tmp_path: Path, name: str, text: str | bytes, fmt: str | None = None) -> list[Claim | BadClaim]:
    return list(read_claims(write(tmp_path, name, text), fmt))


def spo(item: Claim) -> tuple:
    return item.subject, item.predicate, item.object


# ---------------------------------------------------------------- JSONL

@pytest.mark.shared
def test_claims_dev_first_100_lines_are_read_as_they_are(tmp_path):
    if not CLAIMS_DEV.exists():
        pytest.skip(f"shared benchmark absent: {CLAIMS_DEV}")
    with CLAIMS_DEV.open("rb") as f:
        head = b"".join(itertools.islice(f, 100))
    items = read(tmp_path, "dev.jsonl", head)
    originals = [json.loads(line) for line in head.splitlines()]
    assert len(items) == 100 and all(isinstance(item, Claim) for item in items)
    for n, (item, o) in enumerate(zip(items, originals), 1):
        assert (item.id, item.subject, item.predicate, item.object) == (o["id"], o["subject"], o["predicate"],
                                                                         o["object"])
        assert (item.subject_id, item.property_id, item.object_id) == (o["subject_id"], o["property_id"],
                                                                        o.get("object_id"))
        assert item.kind == o["kind"] and item.source_line == n and item.qualifiers == ()


def test_generic_keys_ids_in_text_and_defaults(tmp_path):
    lines = [
        {"s": "Douglas Adams", "p": "place of birth", "o": "Cambridge"},
        {"subject": "Q42", "predicate": "P569", "object": "1952-03-11"},
        {"subject": "http://www.wikidata.org/entity/Q42", "predicate": "wdt:P19", "object": "wd:Q350"},
        {"subject": "<http://www.wikidata.org/entity/Q42>", "predicate": "http://www.wikidata.org/prop/direct/P19",
         "object": "Cambridge", "object_id": "Q350", "id": "mine"},
        {"subject_id": "Q42", "property_id": "P1082", "object": 31205576, "kind": "Quantity"},
        {"sub_label": "Bayard Rustin", "rel_label": "ethnic group", "obj_label": "African Americans",
         "sub": "Q187930", "rel": "P172", "obj": "Q49085", "sent": "ignored"},
    ]
    items = read(tmp_path, "c.jsonl", "\n".join(json.dumps(line) for line in lines) + "\n")
    assert [item.id for item in items] == ["line-1", "line-2", "line-3", "mine", "line-5", "line-6"]
    assert spo(items[0]) == ("Douglas Adams", "place of birth", "Cambridge")
    assert (items[0].subject_id, items[0].property_id, items[0].object_id, items[0].kind) == (None,) * 4
    assert spo(items[1]) == ("Q42", "P569", "1952-03-11")  # the id stays as text: labels are resolved later
    assert (items[1].subject_id, items[1].property_id, items[1].object_id) == ("Q42", "P569", None)
    assert spo(items[2]) == ("Q42", "P19", "Q350")
    assert (items[2].subject_id, items[2].property_id, items[2].object_id, items[2].kind) == ("Q42", "P19", "Q350",
                                                                                             "entity")
    assert (items[3].subject_id, items[3].property_id, items[3].object, items[3].object_id) == ("Q42", "P19",
                                                                                                "Cambridge", "Q350")
    assert spo(items[4]) == ("Q42", "P1082", "31205576") and items[4].kind == "quantity"
    assert (items[5].subject, items[5].subject_id, items[5].property_id, items[5].object_id) == (
        "Bayard Rustin", "Q187930", "P172", "Q49085")
    assert [item.source_line for item in items] == [1, 2, 3, 4, 5, 6]


def test_a_predicate_that_is_not_a_property_id_stays_text():
    claim = parse_claim_dict({"subject": "Paris", "predicate": "Q42", "object": "P123"}, 1)
    assert (claim.predicate, claim.property_id, claim.object, claim.object_id) == ("Q42", None, "P123", "P123")
    assert wikidata_id("Q0") is None and wikidata_id("Quebec") is None and wikidata_id("wd:q42") == "Q42"


def test_qualifiers_as_objects_pairs_and_a_mapping():
    as_objects = parse_claim_dict({"s": "Assam", "p": "population", "o": "31,205,576", "qualifiers": [
        {"predicate": "point in time", "object": "2011"}, {"property": "P459", "value": "census"}]}, 3)
    as_pairs = parse_claim_dict({"s": "Assam", "p": "population", "o": "31,205,576",
                                 "qualifiers": [["point in time", 2011], ["P459", "census"]]}, 3)
    as_mapping = parse_claim_dict({"s": "Assam", "p": "population", "o": "31,205,576",
                                   "qualifiers": {"point in time": "2011", "P459": "census"}}, 3)
    assert as_objects.qualifiers == as_pairs.qualifiers == as_mapping.qualifiers == (
        ("point in time", "2011"), ("P459", "census"))


@pytest.mark.parametrize("obj, message", [
    (["Douglas Adams", "birth place", "Cambridge"], "must be a JSON object"),
    ({"subject": "Douglas Adams", "predicate": "birth place"}, "missing or empty object"),
    ({"subject": " ", "predicate": "", "object": "x"}, "missing or empty subject and predicate"),
    ({"subject": {"x": 1}, "predicate": "p", "object": "o"}, "subject must be text"),
    ({"s": "a", "p": "b", "o": "c", "subject_id": "Douglas"}, "subject_id 'Douglas' is not a Wikidata id"),
    ({"s": "a", "p": "b", "o": "c", "property_id": "Q5"}, "property_id 'Q5' is not a Wikidata id like P42"),
    ({"s": "a", "p": "b", "o": "c", "kind": "colour"}, "unknown kind 'colour'"),
    ({"s": "a", "p": "b", "o": "c", "qualifiers": [["only one"]]}, "qualifier 1 must be"),
    ({"s": "a", "p": "b", "o": "c", "qualifiers": [{"predicate": "point in time"}]}, "qualifier 1 has an empty"),
    ({"s": "a", "p": "b", "o": "c", "qualifiers": "[not json"}, "qualifiers is not valid JSON"),
])
def test_parse_claim_dict_errors_are_clear(obj, message):
    with pytest.raises(VerifierError, match=re.escape(message)):
        parse_claim_dict(obj, 1)


def test_bad_jsonl_lines_become_bad_claims_in_sequence(tmp_path):
    text = ('{"id": "a", "s": "x", "p": "y", "o": "z"}\n'
            "\n# a comment\n"
            '{"id": "b", "s": "x", "p": "y"\n'          # 4: bad JSON
            '["x", "y", "z"]\n'                          # 5: not an object
            '{"id": "c", "s": "x", "p": "", "o": "z"}\n'  # 6: empty predicate
            '{"s": "x", "p": "y", "o": "z"}\n')          # 7
    items = read(tmp_path, "c.jsonl", text)
    assert [(type(item).__name__, item.id) for item in items] == [
        ("Claim", "a"), ("BadClaim", "line-4"), ("BadClaim", "line-5"), ("BadClaim", "c"), ("Claim", "line-7")]
    assert [item.line for item in items[1:4]] == [4, 5, 6]
    assert items[1].error.startswith("invalid JSON") and items[1].raw == '{"id": "b", "s": "x", "p": "y"'
    assert "must be a JSON object" in items[2].error and "missing or empty predicate" in items[3].error


def test_long_bad_line_raw_is_cut_to_200_chars(tmp_path):
    [bad] = read(tmp_path, "c.jsonl", "{" + "x" * 5000 + "\n")
    assert isinstance(bad, BadClaim) and len(bad.raw) == 200


def test_json_array_file(tmp_path):
    text = json.dumps([{"s": "Douglas Adams", "p": "birth place", "o": "Cambridge"}, "oops",
                       {"id": "x", "s": "Q42", "p": "P19", "o": "Q350"}], indent=2)
    items = read(tmp_path, "c.json", text)
    assert [type(item).__name__ for item in items] == ["Claim", "BadClaim", "Claim"]
    assert items[0].id == "line-1" and items[1].line == 2 and "item 2" in items[1].error and items[2].id == "x"


def test_duplicate_ids_are_kept_and_renamed(tmp_path):
    text = "\n".join(json.dumps({"id": claim_id, "s": "a", "p": "b", "o": "c"}) for claim_id in
                     ["a", "a", "b", "a", "a#2", "line-1"])
    assert [item.id for item in read(tmp_path, "c.jsonl", text)] == ["a", "a#2", "b", "a#3", "a#2#2", "line-1"]
    # an explicit id equal to an earlier line's default id is renamed too, and the other way round
    text = "\n".join([json.dumps({"s": "a", "p": "b", "o": "c"}), json.dumps({"id": "line-1", "s": "a", "p": "b",
                                                                              "o": "c"}),
                      json.dumps({"id": "line-4", "s": "a", "p": "b", "o": "c"}), json.dumps({"s": "a", "p": "b",
                                                                                              "o": "c"})])
    assert [item.id for item in read(tmp_path, "d.jsonl", text)] == ["line-1", "line-1#2", "line-4", "line-4#2"]


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.sampled_from([None, "a", "a#2", "line-1", "line-2", "line-3", "line-03", "line-0"]),
                    max_size=8))
def test_ids_come_out_unique_whatever_the_input(ids):
    lines = [json.dumps({"s": "a", "p": "b", "o": "c"} | ({} if claim_id is None else {"id": claim_id}))
             for claim_id in ids]
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(lines).encode())
    try:
        items = list(read_claims(f.name))
    finally:
        Path(f.name).unlink()
    assert len({item.id for item in items}) == len(items) == len(ids)
    for n, (item, given_id) in enumerate(zip(items, ids), 1):
        base = given_id or f"line-{n}"
        assert item.id == base or re.fullmatch(re.escape(base) + r"(#\d+)+", item.id)


def test_byte_order_mark_is_ignored(tmp_path):
    [item] = read(tmp_path, "c.jsonl", b'\xef\xbb\xbf{"s": "a", "p": "b", "o": "c"}\n')
    assert isinstance(item, Claim) and item.subject == "a"


def test_fast_claim_equals_the_dataclass():
    values = ("c1", "Douglas Adams", "birth place", "Cambridge", "Q42", "P19", "Q350", (("a", "b"),), "entity", 3)
    fast, normal = make_claim(*values), Claim(*values)
    assert fast == normal and hash(fast) == hash(normal) and repr(fast) == repr(normal)
    with pytest.raises(AttributeError):
        fast.subject = "x"  # still frozen


# ---------------------------------------------------------------- CSV / TSV

def test_csv_with_quoted_fields_qualifiers_and_case_insensitive_header(tmp_path):
    text = ('\ufeffID,Subject,Predicate,Object,Subject_ID,Qualifiers,label\n'
            'c1,Douglas Adams,place of birth,"Cambridge, England",Q42,,SUPPORTED\n'
            'c2,Assam,population,"31,205,576",Q1164,"[{""predicate"": ""point in time"", ""object"": ""2011""}]",\n'
            '\n'
            'c3,"Multi\nline",described by,x,,,\n'
            'c4,too,few\n'
            'c5,Berlin,capital of,Germany,Q64,,REFUTED\n')
    items = read(tmp_path, "c.csv", text)
    assert [(type(item).__name__, item.id) for item in items] == [
        ("Claim", "c1"), ("Claim", "c2"), ("Claim", "c3"), ("BadClaim", "line-7"), ("Claim", "c5")]
    assert spo(items[0]) == ("Douglas Adams", "place of birth", "Cambridge, England") and items[0].subject_id == "Q42"
    assert items[1].qualifiers == (("point in time", "2011"),) and items[1].object == "31,205,576"
    assert items[2].subject == "Multi\nline" and items[2].source_line == 5
    assert items[3].line == 7 and "expected 7 fields" in items[3].error and items[3].raw == "c4,too,few"
    assert items[4].source_line == 8


def test_csv_s_p_o_header_and_tsv(tmp_path):
    items = read(tmp_path, "c.csv", "s,p,o\nQ42,P19,Q350\n")
    assert (items[0].subject_id, items[0].property_id, items[0].object_id) == ("Q42", "P19", "Q350")
    items = read(tmp_path, "c.tsv", 'subject\tpredicate\tobject\tid\nDouglas Adams\tbirth place\t"Cambridge"\tt1\n'
                                    "a\tb\n")
    assert spo(items[0]) == ("Douglas Adams", "birth place", "Cambridge") and items[0].id == "t1"
    assert isinstance(items[1], BadClaim) and items[1].line == 3


def test_csv_wrong_columns_is_one_error_for_the_file(tmp_path):
    path = write(tmp_path, "c.csv", "name,relation,value\na,b,c\n")
    with pytest.raises(VerifierError, match=r"wrong columns in .*found name, relation, value; need subject"):
        read_claims(path)


def test_csv_bad_bytes_and_bad_rows_are_reported_per_row(tmp_path):
    items = read(tmp_path, "c.csv", b"subject,predicate,object\na,b,\xff\xfe\nc,,e\nf,g,h\n")
    assert [(type(item).__name__, item.id) for item in items] == [("BadClaim", "line-2"), ("BadClaim", "line-3"),
                                                                  ("Claim", "line-4")]
    assert items[0].error == "not valid UTF-8" and "missing or empty predicate" in items[1].error


# ---------------------------------------------------------------- files, formats, detection

@pytest.mark.parametrize("name", ["c.jsonl", "c.csv", "c.tsv", "c.nt", "c.txt"])
def test_empty_files_yield_nothing(tmp_path, name):
    assert read(tmp_path, name, "") == [] and read(tmp_path, name, "\n  \n# only a comment\n") == []


def test_missing_file_directory_and_unknown_format(tmp_path):
    with pytest.raises(VerifierError, match="no such claims file: .*nope.jsonl"):
        read_claims(str(tmp_path / "nope.jsonl"))
    with pytest.raises(VerifierError, match="cannot read claims file"):
        read_claims(str(tmp_path))
    with pytest.raises(VerifierError, match="unknown claims format 'xml'"):
        read_claims(write(tmp_path, "c.jsonl", "{}"), "xml")
    with pytest.raises(VerifierError, match="cannot tell the format"):
        read_claims(write(tmp_path, "c.txt", "Douglas Adams was born in Cambridge\n"))


@pytest.mark.parametrize("text, fmt", [
    ('{"s": "a", "p": "b", "o": "c"}\n', "jsonl"), ('# x\n<http://x/a> <http://x/b> "c" .\n', "nt"),
    ("dbr:a dbo:b dbr:c .\n", "nt"), ("subject\tpredicate\tobject\na\tb\tc\n", "tsv"),
    ("subject,predicate,object\na,b,c\n", "csv"),
])
def test_format_is_detected_from_the_first_line(tmp_path, text, fmt):
    items = read(tmp_path, "claims.txt", text)
    assert len(items) == 1 and isinstance(items[0], Claim) and spo(items[0])[1] == "b"
    assert items == read(tmp_path, f"claims.{fmt}", text) == read(tmp_path, "claims.dat", text, fmt)


def test_extension_decides_over_content(tmp_path):
    [item] = read(tmp_path, "c.ndjson", "dbr:a dbo:b dbr:c .\n")
    assert isinstance(item, BadClaim) and item.error.startswith("invalid JSON")


def test_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"s": "a", "p": "b", "o": "c"}\n')))
    [item] = read_claims("-")
    assert spo(item) == ("a", "b", "c")


# ---------------------------------------------------------------- properties: never raises, one item a line

_LINE = st.text(st.characters(blacklist_characters="\n\ufeff", blacklist_categories=("Cs",)), max_size=60)
_JSONISH = st.sampled_from(['{"s": "a", "p": "b", "o": "c"}', '{"s": "Q1", "p": "P2", "o": ""}', '{"id": "x"',
                            "dbr:A dbo:b dbr:C .", '"x" <y> "z"', "# c", "```", "  ", '{"qualifiers": [1]}'])
_DIRECTIVE = re.compile(r"(?i)@?(prefix|base)\s")


def _claim_lines(lines: list[str], fmt: str) -> list[int]:
    """Line numbers that must give one item each: not blank, not a comment or fence (nor, in N-Triples, a directive)."""
    keep = []
    for n, line in enumerate(lines, 1):
        stripped = line.encode().strip()
        if stripped and not stripped.startswith((b"#", b"```")) and not (fmt == "nt" and _DIRECTIVE.match(
                stripped.decode())):
            keep.append(n)
    return keep


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(_LINE, _JSONISH), max_size=12), fmt=st.sampled_from(["jsonl", "nt"]))
def test_any_text_gives_one_item_per_claim_line_and_never_raises(lines, fmt):
    expected = _claim_lines(lines, fmt)
    if fmt == "jsonl" and expected and lines[expected[0] - 1].strip().startswith("["):
        return  # a file opening with '[' is read as one JSON array (documented), not line by line
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines).encode())
    try:
        items = list(read_claims(f.name, fmt))
    finally:
        Path(f.name).unlink()
    assert [item.source_line if isinstance(item, Claim) else item.line for item in items] == expected
    assert len({item.id for item in items}) == len(items)
    assert all(len(item.raw) <= 200 for item in items if isinstance(item, BadClaim))


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(_LINE.filter(lambda line: '"' not in line and "\r" not in line), max_size=10))
def test_csv_rows_without_quotes_give_one_item_each(rows):
    with tempfile.NamedTemporaryFile("wb", suffix=".csv", delete=False) as f:
        f.write("\n".join(["subject,predicate,object", *rows]).encode())
    try:
        items = list(read_claims(f.name))
    finally:
        Path(f.name).unlink()
    cells = [row.split(",") for row in rows]  # rows of empty cells (",,") are blank rows, as in spreadsheets
    expected = [n + 2 for n, row in enumerate(cells) if any(map(str.strip, row)) and not row[0].lstrip()[:1] == "#"]
    assert [item.source_line if isinstance(item, Claim) else item.line for item in items] == expected


_JSON_VALUE = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                       max_size=3), max_leaves=6)
_KEYS = st.sampled_from(["s", "p", "o", "subject", "predicate", "object", "subject_id", "property_id", "object_id",
                         "qualifiers", "kind", "id", "sub", "rel_label", "value"])


@settings(max_examples=300, deadline=None)
@given(obj=st.dictionaries(_KEYS, _JSON_VALUE | st.sampled_from(["Q42", "P19", "wd:Q5", ""]), max_size=8))
def test_parse_claim_dict_returns_a_claim_or_raises_verifier_error(obj):
    try:
        claim = parse_claim_dict(obj, 7)
    except VerifierError:
        return
    assert claim.subject and claim.predicate and claim.object and claim.source_line == 7


# ---------------------------------------------------------------- streaming and speed

def _write_claim_lines(path: Path, count: int, with_ids: bool = False) -> None:
    with path.open("wb") as f:
        for n in range(count):
            claim = {"subject": f"Person {n}", "predicate": "date of birth", "object": "11 March 1952",
                     "subject_id": f"Q{n + 1}", "property_id": "P569", "kind": "date"}
            f.write(orjson.dumps({"id": f"c{n}", **claim} if with_ids else claim) + b"\n")


def test_200k_lines_stream_in_small_memory(tmp_path):
    path = tmp_path / "big.jsonl"
    _write_claim_lines(path, 200_000)
    tracemalloc.start()
    try:
        count = sum(1 for item in read_claims(str(path)) if isinstance(item, Claim))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 200_000
    assert peak < 2_000_000, f"peak {peak / 1e6:.1f} MB: claims are being kept"  # a list of them is ~100 MB


def _timed(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start
