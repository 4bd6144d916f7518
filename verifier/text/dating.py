"""Which thing a date in a sentence dates, and by which property (reader "words", then "types").

- "words": a time property's label or alias right before the date ("released in 1991", "aired on"); a word
  naming only an event the subject cannot hold dates the nearest other named thing that holds it ("Sire
  Records released La Isla Bonita ... on February 25, 1990"), or the word's object ("released <X> ... on <date>").
- "types": a date opening the subject's description ("X is a 1994 film") or next to a noun naming the
  subject's class is the time property the subject holds; "Title (1950)" dates a subject that holds one time
  property, and so does the one date of a sentence that opens with that subject ("If All Goes Wrong was
  screened ... in October 2010"), a bare "(2008)" after a title and a date opening the sentence before the
  subject ("In 2009, the series was adapted") included — not in an aside, not another thing's date:
  "Bradbury's 1953 novel", "her 1990 album Solitude Standing" (that date is the album's, when the words between
  name its class and it holds one time property).
Every threshold is a share measured in the graph (schema.py); no property or word is listed here.
"""
from __future__ import annotations

import re

from kgcheck.verifier.text.schema import classes_of
from kgcheck.verifier.text.stems import FUNCTION_WORDS
from kgcheck.verifier.text.subject import opens_main_clause
from kgcheck.verifier.text.subjectview import SubjectView
from kgcheck.verifier.text.words import WINDOW_WORDS, lower_words, named_properties, names_before, names_only_others

_OBJECT_AFTER = re.compile(r"\s+(?:the\s+|a\s+|an\s+)?", re.IGNORECASE)  # a verb and its object's name
OBJECT_DATE_WORDS = 12  # "released <object> as the album's final single on <date>": a verb, its object, then the date
# "X is a 1994 film", "X was an 1880 painting": a date that opens the subject's description.
_DESCRIBES = re.compile(r"\b(?:is|was)\s+(?:a|an|the)\s+(?:\w+\s+)?$", re.IGNORECASE)
_TITLE_YEAR = re.compile(r"\s*\(\s*")  # between a title and its year: "Son of Zorro (1950)"
_DATE_OPENS = re.compile(r"[\W_]*(?:in|by|since|from|on)\s+", re.IGNORECASE)  # "In 2009, the series ..."
_FRONTED_END = re.compile(r"\s*,\s+(?:the\s+)?", re.IGNORECASE)


def read_dates(view: SubjectView, si, subject, sentence, a, ms, dates, statements, facts, emit, taken, readers,
               claims_here=lambda: ()) -> None:
    """Claims on the dates of the sentence no other reader claimed: of the subject's time property (`view`:
    SubjectView.of the subject), or of another thing the sentence names; `claims_here()` gives the sentence's
    claims so far."""
    schema, held, class_props, blocked = view.schema, view.held, view.class_props, view.blocked
    lexicon = schema.lexicon()
    time_props = {p for p in held | set(class_props) if schema.datatype(p) == "time"}
    held_time = {p for p in held if schema.datatype(p) == "time"}

    def claimed_time(pid: str) -> bool:  # the sentence already dates this property of the subject
        return any(c.claim.subject_id == subject.entity_id and c.claim.property_id == pid
                   for c in claims_here())
    for s, e, _date in dates:
        if taken(a + s, a + e):
            continue
        # "the 2007 film Hannah Montana: The Movie", "her 1990 album X": the date of the name it qualifies.
        dated = _dated_name(sentence, s, e, [x for x in ms if x.entity_id != subject.entity_id], a, statements, facts,
                            schema) if "types" in readers else None
        if dated:
            emit(si, dated[0], dated[1], a + s, a + e, reader="types")
            continue
        # Only words before the date: after it they tend to belong to the next date of a list
        # ("a video game in 1989 (released in North America ... in 1991)").
        near = named_properties(sentence, s, lexicon, blocked=blocked)  # (distance in words, property)
        named = [p for d, p in near if schema.datatype(p) == "time"]
        # Words naming only events things of the subject's class never have: the date is another thing's
        # ("discovered on 24 November 1973" is no date of Switzerland, where a sentence about an asteroid whose
        # name the gazetteer missed falls).
        foreign = bool(named) and not any(view.may_hold(p) for p in named)
        if "words" in readers:
            found = [p for p in named if p in time_props]
            if found:
                emit(si, subject, found[0], a + s, a + e, reader="words")
                continue
            # "Sire Records released La Isla Bonita ... on February 25, 1990": the date's property is one the
            # subject lacks; the nearest other thing named that holds it is what the date is about.
            # Only when the subject cannot hold it: a journal "established in 2002 by X, and published by Y" the
            # graph gives no inception is still the one established, not Y.
            holders = [x for x in ms if x.entity_id != subject.entity_id and
                       any(st.property in named for st in statements.get(x.entity_id, ()))] if foreign else []
            if holders:
                x = min(holders, key=lambda x: abs(x.start - a - s))
                pid = next(p for p in named if any(st.property == p for st in statements.get(x.entity_id, ())))
                emit(si, x, pid, a + s, a + e, reader="words")
                continue
            # The property word may stand further back, before the thing it dates ("Sire Records released La Isla
            # Bonita as the album's final single on February 25, 1990"): the word's object, when it holds the
            # property, is what the date is about.
            if not named:
                owner = _dated_object(sentence, a, s, subject, ms, statements, lexicon, schema, blocked)
                if owner:
                    emit(si, owner[0], owner[1], a + s, a + e, reader="words")
                    continue
            # "X was released in 1998" of a subject holding one time property, not the one the words name:
            # the sentence dates the subject's one known event (a date already claimed with it stops this).
            if named and not foreign and len(held_time) == 1 and not claimed_time(next(iter(held_time))):
                emit(si, subject, next(iter(held_time)), a + s, a + e, reader="words")
                continue
        if not time_props:
            continue
        if "types" in readers and len(held_time) == 1 and 0 <= subject.end - a <= s and \
                _TITLE_YEAR.fullmatch(sentence, subject.end - a, s):
            emit(si, subject, next(iter(held_time)), a + s, a + e, reader="types")  # "Son of Zorro (1950)"
            continue
        # "X is a 1994 film": X before the date ("… is a 2001 film …, shown in Mitaka, Japan" describes no Japan).
        if "types" in readers and subject.end - a <= s and (
                _next_to_class_noun(sentence, s, e, view.classes, facts) or _DESCRIBES.search(sentence, 0, s)):
            best = max(sorted(time_props), key=lambda p: (p in held, class_props.get(p, 0.0), schema.usage(p)))
            emit(si, subject, best, a + s, a + e, reader="types")
            continue
        # "If All Goes Wrong was screened ... in October 2010": the sentence's one date, after the subject it
        # opens with, on a subject the graph knows one dated event of, is that event's date — unless it dates
        # another thing ("her 1990 album Solitude Standing", "Bradbury's 1953 novel") or that event is dated
        # already, or it stands in an aside ("in Graz (a city that hosted a festival in 1996)"). A bare year in
        # brackets after a title ("a song ... from the album Animal (2008)") and a date the sentence opens on
        # ("In 2009, the series was adapted") are read: the linked reader takes them as the subject's date
        # whenever the graph agrees, so a date it does not agree with is the same reading, open to refutation
        # (on the dev file's 3,859 true sentences neither added a false alarm).
        if "types" in readers and not foreign and len(dates) == 1 and len(held_time) == 1 and \
                (subject.end - a <= s or _dates_the_main_clause(sentence, s, e, subject.start - a)) and \
                opens_main_clause(sentence, subject.start - a, subject.end - a) and \
                (sentence.count("(", 0, s) <= sentence.count(")", 0, s) or _in_bare_brackets(sentence, s, e)) and \
                not claimed_time(next(iter(held_time))) and \
                not names_only_others(sentence, s, next(iter(held_time)), view.may_hold, near) and \
                not _dates_another_thing(sentence, s, e, [(x.start - a, x.end - a) for x in ms if x != subject]) and \
                not _dates_the_name_before(sentence, s, [(x.start - a, x.end - a) for x in ms if x != subject and
                                                         _related(subject, x, statements, claims_here())]):
            emit(si, subject, next(iter(held_time)), a + s, a + e, reader="types")


_PREPOSITION_TO_DATE = re.compile(r"\s*,?\s*(?:in|on|during)\s+(?:the\s+)?", re.IGNORECASE)


def _dates_the_name_before(sentence: str, start: int, names: list[tuple[int, int]]) -> bool:
    """One of NAMES stands right before the date, a preposition between: "received the Nobel Peace Prize in 2009"
    dates the prize's award (a qualifier of that statement), not the subject's one dated event (a birth)."""
    return any(e <= start and _PREPOSITION_TO_DATE.fullmatch(sentence, e, start) for _, e in names)


def _related(subject, x, statements: dict, claims) -> bool:
    """Is X something the subject's statements are about — the graph links the two either way, or the sentence
    claims X of the subject — rather than a place the event happened at ("screened at a festival in Graz")?"""
    return any(st.value.entity_id == x.entity_id for st in statements.get(subject.entity_id, ())) or \
        any(st.value.entity_id == subject.entity_id for st in statements.get(x.entity_id, ())) or \
        any(c.claim.subject_id == subject.entity_id and c.start == x.start and c.end == x.end for c in claims)


def _dates_the_main_clause(sentence: str, start: int, end: int, subject_at: int) -> bool:
    """The sentence opens on the date, in a phrase of its own before the subject ("In 2009, the series was
    adapted"): the linked reader takes it as the subject's date whenever the graph agrees."""
    return bool(_DATE_OPENS.fullmatch(sentence, 0, start) and _FRONTED_END.fullmatch(sentence, end, subject_at))


def _dated_object(sentence, a, at, subject, ms, statements, lexicon, schema, blocked):
    """(mention, property) for "<time property word> [the] <mention> ... <date at `at`>" in one clause, at most
    OBJECT_DATE_WORDS words apart: the mention right after the word (its object, not the subject) that holds
    the property. The nearest such word decides ("created by X, that aired on NBC ... on <date>" is an air date,
    and NBC has none: no claim); a word not right before a name is no verb of it ("a former Peruvian politician
    who served as the President of Peru from 28 July 1990": "former" is no "formed")."""
    names = [(end, p) for end, _, p in names_before(sentence, at, lexicon, OBJECT_DATE_WORDS, blocked)
             if schema.datatype(p) == "time"]
    if not names:
        return None
    nearest = max(end for end, _ in names)
    pids = [p for end, p in names if end == nearest]
    for x in ms:
        if x.entity_id != subject.entity_id and nearest <= x.start - a and x.end - a <= at and \
                _OBJECT_AFTER.fullmatch(sentence, nearest, x.start - a):
            held = {st.property for st in statements.get(x.entity_id, ())}
            pid = next((p for p in pids if p in held), None)
            if pid:
                return x, pid
    return None


def _in_bare_brackets(sentence: str, start: int, end: int) -> bool:
    """The date at sentence[start:end] is all its brackets hold: "Animal (2008)"."""
    return bool(re.search(r"\(\s*$", sentence[:start]) and re.match(r"\s*\)", sentence[end:]))


def _dates_another_thing(sentence: str, start: int, end: int, names: list[tuple[int, int]]) -> bool:
    """The date at sentence[start:end] belongs to another thing: a possessive stands before it ("Bradbury's 1953
    novel"), or only content words (no function word, no punctuation, at most WINDOW_WORDS) lead from it to a
    name or a capitalised word ("her 1990 album Solitude Standing", "the 1966 collection Octopussy"; not "2020
    by the group Lancelot")."""
    if re.search(r"['’]s\s+$", sentence[:start]):
        return True
    starts = {s for s, _ in names}
    first = next(((ws, word) for ws, _we, word in lower_words(sentence, end, len(sentence))[:WINDOW_WORDS + 1]
                  if sentence[ws].isupper() or ws in starts), None)
    return first is not None and first[1] not in FUNCTION_WORDS and _content_words_only(sentence, end, first[0])


def _dated_name(sentence, s, e, others, a, statements, facts, schema):
    """(mention, property) when the date at sentence[s:e] qualifies another name the way an adjective does: after
    a determiner or a possessive, followed by content words with a noun of that name's classes among them, then the
    name ("the 2007 film Hannah Montana: The Movie", "her 1990 album Solitude Standing"); the name's one time
    property is what the date gives (a name holding several leaves no way to tell which)."""
    if not re.search(r"(?:\b(?:the|a|an|his|her|its|their)|['’]s)\s+$", sentence[:s], re.IGNORECASE):
        return None
    for x in others:
        if x.start - a < e or not _content_words_only(sentence, e, x.start - a):
            continue
        times = {st.property for st in statements.get(x.entity_id, ()) if schema.datatype(st.property) == "time"}
        if len(times) == 1 and _next_to_class_noun(sentence, s, e, classes_of(x.entity_id, statements), facts,
                                                   until=x.start - a):
            return x, next(iter(times))
    return None


def _content_words_only(sentence: str, start: int, end: int) -> bool:
    """Between offsets: at most WINDOW_WORDS words, none a function word, no punctuation."""
    words = lower_words(sentence, start, end)
    return len(words) <= WINDOW_WORDS and not re.search(r"[^\w\s'’-]", sentence[start:end]) and \
        not any(w in FUNCTION_WORDS for _, _, w in words)


def _next_to_class_noun(sentence: str, s: int, e: int, classes: set[str], facts, until: int | None = None) -> bool:
    """A date within a few words before a noun naming one of the subject's classes ("a 1994 Japanese
    animated film", "the 2003 album")."""
    if not classes:
        return False
    facts.prefetch_labels(classes)
    heads = {(facts.label(c) or "").lower().split()[-1] for c in classes if facts.label(c)}
    after = [w[2] for w in lower_words(sentence, e, len(sentence) if until is None else until)][:WINDOW_WORDS]
    return any(w in heads or w.rstrip("s") in heads for w in after)
