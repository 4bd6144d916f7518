"""Text normalisation shared by the label index and every query against it."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_JOINERS = re.compile(r"[.'\u2019`\u00b4]")  # "F.C." = "FC", "O'Brien" = "OBrien"
_SPACES = re.compile(r"\s+")
_DETACHED_POSSESSIVE = re.compile(r"(?<=\w)\s+(?=['\u2019]s\b)")  # tokenised text: "Anne 's House" = "Anne's House"
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@lru_cache(maxsize=200_000)
def normalise(text: str) -> str:
    """Case-, diacritic- and punctuation-insensitive key: 'Bruxelles-Capitale' -> 'bruxelles capitale'."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    joined = _JOINERS.sub("", _DETACHED_POSSESSIVE.sub("", stripped.casefold()))
    return _SPACES.sub(" ", _NON_WORD.sub(" ", joined).replace("_", " ")).strip()


def split_identifier(text: str) -> str:
    """'birthPlace' / 'birth_place' -> 'birth place' (GPToLODS turns URIs into text this way)."""
    return _SPACES.sub(" ", _CAMEL.sub(" ", text).replace("_", " ")).strip()
