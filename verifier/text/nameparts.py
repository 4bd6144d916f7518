"""Is a span a word of a longer name rather than a name of its own?

- One capitalised word beside another capitalised word of its clause, or after "<Name> of", is part of a name the
  index may not know ("National Film Board of Canada": not Canada) — inside_longer_name. A title word after it ends
  the name as a surname when no capitalised word follows ("Peter Lord and"); before a name it opens a title ("UK
  Prime Minister Boris").
- A span that starts inside a known name and runs on past its end is no mention: "a French Army officer" is an
  officer of the French Army, not an "army officer" — though "Army officer" (12 characters) is longer than "French
  Army" (11), and the gazetteer tries the longest match first. The capital of "Army", in the middle of a sentence,
  says the word belongs to the name before it; a lower-case content word after it says the span is a common noun.
  Titles keep their function words ("Jules Verne's Around the World in Eighty Days"), and a name is one that opens
  with a capitalised content word ("The United States" opens no name inside "The United States men's national
  team") — capitalised_names, straddles_a_name.
- A name owning the name right after it qualifies it ("Canada" of "Canada's Prince Edward Island") — possessor_spans.
- An acronym of two or three capitals ("CD", "TV") names what the index writes so ("TV": television), not what it
  lists as a lower-case code ("cd", "tv": the country codes of DR Congo and Tuvalu) — is_acronym; three or more
  abbreviations in a comma list right after a name are its postnominal letters ("Baron Boyce, KG, GCB, OBE"), no
  names of things — in_postnominals.
"""
from __future__ import annotations

import re

STOP = frozenset("a an the of in on at to for by with and or is was are were be been from as its it his her their "
                 "this that which who whom s he she they".split())
TITLES = frozenset("president king queen prince princess sir saint pope emperor general admiral prime minister "
                   "chancellor senator governor mayor lord lady dr mr mrs ms prof".split())

YEAR = re.compile(r"(?<![\w-])(?:1\d{3}|20\d{2})(?![\w-])")  # a year written alone, not "1964-65"
_BREAK = re.compile(r"[,;:()\"“”]")  # punctuation that ends a name's run of words

# A word of capitals and digits ("AIM-65", "TOPS-10", "DC-3"): a model's or a system's own designation, the name
# itself beside its maker's ("Rockwell AIM-65") or a generic word ("TOPS-10 System"), not a word of a longer one.
_IDENTIFIER = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[A-Z])[A-Z0-9][A-Z0-9-]*[A-Z0-9]")


def inside_longer_name(text: str, s: int, e: int, words: list[tuple[int, int]]) -> bool:
    """One capitalised word whose neighbour (same clause) is capitalised too, or that follows "<Name> of":
    part of an unknown name — unless it is an identifier of capitals and digits."""
    if " " in text[s:e].strip() or _IDENTIFIER.fullmatch(text, s, e):
        return False
    index = next((i for i, w in enumerate(words) if w[0] == s), None)
    if index is None:
        return False
    last = next((i for i, w in enumerate(words) if w[1] == e), index)  # "DG/UX": words joined without a space
    for j in (index - 1, last + 1):
        if not 0 <= j < len(words) or (j == 0 and j < index):
            continue  # a capital at the sentence start proves nothing
        a, b = words[j]
        between, word = (text[e:a] if j > last else text[b:s]), text[a:b]
        if not word[:1].isupper() or _BREAK.search(between) or word.lower() in STOP:
            continue
        if word.lower() not in TITLES or j > last and _ends_a_name(text, words, j):
            return True
    if index >= 3:  # "National Film Board of Canada", "University of Essex": not Canada, not Essex
        (a, b), (c, d) = words[index - 2], words[index - 1]
        head = text[a:b]
        if text[c:d] == "of" and head[:1].isupper() and head.lower() not in STOP | TITLES and \
                not _BREAK.search(text[b:s]):
            return True
    return False


def _ends_a_name(text: str, words: list[tuple[int, int]], j: int) -> bool:
    """A title word right after a capitalised word, with no capitalised word after it, ends that name as a surname
    ("Peter Lord and Nick Park", "Jack King and"); before a name it opens a title ("UK Prime Minister Boris …")."""
    if j + 1 >= len(words):
        return True
    a, b = words[j + 1]
    return not text[a:b][:1].isupper() or bool(_BREAK.search(text[words[j][1]:a]))


def capitalised_names(sentences: int, grams) -> list[list[tuple[int, int]]]:
    """Per sentence, (start, end) of the GRAMS (sentence, start, end, span, …: those the index knows) whose words
    are all capitalised (or digits, or function words inside), the first a capitalised word that is no function word."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(sentences)]
    for si, s, e, span, *_ in grams:
        words = span.split()
        if words and words[0][:1].isupper() and words[0].lower() not in STOP and \
                all(w[:1].isupper() or w[:1].isdigit() or w.lower() in STOP for w in words):
            out[si].append((s, e))
    return out


def straddles_a_name(text: str, s: int, e: int, words: list[tuple[int, int]], names: list[tuple[int, int]]) -> bool:
    """text[s:e] opens with a capitalised word, goes on with a lower-case word that is no function word, and starts
    inside one of NAMES (capitalised_names of its sentence) that ends within it. WORDS: the sentence's word spans."""
    if not text[s:s + 1].isupper() or not any(a < s < b < e for a, b in names):  # the cheap tests first
        return False
    inside = [text[a:b] for a, b in words if s <= a and b <= e]
    return any(w[:1].islower() and w.lower() not in STOP for w in inside[1:])


def possessive(text: str, end: int) -> bool:
    """The word ending at `end` ends in a possessive "'s"."""
    return text[end - 2:end] in ("'s", "’s")


_POSSESSOR_GAP = re.compile(r"['’]s\s+")  # between a possessor and the name it owns


def possessor_spans(text: str, mentions: list[list]) -> set[tuple[int, int]]:
    """(start, end) of each mention (mentions.Mention, per sentence) owning the name right after it."""
    spans = set()
    for ms in mentions:
        ordered = sorted(ms, key=lambda x: x.start)
        for m, n in zip(ordered, ordered[1:]):
            if _POSSESSOR_GAP.fullmatch(text, m.end, n.start) or \
                    (possessive(text, m.end) and text[m.end:n.start].isspace()):
                spans.add((m.start, m.end))
    return spans


_ACRONYM = re.compile(r"[A-Z]{2,3}")
_ABBREVIATION = r"[A-Z][a-z]?[A-Z][A-Za-z]{0,3}"  # two capitals or more: "KG", "OBE", "KStJ"
_POSTNOMINALS = re.compile(rf"\b[A-Z][a-z]+,\s*((?:{_ABBREVIATION},\s*){{2,}}{_ABBREVIATION})\b")


def is_acronym(span: str) -> bool:
    return bool(_ACRONYM.fullmatch(span))


def in_postnominals(text: str, s: int, e: int) -> bool:
    """text[s:e] lies in a run of postnominal letters after a name."""
    return any(run.start(1) <= s and e <= run.end(1)
               for run in _POSTNOMINALS.finditer(text, max(0, s - 60), min(len(text), e + 60)))
