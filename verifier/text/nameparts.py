"""A span that starts inside a known name and runs on past its end is no mention: "a French Army officer" is an
officer of the French Army, not an "army officer" — though "Army officer" (12 characters) is longer than "French
Army" (11), and the gazetteer tries the longest match first. The capital of "Army", in the middle of a sentence,
says the word belongs to the name before it; a lower-case content word after it says the span is a common noun.
Titles keep their function words ("Jules Verne's Around the World in Eighty Days"), and a name is one that opens
with a capitalised content word ("The United States" opens no name inside "The United States men's national team").
"""
from __future__ import annotations


def capitalised_names(sentences: int, grams, stop: frozenset[str]) -> list[list[tuple[int, int]]]:
    """Per sentence, (start, end) of the GRAMS (sentence, start, end, span, …: those the index knows) whose words
    are all capitalised (or digits, or function words inside), the first a capitalised word that is no function word."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(sentences)]
    for si, s, e, span, *_ in grams:
        words = span.split()
        if words and words[0][:1].isupper() and words[0].lower() not in stop and \
                all(w[:1].isupper() or w[:1].isdigit() or w.lower() in stop for w in words):
            out[si].append((s, e))
    return out


def straddles_a_name(text: str, s: int, e: int, words: list[tuple[int, int]], names: list[tuple[int, int]],
                     stop: frozenset[str]) -> bool:
    """text[s:e] opens with a capitalised word, goes on with a lower-case word that is no function word, and starts
    inside one of NAMES (capitalised_names of its sentence) that ends within it. WORDS: the sentence's word spans."""
    if not text[s:s + 1].isupper() or not any(a < s < b < e for a, b in names):  # the cheap tests first
        return False
    inside = [text[a:b] for a, b in words if s <= a and b <= e]
    return any(w[:1].islower() and w.lower() not in stop for w in inside[1:])
