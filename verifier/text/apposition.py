"""A relation named beside a name: "A sequel, Banjo-Tooie, was released in 2000", "Its director, X, said ...".

The words before the comma name a property (the index's property lexicon, as the words reader reads it) and
the name after it is that property's value for the thing the text was about a sentence ago (the topic, or the
last sentence's subject) — the sentence itself goes on about the name ("was released in 2000" dates the sequel).
"""
from __future__ import annotations

import re

from kgcheck.verifier.text.subjectview import SubjectView

from kgcheck.verifier.text.words import named_properties

# The sentence opens on a determiner or a possessive, up to four lower-case words and a comma, then the name.
_APPOSED = re.compile(r"[\s\"'“(]*(?:[Tt]he|[Aa]n?|[Ii]ts|[Hh]is|[Hh]er|[Tt]heir)\s+"
                      r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3},\s*[\"'“]?")


def apposed_properties(kg, sentence: str, at: int, holder, statements: dict) -> list[str]:
    """The properties of `holder` (a Mention) that the words opening the sentence before offset `at` (where a name
    starts) name, when they are a relation set beside that name: the nearest property name, of an item-valued
    property the holder holds; a name of one property only also when the holder's classes hold it (or the graph
    gives it none). Several names none of which the holder holds say nothing (as in words.read_words)."""
    if not _APPOSED.fullmatch(sentence, 0, at):
        return []
    view = SubjectView.of(kg, holder, statements, (), 0)
    named = [(d, p) for d, p in named_properties(sentence, at, view.schema.lexicon())
             if view.schema.datatype(p) == "wikibase-item"]
    if not named:
        return []
    here = [p for d, p in named if d == named[0][0]]
    chosen = [p for p in here if p in view.held]
    return chosen or (here if len(here) == 1 and view.may_hold(here[0]) else [])
