"""A proper name called by its last word alone: "Rustin became the head of …" names Bayard Rustin.

Encyclopaedic and LLM prose names a person (a river, a machine) in full once and by the last word after that; a
sentence read on its own often holds only the short form. The index keeps the last word of every item's proper name
(`label_tails` in lookup.sqlite, index/build.py); a capitalised word of the text that no gazetteer name covers and
that is the last word of such names stands for one of them when the graph settles which: the one candidate linked
to the most of the text's other names (and the topic, when the text is about one), or — without a topic — the only
item whose name ends so, or, when no name links any of them, the only one holding a property the sentence's other
names are values of (a wrong value removes the link that would have picked the true one, not what the true one is).
When several candidates share the word and the text does not tell them apart, the word stays unread: a guess would
put claims on a namesake.
"""
from __future__ import annotations

import re

from kgcheck.index.text import normalise
from kgcheck.verifier.text.mentions import Mention, cased, context_links, word_spans
from kgcheck.verifier.text.nameparts import STOP, TITLES, inside_longer_name, possessive
from kgcheck.verifier.text.subject import PHRASE_OPENS

# Candidates weighed per word: "Johnson" ends hundreds of names on a full dump, and the context query grows with
# them; past this many the text would have to link one name of hundreds, a guess either way.
MAX_CANDIDATES = 64


def has_tails(kg) -> bool:
    """Indexes built before label_tails existed lack the table: the rule is then off."""
    return kg.has_lookup_table("label_tails") if hasattr(kg, "has_lookup_table") else False


def _own_word(text: str, s: int, e: int) -> tuple[int, int]:
    """The word without a possessive ending: "Pogge's" is "Pogge"."""
    return (s, e - 2) if possessive(text, e) else (s, e)


def _first_name_before(text: str, s: int, words: list[tuple[int, int]]) -> bool:
    """A capitalised word right before, even opening the sentence ("Sophie Brandt was"), makes the word part of a
    name the graph does not hold; not a title ("Dr. Young") or a word opening a phrase ("After Rustin became")."""
    before = [w for w in words if w[1] <= s]
    if not before:
        return False
    a, b = before[-1]
    word = text[a:b].rstrip(".")
    return word[:1].isupper() and text[b:s].strip() == "" and word.lower() not in STOP | TITLES and \
        not PHRASE_OPENS.fullmatch(word)


def _more_name_after(text: str, e: int, words: list[tuple[int, int]]) -> bool:
    """A capitalised word follows, past quotes or one short lower-case particle ("Ramon del Fierro Magsaysay",
    'Steven "Steve" Leslie Hooker'): the word opens a longer name, it does not end one."""
    after = [w for w in words if w[0] >= e][:2]
    if not after:
        return False
    (a, b), between = after[0], text[e:after[0][0]]
    if text[a].isupper() and re.fullmatch(r"[\s\"“”']*", between):
        return True
    particle = text[a:b]
    return len(after) == 2 and particle.islower() and len(particle) <= 3 and particle not in STOP and \
        between.isspace() and text[after[1][0]].isupper() and text[b:after[1][0]].isspace()


def read_tails(kg, text: str, sentences: list[tuple[int, int]], out: list[list[Mention]],
               about: str | None = None) -> list[list[Mention]]:
    """`out` (find_mentions' mentions per sentence) with the short names the graph settles added; the topic a text
    is about (`about`) counts as one of its names."""
    if not has_tails(kg):
        return out
    words = [word_spans(text, a, b) for a, b in sentences]
    loose: list[tuple[int, int, int, str]] = []  # (sentence, start, end, key)
    for si, sentence_words in enumerate(words):
        taken = [(m.start, m.end) for m in out[si]]
        for s, e in sentence_words:
            s, e = _own_word(text, s, e)
            word = text[s:e]
            key = normalise(word)
            if len(word) < 3 or not cased(word[:1]) or not any(ch.isalpha() for ch in word) or \
                    key in STOP | TITLES or any(a < e and s < b for a, b in taken) or \
                    inside_longer_name(text, s, e, sentence_words) or _first_name_before(text, s, sentence_words) or \
                    _more_name_after(text, e, sentence_words):
                continue
            loose.append((si, s, e, key))
    if not loose:
        return out
    keys = sorted({key for *_, key in loose})
    # A word that is itself a name the gazetteer knows was the gazetteer's to read (or to leave, lower-case).
    known = {r[0] for r in kg.lookup_in("SELECT DISTINCT norm FROM label_index WHERE norm IN ({in})", keys)}
    by_tail: dict[str, list[str]] = {}
    for tail, eid in kg.lookup_in("SELECT tail, id FROM label_tails WHERE tail IN ({in})", sorted(set(keys) - known)):
        by_tail.setdefault(tail, []).append(eid)
    by_tail = {k: v for k, v in by_tail.items() if len(v) <= MAX_CANDIDATES}
    if not by_tail:
        return out
    named = {m.entity_id for sentence in out for m in sentence} | ({about} if about else set())
    candidates = {i for ids in by_tail.values() for i in ids}
    links = context_links(kg, candidates | named) if named else {}
    roles: dict[str, set[str]] = {}  # the properties each name is a value of, asked once per text (_only_holder)
    for si, s, e, key in loose:
        ids = by_tail.get(key)
        if not ids:
            continue
        support = {i: len(links.get(i, set()) & named) for i in ids}
        best = max(support.values())
        top = [i for i in ids if support[i] == best]
        # Told the topic, an answer's short name is one the graph connects to it or to the text's other names: a
        # lone namesake connected to nothing is more likely someone the graph does not hold (measured: bench/HISTORY).
        if len(top) == 1 and (best > 0 or (len(ids) == 1 and about is None)):
            chosen = top[0]
        elif best == 0 and about is None:
            chosen = _only_holder(kg, ids, [m.entity_id for m in out[si]], roles)
        else:
            chosen = None
        if chosen is not None:
            out[si] = sorted(out[si] + [Mention(s, e, text[s:e], chosen)], key=lambda m: m.start)
    return out


def _only_holder(kg, ids: list[str], others: list[str], roles: dict[str, set[str]]) -> str | None:
    """Of namesakes no name of the text links to, the one holding a property that the sentence's other names are
    values of elsewhere in the graph (their roles, kept in ROLES across calls), when exactly one does: "Johnson is a
    veteran of two space flights, STS-123 and STS-119" is the one Johnson with an astronaut mission, whichever
    missions the graph gives him — a wrong mission removes the link that would have named him, not what he is. A role
    every namesake or none holds (a country, a class) tells nothing."""
    from kgcheck.verifier.text.schema import INSTANCE_OF, GraphSchema

    if len(ids) < 2 or not others:
        return None
    unknown = [o for o in others if o not in roles]
    for eid, role in GraphSchema.of(kg).roles(unknown).items() if unknown else ():
        roles[eid] = {pid for pid in role if pid != INSTANCE_OF}
    wanted = set().union(*(roles[o] for o in others))
    if not wanted:
        return None
    statements = kg.statements_for(ids, properties=tuple(sorted(wanted)))
    holders = [i for i in ids if statements.get(i)]
    return holders[0] if len(holders) == 1 else None
