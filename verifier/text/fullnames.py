"""A full name with its middle names dropped links to whoever goes by the short form ("Orlando Lamar Pace" is
"Orlando Pace", `short_names`) — unless the graph knows that thing's own full name, with other middle
names: "William James Hughes" is not Billy Hughes, whose aliases say William Morris Hughes. A middle name matches
the same word or its initial ("William M. Hughes")."""
from __future__ import annotations

import re

from kgcheck.index.text import normalise


def short_names(text: str, words: list[tuple[int, int]], stop: frozenset[str]):
    """(start, end, key, (first, middle words, last)) for runs of 3-5 capitalised words (none in STOP): "Orlando
    Lamar Pace" is "Orlando Pace", its middle name "lamar"; each normalised. A graph often names a person with the
    middle names as initials ("Henry B. Banning" for "Henry Blackstone Banning"): those keys come first, so that a
    label keeping more of the name is tried before the bare "first last"."""
    for i in range(len(words)):
        for n in (5, 4, 3):
            run = words[i:i + n]
            if len(run) == n and all(text[a].isupper() and text[a:b].lower() not in stop for a, b in run) and \
                    not re.search(r"[^\w\s.'’-]", text[run[0][0]:run[-1][1]]):
                first, last = normalise(text[run[0][0]:run[0][1]]), normalise(text[run[-1][0]:run[-1][1]])
                middles = normalise(text[run[1][0]:run[-2][1]]).split()
                for key in _keys(first, middles, last):
                    yield run[0][0], run[-1][1], key, (first, middles, last)


def _keys(first: str, middles: list[str], last: str) -> list[str]:
    """Every middle name as its initial, then each one alone as its initial (of several), then none."""
    initials = [m[0] for m in middles]  # normalised words: none empty
    keys = [" ".join([first, *initials, last])]
    if len(initials) > 1:
        keys += [f"{first} {i} {last}" for i in dict.fromkeys(initials)]
    return [*keys, f"{first} {last}"]


def _fits(middles: list[str], known: list[str]) -> bool:
    """Every middle word of the text is one of KNOWN's, or an initial of one (either way round)."""
    return all(any(m == w or (len(m) == 1 and w.startswith(m)) or (len(w) == 1 and m.startswith(w)) for w in known)
               for m in middles)


def agrees(middles: list[str], first: str, last: str, names: set[str]) -> bool:
    """NAMES (normalised labels and aliases of one entity) hold no full form "FIRST … LAST" (each normalised, maybe
    of several words: "tm 32"), or one whose middle names the text's MIDDLES fit."""
    head, tail = f"{first} ", f" {last}"
    forms = [n[len(head):len(n) - len(tail)].split() for n in names
             if n.startswith(head) and n.endswith(tail) and len(n) > len(head) + len(tail)]
    return not forms or any(_fits(middles, form) for form in forms if form)


def narrowed(kg, shorts: dict[tuple, tuple], by_norm: dict[str, list[tuple]]) -> dict[tuple, list[tuple]]:
    """Per short-name gram (sentence, start, end, key) -> (first, middle words, last), normalised: the candidates of
    its key whose full names agree (one lookup of the candidates' names for all of them)."""
    ids = sorted({c[0] for (*_, key) in shorts for c in by_norm.get(key, ())})
    names: dict[str, set[str]] = {}
    for eid, norm in (kg.lookup_in("SELECT id, norm FROM label_index WHERE id IN ({in})", ids) if ids else ()):
        names.setdefault(eid, set()).add(norm)
    out = {}
    for gram, (first, middles, last) in shorts.items():
        out[gram] = [c for c in by_norm.get(gram[3], ())
                     if not (first and last) or agrees(middles, first, last, names.get(c[0], set()))]
    return out
