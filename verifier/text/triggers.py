"""The triggers reader: the claims the words of its list (triggerwords.py) make of a sentence's subject or of the
name they follow as a verb its subject (`read_triggers`), and the copula reader ("<property words> is <phrase>")
that reads values the graph has no entity for."""
from __future__ import annotations

import re

from kgcheck.verifier.text.nameparts import TITLES
from kgcheck.verifier.text.triggerwords import (COORDINATED, DATE_TRIGGER_AFTER, DATE_TRIGGER_BEFORE,
                                               ITEM_TRIGGER_WINDOW, ITEM_VALUED, TRIGGERS, word_hits)
from kgcheck.verifier.text.fit import entity_may_be_value
from kgcheck.verifier.text.namesakes import namesake_fitting
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.words import long_name_spans
from kgcheck.verifier.values import find_quantities, inside_dates
from kgcheck.verifier.values.units import unit_for_text

_PHRASE_WORD = r"(?:(?!and\b|but\b|while\b|which\b)[\w'’-]+\s?)"  # a word of the phrase after the copula
_COPULA = re.compile(r"\s+(?:is|was|are|were|has been|had been)\s+(" + _PHRASE_WORD + "{1,6})", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_AGENT = re.compile(r"by\s+(?=[A-Z])")  # "was by Robert Lord": the value follows
_AFTER_TITLE = re.compile(r"\.?\s+((?=[A-Z])" + _PHRASE_WORD + "{1,5})")  # the name after "Dr."


def unlinked_objects(sentence: str, mentions: list[tuple[int, int]], props_of: set[str], facts):
    """(property, start, end, property words) for "<property words> is <phrase>" with no entity in the phrase
    (mentions: their spans in the sentence). A phrase that a full stop joins to a name right after it is the
    name's abbreviated title ("editor was Dr. Cristanne Miller"), not a value.

    Kept when the subject lacks the property (the graph will say NOT_ENOUGH_INFO) or the phrase is a name;
    a common noun for a property the subject has ("its head of state is a king") describes the value
    rather than names it, and would be refuted wrongly.
    """
    names = [(p, w) for p, ws in TRIGGERS.items() for w in ws if facts.datatype(p) == "wikibase-item" or
             (facts.datatype(p) is None and p in ITEM_VALUED)]  # a small index may lack the property entity
    names += [(p, facts.label(p)) for p in props_of
              if facts.datatype(p) == "wikibase-item" and facts.label(p) and len(facts.label(p)) > 3]
    seen = set()
    for i, m in word_hits(sentence, [(i, (words,)) for i, (_, words) in enumerate(names)]):
        pid, words = names[i]
        copula = _COPULA.match(sentence, m.end())
        if not copula or pid in seen:
            continue
        phrase_start, phrase = copula.start(1), copula.group(1).rstrip()
        article = _ARTICLE.match(phrase)
        if article:
            phrase_start, phrase = phrase_start + article.end(), phrase[article.end():]
        agent = _AGENT.match(phrase)
        if agent:  # "The screenplay was by Robert Lord": the one it is by is the value
            phrase_start, phrase = phrase_start + agent.end(), phrase[agent.end():]
        end = phrase_start + len(phrase)
        named = _AFTER_TITLE.match(sentence, end) if phrase.lower() in TITLES else None
        if named:  # "is Dr. James Guthrie": the title's name is the value
            phrase_start, phrase = named.start(1), named.group(1).rstrip()
            end = phrase_start + len(phrase)
        if not phrase or any(start < end and phrase_start < stop for start, stop in mentions):
            continue  # an entity there is handled by the mention rule
        full_stop = re.match(r"\.\s?", sentence[end:])
        if full_stop and any(start == end + full_stop.end() for start, _ in mentions):
            continue  # "Dr." of "Dr. Cristanne Miller"
        if pid in props_of and not phrase[:1].isupper():
            continue
        seen.add(pid)
        yield pid, phrase_start, end, words


_COORDINATED = re.compile(COORDINATED, re.IGNORECASE)  # "produced| and distributed" (by)

# Between a name and the verb it is the subject of: nothing but adverbs of time ("where X later won").
_NAME_THEN_VERB = re.compile(r"\s+(?:(?:has|had|have|also|later|then|eventually|subsequently|once|finally)\s+)*")
# A name right after one of these is that word's object, not the verb's subject ("a film by X won").
_GOVERNED = re.compile(r"\b(?:by|of|from|with|for|to|in|on|at|and|or|as|than|about|into|under|over|via|"
                       r"between|including|like)\s+(?:the\s+)?$", re.IGNORECASE)


def clause_subject(sentence: str, a: int, ms, subject, value, word_start: int):
    """The name a property word follows as a verb its subject, when that is not the sentence's subject: "The film
    premiered at the Cannes Film Festival, where The White Ribbon won the Palme d'Or" — what won is The White
    Ribbon, not the festival. Not a name governed by a preposition ("a film by X won"), nor a participle's ("a film
    by Y starring Z": -ing words modify a noun before them), nor one in brackets."""
    word = re.match(r"[\w'’-]+", sentence[word_start:])
    if word is None or word.group().lower().endswith("ing"):
        return None
    for x in ms:
        if x.entity_id in (subject.entity_id, value.entity_id) or x.end - a > word_start:
            continue
        if _NAME_THEN_VERB.fullmatch(sentence, x.end - a, word_start) and \
                not _GOVERNED.search(sentence, 0, x.start - a) and not in_brackets(sentence, 0, x.start - a):
            return x
    return None


def in_brackets(text: str, start: int, at: int) -> bool:
    before = text[start:at]
    return before.count("(") > before.count(")") or before.count("[") > before.count("]")


def read_triggers(si, subject, sentence, a, ms, dates, statements, facts, emit, taken, allowed, linked,
                  held_by=frozenset()) -> None:
    """Claims about the sentence's subject that the graph may refute or not know (rule 4), or about the name the
    property word follows as a verb follows its subject (`clause_subject`); statements: each mention's; held_by:
    (name, property) pairs that hold the subject as a value (holders.py), not values of it."""
    own = statements.get(subject.entity_id, [])
    props_of = {st.property for st in own}
    word_at: dict[str, int] = {}  # where `triggered` found the nearest word (its start in the sentence)
    names = [(x.start - a, x.end - a) for x in ms]
    schema = GraphSchema.of(facts.kg)
    long_names = long_name_spans(sentence, schema.lexicon())

    def triggered(datatype: str, at: int | None = None, window: int | None = None,
                  after: int | None = None, coordinated: bool = False) -> list[str]:
        """Properties of this datatype named by the nearest property word before `at` (within `window`
        characters), else after it (within `after`; anywhere when neither limit is given). The nearest
        word decides: when its properties are not allowed, nothing is ("written by" next to a film's
        writer is no claim about its director). A word reaching `at` past participles coordinated with it
        ("produced| and distributed |by") counts only where no word reaches it directly, or with `coordinated`
        alone (the second relation of a value another reader took)."""
        direct: dict[str, tuple[int, int]] = {}  # property -> (distance, where its word starts)
        past: dict[str, tuple[int, int]] = {}  # the same for words reaching `at` past coordinated participles
        named = [(p, ws) for p, ws in TRIGGERS.items() if facts.datatype(p) == datatype]
        named += [(p, [facts.label(p)]) for p in props_of
                  if facts.datatype(p) == datatype and facts.label(p) and len(facts.label(p)) > 3]
        for pid, m in word_hits(sentence, named, value_at=at, coordinated=True):
            if any(any(s <= ps and pe <= e for s, e in names) or taken(a + ps, a + pe) for ps, pe in m.parts):
                continue  # part of a name or a claimed value ("rugby league"), not a property word
            longer = {p for s, e, p in long_names for ps, pe in m.parts if s < pe and ps < e and e - s > pe - ps}
            if longer and pid not in longer:
                continue  # words of a longer property name ("sport" of "country for sport", "cast member of")
            if at is not None and m.end() <= at:
                distance = at - m.end()
                if window is not None and distance > window:
                    continue
            elif after is not None and at is not None and m.start() - at <= after:
                distance = 10_000 + m.start() - at
            elif window is None and after is None:
                distance = 10_000 + m.start()
            else:
                continue
            into = past if m.coordinated else direct
            if distance < into.get(pid, (1 << 30,))[0]:
                into[pid] = distance, m.start()
        chosen = past if coordinated or not direct else direct
        if not chosen:
            return []
        word_at.update({p: start for p, (_, start) in chosen.items()})
        found = {p: distance for p, (distance, _) in chosen.items()}
        nearest = min(found.values())
        return sorted((p for p in found if found[p] == nearest and allowed(p)), key=lambda p: (p not in props_of, p))

    subject_bracketed = subject.start >= a and in_brackets(sentence, 0, subject.start - a)
    coordinates = bool(_COORDINATED.search(sentence))  # else a value another reader took is left to it at once
    for m in ms:
        if m is subject or m.entity_id == subject.entity_id or \
                frozenset((subject.entity_id, m.entity_id)) in linked:  # rule 3 said what links them
            continue
        if inside_dates(m.start - a, m.end - a, dates):
            continue  # "December" of "December 30, 1953"
        if in_brackets(sentence, 0, m.start - a) and not subject_bracketed:
            continue  # an aside ("Roger Kornberg (Stanford University)"): not a value of the word before it
        # A value another reader claimed is still this reader's for a second relation coordinated participles name
        # ("produced and distributed by X": the words reader took "distributed by").
        claimed = taken(m.start, m.end)
        if claimed and not coordinates:
            continue
        named = triggered("wikibase-item", m.start - a, window=ITEM_TRIGGER_WINDOW, coordinated=claimed)
        if claimed and not named:
            continue
        above = [st.property for st in own if st.value.entity_id and m.entity_id in facts.ancestors(st.value.entity_id)]
        doer = clause_subject(sentence, a, ms, subject, m, word_at[named[0]]) if named else None
        if doer is not None:
            held = {st.property for st in statements.get(doer.entity_id, ())}
            pid = next((p for p in named if p in held), None)
            if pid is not None:  # the graph gives the name that relation: the words say it of the name
                if frozenset((doer.entity_id, m.entity_id)) not in linked:
                    emit(si, doer, pid, m.start, m.end, m.entity_id, reader="triggers")
                continue
        # A held value the name contains ("born in England" of a man born in London) reads the relation the word
        # names: "born in Kenya" is no language spoken, though English is spoken in Kenya; with no word, nothing ("in
        # the United States" is no ethnic group, though the graph gives African Americans that country).
        above = [p for p in above if p in named]
        for pid in dict.fromkeys([p for p in named if p in props_of] or above or named[:1]):
            if (m.entity_id, pid) in held_by:
                break  # "a tributary of the Nile": the Nile's tributary, not the subject's
            # (not asked where neither test below reads it: a held value the name contains, of a property not held)
            fits = (above and pid not in props_of) or entity_may_be_value(schema, m.entity_id, statements, pid)
            if pid not in props_of and not above and not fits:
                break  # "(born 11 June 1939) is a British ...": a people or a language is no place of birth
            if pid in props_of and not fits:
                # "born in Chicago" of a man born elsewhere, the gazetteer's Chicago a band: the one namesake that may
                # be a birthplace (else the band, as before: the graph's birthplace still differs)
                m = (namesake_fitting(schema.kg, schema, m, [pid]) or (m,))[0]
            emit(si, subject, pid, m.start, m.end, m.entity_id, reader="triggers")
            break
    for s, e, _date in dates:
        if not taken(a + s, a + e):
            for pid in triggered("time", s, window=DATE_TRIGGER_BEFORE, after=DATE_TRIGGER_AFTER)[:1]:
                emit(si, subject, pid, a + s, a + e, reader="triggers")
    for s, e, quantity in find_quantities(sentence):
        if any(s < ds_e and e > ds_s for ds_s, ds_e, _ in dates):
            continue  # a year is not a quantity
        # a length is no area ("33.53 metres (110.0 ft) deep" after "in area"): not a property whose quantities the
        # graph gives only in units of another dimension
        unit = unit_for_text(quantity.unit_text) if quantity.unit_text else None
        for pid in [p for p in triggered("quantity", s) if unit is None or
                    unit.dimension in (schema.unit_dimensions(p) or {unit.dimension})][:1]:
            emit(si, subject, pid, a + s, a + e, reader="triggers")
    for pid, start, end, words in unlinked_objects(sentence, [(m.start - a, m.end - a) for m in ms], props_of, facts):
        if not taken(a + start, a + end):
            emit(si, subject, pid, a + start, a + end, predicate=words, reader="copula")
