"""Fuzzing `check` over claim files and the HTTP API over request bodies. Shared by
tests/test_fuzz_claims.py (a bounded run in CI) and bench/fuzz_claims.py (a longer campaign).

`check_claim_file(kg, (fmt, lines))`: a file of mutated claim lines (JSONL, CSV or N-Triples) through the
bulk checker into an output file, twice (the second run resumes). Asserts: no exception but a one-line
VerifierError for the file as a whole; every claim line gives exactly one output record (a verdict or an
error record), with unique ids; the resumed run adds nothing; the source file is never modified; an
output that is the input is refused and leaves it as it was.

`check_http(client, request)`: a request of random or mutated method, path, content type and body.
Asserts: never a 500, always a JSON answer, an {"error"} for every 4xx/5xx.
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from urllib.parse import quote

import orjson
from hypothesis import strategies as st

from kgcheck.verifier.claims.bulk import run_bulk
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.readers import read_claims

SEEDS = {
    "jsonl": ['{"subject": "Douglas Adams", "predicate": "date of birth", "object": "11 March 1952"}',
              '{"id": "c1", "subject_id": "Q31", "property_id": "P36", "object": "Brussels"}',
              '{"s": "Belgium", "p": "population", "o": "12 million", "qualifiers": [["point in time", "2019"]]}',
              '{"subject": "Douglas Adams", "predicate": "place of birth", "object": "Cambridge", "kind": "entity"}',
              '{"subject": "Belgium", "predicate": "area", "object": "30689 km2"}'],
    "csv": ["Douglas Adams,date of birth,1952", 'Belgium,capital,"Brussels, City of"', "Q42,P19,Q350",
            "Belgium,population,12e6", "Douglas Adams,place of death,Santa Barbara"],
    "nt": ["dbr:Douglas_Adams dbo:birthPlace dbr:Cambridge .",
           'dbr:Douglas_Adams dbo:birthDate "1962-03-11"^^xsd:date .',
           "<http://www.wikidata.org/entity/Q31> <http://www.wikidata.org/prop/direct/P36> "
           "<http://www.wikidata.org/entity/Q239> .",
           '<http://www.wikidata.org/entity/Q42> <http://www.wikidata.org/prop/direct/P1082> "12"@en .'],
}
HEADER = {"csv": "subject,predicate,object"}
ODD = ["\\ud83d", "\ud83d\ude42", "\x00", "\u202e", "\ufeff", "NaN", "1e400", "-0", "[", "{", '"', "\\", ",", ".",
       "<", "> .", "\t", "#", "```", "Q", "P", "wd:Q42", "" + "x" * 300]
_TEXT = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=12)


@st.composite
def mutated_line(draw, fmt: str) -> str:
    line = draw(st.sampled_from(SEEDS[fmt]))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(line)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "odd"]))
        if op == "insert":
            line = line[:at] + draw(_TEXT) + line[at:]
        elif op == "delete":
            line = line[:at] + line[at + draw(st.integers(1, 10)):]
        elif op == "replace":
            line = line[:at] + draw(_TEXT) + line[at + draw(st.integers(1, 10)):]
        elif op == "truncate":
            line = line[:at]
        else:
            line = line[:at] + draw(st.sampled_from(ODD)) + line[at:]
    return line.replace("\n", " ").replace("\r", " ")


@st.composite
def claim_files(draw) -> tuple[str, list[str]]:
    fmt = draw(st.sampled_from(sorted(SEEDS)))
    lines = draw(st.lists(st.one_of(mutated_line(fmt), st.sampled_from(["", "# a comment", "  "])), min_size=1,
                          max_size=8))
    if fmt == "csv":  # rows with quotes may span lines: keep the ones whose quotes pair up
        lines = [line for line in lines if line.count('"') % 2 == 0]
    return fmt, lines


def _digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _claim_line_count(fmt: str, lines: list[str], path: str) -> int | None:
    """How many records the file must give: one per claim line (None: not countable without the reader,
    e.g. a JSONL file opening with '[', read as one JSON array)."""
    keep = [line for line in lines if line.strip(" \t\x0b\x0c") and not line.lstrip(" \t\x0b\x0c").startswith(("#", "```"))]
    if fmt == "jsonl":
        return None if keep and keep[0].lstrip(" \t\x0b\x0c").startswith("[") else len(keep)
    if fmt == "nt":
        return len([line for line in keep if not re.match(r"(?i)\s*@?(prefix|base)\s", line)])
    return None  # CSV: quoting and blank cells decide; the reader's items are counted instead


def check_claim_file(kg, case: tuple[str, list[str]]) -> None:
    fmt, lines = case
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, f"claims.{fmt}")
        with open(src, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write("\n".join(([HEADER[fmt]] if fmt in HEADER else []) + lines) + "\n")
        before = _digest(src)
        out = os.path.join(tmp, "out.jsonl")
        try:
            items = list(read_claims(src))
        except VerifierError:
            items = None  # the file as a whole is refused (e.g. wrong CSV columns): one line, nothing written
        records = []
        for attempt in range(2):  # the second run resumes: it must add nothing
            try:
                summary = run_bulk(kg, read_claims(src), out, quiet=True, source=src)
            except VerifierError:
                assert items is None, "a file the reader accepts was refused by check"
                return
            with open(out, "rb") as fh:
                records = [orjson.loads(line) for line in fh]
            if attempt == 1:
                assert summary.checked == 0 and summary.bad_lines == 0
        expected = _claim_line_count(fmt, lines, src)
        assert len(records) == (expected if expected is not None else len(items)), (records, lines)
        assert len({r["id"] for r in records}) == len(records)
        assert all(r["verdict"] in ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO") or r["error"] for r in records)
        # The output given as the input is refused, and the file stays as it was.
        try:
            run_bulk(kg, iter(()), src, quiet=True, source=src)
            raise AssertionError("an output that is the input was accepted")
        except VerifierError as exc:
            assert "is the claims file" in str(exc)
        assert _digest(src) == before


# ------------------------------------------------------------------------------------------ HTTP

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["text", "fix", "enrich", "subject", "predicate", "object", "id",
                                          "subject_id", "property_id", "qualifiers", "x"]), inner, max_size=4),
                     max_leaves=10)
_BODIES = st.one_of(
    st.binary(max_size=200),
    _JSON.map(lambda v: orjson.dumps(v) if _dumpable(v) else b"null"),
    st.builds(lambda text, fix: orjson.dumps({"text": text, "fix": fix}), st.text(max_size=300), st.booleans()),
    st.lists(st.sampled_from(SEEDS["jsonl"]), max_size=4).map(lambda ls: ("[" + ",".join(ls) + "]").encode()),
    st.sampled_from([b"[" * 5000 + b"]" * 5000, b'{"text": "\\ud83d"}', b'[{"subject": "\\udc00"}]',
                     b'{"text": "' + "🙂".encode() * 10 + b' Douglas Adams was born in 1962."}']),
)
_TYPES = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", "",
                          "application/x-www-form-urlencoded", "multipart/form-data", "application/JSON"])
_PATHS = st.one_of(st.sampled_from(["/verify", "/check", "/health", "/lookup", "/entity/Q42", "/", "/static/app.js"]),
                   st.text(st.characters(whitelist_categories=("L", "N", "P")), max_size=20).map(lambda t: "/" + quote(t)))


def _dumpable(value) -> bool:
    try:
        orjson.dumps(value)
        return True
    except (TypeError, orjson.JSONEncodeError):
        return False


@st.composite
def http_requests(draw) -> dict:
    method = draw(st.sampled_from(["POST", "POST", "GET"]))
    path = draw(_PATHS)
    request = {"method": method, "url": path, "headers": {}}
    if method == "POST":
        request["content"] = draw(_BODIES)
        ctype = draw(_TYPES)
        if ctype:
            request["headers"]["content-type"] = ctype
    else:
        request["params"] = {"q": draw(st.text(max_size=30)), "k": draw(st.sampled_from(["1", "5", "-3", "x", "99"]))}
    return request


def check_http(client, request: dict) -> None:
    res = client.request(**request)
    assert res.status_code != 500, (request, res.text)
    if res.headers.get("content-type", "").startswith("application/json"):
        data = res.json()
        if res.status_code >= 400:
            assert isinstance(data, dict) and isinstance(data.get("error"), str), (request, data)
    else:
        # the path the client really sent: httpx resolves "//" against the base URL to "/"
        assert res.status_code == 200 and res.request.url.path in ("/", "/static/app.js"), (request, res.status_code)
