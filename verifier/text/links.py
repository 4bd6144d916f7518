"""The claims the graph links outright between two things a sentence names (reader "linked", extract.py's step 3):
which of several links the sentence states — none, when its words name another relation the holder has
(`said_instead`: a link is no support for a relation the sentence does not state) —, whether a written date agrees
with the graph's, and when such a link leaves a value open to the subject's own reading."""
from __future__ import annotations

import re

from kgcheck.index.text import normalise
from kgcheck.verifier.claims.thresholds import MIN_SUBJECTS
from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.stems import PREPOSITIONS
from kgcheck.verifier.text.subject import COPULA, COPULA_ARTICLE
from kgcheck.verifier.text.triggerwords import (DETOUR, DETOUR_PARTICLES, ITEM_TRIGGER_WINDOW, OBJECT_OPENS, TRIGGERS,
                                                clause_start, word_hits)
from kgcheck.verifier.text.words import WINDOW_WORDS, names_before
from kgcheck.verifier.values.dates import DateMatch, compare_dates


def what_the_sentence_says(found: list[tuple], sentence: str, facts, subject, a: int = 0, names=(),
                           holds=lambda holder, pid: False, said_of=None,
                           may_say=lambda holder, pid, value: False) -> list[tuple]:
    """Of the graph's links between two things a sentence names, those it states: the properties it names
    ("shares a border" of Belgium-Germany, not their diplomatic relation), else the one whose label is
    closest to the sentence, said about the sentence's subject when the link runs both ways. names: the spans (in
    the text; the sentence starts at A) of the names it holds, whose words name no property ("the Academy Award"
    is no award received). When the words right before the value name another relation than any link, the claim
    is what they name (`said_instead`), with "words" as its reader (a 6th field); said_of: (holder mention, its
    properties) of an opening relation ("The producer of X is Y"), whose words are the value's; may_say(holder,
    property, value id): may the holder have that relation (held, or by its classes) and the value be one of its
    values (by its role or class) — asked of a trigger word's relation the holder lacks."""
    plain = blank_names(sentence, a, names)
    spans = [(s - a, e - a) for s, e in names]
    near = {f[2]: _nearest_relation(plain, f[2] - a, facts, spans) for f in found if f[4] is not None}
    if said_of is not None:  # the opening's words are the relation of what follows its copula
        pids = {p for p in said_of[1] if facts.datatype(p) == "wikibase-item"}
        near.update({f[2]: (None, pids, pids, frozenset()) for f in found if f[4] is not None and f[0].entity_id ==
                     said_of[0].entity_id and f[2] >= said_of[0].end})
    instead = (said_of is not None and said_backwards(found, said_of, plain, facts, holds, may_say)) or \
        stated_between(found, sentence, plain, a, facts, holds, may_say) or \
        said_in_order(found, sentence, plain, a, facts, holds, may_say) or \
        said_instead(found, near, a, spans, plain, holds, may_say)
    if instead:
        return instead
    if len(found) == 1:
        return found
    chosen = [f for f in found if names_property(f[1], plain, facts)]
    if not chosen:
        best = max(facts.predicate_similarity(sentence, f[1]) for f in found)
        chosen = [f for f in found if facts.predicate_similarity(sentence, f[1]) == best]
    by_property: dict[str, tuple] = {}
    for f in chosen:  # a symmetric property (shares border with) once, about the subject
        if f[1] not in by_property or (subject is not None and f[0].entity_id == subject.entity_id):
            by_property[f[1]] = f
    return list(by_property.values())


_POSSESSIVE = re.compile(r"['’](?:s\b|\s)")


# "Titanic is a 1997 American romance film directed by": a name in the holder's own predicate noun describes the
# holder; it is not another subject of the word after it.
_HOLDER_IS_A = re.compile(r"\s*,?\s*" + COPULA_ARTICLE + r"\s+(?:[\w'’-]+\s+){0,4}")
_INDEFINITE = re.compile(r"\b(?:a|an)\s+$", re.IGNORECASE)
# A trigger word and its value with nothing between but a particle (not one of purpose, time or motion: "directed
# for the studio") and determiners ("directed by the"), and the participles a trigger word may be coordinated with
# ("written and directed by", "produced, written and directed").
_TRIGGER_PARTICLES = "|".join(sorted(PREPOSITIONS - {"for", "during", "into"}))
# A time or place may stand between the word and its particle: "born on 4 August 1961 in X" (DETOUR).
# Case matters to the detour alone (its name or date is capitalised or a number).
_TRIGGER_TO_VALUE = re.compile(rf"(?:\s+{DETOUR}\s+(?i:{_TRIGGER_PARTICLES})\b|(?:\s+(?i:{_TRIGGER_PARTICLES})\b)?)"
                               rf"(?i:{OBJECT_OPENS.pattern})")
_COORDINATED = re.compile(r"\b[a-z]+(?:ed|en|wn|ote)\s*(?:,|and|&|or)\s*$", re.IGNORECASE)
_NOUN_AFTER = re.compile(r"\s+[a-z]")


def _modifier(plain: str, start: int, end: int) -> bool:
    """A name inside a noun phrase, "a Scottish writer born in": after an indefinite article and before a
    lower-case word it describes the noun; it is not the subject of the words after it."""
    return bool(_INDEFINITE.search(plain, max(0, start - 4), start) and _NOUN_AFTER.match(plain, end))


def blank_names(sentence: str, a: int, names) -> str:
    """The sentence with the names at NAMES (text spans) blanked out, offsets kept."""
    chars = list(sentence)
    for start, end in names:
        for i in range(max(0, start - a), min(len(chars), end - a)):
            chars[i] = " "
    return "".join(chars)


def said_backwards(found: list[tuple], said_of: tuple, plain: str, facts, holds, may_say) -> list[tuple] | None:
    """"The capital of France is Lyon": the graph links the value to the holder (Lyon's country is France), and the
    words name another relation, the holder's. The claim is the one named (France's capital: the graph then judges
    it), not the link, which the sentence does not state — unless the sentence names the link's relation ("The
    capital of France is Paris", Paris being capital of France). The holder must have the relation in the graph, or
    may have it with this value (may_say); one relation only."""
    holder, named = said_of
    back = [f for f in found if f[4] == holder.entity_id and f[0].start >= holder.end]
    if not back:
        return None
    value = back[0][0]
    turned = _turned(back, named, facts, holder)
    if turned:  # "The father of Maurice Jarre is Jean-Michel Jarre", the graph holding Maurice as Jean-Michel's father
        return [(holder, turned, value.start, value.end, value.entity_id, "words")]
    if any(names_property(f[1], plain, facts) for f in back):
        return None
    pids = [p for p in sorted(named) if facts.datatype(p) == "wikibase-item"]
    said = [p for p in pids if holds(holder, p)] or [p for p in pids if may_say(holder, p, value.entity_id)]
    return [(holder, said[0], value.start, value.end, value.entity_id, "words")] if len(said) == 1 else None


def said_instead(found: list[tuple], near: dict, a: int, spans, plain: str, holds,
                 may_say=lambda holder, pid, value: False) -> list[tuple] | None:
    """The claim the words make where the graph links the two names by another relation: "Eternal Sunshine of the
    Spotless Mind won the Academy Award for Best Actress", which the graph holds only as nominated for, claims an
    award received (the graph then judges it: never SUPPORTED by the nomination). The relation is the one the
    nearest property word in the value's clause names (near: `_nearest_relation` by value start), no other name
    between the holder and it (else the word may be another name's verb: "and Winslet received a nomination
    for"), and the value no possessive nor a modifier of the name right after it ("based on Flaubert's novel",
    "awarded the United States Air Force Distinguished Service Medal": those are the word's value). The words are
    many (a lexicon of every property's names: "interest in" is interested in), so the holder must have the
    relation in the graph — holds(holder, property) — and only one named may; a trigger word ("directed by", the
    triggers list) right before the value is precise enough to say a relation the holder lacks, when it names one
    alone that the holder may have and the value may be (may_say) — "Titanic was directed by James Cameron" over a
    graph that lists him only as a cast member claims its director (the graph then has no director to compare:
    NOT_ENOUGH_INFO, not a support). None when a word of the clause names a link's relation, none names one the
    holder has, or the value is a date."""
    if any(f[4] is None for f in found):
        return None
    linked = {f[1] for f in found}
    for f in found:
        holder = f[0]
        word_end, spoken, anywhere, triggered = near[f[2]]
        if not spoken or anywhere & linked:
            return None
        if word_end is None:  # an opening relation's: its holder and copula read already
            word_end = f[2] - a
        since = holder.end - a if 0 <= holder.start - a < word_end else clause_start(plain, word_end)
        if holder.start - a >= word_end or any(since <= s and e <= word_end and not _modifier(plain, s, e) and
                                               not _HOLDER_IS_A.fullmatch(plain, holder.end - a, s) for s, e in spans):
            continue  # the holder after the word, or another name the word's subject
        if _POSSESSIVE.match(plain, f[3] - a) or any(s == f[3] - a + len(gap) for s, _ in spans
                                                     if (gap := plain[f[3] - a:s]) and not gap.strip()):
            continue  # "Flaubert's novel", "the Air Force Distinguished Service Medal": the word's value is after
        pids = [p for p in sorted(spoken) if holds(holder, p)]
        if not pids and len(triggered) == 1 and not _modifier(plain, f[2] - a, f[3] - a):  # not "wrote a Latin epic"
            pids = [p for p in triggered if may_say(holder, p, f[4])]
        if len(pids) == 1:
            return [(holder, pids[0], f[2], f[3], f[4], "words")]
    return None


# Two names and the relation between them, its holder after "of" or before "'s": "Osaka is the capital of Japan",
# "Japan's capital is Osaka" — a copula, "the", the property's name (nothing that qualifies it: "the former capital
# of" reads nothing), "of"; or "'s", the name, a copula. Not "a": "X is a tributary of Y" says one of Y's several,
# which the graph often holds the other way (X's mouth is Y), not a claim that Y's tributary is X alone.
_NAME_OF = re.compile(r"\.?" + COPULA + r"the\s+([a-z][\w'’ -]*?)\s+of\s+(?:the\s+)?", re.IGNORECASE)
_POSSESSED = re.compile(r"['’]s?\s+([a-z][\w'’ -]*?)" + COPULA + r"(?:the\s+)?", re.IGNORECASE)


def stated_between(found: list[tuple], sentence: str, plain: str, a: int, facts, holds, may_say) -> list[tuple] | None:
    """"Osaka is the capital of Japan" or "Japan's capital is Osaka", which the graph links only as Osaka located in
    Japan: the words say Japan's capital — claimed when Japan may have that relation (held, or by its classes) and
    Osaka may be one of its values (its role or class: may_say), else when Japan holds it (the words are exact: a
    value of another kind is a wrong answer, Osaka Prefecture here), one relation only, and the words name no link's
    relation ("Tokyo is the capital of Japan" names Tokyo's "capital of"). The graph then judges it (Tokyo:
    REFUTED), where the link would have been SUPPORTED by construction. The claim's span is the value's name."""
    names = _two_names(found)
    if names is None:
        return None
    first, second = names
    for pattern, holder, value in ((_NAME_OF, second, first), (_POSSESSED, first, second)):
        words = pattern.fullmatch(plain, first[1] - a, second[0] - a)
        # the words first (they seldom match), then whether they name a link's own relation
        if not words or any(f[4] is None for f in found):
            continue
        named = normalise(words.group(1))
        holder_mention = _mention(sentence, a, holder)
        pids = [p for p in _properties_named(facts, named) if facts.datatype(p) == "wikibase-item"]
        turned = _turned([f for f in found if f[0].entity_id == value[2] and f[4] == holder[2]], pids, facts,
                         holder_mention)
        if turned:  # "Jean-Michel Jarre is the father of Maurice Jarre", the graph holding it the other way
            return [(holder_mention, turned, value[0], value[1], value[2], "words")]
        if any(names_property(f[1], plain, facts) for f in found):
            continue
        said = [p for p in pids if may_say(holder_mention, p, value[2])] or [p for p in pids if holds(holder_mention, p)]
        if len(said) == 1:
            return [(holder_mention, said[0], value[0], value[1], value[2], "words")]
    return None


# Two names and a relation's own name between them, read left to right as the graph's names of relations are ("X
# followed by Y", "X sequel of Y", "X part of Y"): a copula or auxiliary and an article may come first ("Aliens was
# followed by Alien", "Alien is the sequel of Aliens"); nothing else (a qualified "the first sequel of" reads nothing).
_IN_ORDER = re.compile(r"\s*,?\s*(?:(is|was|are|were|has been|had been|have been)\s+)?(?:(?:the|a|an)\s+)?"
                       r"(?P<words>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3})\s*", re.IGNORECASE)
_LAST_PREPOSITION = re.compile(r"\s+(?:" + "|".join(sorted(PREPOSITIONS)) + r")$")


def said_in_order(found: list[tuple], sentence: str, plain: str, a: int, facts, holds, may_say) -> list[tuple] | None:
    """"Aliens was followed by Alien", "Alien is the sequel of Aliens": the words between the two names are a name of
    a relation the graph holds between them the other way round (Alien followed by Aliens; "sequel of" names
    follows, held as Aliens follows Alien). A relation's names read left to right, holder first, so the sentence
    claims the first name's relation to the second — turned (`_turned`: a property the graph never holds both ways),
    for the graph to judge, where the link would have been SUPPORTED by construction. Not when the graph also links
    them in the sentence's order by that relation, nor when the words less their closing preposition name it too
    ("director" and "director of" alike: a noun read "the director of Y" says Y's director, not X's).
    "Europe is part of France", the graph linking them only the other way by another relation (France's continent
    Europe): the words' claim (`_said_against_a_link`), not the link — after a copula only ("rock and roll musician
    Chuck Berry" is no claim of rock and roll's performer)."""
    names = _two_names(found)
    if names is None or any(g[4] is None for g in found) or names[0][2] == names[1][2]:
        return None
    first, second = names
    # Only a link from the second name to the first can be turned: most pairs have none (no words to look up).
    back = [g for g in found if g[0].start == second[0] and g[2] == first[0]]
    if not back:
        return None
    words = _IN_ORDER.fullmatch(plain, first[1] - a, second[0] - a)
    if not words:
        return None
    said = normalise(words.group("words"))
    if said in PREPOSITIONS:  # "X in Y" (an alias of part of): a preposition alone says no direction of a relation
        return None
    named = {p for p in _properties_named(facts, said) if facts.datatype(p) == "wikibase-item"}
    bare = _LAST_PREPOSITION.sub("", said)
    if bare != said:
        named -= set(_properties_named(facts, bare))
    if not named or any(g[1] in named and g[0].start == first[0] for g in found):
        return None
    holder = _mention(sentence, a, first)
    turned = _turned(back, named, facts, holder)
    if turned:
        return [(holder, turned, second[0], second[1], second[2], "words")]
    # Not with a link in the sentence's order too, nor the words' own relation, nor without a copula ("rock and roll
    # musician Chuck Berry", "pieces for piano composed by Shostakovich": a noun or participle of what came before).
    if len(back) < len(found) or any(g[1] in named for g in back) or not words.group(1):
        return None
    said_by = _said_against_a_link(back, named, facts, holder, second[2], holds, may_say)
    return [(holder, said_by, second[0], second[1], second[2], "words")] if said_by else None


def _said_against_a_link(back: list[tuple], named, facts, holder: Mention, value: str, holds, may_say) -> str | None:
    """The one relation of NAMED (the words' properties) the holder may have with the value — held, or by its classes
    and the value's role (may_say) — when the graph links the two only backwards, by relations never the named one's
    reading backwards: of the graph's statements x R y (enough to measure: MIN_SUBJECTS), none is also held as y L x
    for any link's L. Then the link is no reading of the words ("France's continent is Europe" is not "Europe is part
    of France"), and the words' claim goes to the graph to judge."""
    schema = GraphSchema.of(facts.kg)
    said = [p for p in sorted(named) if holds(holder, p)] or [p for p in sorted(named) if may_say(holder, p, value)]
    if len(said) != 1:
        return None
    for link in {g[1] for g in back}:
        n, crossed = schema.reversal(said[0], link)
        if n < MIN_SUBJECTS or crossed:
            return None
    return said[0]


def _two_names(found: list[tuple]) -> tuple[tuple, tuple] | None:
    """The (start, end, entity id) of the two names a pair's links join, in text order; None when the first link
    has no entity value or the names overlap."""
    f = found[0]
    if f[4] is None:
        return None
    first, second = sorted(((f[0].start, f[0].end, f[0].entity_id), (f[2], f[3], f[4])))
    return None if first[1] > second[0] else (first, second)


def _mention(sentence: str, a: int, span: tuple) -> Mention:
    """The name at SPAN (start, end, entity id; text offsets, the sentence starting at A) as a Mention."""
    return Mention(span[0], span[1], sentence[span[0] - a:span[1] - a], span[2])


def _turned(links: list[tuple], named, facts, holder: Mention) -> str | None:
    """The one relation the words name exactly (NAMED: property ids) of LINKS that run from the sentence's value to its
    holder: the sentence states it the other way round ("the father of X is Y" where the graph holds X as Y's father),
    so the claim is the sentence's, for the graph to judge — when the graph never holds the relation both ways
    (GraphSchema.asymmetric: father, follows; not spouse or shares border with, a third of them held both ways on
    dense-dev, where the graph's one direction says nothing of the sentence's). Not when either name was read as an
    alias of its thing where it is another thing's label (GraphSchema.aliased_from_a_label): the link itself may have
    chosen that reading ("Soviet Union", an alias of Moscow, which lies in the Russian SFSR)."""
    schema = GraphSchema.of(facts.kg)
    turned = {f[1] for f in links if f[1] in named and schema.asymmetric(f[1]) and
              not any(schema.aliased_from_a_label(m.text, m.entity_id) for m in (f[0], holder))}
    return turned.pop() if len(turned) == 1 else None


def _properties_named(facts, name: str) -> list[str]:
    """The properties whose label or alias is NAME (normalised), from the index's property lexicon."""
    found = [c.id for c in facts.kg.searcher().properties(name, vectors=False)]
    return sorted({p for p in found if name in facts.names(p)})


def _nearest_relation(plain: str, at: int, facts, names: list[tuple[int, int]]) -> tuple[int, set, set, set]:
    """Where the nearest property word before offset AT ends (in its clause, within ITEM_TRIGGER_WINDOW characters,
    no name in between), the item-valued properties it names, those any such word names, and those a trigger word
    ending there names with the value right after it, alone ("directed by X"; not "written and directed by X",
    whose other word may name the link's relation)."""
    lo = max(clause_start(plain, at), at - ITEM_TRIGGER_WINDOW)
    if any(lo <= s and e <= at for s, e in names):
        lo = max(e for s, e in names if lo <= s and e <= at)  # a name in between takes the words before it
    by_end: dict[int, set[str]] = {}
    triggered: dict[int, set[str]] = {}
    for end, _, pid in names_before(plain, at, GraphSchema.of(facts.kg).lexicon(), WINDOW_WORDS):
        if end >= lo:
            by_end.setdefault(end, set()).add(pid)
    for pid, m in word_hits(plain[lo:at], TRIGGERS.items(), value_at=at - lo):
        by_end.setdefault(lo + m.end(), set()).add(pid)
        if _TRIGGER_TO_VALUE.fullmatch(plain, lo + m.end(), at) and \
                not _COORDINATED.search(plain, max(0, lo + m.start() - 30), lo + m.start()):
            triggered.setdefault(lo + m.end(), set()).add(pid)
    said = {end: items for end, pids in by_end.items()
            if (items := {p for p in pids if facts.datatype(p) == "wikibase-item"})}
    if not said:
        return at, set(), set(), set()
    end = max(said)
    return end, said[end], set().union(*said.values()), triggered.get(end, set()) & said[end]


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


_PLACE_OR_TIME = re.compile(rf"\s+(?:{DETOUR_PARTICLES})\s")


def linked_to_later(text: str, c, subject: Mention, ms: list[Mention]) -> bool:
    """Is C (an extract.SpanClaim) a link between two names (reader "linked") whose holder, not the subject, is
    named only after the value, in another clause — a comma and a lower-case word between, asides in brackets aside
    (not "1981's Reds", "Swiss club Young Boys", a list "the United States, Canada, France", "Windows 7 (October
    2009), Windows Vista was") — or in a phrase of place or time right after it ("nominated for Best Picture at the
    18th Academy Awards")?"""
    if c.reader != "linked" or c.claim.subject_id == subject.entity_id or not c.claim.object_id:
        return False
    holders = [m.start for m in ms if m.entity_id == c.claim.subject_id]
    if not holders or min(holders) < c.end:
        return False
    gap = re.sub(r"\([^()]*\)", "", text[c.end:min(holders)])
    # A phrase of place or time closes the value's phrase, as triggerwords' detours read it.
    return bool(re.search(r"[,;]", gap) and re.search(r"\b[a-z]+\b", gap)) or bool(_PLACE_OR_TIME.match(gap))
