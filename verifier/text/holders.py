"""The "inverse" reader: "X is the director of Y" and "X directed Y" say Y's director is X.

- A property word followed by "of" names a property of what follows it: the sentence's subject is that property's
  value, the name after "of" its holder ("The Ohio River is the largest tributary of the Mississippi", "Steven
  Spielberg was the director of Titanic", "Christopher Nolan, the director of Inception, ..."). A name whose own
  words end in "of" ("capital of", "member of", "part of") is read the other way, by words.py.
- A verb whose stem is a property's name ("directed" of "director" / "directed by", "founded" of "founded by")
  with a name right after it (or after "in" / "on" for a name that is a noun: "starred in" of "starring"), when
  the subject cannot hold the property and that name can: "Ang Lee directed Titanic" (a person holds no director;
  a film does).
The claim is (holder, property, subject), its span the subject's name, so the graph's value corrects the text
("James Cameron directed Titanic").

Kept only when the graph says, not merely does not deny, that the holder (or its classes, measured in the graph; a
holder without a class: the subjects holding what it holds) holds the property and that the subject fits it: its
role (the properties it is a value of elsewhere in the graph), or its class against the classes of the property's
values (for a name without a class, the classes its role's values mostly have). The words must be the relation's
alone: "the former capital of", "a subsidiary summit of", "the second highest summit of", "is currently managing one
of the youth teams of" qualify or replace it and read nothing. No word or property is listed here: the words
are the index's labels and aliases.
"""
from __future__ import annotations

import re

from kgcheck.index.measures import SUBCLASS_OF
from kgcheck.index.text import normalise
from kgcheck.verifier.text.fit import fits_value, may_be_value
from kgcheck.verifier.text.schema import INSTANCE_OF, GraphSchema, classes_of
from kgcheck.verifier.text.stems import FUNCTION_WORDS, stem
from kgcheck.verifier.text.subject import COPULA
from kgcheck.verifier.text.subjectview import SubjectView, content_stems, whole_names
from kgcheck.verifier.text.words import class_words, past_asides

# What joins the subject to its predicate: a copula, or a comma opening an apposition ("X, the director of Y,").
_COPULA = re.compile(COPULA + r"|"
                     r"\s*,\s*(?=(?:the|a|an|one)\s)", re.I)
# Between the copula and the holder: an article ("one of the" for a plural), at most one superlative ("the largest
# tributary"; "the former capital", "a subsidiary summit", "the second highest summit" qualify the relation, so they
# are no reading of it), the property's name (up to six words: "the language of work or name of"), "of". Any other
# word between is another phrase.
_PREDICATE = re.compile(r"(?:one\s+of\s+)?(?:the|a|an)\s+(?:[a-z]+est\s+)?((?:[a-z][\w'’-]*\s+){0,5}?[a-z][\w'’-]*)"
                        r"\s+of\s+(?:(?:the|a|an)\s+)?")
# A verb right after the subject and right before the holder ("directed", "co-founded", "also wrote the").
# "starred in" / "featured on": the name is then a noun of the holder's ("starring", "star"), never "directed by".
_VERB = re.compile(r"\s+(?:(?:also|later|first|then|co)[\s-]+)?([a-z][\w'’-]*)\s+(?:(in|on)\s+)?(?:(?:the|a|an)\s+)?")
# A name the next name follows after lower-case words only is that name's modifier ("the Tang dynasty general Guo
# Ziyi"), not the holder.
_MODIFIES_NEXT = re.compile(r"(?:\s+[a-z][\w'’-]*){1,3}\s+")
_WORD = re.compile(r"[a-z][\w'’-]*")
_OF_AFTER = re.compile(r"\s+of\s")
_PRONOUN = re.compile(r"[\s\"'“]*(he|she|it|they)\b", re.I)  # a sentence opening on its subject's pronoun


def read_holders(kg, facts, si, subject, sentence: str, a: int, ms, statements: dict, emit) -> set[tuple[str, str]]:
    """Claims (holder, property, subject) for "<subject> is [the ...] <property words> of <holder>" and "<subject>
    <property verb> <holder>" (module text); `subject` must be named in this sentence (`ms`) or the pronoun it
    opens on stand for it ("He directed Titanic"): that span is the claimed value's. Returns the (holder, property)
    pairs read: the holder is not the subject's value of that property (words.py's types reader, extract.py's
    triggers)."""
    if subject in ms:
        start, end = subject.start, subject.end
    else:  # "He was the director of Titanic": the pronoun stands for the subject, and its span for the value
        pronoun = _PRONOUN.match(sentence)
        if not pronoun:
            return set()
        start, end = a + pronoun.start(1), a + pronoun.end(1)
    at = past_asides(sentence, end - a)
    schema = GraphSchema.of(kg)
    sentence, titles = _titles_as_words(sentence, a, ms, schema.lexicon(), facts)
    after = [m for m in ms if m.start - a >= at and m.entity_id != subject.entity_id and m not in titles]
    holder = min(after, key=lambda m: m.start, default=None)  # the first name after the subject, nothing between
    if holder is None:
        return set()
    following = min((m for m in after if m.start >= holder.end), key=lambda m: m.start, default=None)
    if following is not None and _MODIFIES_NEXT.fullmatch(sentence, holder.end - a, following.start - a) and \
            not any(w in FUNCTION_WORDS for w in _WORD.findall(sentence[holder.end - a:following.start - a])):
        return set()
    view = SubjectView.of(kg, holder, statements, ms, a)
    lexicon = schema.lexicon()
    copula = _COPULA.match(sentence, at)
    predicate = copula and _PREDICATE.fullmatch(sentence, copula.end(), holder.start - a)
    verb = None if copula else _VERB.fullmatch(sentence, at, holder.start - a)
    own_name: set[str] = set()
    if predicate:
        words = _WORD.findall(predicate.group(1))
        stems = content_stems(predicate.group(1))
        if not stems or stems[-1] in class_words(classes_of(holder.entity_id, statements), facts):
            return set()  # "the constellation of Cetus": Cetus is a constellation, not a holder of one
        # A name that is all the words before "of" and not in "of" itself ("director", "head coach"); function words
        # only as a name's own ("head of state", "country for sport"), not joining two ("director and writer").
        named = {n.pid for n in whole_names(stems, lexicon) if n.particle is None}
        if any(w in FUNCTION_WORDS and w != "of" for w in words):
            phrase = normalise(predicate.group(1))
            named = {p for p in named if phrase in facts.names(p)}
    elif verb:
        # One-word names of the verb's stem, said of the doer ("director", "directed by"): never "born in".
        named = {n.pid for n in lexicon.get(stem(verb.group(1).lower()), ())
                 if len(n.words) == 1 and n.particle in ((None,) if verb.group(2) else (None, "by"))}
        # Which side holds the property decides the direction: not the subject ("X received Y": X's award, read by
        # words.py), surely the holder (its statements or classes say so, not merely nothing against it).
        mine = SubjectView.of(kg, subject, statements, ms, a)
        named = {p for p in named if p not in mine.held and p not in mine.class_props}
        # A verb that is itself the property's name ("follows") reads left to right, the subject its holder
        # (links.said_in_order), as the graph's names of relations do: no inverse reading of it — though the words
        # still put the holder on the other side of it for the other readers ("awards" names award received too).
        said = normalise(verb.group(1))
        own_name = {p for p in named if said in facts.names(p)}
    else:
        return set()
    named = {p for p in named if p not in (INSTANCE_OF, SUBCLASS_OF) and schema.datatype(p) == "wikibase-item"}
    role = schema.roles([subject.entity_id]).get(subject.entity_id, {})
    # A name the graph gives no class is what its role's values mostly are (a producer is human).
    value_classes = classes_of(subject.entity_id, statements) or schema.role_classes(role)

    # Known to fit, not merely not known otherwise: a name the graph says nothing of claims nothing here. The holder
    # may hold the property by its own statements, its classes', or — given no class — those of the subjects holding
    # what it holds (a film with a cast and a genre).
    readable = [p for p in named if p not in own_name]
    held = [p for p in readable if p in view.held or p in view.class_props]
    if not view.classes and len(held) < len(readable):
        profile = schema.profile_properties(set(view.held) - {INSTANCE_OF})
        held = [p for p in readable if p in view.held or p in view.class_props or p in profile]
    value_id = subject.entity_id
    found = [p for p in held if may_be_value(schema, role, value_classes, p, unknown=False)]
    if not found and held and subject in ms:
        value_id, found = _fitting_namesake(kg, schema, subject, held)
    if found:
        emit(si, holder, view.likeliest(found), start, end, value_id, reader="inverse")
    # Said or not, the words put the holder on the other side of these properties.
    return {(holder.entity_id, p) for p in named}


def _titles_as_words(sentence: str, a: int, ms, lexicon, facts) -> tuple[str, list]:
    """"Hun Sen is the Prime Minister of Jamaica": a name written as a title, wholly a property's name (a label or
    alias of the index: "prime minister" of head of government) with "of" after it, is the relation's words, not a
    holder — the sentence with those names in lower case, and the names."""
    titles = []
    for m in ms:
        text = sentence[m.start - a:m.end - a].lower()
        if len(text) == m.end - m.start and _OF_AFTER.match(sentence, m.end - a) and any(
                normalise(text) in facts.names(n.pid) for n in whole_names(content_stems(text), lexicon)):
            titles.append(m)  # (offsets kept: a letter whose lower case is longer, "İ", leaves the name as it is)
            sentence = sentence[:m.start - a] + text + sentence[m.end - a:]
    return sentence, titles


def _fitting_namesake(kg, schema, subject, pids) -> tuple[str | None, list[str]]:
    """"Comanche is the ethnic group of X": when the entity the name was linked to fits none of the relation's
    properties, the one namesake (same name in the index) that the graph has as a value of one of them, and those
    properties; (None, []) when none or several do."""
    ids = [eid for (eid,) in kg.lookup_in("SELECT DISTINCT id FROM label_index WHERE norm IN ({in}) AND type = 'item'",
                                          [normalise(subject.text)]) if eid != subject.entity_id]
    roles = schema.roles(ids) if ids else {}
    fitting = {eid: [p for p in pids if fits_value(schema, roles.get(eid, {}), set(), p, unknown=False)] for eid in ids}
    fitting = {eid: ps for eid, ps in fitting.items() if ps}
    return next(iter(fitting.items())) if len(fitting) == 1 else (None, [])
