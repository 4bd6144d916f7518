"""Demonyms: "X is an American writer" says the writer's country, not an ethnic group or a language that goes by the
same word. The graph gives each place its demonyms (P1549, monolingual text in the index's languages): one of them in
the subject's description, before a lower-case noun — or as the whole predicate, "Hugh Grant is British." (not of a
relation of the name: "The native language of Nabokov is Russian" names a language) —, stands for that place, and the
readers then ask which of the subject's properties such a place fills (a person's country of citizenship, a film's
country of origin) as they do for any name. A name the gazetteer linked otherwise ("American":
an alias of Americans, the ethnic group; "French": the language's label) is re-linked only in those positions;
"speaks French" is left alone.
"""
from __future__ import annotations

import re
import threading

from kgcheck.index.measures import demonym_rows
from kgcheck.index.text import normalise
from kgcheck.verifier.text.mentions import Mention, word_spans
from kgcheck.verifier.text.nameparts import inside_longer_name

MAX_WORDS = 3  # "South African", "Papua New Guinean"
# The next word opens a noun phrase the demonym describes: lower-case, no verb or function word ("an American
# writer", "a French-language film"); "American and" after an article says nothing this reader reads.
_NOUN_AFTER = re.compile(r"[\s-]+(?!(?:is|was|are|were|and|or|of|in|on|at|by|for|with|to|from|as|the|a|an|who|which|"
                         r"that|has|had|have)\b)[a-z]")
# The subject's own description: after its copula and article, a few words at most ("is a 2010 British crime film",
# "was a former Peruvian politician"). Elsewhere a demonym describes another name ("a novella by Russian author
# Lydia Chukovskaya", "transported a Canadian entrepreneur"), not the subject.
_IN_DESCRIPTION = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+(?:[\w'’-]+\s+){0,4}$", re.IGNORECASE)
# Or the whole predicate: right after the copula, the clause ending there ("Hugh Grant is British.", "was French and").
_PREDICATIVE_BEFORE = re.compile(r"\b(?:is|was|are|were)\s+$", re.IGNORECASE)
# ... said of a name, not of a relation of it: "The native language of Nabokov is Russian", "Nabokov's native
# language is Russian" name a language (the predicate is the relation's value), not Nabokov's country.
# (A determiner and lower-case words before "of": "the Bank of England is British" is a name holding "of".)
_RELATION_BEFORE = re.compile(r"(?:\b(?:[Tt]he|[Ii]ts|[Hh]is|[Hh]er|[Tt]heir|[Aa]n?)\s+(?:[a-z][\w'’-]*,?\s+){1,6}of\b[^,;:.]*"
                              r"|['’]s?\s+[a-z][\w'’, -]*)\b(?:is|was|are|were)\s+$")
_CLAUSE_ENDS = re.compile(r"\s*(?:[.;,!?]|$)|\s+(?:and|but)\b")
_LOCK = threading.Lock()


def _said_of_a_relation(text: str, a: int, at: int, ms: list[Mention]) -> bool:
    """Is the copula before offset AT said of a relation of a name ("The native language of Nabokov is"), its words
    outside any name of the sentence ("United States men's national soccer team is" is one name)?"""
    found = _RELATION_BEFORE.search(text, a, at)
    return bool(found) and not any(m.start <= found.start() < m.end for m in ms)


def demonym_places(kg) -> dict[str, str]:
    """Normalised demonym -> the place it names: the most described of its holders (statement count, then id),
    one scan of the graph's demonym statements per index, kept on the index object."""
    found = getattr(kg, "_demonym_places", None)
    if found is not None:
        return found
    with _LOCK:
        found = getattr(kg, "_demonym_places", None)
        if found is not None:
            return found
        where, params = demonym_rows(kg)  # (statements' columns: none of them is also an entities column)
        rows = kg.sql("SELECT s.string, s.subject, coalesce(e.statement_count, 0) FROM statements s "
                      f"LEFT JOIN entities e ON e.id = s.subject WHERE {where}", params)
        best: dict[str, tuple[int, str]] = {}
        for text, place, weight in rows:
            norm = normalise(text)
            if norm and (norm not in best or (-weight, place) < (-best[norm][0], best[norm][1])):
                best[norm] = (weight, place)
        found = {norm: place for norm, (_, place) in best.items()}
        try:
            kg._demonym_places = found
        except AttributeError:  # an index object that refuses attributes: read again next time
            pass
        return found


def with_demonyms(kg, text: str, sentences: list[tuple[int, int]],
                  mentions: list[list[Mention]]) -> tuple[list[list[Mention]], set[tuple[int, int]]]:
    """MENTIONS with each capitalised demonym before a noun linked to its place — a mention of exactly that span
    re-linked, a new one where none was; not a word of a longer name ("American Airlines") — and the spans of those
    demonyms. A demonym is a value of what it describes, never a holder: "a former Peruvian politician who served
    as the President of Peru from 1990" says nothing of Peru's inception."""
    places = demonym_places(kg)
    spans: set[tuple[int, int]] = set()
    if not places:
        return mentions, spans
    out = []
    for (a, b), ms in zip(sentences, mentions):
        words = word_spans(text, a, b)
        found: dict[tuple[int, int], str] = {}
        for i in range(len(words)):
            for n in range(min(MAX_WORDS, len(words) - i), 0, -1):
                s, e = words[i][0], words[i + n - 1][1]
                span = text[s:e]
                place = places.get(normalise(span)) if span[:1].isupper() else None
                said = place and ((_NOUN_AFTER.match(text, e) and _IN_DESCRIPTION.search(text, a, s)) or (
                    _PREDICATIVE_BEFORE.search(text, a, s) and _CLAUSE_ENDS.match(text, e, b) and
                    not _said_of_a_relation(text, a, s, ms)))
                if said and \
                        not any(fs < e and s < fe for fs, fe in found) and not inside_longer_name(text, s, e, words):
                    found[(s, e)] = place
                    break
        # A linked name holding the word stays whole ("the American Film Institute" is no demonym).
        found = {(s, e): place for (s, e), place in found.items()
                 if not any(m.start <= s and e <= m.end and (m.start, m.end) != (s, e) for m in ms)}
        kept = [m for m in ms if not any(m.start < e and s < m.end for s, e in found)]
        added = [Mention(s, e, text[s:e], place) for (s, e), place in found.items()]
        spans.update(found)
        out.append(sorted(kept + added, key=lambda m: (m.start, m.end)))
    return out, spans
