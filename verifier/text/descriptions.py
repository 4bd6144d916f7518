"""The types reader's lower-case values: names inside the subject's description ("is an Ethiopian sport cyclist") and
lower-case names elsewhere in the sentence ("represents Spain in international women's floorball"), each a claim on
the subject's property that such values fill in the graph (their role), when the subject holds it. Reader "types"
(words.py reads the capitalised names)."""
from __future__ import annotations

import re

from kgcheck.verifier.text.schema import INSTANCE_OF, classes_of
from kgcheck.verifier.text.referents import CLASS_LINKS
from kgcheck.verifier.text.subjectview import content_stems, whole_names
from kgcheck.verifier.text.words import OF_THEN, long_name_spans, past_asides
from kgcheck.verifier.values import inside_dates


def read_descriptions(si, subject, sentence, a, weak, view, emit, taken, dates) -> None:
    """Both readers of this module on one sentence (`view`: words.SubjectView of its subject)."""
    described_as(si, subject, sentence, a, weak, view, emit, taken)
    lower_case_values(si, subject, sentence, a, weak, view, emit, taken, dates)


# "X is an Ethiopian sport cyclist who ...": the words after the copula, up to a clause word, describe X.
# A comma before a lower-case word continues it ("an absurdist, existential tragicomedy"); before a name or a clause
# word it ends it.
_CLAUSE_WORDS = r"who|which|that|by|from|with|in|on|at|for|and|of|known|based|located|written|directed|produced"
_GOES_ON = r",(?=\s+(?!(?:" + _CLAUSE_WORDS + r")\b)[a-z])"
# "and"/"or" before a lower-case word that opens no clause joins two words of it ("a reggaeton and ragtime song", "an
# American actor and director"); before a clause word or a name it ends it.
_JOINS = r"\s+(?:and|or)(?=\s+(?!(?:" + _CLAUSE_WORDS + r")\b)[a-z])"
_DESCRIPTION = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the)\s+((?:[^,;:()]|" + _GOES_ON + r")*?)"
                          r"(?=(?!" + _JOINS + r")\s+(?:" + _CLAUSE_WORDS + r")\b|(?!" + _GOES_ON + r")[,;:()]|$)")


def described_as(si, subject, sentence, a, weak, view, emit, taken) -> None:
    """Lower-case names inside the subject's description (genre, occupation...): each a claim on the subject's
    property that such values fill elsewhere in the graph (their role), or else the one its kind is named after
    (words.SubjectView.named_by_kind), when the subject holds it."""
    held, schema = view.held, view.schema
    after = past_asides(sentence, max(0, subject.end - a))
    m = _DESCRIPTION.search(sentence, after)
    if not m or m.start() - after > 40:
        return
    lo, hi = m.start(1), m.end(1)
    if OF_THEN.match(sentence, hi) and whole_names(content_stems(m.group(1)), schema.lexicon()):
        return  # "X is the narrative location of Y": a relation to Y (holders.py reads it), not what X is
    # a shorter claimed word inside ("novel" of "romance novel", linked as its class) does not stop it
    inside = [w for w in weak if lo <= w[0] - a and w[1] - a <= hi]
    roles = schema.roles({i for _, _, ids in inside for i in ids})

    def held_role(ids):
        return max(((n, pid, eid) for eid in ids for pid, n in roles.get(eid, {}).items()
                    if pid in held and pid != INSTANCE_OF), default=None)

    unplaced = []
    for s, e, ids in _longest_apart(inside):
        best = held_role(ids)
        if best:
            emit(si, subject, best[1], s, e, best[2], reader="types")
        else:
            unplaced.append((s, e, ids))
    if unplaced:  # no role: the property its kind is named after ("farce", a comedic genre: genre)
        every = {i for _, _, ids in unplaced for i in ids}
        fetched = schema.kg.statements_for(every, properties=(INSTANCE_OF,))
        classes = {i: classes_of(i, fetched) for i in every}
        labels = schema.kg.labels(set().union(*classes.values()))
        for s, e, ids in unplaced:
            pids = {(pid, eid) for eid in ids for pid in view.named_by_kind(classes[eid], labels.get)}
            if len({pid for pid, _ in pids}) == 1:
                pid, eid = min(pids, key=lambda pe: ids.index(pe[1]))
                emit(si, subject, pid, s, e, eid, reader="types")
            else:  # nor that: a word inside it may have a role ("cello" of "cello concerto", a title in the graph)
                placed = [(ws, we, held_role(wids)) for ws, we, wids in inside
                          if s <= ws and we <= e and we - ws < e - s]
                for ws, we, best in _longest_apart(w for w in placed if w[2]):
                    emit(si, subject, best[1], ws, we, best[2], reader="types")


def _longest_apart(weak) -> list[tuple]:
    """The weak mentions, longest first, each kept unless it overlaps one kept before it."""
    chosen: list[tuple] = []
    for w in sorted(weak, key=lambda w: w[0] - w[1]):
        if not any(c[0] < w[1] and w[0] < c[1] for c in chosen):
            chosen.append(w)
    return chosen


# The rest of a noun phrase (lower-case words, no function word), then a capitalised name.
_BEFORE_A_NAME = re.compile(r"(?:\s+(?!(?:and|or|of|in|on|at|by|for|with|to|from|as|the|a|an)\b)[a-z][\w'’-]*)*"
                            r"\s+[\"'“]?[A-Z]")
# "married to fellow tennis player Steffi Graf": the words before the name describe the subject as well.
_FELLOW = re.compile(r"\bfellow\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


def lower_case_values(si, subject, sentence, a, weak, view, emit, taken, dates) -> None:
    """Lower-case names elsewhere in the sentence ("represents Spain in international women's floorball
    competitions", "a set of three solo cello works"): a claim on the subject's property when that property is
    what the name is mostly for in the graph among the properties a subject like this one may hold — its own, its
    classes', those the holders of its own also hold (an oboe is mostly a musician's instrument, which no concerto
    holds: a concerto's oboe is its instrumentation) — and the subject holds it. A word the graph uses mostly
    otherwise (a class, a sex) says nothing of the subject: the class links count whatever the subject holds."""
    held, schema, names = view.held, view.schema, view.names
    relations = long_name_spans(sentence, schema.lexicon())

    def free(w) -> bool:
        s, e = w[0] - a, w[1] - a
        # Lower-case only: a capitalised weak mention is a word cut out of a longer name ("General" of "PLA
        # General Political Department"), no value of its own; nor one right before a name: it describes that
        # name ("the musical drama film Double Platinum") unless "fellow" shares it with the subject; nor a word of a
        # property's name ("narrative location").
        return not (any(ch.isupper() for ch in sentence[s:e])
                    or _BEFORE_A_NAME.match(sentence, e) and not _FELLOW.search(sentence, 0, s)
                    or taken(w[0], w[1]) or any(ns < e and s < ne for ns, ne in names) or inside_dates(s, e, dates)
                    or any(rs <= s and e <= re_ for rs, re_, _ in relations))

    chosen = _longest_apart(w for w in weak if free(w))
    if not chosen:
        return
    roles = schema.roles({i for _, _, ids in chosen for i in ids})
    possible = held | set(view.class_props) | set(schema.profile_properties(held)) | set(CLASS_LINKS)
    for s, e, ids in chosen:
        best = None
        for eid in ids:
            counts = {pid: n for pid, n in roles.get(eid, {}).items() if pid in possible}
            if not counts:
                continue
            pid, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
            if pid in held and pid not in CLASS_LINKS and 2 * n > sum(counts.values()) and \
                    (best is None or n > best[0]):
                best = (n, pid, eid)
        if best:
            emit(si, subject, best[1], s, e, best[2], reader="types")
