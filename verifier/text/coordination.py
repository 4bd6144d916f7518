"""Names a sentence lists side by side: "a co-production between Canada, France and West Germany",
"designated by Pakistan, Russia and the United Kingdom", "an Israel/UK/United States co-production".

A coordination states no relation between its items: the graph may link two of them (France and Canada have
diplomatic relations), but the sentence says nothing of it, and a link read there is SUPPORTED by construction.
A list is only one the words mark as such — a slash, or "and", "or", "&" before its last item —, since two names
with a comma alone between them are as often one thing and where it is ("Bern, Switzerland").
"""
from __future__ import annotations

import re

# What may stand between two items of one list: a slash, a comma (with "and"/"or" after it: the serial comma),
# or a conjunction, and a determiner before the next item ("and the United Kingdom").
_BETWEEN_ITEMS = re.compile(r"\s*(?:/|,(?:\s*(?:and|or)\b)?|(?:and|or|&)(?=\W))\s*(?:the\s+)?", re.IGNORECASE)
_MARKS_A_LIST = re.compile(r"/|\b(?:and|or)\b|&", re.IGNORECASE)
_NAME_OPENS = re.compile(r"[\"“]?[A-Z0-9]")
# Parallel phrases are a list too: "played first for Malaysia and later for Japan", "with Ajax and then with Inter".
_REPEATED = r"(for|in|to|with|at|from|by|on)"  # the preposition a parallel phrase repeats
_PARALLEL = re.compile(r"\s*,?\s*(?:and|or)\s+(?:(?:later|then|also|again|finally|subsequently)\s+)?"
                       + _REPEATED + r"\s+(?:the\s+)?", re.IGNORECASE)
_PREPOSITION_ENDS = re.compile(r"\b" + _REPEATED + r"\s+(?:(?:first|the)\s+)?$", re.IGNORECASE)
# "Donald Duck and the film's nephews": a possessive name opens a noun phrase; the item is the phrase, not the name.
_POSSESSIVE = re.compile(r"['’]s\b")


def listed_together(text: str, spans: list[tuple[int, int]]) -> set[frozenset]:
    """The pairs of spans (text offsets) that are items of one list: consecutive names with only list separators
    between them (or a conjunction repeating the preposition before the previous one: "for X and later for Y"), in
    a run whose last separator is a slash or holds a conjunction — or that one joins to a
    capitalised word after it (an item the index has no name for)."""
    ordered = sorted(set(spans))
    runs: list[list[tuple[int, int]]] = []
    marked: list[bool] = []
    for previous, span in zip([None] + ordered, ordered):
        gap = text[previous[1]:span[0]] if previous is not None and previous[1] <= span[0] else None
        # a separator, else a repeated preposition (which marks a list by itself); never a possessive's name
        separator = gap is not None and bool(_BETWEEN_ITEMS.fullmatch(gap))
        parallel = gap is not None and not separator and _parallel(text, previous[0], gap)
        if (separator or parallel) and not _POSSESSIVE.match(text, span[1]):
            runs[-1].append(span)
            marked[-1] = parallel or bool(_MARKS_A_LIST.search(gap))
        else:
            runs.append([span])
            marked.append(False)
    for k, run in enumerate(runs):  # "Canada, France, and the UK" with no name known for the UK: still a list
        after = _BETWEEN_ITEMS.match(text, run[-1][1])
        marked[k] = marked[k] or bool(after and _MARKS_A_LIST.search(after.group()) and
                                      _NAME_OPENS.match(text, after.end()))
    return {frozenset((x, y)) for run, is_list in zip(runs, marked) if is_list
            for i, x in enumerate(run) for y in run[i + 1:]}


def _parallel(text: str, previous_start: int, gap: str) -> bool:
    """The gap repeats the preposition the previous item follows, after a conjunction ("for X and later for")."""
    again = _PARALLEL.fullmatch(gap)
    before = _PREPOSITION_ENDS.search(text, max(0, previous_start - 20), previous_start)
    return bool(again and before and again.group(1).lower() == before.group(1).lower())
