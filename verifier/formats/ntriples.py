"""N-Triples as LLMs write them (GPToLODS): terms, prefixes, typed literals, names turned into text.

`dbr:Douglas_Adams dbo:birthPlace dbr:Cambridge .` -> ("Douglas Adams", "birth place", "Cambridge");
Wikidata URIs and prefixed ids (wd:Q42, wdt:P19) become ids. `NTriplesReader` is the `nt` claims format;
`wikidata_id` and `starts_like_ntriples` are what the other readers use.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from kgcheck.index.text import split_identifier
from kgcheck.verifier.formats.base import ClaimReader, NumberedLines, bad_claim, is_skipped, make_claim
from kgcheck.verifier.model import BadClaim, Claim

_WIKIDATA_ID = re.compile(
    r"<?(?:https?://(?:www\.|m\.)?wikidata\.org/(?:entity/|wiki/(?:Property:)?"
    r"|prop/(?:direct/|direct-normalized/|statement/|qualifier/|reference/)?)"
    r"|(?:wd|wdt|wdtn|p|ps|pq|pr|wkd|wkp|wikidata):)?([QqPp][1-9][0-9]*)>?")
# Cheap tests before the regex (readers inline them in their hot loop): most text is not an id.
ID_FIRST_CHARS = frozenset("QqPp<hwk")
ID_LAST_CHARS = frozenset("0123456789>")


def wikidata_id(text: str) -> str | None:
    """'Q42', 'wd:Q42', 'wdt:P569', '<http://www.wikidata.org/entity/Q42>' -> the bare id, else None."""
    if text[:1] in ("Q", "P") and text[1:].isdigit() and text.isascii() and text[1] != "0":
        return text
    if not text or text[0] not in ID_FIRST_CHARS or text[-1] not in ID_LAST_CHARS:
        return None
    m = _WIKIDATA_ID.fullmatch(text)
    return m[1].upper() if m else None


def starts_like_ntriples(text: str) -> bool:
    """Whether a file's first claim line (stripped) reads as N-Triples/Turtle: an IRI, a blank node, a
    @prefix/@base, or a prefixed name ('dbr:Cambridge')."""
    return (text[:1] == "<" or text.startswith("_:") or bool(_DIRECTIVE.match(text))
            or bool(re.match(r"[A-Za-z][\w.-]*:\S", text)))


_TERM = re.compile(r"""
  (?P<iri><[^<>"{}|^`\\\s]*>)
| (?P<lit>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  (?:@(?P<lang>[A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^(?P<dt><[^<>"\s]*>|(?:[A-Za-z][\w-]*)?:[\w.-]*[\w-]))?
| (?P<bnode>_:\S*)
| (?P<dot>\.)(?=\s|\#|$)
| (?P<comment>\#.*)
| (?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?=[\s.]|$)
| (?P<bool>true|false)(?=[\s.]|$)
| (?P<a>a)(?=\s)
| (?P<name>(?:[A-Za-z][\w.-]*)?:[^\s<>"]*)
""", re.X)
_SPACE = re.compile(r"\s*")
_DIRECTIVE = re.compile(r"(?i)@?(?:prefix|base)\s")
_DECLARATION = re.compile(r"(?i)@?(?:(prefix)\s+((?:[A-Za-z][\w.-]*)?):|base)\s*<([^<>\s]*)>\s*\.?\s*(?:#.*)?")
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f"}
_PAGE_NAME = re.compile(r"https?://[^/]+/(?:resource|page|wiki)/(.+)")  # DBpedia/Wikipedia names may hold '/'
_DATE_TYPES = frozenset({"date", "datetime", "datetimestamp", "gyear", "gyearmonth"})
_NUMBER_TYPES = frozenset({"integer", "int", "long", "short", "byte", "decimal", "double", "float",
                           "nonnegativeinteger", "positiveinteger", "negativeinteger", "nonpositiveinteger",
                           "unsignedint", "unsignedlong", "unsignedshort", "unsignedbyte"})
_PLAIN_TYPES = ("xmlschema#", "xsd:", "rdf-syntax-ns#", "rdf:")
_STOPPERS = {'"': "unterminated literal", "'": "unterminated literal",
             "<": "malformed IRI (no closing '>', or a space inside)",
             ",": "',' object lists are not supported: write one triple per line",
             ";": "';' predicate lists are not supported: write one triple per line"}


class _LineError(ValueError):
    pass


def _unescape_one(m: re.Match) -> str:
    code = m[1]
    if len(code) > 1 and int(code[1:], 16) > 0x10FFFF:
        raise _LineError(f"bad escape \\{code}")
    return chr(int(code[1:], 16)) if len(code) > 1 else _SIMPLE_ESCAPES.get(code, code)


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    try:  # JSON-style surrogate pairs (\ud83d\ude00) become one character; a lone half is an error
        return _ESCAPE.sub(_unescape_one, body).encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        raise _LineError("bad \\u escape (a lone surrogate)") from None


def _name_text(local: str, is_predicate: bool) -> str:
    """GPToLODS's URI-to-text: URL-decode, '_' -> ' '; a predicate's camelCase split and lower-cased too."""
    words = unquote(local)
    return split_identifier(words).lower() if is_predicate else " ".join(words.replace("_", " ").split())


def _iri_term(iri: str, is_predicate: bool) -> tuple[str, str | None, str | None]:
    if found := wikidata_id(iri):
        return found, found, "entity"
    page = _PAGE_NAME.match(iri)
    local = page[1] if page else re.split(r"[/#]", iri.rstrip("/#"))[-1]
    return _name_text(local, is_predicate), None, "entity"


def _typed_literal(value: str, datatype: str) -> tuple[str, str | None]:
    local = re.split(r"[/#:]", datatype.strip("<>"))[-1]
    if local.lower() in _DATE_TYPES:
        return value, "date"
    if local.lower() in _NUMBER_TYPES:
        return value, "quantity"
    if any(marker in datatype.lower() for marker in _PLAIN_TYPES):
        return value, None
    try:  # any other datatype is a unit ("311"^^dbt:squareKilometre): keep it, as words
        float(value)
    except ValueError:
        return value, None
    return f"{value} {split_identifier(local).lower()}", "quantity"


def _nt_term(m: re.Match, is_predicate: bool, prefixes: dict[str, str]) -> tuple[str, str | None, str | None]:
    """(text, Wikidata id, kind) of one term."""
    if m["name"] is not None:
        prefix, _, local = m["name"].partition(":")
        if prefix.lower() in ("http", "https"):  # an IRI written without <>
            return _iri_term(m["name"], is_predicate)
        if prefix in prefixes:
            return _iri_term(prefixes[prefix] + local, is_predicate)
        found = wikidata_id(m["name"])
        return (found, found, "entity") if found else (_name_text(local, is_predicate), None, "entity")
    if m["iri"] is not None:
        return _iri_term(m["iri"][1:-1], is_predicate)
    if m["lit"] is not None:
        value = _unescape(m["lit"][1:-1]).strip()
        text, kind = _typed_literal(value, m["dt"]) if m["dt"] else (value, None)
        return text, None, kind
    if m["num"] is not None:
        return m["num"], None, "quantity"
    if m["a"] is not None:
        return "type", None, "entity"
    if m["bool"] is not None:
        return m["bool"], None, None
    raise _LineError(f"blank node {m['bnode']} cannot be checked: name the resource")


def _terms(text: str) -> list[re.Match]:
    terms: list[re.Match] = []
    ended = False
    pos = _SPACE.match(text).end()
    while pos < len(text):
        m = _TERM.match(text, pos)
        if m is None:
            raise _LineError(f"{_STOPPERS.get(text[pos], 'unexpected text')}: {text[pos:pos + 40]}")
        if m["comment"] is not None:
            break
        if ended:
            raise _LineError(f"text after the final '.': {text[pos:pos + 40]}")
        if m["dot"] is not None:
            ended = True
        else:
            terms.append(m)
        pos = _SPACE.match(text, m.end()).end()
    last = terms[-1] if terms else None
    if not ended and last is not None and last.group()[-1] == "." and (last["name"] or last["num"]):
        terms[-1] = _TERM.match(text, last.start(), last.end() - 1)  # 'dbr:Cambridge.': the statement's dot
    if len(terms) != 3:
        raise _LineError(f"expected subject, predicate and object, found {len(terms)} term(s)"
                         + (" (one triple per line)" if len(terms) > 3 else ""))
    return terms


# ---------------------------------------------------------------- the `nt` claims format

def _triple(text: str, line: int, prefixes: dict[str, str]) -> Claim:
    parts = [_nt_term(m, i == 1, prefixes) for i, m in enumerate(_terms(text))]
    for role, part in zip(("subject", "predicate", "object"), parts):
        if not part[0]:
            raise _LineError(f"empty {role}")
    (subject, subject_id, _), (predicate, property_id, _), (object_, object_id, kind) = parts
    property_id = property_id if property_id and property_id[0] == "P" else None
    return make_claim(f"line-{line}", subject, predicate, object_, subject_id, property_id, object_id, (), kind, line)


class NTriplesReader(ClaimReader):
    """One triple a line, with @prefix declarations; a line that is not a triple becomes a BadClaim."""

    suffixes = (".nt", ".ntriples", ".ttl-lines", ".ttl")

    def read(self, lines: NumberedLines, first: bytes, source: str) -> Iterator[Claim | BadClaim]:
        prefixes: dict[str, str] = {}
        for number, line in lines:
            stripped = line.strip()
            if is_skipped(stripped):
                continue
            try:
                text = stripped.decode("utf-8")
                if not _DIRECTIVE.match(text):
                    yield _triple(text, number, prefixes)
                elif declared := _DECLARATION.fullmatch(text):
                    if declared[1]:  # @prefix (a @base changes nothing here: names are read as text)
                        prefixes[declared[2]] = declared[3]
                else:
                    raise _LineError("malformed @prefix/@base declaration")
            except UnicodeDecodeError:
                yield bad_claim(number, "not valid UTF-8", line)
            except _LineError as e:
                yield bad_claim(number, str(e), line)
