"""Readers that take the claim from the sentence's words, not from what the graph already links.

A false claim is exactly one the graph does not hold, so a reader that only reports the graph's links
never sees it. These readers read a relation from the sentence and let the graph judge:

- "words": a property's label or alias (the index's lexicon, stemmed: "directed" meets "director")
  stands right before a value ("directed by X", "born in X", "published since 1991"). Kept when the
  subject (or its class, measured in the graph) holds the property and the value fits it: the value's
  *role* (the properties it is a value of elsewhere in the graph) decides when it has one, else its
  class against the classes of the property's values.
- "types": no property word, but the value is like the subject's values of one property (same class,
  or that property is among its roles; a clear best or nothing), or of the kind the subject's held property
  most likely takes (`SubjectView.filled_by_kind`: a guess, made only if no other reader claims the span);
  lower-case names by their role: descriptions.py. An item claim the types reader guessed is
  REFUTED only when the claimed and the graph's values are of a kind (verify.py), else NOT_ENOUGH_INFO.
A property word's value is the first name after it, or a list going on from it ("starring A, B and C").
Dates are read in dating.py, with these words' lexicon.
Every threshold is a share measured in the graph (schema.py); no property or word is listed here.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kgcheck.verifier.text.fit import entity_may_be_value, fits_value, may_be_value
from kgcheck.verifier.text.namesakes import namesake_fitting
from kgcheck.verifier.text.schema import INSTANCE_OF, classes_of
from kgcheck.verifier.text.stems import FUNCTION_WORDS, PREPOSITIONS, stem
from kgcheck.verifier.text.subjectview import WORD as _WORD, SubjectView
from kgcheck.verifier.text.triggerwords import (DETOUR, DETOUR_WORDS, OBJECT_OPENS, TRIGGERS, clause_start,
                                               word_right_before, word_says)
from kgcheck.verifier.values import inside_dates

WINDOW_WORDS = 5  # property words at most this many words before the value ("was directed by X")
AFTER_WORDS = 3  # or, for a date, this many after it ("in 1991 it was founded" is rarer: kept short)
_FUNCTION_STEMS = frozenset(stem(f) for f in FUNCTION_WORDS)  # what may sit inside a name's words
# A subject's verb right after it, past the marks that close a title ("O Land of Beauty! was", "“Thriller” was").
VERB_AFTER = re.compile(r"(?:\s*[?!\"”’])*\s+(?:is|was|are|were|has|had)\b", re.IGNORECASE)
_ASIDE_OPENS = re.compile(r"\s*[(\[]")  # a bracketed aside right after a name
OF_THEN = re.compile(r"\s+of\s+(?:(?:the|a|an)\s+)?", re.IGNORECASE)  # "tributary of the Nile": the value at "of"
_PARTICLE_BEFORE = re.compile(r"\b(?:" + "|".join(sorted(PREPOSITIONS)) + r")\s+(?:(?:the|a|an)\s+)?$", re.IGNORECASE)


def lower_words(sentence: str, lo: int, hi: int) -> list[tuple[int, int, str]]:
    return [(m.start() + lo, m.end() + lo, m.group().lower()) for m in _WORD.finditer(sentence[lo:hi])]


def _says_another(sentence: str, at: int, pid: str, schema, eid: str, statements) -> bool:
    """Does the nearest property word before the value at AT name another relation, one of places, the value may be
    of ("born in Switzerland" of a Canadian: a birthplace, the words' — not a citizenship guessed from the value's
    type)? Places only: "written and directed by X" may still be a screenwriter by type, the word naming another."""
    said = word_says(sentence, at, {p for p in TRIGGERS if schema.datatype(p) == "wikibase-item"})
    return said is not None and said != pid and schema.places(said) and \
        entity_may_be_value(schema, eid, statements, said)


def names_only_others(sentence: str, at: int, pid: str, may_hold, named: list[tuple[int, str]]) -> bool:
    """Lexicon names (NAMED: named_properties before AT) end in the preposition right before the value at AT, none
    of PID or of a relation the subject may hold (SubjectView.may_hold): "Obama was elected in 2008", "became
    president in 2009" (a country's head of state) name another thing's event: the date is no ground for the
    subject's one dated event (dating.py)."""
    if not _PARTICLE_BEFORE.search(sentence, 0, at):
        return False
    right_before = {p for d, p in named if d == 0}
    return bool(right_before) and pid not in right_before and not any(may_hold(p) for p in right_before)


def named_properties(sentence: str, at: int, lexicon, *, end: int | None = None,
                     blocked=lambda s, e: False, holder_after_of=lambda name: False) -> list[tuple[int, str]]:
    """(distance in words, property) for each property whose whole name (content words, in order) ends at
    most WINDOW_WORDS words before offset `at` in the same clause; with `end`, also names starting at most
    AFTER_WORDS words after `end` (distance counted from 100, so a name before wins). holder_after_of(name): is a
    name not ending in "of" itself, followed by "of", said of what holds the value rather than of the value at `at`
    ("a tributary of the Nile": the Nile holds the tributary, holders.py reads it; not "the constellation of
    Cetus", which is a constellation)?"""
    out: dict[str, int] = {}
    for _, distance, pid in names_before(sentence, at, lexicon, WINDOW_WORDS, blocked, holder_after_of):
        out.setdefault(pid, distance)
    if end is not None:
        after = [w for w in lower_words(sentence, end, len(sentence)) if not blocked(w[0], w[1])][:AFTER_WORDS + 2]
        stems_after = [stem(w[2]) for w in after]
        for k in range(min(len(stems_after), AFTER_WORDS + 2)):
            for name in lexicon.get(stems_after[k], ()):
                if _start_of(name.words, stems_after, k) >= 0 and name.pid not in out:
                    out[name.pid] = 100 + k
    return sorted((d, p) for p, d in out.items())


def names_before(sentence: str, at: int, lexicon, window: int, blocked=lambda s, e: False,
                 holder_after_of=lambda name: False):
    """(offset after the name, distance in content words to `at`, property), nearest first, for each property name
    ending at most `window` words before offset `at` in the same clause (words inside names do not count), or a
    name ending in a particle further back whose particle a DETOUR brings right before `at`;
    not a name inside a longer one found there, nor a name without a particle that "of" and the value at `at`
    follow when holder_after_of(name)."""
    before = [w for w in lower_words(sentence, clause_start(sentence, at), at) if not blocked(w[0], w[1])]
    stems = [stem(w[2]) for w in before]
    near = len(stems) - window  # the first word of the window; names ending before it need a DETOUR
    found = []  # (first word, last word, name) of each name ending in the window (or past it, a DETOUR further)
    for k in range(len(stems) - 1, max(-1, near - 1 - DETOUR_WORDS), -1):
        found += [(first, k, name) for name in lexicon.get(stems[k], ())
                  if (name.particle or k >= near) and (first := _start_of(name.words, stems, k)) >= 0]
    for first, k, name in found:
        distance = len([s for s in before[k + 1:] if s[2] not in FUNCTION_WORDS])
        if k < near:  # "born on 3 May 1950 in X": only its particle after the detour reaches X
            if _particle_opens(sentence, before[k][1], at, name.particle):
                yield before[k][1], distance, name.pid
            continue
        # A longer name owns its words: "cast member of X" is no "member of X", "country for sport of X" no "country".
        if any(f <= first and k <= last and len(other.words) > len(name.words) for f, last, other in found):
            continue
        after = before[k + 1][2] if k + 1 < len(before) else None
        # and so does a name whose particle the text has right before the value: "played for X" (or "played in 1990
        # for X") is no bare "played" (participant); "published in 1801 by X" keeps "published" for 1801.
        if name.particle is None and any(f == first and last == k and other.particle and
                                         _particle_opens(sentence, before[k][1], at, other.particle)
                                         for f, last, other in found):
            continue
        if name.particle is None and OF_THEN.fullmatch(sentence, before[k][1], at) and holder_after_of(name):
            continue
        # A time or place may stand between the name and its particle ("published in 1928 by X": DETOUR).
        if name.particle is None or name.particle == after or \
                _particle_opens(sentence, before[k][1], at, name.particle):
            yield before[k][1], distance, name.pid


def _particle_opens(sentence: str, name_end: int, at: int, particle: str) -> bool:
    """The name ending at `name_end` is followed by its particle right before the value at `at`, maybe past a time or
    place ("published in 1928 by")."""
    return bool(_then_particle(particle).fullmatch(sentence, name_end, at))


@lru_cache(maxsize=None)
def _then_particle(particle: str) -> re.Pattern:
    return re.compile(rf"\s+(?:{DETOUR}\s+)?(?i:{re.escape(particle)}{OBJECT_OPENS.pattern})")


def long_name_spans(sentence: str, lexicon) -> list[tuple[int, int, str]]:
    """(start, end, property) of each property name of two or more content words in the sentence ("country for
    sport", "cast member"): its words are that name's, not a shorter name's or a trigger word's ("sport")."""
    words = lower_words(sentence, 0, len(sentence))
    stems = [stem(w[2]) for w in words]
    return [(words[first][0], words[k][1], name.pid) for k in range(len(stems)) for name in lexicon.get(stems[k], ())
            if len(name.words) > 1 and (first := _start_of(name.words, stems, k)) >= 0]


def _start_of(words: tuple[str, ...], stems: list[str], k: int) -> int:
    """Where the name whose last content word is at position k starts (function words may sit between its words),
    or -1 when its words are not there in order."""
    i = k
    for w in reversed(words):
        while i >= 0 and stems[i] != w:
            if stems[i] not in _FUNCTION_STEMS and i != k:
                return -1
            i -= 1
        if i < 0:
            return -1
        i -= 1
    return i + 1


def class_words(classes, facts) -> set[str]:
    """The stems of the words of these classes' labels ("constellation", "river", "film")."""
    return {stem(w) for c in classes for w in _WORD.findall((facts.label(c) or "").lower())}


def read_words(view: SubjectView, si, subject, sentence, a, ms, dates, statements, value_classes, facts, emit, taken,
               linked, readers, held_by=frozenset(), guess=None) -> None:
    """Claims about the sentence's subject (`view`: SubjectView.of it) read from its words (reader "words") or the
    types of its values (reader "types"), for the mentions no other reader claimed (its dates: dating.py).
    held_by: (name, property) pairs the sentence says hold the subject as a value (holders.py), not its values.
    guess: takes the claims read off a property's kind alone (emit's arguments), to be made if no other reader
    claims their span (default: emit)."""
    guess = guess or emit
    schema, held, class_props, names, blocked = view.schema, view.held, view.class_props, view.names, view.blocked
    lexicon = schema.lexicon()
    own = statements.get(subject.entity_id, [])
    roles = schema.roles([x.entity_id for x in ms]) if "types" in readers else {}

    for m in ms:
        if inside_dates(m.start - a, m.end - a, dates):
            continue  # "January" of a date is no value
        if m.entity_id == subject.entity_id or taken(m.start, m.end) or \
                frozenset((subject.entity_id, m.entity_id)) in linked:
            continue
        m_classes = classes_of(m.entity_id, statements)
        role = roles.get(m.entity_id, {})

        def fits(p: str) -> bool:  # an entity the graph knows nothing of fits any property
            return fits_value(schema, role, m_classes, p, unknown=True)

        if "words" in readers:
            # "a tributary of the Nile": the Nile holds the tributary (holders.py), unless the Nile's class is
            # what the word names ("the constellation of Cetus": Cetus is one).
            kinds = class_words(m_classes, facts)
            named = [(d, p) for d, p in named_properties(sentence, m.start - a, lexicon, blocked=blocked,
                                                         holder_after_of=lambda name: name.words[-1] not in kinds)
                     if schema.datatype(p) == "wikibase-item" and view.may_be_named(p)
                     and (m.entity_id, p) not in held_by]
            found = [(d, p) for d, p in named if fits(p)]
            by_role = bool(found)
            particle = None if found else _PARTICLE_BEFORE.search(sentence, 0, m.start - a)
            if particle:  # not "publishing director Charb"
                # "directed by" an actor a sparse graph lists as no director: by class (or its role's: a cast member is
                # human), or as a container of its values ("born in France"), if unambiguous.
                inside = {p for d, p in named if d == 0 and schema.said_as_container(m.entity_id, p, particle.group())}
                by_class = [(d, p) for d, p in named if d == 0 and (p in inside or
                            may_be_value(schema, role, m_classes or schema.role_classes(role), p))]
                found = by_class if len(by_class) == 1 else []
            if particle and not found and any(d == 0 for d, _ in named):
                # "born in Chicago" where the gazetteer took the band: the one namesake that fits the words' relation
                relinked = namesake_fitting(schema.kg, schema, m, [p for d, p in named if d == 0])
                if relinked:
                    (m, fitted), by_role = relinked, True
                    found = [(0, p) for p in fitted]
            nearest = found[0][0] if found else None
            named_here = [p for d, p in found if d == nearest]
            # A word naming several properties, none of which the subject or its classes hold ("played for
            # Malaysia": instrument, performer, sports team, narrative location...): the words do not say which;
            # the value's type against the subject's own properties may ("types" below).
            if len(named_here) > 1 and not any(p in held or p in class_props for p in named_here):
                found = []
            # The word's value is the first name after it: "a sequel, Lolo 2, that was released in Japan" (a list
            # of names goes on: "starring A, B and C").
            # (the subject is no competing value: "The director of Titanic is X")
            others = [n for n in names if n != (subject.start - a, subject.end - a)]
            if found and _named_before_it(sentence, m.start - a, lexicon, blocked, set(named_here), others):
                found = []
            if found:
                best = view.likeliest(named_here)
                emit(si, subject, best, m.start, m.end, m.entity_id, reader="words")
                # "written and produced by X": every property the words name that the subject holds.
                for d, p in found:
                    if p != best and p in held:
                        emit(si, subject, p, m.start, m.end, m.entity_id, reader="words")
                if by_role:  # else the role may still read another relation the words give ("written and directed")
                    continue
        if "types" in readers:
            # The subject's properties whose values are like m: values sharing a class with m, or m being a
            # value of that property elsewhere in the graph (its role).
            scores: dict[str, tuple] = {}
            # The held property a value of m's kind most likely fills (a language: "languages spoken"), else the one
            # its kind is named after ("a film production company": production company), fits m though none of the
            # subject's own values shares its class, unless a trigger word before m names another m may be a value
            # of ("directed by" a person; not "wrote ... in Pashto": a language is no author).
            likeliest = view.filled_by_kind(m_classes) if m_classes else None
            one_kind = {likeliest} if likeliest in held else set()
            if not one_kind and m_classes:
                named = view.named_by_kind(m_classes, facts.label)
                one_kind = named if len(named) == 1 else set()
            said = word_says(sentence, m.start - a, set(TRIGGERS)) if one_kind else None
            if said and said not in one_kind and schema.datatype(said) == "wikibase-item" and \
                    may_be_value(schema, role, m_classes, said):
                one_kind = set()
            shared: set[str] = set()  # properties one of whose own values shares a class with m
            for st in own:
                v = st.value.entity_id
                if not v or v == m.entity_id or st.property == INSTANCE_OF:
                    continue  # what the subject is, not what it is related to
                if m_classes and value_classes.get(v, set()) & m_classes:
                    shared.add(st.property)
                same_class = st.property in shared or st.property in one_kind
                if (same_class or role.get(st.property)) and (m.entity_id, st.property) not in held_by:
                    scores[st.property] = (role.get(st.property, 0), same_class)
            if scores:
                ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
                # The trigger word before m may name a property the subject holds with values of m's kind though
                # none shares its class ("born in Paris" of a man born in Cambridge, who lived in Paris): that one,
                # stated by the word (the triggers reader's tag), not guessed from the type.
                of_kind_only = {p for p in one_kind & set(scores) if p not in shared and not role.get(p)}
                kind = {p for p in held - (set(scores) - of_kind_only) if p != INSTANCE_OF
                        and schema.datatype(p) == "wikibase-item" and may_be_value(schema, role, m_classes, p)}
                said = word_says(sentence, m.start - a, set(scores) | kind) if len(ranked) > 1 or kind else None
                if said:  # "won the Academy Award for Best Actor": awarded, though nominations outnumber awards
                    # stated when the word stands right before the value, else a type's guess the word broke a tie of
                    stated = said in kind or word_right_before(sentence, m.start - a, said)
                    emit(si, subject, said, m.start, m.end, m.entity_id, reader="triggers" if stated else "types")
                elif len(ranked) == 1 or ranked[0][1] > ranked[1][1]:  # a clear best, else no claim
                    best = ranked[0][0]
                    if word_right_before(sentence, m.start - a, best):  # "filmed in Ottawa": stated, not guessed
                        emit(si, subject, best, m.start, m.end, m.entity_id, reader="triggers")
                    elif not _says_another(sentence, m.start - a, best, schema, m.entity_id, statements):
                        # read off the property's kind alone: the last guess, after the readers that go by words
                        (guess if best in of_kind_only else emit)(si, subject, best, m.start, m.end, m.entity_id,
                                                                  reader="types")


def past_asides(sentence: str, at: int) -> int:
    """The offset after the bracketed asides that follow `at` ("Renaud Lavillenie ([.no la.vi.l.ni]; born 1986) is a
    French pole vaulter": the description follows the name once its asides are read past)."""
    while m := _ASIDE_OPENS.match(sentence, at):
        depth = 0
        for i in range(m.end() - 1, len(sentence)):
            depth += (sentence[i] in "([") - (sentence[i] in ")]")
            if depth == 0:
                break
        else:
            return at  # an aside left open: nothing after it is the description's
        at = i + 1
    return at


# After a name, what leads on to the next one as the same word's value: a list ("A, B and C"), or the first name's
# possessive and a noun ("William Shakespeare's play Macbeth").
_LIST_GOES_ON = re.compile(r"\s*(?:,|,?\s*(?:and|or|&))\s*(?:(?:the|a|an)\s+)?|['’]s?(?:\s+[a-z][\w-]*)*\s+",
                           re.IGNORECASE)


def _named_before_it(sentence: str, at: int, lexicon, blocked, pids: set[str], names) -> bool:
    """Another name stands between the nearest word naming one of `pids` and the name at `at`, and what follows
    that name is not a list or a possessive going on to this one."""
    ends = [end for end, _, p in names_before(sentence, at, lexicon, WINDOW_WORDS, blocked) if p in pids]
    if not ends:
        return False
    word_end = max(ends)
    between = sorted((s, e) for s, e in names if word_end <= s and e <= at)
    if not between:
        return False
    # The first of them is the word's object only when it follows the word and its particle directly ("a sequel,
    # Lolo 2, that ...", "nominated for a Grammy Award"; not "published in Japanese by Viz Media").
    word = lower_words(sentence, 0, word_end)[-1][2]
    particles = {n.particle for n in lexicon.get(stem(word), ()) if n.pid in pids and n.particle}
    opens = re.match(r"\s*(\w+)\s", sentence[word_end:])
    start = word_end + opens.end(1) if opens and opens.group(1).lower() in particles else word_end
    return bool(OBJECT_OPENS.fullmatch(sentence, start, between[0][0])) and \
        not _LIST_GOES_ON.fullmatch(sentence, between[-1][1], at)
