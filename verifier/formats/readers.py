"""Read claim files (JSONL, CSV, TSV, N-Triples as LLMs write them) into Claims.

Every line that is not blank (ASCII whitespace only), a `#` comment or a Markdown fence (```)
becomes exactly one Claim or BadClaim, in file order: a bad line is reported, never raised,
never dropped (a CSV row spanning lines counts once; a row of empty cells is blank). Reading
streams: memory stays flat however long the file, except that explicit ids are remembered to
rename a repeat `id#2` (default ids `line-<n>` take one bit a line) and that a JSON-array file
(`[...]`, its items numbered 1, 2... in place of lines) is parsed whole.

Formats are `ClaimReader`s (verifier/formats/base.py) found by name in the entry-point group
`kgcheck.readers`: built in `jsonl`, `csv`, `tsv` (here) and `nt` (ntriples.py); a plug-in adds its own
name (for `--format`) and file suffixes.
"""
from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain
from pathlib import Path

import orjson

from kgcheck.index.plugins import PluginError, Registry
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.base import ClaimReader, NumberedLines, bad_claim as _bad, is_skipped as _skipped
from kgcheck.verifier.formats.base import make_claim as _claim
from kgcheck.verifier.formats.ntriples import ID_FIRST_CHARS, ID_LAST_CHARS, starts_like_ntriples, wikidata_id
from kgcheck.verifier.model import BadClaim, Claim

FORMATS = ("jsonl", "csv", "tsv", "nt")  # the built-in formats; plug-ins add theirs (`formats()`)
_BOM = b"\xef\xbb\xbf"

# ---------------------------------------------------------------- dict claims (JSONL, CSV rows, HTTP API)

_SUBJECT_KEYS = ("subject", "s", "sub_label")
_PREDICATE_KEYS = ("predicate", "p", "rel_label", "property", "relation")
_OBJECT_KEYS = ("object", "o", "obj_label", "value")
_SUBJECT_ID_KEYS = ("subject_id", "sub")  # sub/rel/obj: Text2KGBench's id fields
_PROPERTY_ID_KEYS = ("property_id", "rel")
_OBJECT_ID_KEYS = ("object_id", "obj")
_KINDS = {"entity": "entity", "item": "entity", "wikibase-item": "entity", "date": "date", "time": "date",
          "quantity": "quantity", "number": "quantity", "string": "string", "text": "string",
          "monolingualtext": "string"}
_JSON_TYPES = {dict: "a JSON object", list: "a JSON array", str: "a JSON string", bool: "a JSON boolean"}


def _scalar_text(value: object, what: str) -> str:
    if isinstance(value, str):
        return value.strip()
    if value is None or isinstance(value, bool):
        return {None: "", True: "true", False: "false"}[value]
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e16):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    raise VerifierError(f"{what} must be text, got {_JSON_TYPES.get(type(value), type(value).__name__)}")


def _text(obj: dict, keys: tuple[str, ...]) -> str:
    for key in keys:
        if text := _scalar_text(obj.get(key), key):
            return text
    return ""


def _role(obj: dict, keys: tuple[str, ...], id_keys: tuple[str, ...], letters: str) -> tuple[str, str | None]:
    """(text, id) of a subject/predicate/object. An id written as text ('Q42', 'wdt:P19') also fills the id."""
    text = obj.get(keys[0])
    if type(text) is not str or not (text := text.strip()):
        text = _text(obj, keys)
    given = obj.get(id_keys[0])  # fast path: a bare id in the main id field
    if not (type(given) is str and given[:1] in letters and given[1:].isdigit() and given.isascii()
            and given[1] != "0"):
        given = None
        for key in id_keys:
            value = obj.get(key)
            if value is not None and value != "":
                given = wikidata_id(value.strip()) if type(value) is str else None
                if given is None or given[0] not in letters:
                    raise VerifierError(f"{key} {value!r} is not a Wikidata id like {letters[0]}42")
                break
    if text and text[0] in ID_FIRST_CHARS and text[-1] in ID_LAST_CHARS:
        found = wikidata_id(text)
        if found and found[0] in letters:
            return found, given or found
    return text or given or "", given


def _qualifiers(value: object) -> tuple[tuple[str, str], ...]:
    if isinstance(value, str):  # CSV/TSV cells carry qualifiers as JSON text
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError as e:
            raise VerifierError(f"qualifiers is not valid JSON: {e}") from None
    items = list(value.items()) if isinstance(value, dict) else value
    if not isinstance(items, list):
        raise VerifierError(f"qualifiers must be a list, got {_JSON_TYPES.get(type(items), type(items).__name__)}")
    pairs = []
    for n, item in enumerate(items, 1):
        if isinstance(item, dict):
            item = (_text(item, ("predicate", "property", "p")), _text(item, ("object", "value", "o")))
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            raise VerifierError(f"qualifier {n} must be {{predicate, object}} or [predicate, object]")
        pairs.append((_scalar_text(item[0], f"qualifier {n}"), _scalar_text(item[1], f"qualifier {n}")))
        if not (pairs[-1][0] and pairs[-1][1]):
            raise VerifierError(f"qualifier {n} has an empty predicate or object")
    return tuple(pairs)


def parse_claim_dict(obj: dict, line: int) -> Claim:
    """One claim from a JSON object or CSV row: s/p/o or subject/predicate/object, ids, qualifiers, kind."""
    if type(obj) is not dict:
        raise VerifierError(f"a claim must be a JSON object, got {_JSON_TYPES.get(type(obj), type(obj).__name__)}")
    subject, subject_id = _role(obj, _SUBJECT_KEYS, _SUBJECT_ID_KEYS, "QP")
    predicate, property_id = _role(obj, _PREDICATE_KEYS, _PROPERTY_ID_KEYS, "P")
    object_, object_id = _role(obj, _OBJECT_KEYS, _OBJECT_ID_KEYS, "QP")
    if not (subject and predicate and object_):
        missing = [name for name, text in (("subject", subject), ("predicate", predicate), ("object", object_))
                   if not text]
        raise VerifierError(f"missing or empty {' and '.join(missing)} (keys found: "
                            f"{', '.join(sorted(map(str, obj)))[:120] or 'none'}); give subject/predicate/object")
    given_kind = obj.get("kind")
    if given_kind is None or given_kind == "":
        kind = "entity" if object_id and object_id[0] == "Q" else None
    elif (kind := _KINDS.get(given_kind.strip().lower()) if type(given_kind) is str else None) is None:
        raise VerifierError(f"unknown kind {given_kind!r}: expected entity, date, quantity or string")
    claim_id = obj.get("id")
    claim_id = (claim_id.strip() if type(claim_id) is str else _scalar_text(claim_id, "id")) or f"line-{line}"
    qualifiers = obj.get("qualifiers")
    return _claim(claim_id, subject, predicate, object_, subject_id, property_id, object_id,
                  _qualifiers(qualifiers) if qualifiers else (), kind, line)


class JsonlReader(ClaimReader):
    """One JSON object a line (or one JSON array of objects); keys as `parse_claim_dict` reads them."""

    suffixes = (".jsonl", ".ndjson", ".json")

    def read(self, lines: NumberedLines, first: bytes, source: str) -> Iterator[Claim | BadClaim]:
        return _read_jsonl(lines, first)


def _read_jsonl(lines: NumberedLines, first: bytes) -> Iterator[Claim | BadClaim]:
    if first.lstrip()[:1] == b"[":  # a JSON array file rather than one object a line
        kept = list(lines)
        try:
            items = orjson.loads(b"".join(line for _, line in kept))
        except orjson.JSONDecodeError:
            items = None  # not one array after all: read it line by line
        if isinstance(items, list):
            for n, item in enumerate(items, 1):
                try:
                    yield parse_claim_dict(item, n)
                except VerifierError as e:
                    yield _bad(n, f"item {n}: {e}", orjson.dumps(item), item)
            return
        lines = kept
    loads, parse = orjson.loads, parse_claim_dict
    for number, line in lines:
        stripped = line.strip()
        if not stripped or stripped[0] == 35 or stripped[:3] == b"```":  # _skipped, inlined: hot loop
            continue
        try:
            obj = loads(stripped)
        except orjson.JSONDecodeError as e:
            yield _bad(number, f"invalid JSON: {e}", line)
            continue
        try:
            yield parse(obj, number)
        except VerifierError as e:
            yield _bad(number, str(e), line, obj)


# ---------------------------------------------------------------- CSV / TSV with a header row

_NEEDED_COLUMNS = (("subject", "s", "subject_id"), ("predicate", "p", "property_id"), ("object", "o", "object_id"))


class CsvReader(ClaimReader):
    """A header row naming subject, predicate, object (or s, p, o; ids and qualifiers optional), then rows."""

    suffixes = (".csv",)
    delimiter = ","

    def read(self, lines: NumberedLines, first: bytes, source: str) -> Iterator[Claim | BadClaim]:
        return _read_delimited(lines, self.delimiter, source)


class TsvReader(CsvReader):
    """As CSV, tab-separated."""

    suffixes = (".tsv", ".tab")
    delimiter = "\t"


def _is_row_skipped(row: list[str]) -> bool:
    return not any(cell.strip() for cell in row) or row[0].lstrip().startswith("#")


def _read_delimited(lines: NumberedLines, delimiter: str, name: str) -> Iterator[Claim | BadClaim]:
    """Checks the header now (a wrong header is one error for the whole file), then returns the rows' generator."""
    raw_lines: list[str] = []  # the physical lines of the row being read, for BadClaim.raw

    def text_lines() -> Iterator[str]:
        for _, line in lines:
            raw_lines.append(line.decode("utf-8", "surrogateescape"))  # bad bytes are reported per row
            yield raw_lines[-1]

    reader = csv.reader(text_lines(), delimiter=delimiter)
    header: list[str] = []
    try:
        header = next(([cell.strip().lstrip("\ufeff").lower() for cell in row]
                       for row in reader if not _is_row_skipped(row)), [])
    except csv.Error as e:
        raise VerifierError(f"cannot read the header of {name}: {e}") from None
    missing = [group[0] for group in _NEEDED_COLUMNS if not any(column in header for column in group)]
    if missing:
        raise VerifierError(f"wrong columns in {name}: found {', '.join(header)[:200] or 'none'}; need "
                            f"subject, predicate, object (or s, p, o); missing {', '.join(missing)}")
    raw_lines.clear()
    return _rows(reader, header, raw_lines)


def _rows(reader, header: list[str], raw_lines: list[str]) -> Iterator[Claim | BadClaim]:
    row_start = reader.line_num + 1
    while True:
        row, error = None, None
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            error = f"unreadable row: {e}"
        raw, line, row_start = "".join(raw_lines), row_start, reader.line_num + 1
        raw_lines.clear()
        if row is not None and _is_row_skipped(row):
            continue
        if not raw.isascii():
            try:
                raw.encode("utf-8")
            except UnicodeEncodeError:
                raw, error = raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), "not valid UTF-8"
        if error is None and len(row) != len(header):
            error = f"expected {len(header)} fields ({', '.join(header)}), found {len(row)}"
        if error is not None:
            yield _bad(line, error, raw)
            continue
        fields = dict(zip(header, row))
        try:
            yield parse_claim_dict(fields, line)
        except VerifierError as e:
            yield _bad(line, str(e), raw, fields)


# ---------------------------------------------------------------- opening, format detection, ids

def _format_from_content(first: bytes, name: str) -> str:
    text = first.decode("utf-8", "replace").strip()
    if text[:1] in ("{", "["):
        return "jsonl"
    if starts_like_ntriples(text):
        return "nt"
    if "\t" in text:
        return "tsv"
    if "," in text:
        return "csv"
    raise VerifierError(f"cannot tell the format of {name}: name it .jsonl/.csv/.tsv/.nt or give the format "
                        f"({', '.join(formats())})")


# The built-ins, as the entry points pyproject.toml declares (a source checkout has no installed metadata).
READERS = Registry("kgcheck.readers", "claims format", {
    "jsonl": "kgcheck.verifier.formats.readers:JsonlReader",
    "csv": "kgcheck.verifier.formats.readers:CsvReader",
    "tsv": "kgcheck.verifier.formats.readers:TsvReader",
    "nt": "kgcheck.verifier.formats.ntriples:NTriplesReader",
})


def formats() -> list[str]:
    """Every claims format name: the built-in FORMATS, then plug-ins'."""
    return READERS.names()


def reader(fmt: str) -> ClaimReader:
    """The reader of format `fmt` (a name in `formats()`); VerifierError if it cannot be had."""
    try:
        made = READERS.create(fmt)
    except PluginError as exc:
        raise VerifierError(str(exc)) from None
    if not isinstance(made, ClaimReader):
        raise VerifierError(f"the claims format {fmt!r} made a {type(made).__name__}, not a ClaimReader")
    return made


def _format_of_suffix(suffix: str) -> str | None:
    """The format whose reader claims this file suffix: built-ins first, plug-ins only for other suffixes."""
    if not suffix:
        return None
    for name in formats():
        try:
            suffixes = getattr(READERS.factory(name), "suffixes", ())
        except PluginError:
            continue  # a broken plug-in is reported when named, not when it merely could have matched
        if suffix in suffixes:
            return name
    return None


def _open(path: str):
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as e:
        why = "no such claims file" if isinstance(e, FileNotFoundError) else f"cannot read claims file ({e.strerror})"
        raise VerifierError(f"{why}: {path}") from None


def _renamed(item: Claim | BadClaim, seen: set[str], repeats: dict[str, int]) -> Claim | BadClaim:
    n = repeats.get(item.id, 1) + 1
    while f"{item.id}#{n}" in seen:
        n += 1
    repeats[item.id] = n
    return replace(item, id=f"{item.id}#{n}")


def _unique_ids(items: Iterator[Claim | BadClaim], owned_stream) -> Iterator[Claim | BadClaim]:
    """A repeated id becomes id#2, id#3... Default ids ('line-<n>') are kept as one bit per line, not a set."""
    seen: set[str] = set()
    repeats: dict[str, int] = {}
    defaults = bytearray()  # bit n: line n kept its default id
    try:
        for item in items:
            claim_id = item.id
            if claim_id[:5] == "line-":  # a default id, or one that may clash with a default id
                line = item.source_line if type(item) is Claim else item.line
                if claim_id == f"line-{line}" and claim_id not in seen:
                    if line >> 3 >= len(defaults):
                        defaults.extend(bytes((line >> 3) + 1 - len(defaults)))
                    defaults[line >> 3] |= 1 << (line & 7)
                    yield item
                    continue
                n = int(claim_id[5:]) if claim_id[5:].isdigit() and claim_id[5:6] != "0" else 0
                if n >> 3 < len(defaults) and defaults[n >> 3] >> (n & 7) & 1:
                    item = _renamed(item, seen, repeats)
            if item.id in seen:
                item = _renamed(item, seen, repeats)
            seen.add(item.id)
            yield item
    finally:
        if owned_stream is not None:
            owned_stream.close()


def read_claims(path: str, fmt: str | None = None) -> Iterator[Claim | BadClaim]:
    """Claims from a file ('-' = stdin), one Claim or BadClaim per claim line, streamed in file order.

    `fmt` is one of FORMATS, or None to go by the extension and then by the first claim line.
    Raises VerifierError, at once, only for the file as a whole: missing, unknown format, wrong CSV columns.
    """
    if fmt is not None and fmt.lower() not in formats():
        raise VerifierError(f"unknown claims format {fmt!r}: expected one of {', '.join(formats())}")
    stream = _open(path)
    owned = None if path == "-" else stream  # stdin is not ours to close
    try:
        lines = enumerate(stream, 1)
        head: list[tuple[int, bytes]] = []  # lines read while looking for the first claim line
        first = b""
        for number, line in lines:
            line = line[len(_BOM):] if number == 1 and line.startswith(_BOM) else line
            head.append((number, line))
            if not _skipped(line.strip()):
                first = line
                break
        if not first:  # nothing but blanks and comments: no claims (the caller says so)
            return _unique_ids(iter(()), owned)
        suffix = Path(path).suffix.lower() if path != "-" else ""
        name = "stdin" if path == "-" else path
        fmt = (fmt or "").lower() or _format_of_suffix(suffix) or _format_from_content(first, name)
        items = reader(fmt).read(chain(head, lines), first, name)
    except BaseException:
        if owned is not None:
            owned.close()
        raise
    return _unique_ids(items, owned)
