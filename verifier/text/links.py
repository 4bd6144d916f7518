"""The claims the graph links outright between two things a sentence names (reader "linked", extract.py's step 3):
which of several links the sentence states, whether a written date agrees with the graph's, and when such a link
leaves a value open to the subject's own reading."""
from __future__ import annotations

import re

from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.triggerwords import ITEM_TRIGGER_WINDOW, TRIGGERS
from kgcheck.verifier.values.dates import DateMatch, compare_dates


def what_the_sentence_says(found: list[tuple], sentence: str, facts, subject) -> list[tuple]:
    """Of the graph's links between two things a sentence names, those it states: the properties it names
    ("shares a border" of Belgium-Germany, not their diplomatic relation), else the one whose label is
    closest to the sentence, said about the sentence's subject when the link runs both ways."""
    if len(found) == 1:
        return found
    chosen = [f for f in found if names_property(f[1], sentence, facts)]
    if not chosen:
        best = max(facts.predicate_similarity(sentence, f[1]) for f in found)
        chosen = [f for f in found if facts.predicate_similarity(sentence, f[1]) == best]
    by_property: dict[str, tuple] = {}
    for f in chosen:  # a symmetric property (shares border with) once, about the subject
        if f[1] not in by_property or (subject is not None and f[0].entity_id == subject.entity_id):
            by_property[f[1]] = f
    return list(by_property.values())


def names_property(pid: str, sentence: str, facts, before: int | None = None) -> bool:
    """Does the sentence name the property (its label, an alias, or a trigger word)? With `before`, only a
    naming that ends at most ITEM_TRIGGER_WINDOW characters before that offset counts ("directed by X")."""
    from kgcheck.index.text import normalise

    words = {w for w in set(facts.names(pid)) | {normalise(w) for w in TRIGGERS.get(pid, ())} if w}
    if before is None:
        text = f" {normalise(sentence)} "
        return any(f" {w} " in text for w in words)
    window = normalise(sentence[max(0, before - ITEM_TRIGGER_WINDOW):before])
    return any(f" {w} " in f" {window} " for w in words)


def date_agrees(date, time: str, precision: int) -> bool:
    """The written date does not contradict the graph's; a graph time that cannot be read agrees with nothing."""
    try:
        return compare_dates(date, time, precision) != DateMatch.CONFLICT
    except ValueError:
        return False


def linked_to_later(text: str, c, subject: Mention, ms: list[Mention]) -> bool:
    """Is C (an extract.SpanClaim) a link between two names (reader "linked") whose holder, not the subject, is
    named only after the value, in another clause: a comma and a lower-case word between, asides in brackets aside
    (not "1981's Reds", "Swiss club Young Boys", a list "the United States, Canada, France", "Windows 7 (October
    2009), Windows Vista was")?"""
    if c.reader != "linked" or c.claim.subject_id == subject.entity_id or not c.claim.object_id:
        return False
    holders = [m.start for m in ms if m.entity_id == c.claim.subject_id]
    if not holders or min(holders) < c.end:
        return False
    gap = re.sub(r"\([^()]*\)", "", text[c.end:min(holders)])
    return bool(re.search(r"[,;]", gap) and re.search(r"\b[a-z]+\b", gap))
