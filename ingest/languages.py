"""The --languages option: which label languages to keep.

Wikidata's language codes are lower case ("en", "zh-hans", "be-tarask"): "EN" is read as "en"
(a label is stored under its code exactly, so "EN" would match nothing). A code that cannot be a
language code is a usage error. Whether a well-formed code is one Wikidata uses is told by the
dump itself: the manifest counts the labels kept per language, and a language with none is named.
"""
from __future__ import annotations

import re

FALLBACK = "mul"
_CODE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{1,8})*\Z")


class LanguageError(ValueError):
    """A --languages value that names no language code."""


def parse_languages(text: str) -> tuple[str, ...]:
    """'EN, de,mul' -> ('en', 'de'): lower-cased, deduplicated, 'mul' dropped (always the fallback)."""
    langs = []
    for part in text.split(","):
        code = part.strip().lower()
        if not code:
            continue
        if not _CODE.match(code):
            raise LanguageError(f"{part.strip()!r} is not a language code (like en, de, zh-hans)")
        if code != FALLBACK and code not in langs:
            langs.append(code)
    if not langs:
        raise LanguageError("give at least one language")
    return tuple(langs)


def missing_languages(requested, labels_by_language: dict[str, int]) -> list[str]:
    """The requested languages no entity of the dump has a label or alias in."""
    return [lang for lang in requested if not labels_by_language.get(lang)]
