"""Text normalisation shared by the label index and every query against it."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_JOINERS = re.compile(r"[.'\u2019`\u00b4]")  # "F.C." = "FC", "O'Brien" = "OBrien"
_SPACES = re.compile(r"\s+")
# Tokenised text (Penn Treebank style) detaches clitics: "Anne 's House" = "Anne's House", "Ca n't" = "Can't".
_DETACHED_CLITIC = re.compile(r"(?<=\w)\s+(?=(?:['\u2019](?:s|ll|re|ve|d|m)|n['\u2019]t)\b)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@lru_cache(maxsize=200_000)
def normalise(text: str) -> str:
    """Case-, diacritic- and punctuation-insensitive key: 'Bruxelles-Capitale' -> 'bruxelles capitale'."""
    if text.isascii():  # NFKD is the identity on ASCII and it has no combining marks: skip the per-character pass
        stripped = text
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    joined = _JOINERS.sub("", _DETACHED_CLITIC.sub("", stripped.casefold()))
    return _SPACES.sub(" ", _NON_WORD.sub(" ", joined).replace("_", " ")).strip()


def split_identifier(text: str) -> str:
    """'birthPlace' / 'birth_place' -> 'birth place' (GPToLODS turns URIs into text this way)."""
    return _SPACES.sub(" ", _CAMEL.sub(" ", text).replace("_", " ")).strip()


# -- vectorised form for the index build ------------------------------------------------------------
# ASCII labels (most English labels) are normalised with Arrow compute, exactly as normalise() does
# for ASCII (NFKD and casefold are the identity / lower() there); the rest go through normalise().
# RE2 has no look-around, so the detached clitic is a capture-group rewrite applied twice: one
# pass can consume the word character a neighbouring match needs ("a 's 's"), the second catches it.
# A run of three or more detached clitics ("a 's 's n't": a joined one loses the word boundary the next
# needs) goes through normalise() itself.
_CLITIC_RUN = r"(?:\s+(?:'s|'ll|'re|'ve|'d|'m|n't)\b){3}"
_ASCII_CLITIC = r"([A-Za-z0-9_])[ \t\n\r\x0b\x0c\x1c-\x1f]+((?:'s|'ll|'re|'ve|'d|'m|n't)\b)"


def _string_array(texts):
    """A pyarrow string Array of a list, an Array or a ChunkedArray (one chunk)."""
    import pyarrow as pa

    texts = pa.array(texts, pa.string()) if not isinstance(texts, (pa.Array, pa.ChunkedArray)) else texts
    return texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts


def _matching(texts, pattern: str):
    """Which texts the RE2 pattern matches (a null text does not)."""
    import pyarrow.compute as pc

    return pc.fill_null(pc.match_substring_regex(texts, pattern), False)


def normalise_array(texts):
    """normalise() over a pyarrow string array, without a Python call per ASCII string."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = _string_array(texts)
    ascii_mask = pc.and_(pc.fill_null(pc.string_is_ascii(texts), True), pc.invert(_matching(texts, _CLITIC_RUN)))
    out = pc.ascii_lower(texts)
    for _ in range(2):
        out = pc.replace_substring_regex(out, _ASCII_CLITIC, r"\1\2")
    out = pc.replace_substring_regex(out, r"[.'`]", "")
    out = pc.replace_substring_regex(out, r"[^A-Za-z0-9]+", " ")  # \W, then "_" -> " "
    out = pc.utf8_trim(out, " ")
    if pc.all(ascii_mask).as_py():
        return out
    rest = pc.invert(ascii_mask)
    slow = pa.array([normalise(t) for t in pc.filter(texts, rest).to_pylist()], pa.string())
    return pc.replace_with_mask(out, rest, slow)


# A proper name of two to four words whose first and last words are capitalised and which holds no English
# function word ("Bayard Rustin", "River Beal", "Thomson TO7"; not "Journal of Infection", nor "The Seven Minutes":
# a title, not a name): a text may call the thing by its last word alone ("Rustin became ..."). A last word without
# a letter ("Apollo 11", "Poetry 1993") is no such word: a number in a text is a number.
_PROPER_NAME = r"^[\p{Lu}\p{Nd}]\S*(?:\s+\S+){0,2}\s+(?:\p{Lu}|\p{Nd}\S*\p{L})\S*$"
_FUNCTION_WORD = r"(?i)^(?:the|a|an)\s|\s(?:of|the|and|or|in|on|at|to|for|from|with|by|a|an)\s"


def name_tails(texts):
    """normalise(last word) of each text that is a proper name of 2-4 words (see _PROPER_NAME), else null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = _string_array(texts)
    proper = pc.and_(_matching(texts, _PROPER_NAME), pc.invert(_matching(texts, _FUNCTION_WORD)))
    last = pc.struct_field(pc.extract_regex(texts, r"\s(?P<last>\S+)$"), "last")
    tails = normalise_array(pc.if_else(proper, last, pa.scalar(None, pa.string())))
    return pc.if_else(pc.equal(tails, ""), pa.scalar(None, pa.string()), tails)
