"""KG-first claim extraction from free text (no LLM needed).

1. Sentences and mentions: see mentions.py (gazetteer over labels and aliases, namesakes by context); which
   name is the sentence's subject: subject.py (not a preposition's object, a list an opening participle
   holds, a name describing the next, a name inside the predicate).
2. Pronouns (he, she, it, his, her, its, they, their) stand for the last subject; a description ("The
   film", "the dam") for an earlier mention of its class, else for the one thing the graph links to what
   the sentence names (referents.py); an opening description that names a relation ("The editor-in-chief
   is X") for the last subject, as "Its editor-in-chief is X" would. A name after "is a" ("… is a Japanese
   film") is the predicate's, never the subject. Given the text's topic (`about`), the ways a text names it
   once known (topic.py: any case, a surname, initials) are its mentions, and a description stands for it
   when the graph gives it no class.
3. Claims the graph links outright (links.py), between any two things a sentence names: a mention and another
   mention that is the value of one of its statements ("Andrew Holness ... Prime Minister of Jamaica"
   gives Jamaica's head of government); a lower-case phrase that names such a value ("a Hungarian sabre
   fencer"); a sentence that opens on a lower-case name ("The red knot ... Calidris"); a date that agrees
   with one of a mention's dates.
4. Claims the graph may refute, about the sentence's subject: another mention that is a value of one of
   the subject's statements (or a place above it: "born in England" for Cambridge), else the property
   named by the nearest property word before it ("directed by"; triggers.py — the claim of the name the word
   follows as a verb its subject when the graph gives that name the relation: "…, where X won Y"); a value
   named with its property's words inside ("the James Bay drainage basin"); dates and quantities found by the
   parsers, attached to the property whose trigger words appear; "<property words> is <phrase>" with no
   linked object ("its head of state is a king") becomes a claim on that phrase when the subject lacks
   the property or the phrase is a name — the graph then answers NOT_ENOUGH_INFO. The subject as another name's
   value: "X is the director of Y", "X directed Y" (holders.py).
With `properties`, only claims of those properties are made (an ontology's relations, say).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kgcheck.verifier.text.apposition import apposed_properties
from kgcheck.verifier.text.coordination import listed_together
from kgcheck.verifier.text.demonyms import with_demonyms
from kgcheck.verifier.text.links import date_agrees, linked_to_later, names_property, what_the_sentence_says
from kgcheck.verifier.text.mentions import (Mention, called, find_mentions, fused_values, rejoin_names,
                                           split_sentences, word_spans)
from kgcheck.verifier.text.nameparts import possessor_spans
from kgcheck.verifier.text.tails import read_tails
from kgcheck.verifier.control import checkpoint
from kgcheck.verifier.model import Claim
from kgcheck.verifier.text.topic import retitled, title_claims, topic_names, with_topic
from kgcheck.verifier.text.referents import (EarlierMentions, common_name, descriptions, earlier_referent,
                                             implied_subject, opening_relation, relation_noun,
                                             bare_relation_noun)
from kgcheck.verifier.text.fit import entity_may_be_value
from kgcheck.verifier.text.schema import INSTANCE_OF, GraphSchema
from kgcheck.verifier.text.subject import COPULA_ARTICLE, main_description, named_subject
from kgcheck.verifier.text.subjectview import SubjectView
from kgcheck.verifier.text.words import VERB_AFTER
from kgcheck.verifier.text.triggers import TRIGGERS, in_brackets, read_triggers
from kgcheck.verifier.values import find_dates, inside_dates

__all__ = ["SpanClaim", "extract_claims", "find_mentions", "names_property", "split_sentences", "Mention", "TRIGGERS"]

# "The film stars Buck Taylor", "The dam impounds Lake Austin": a verb of the description's own, then a name (its
# object). Not "The film series Star Wars", "The Boston Press": a plural or a noun in -ss is no verb here.
_VERB_THEN_NAME = re.compile(r"\s+(?![a-z]*(?:ies|ss)\b)[a-z]{2,}(?:s|ed)\s+(?:the\s+)?[A-Z\"“]")
_CLAUSE_OPENS = re.compile(r"(?:[:;]|,?\s+(?:and|but|while|whereas))\s+(?:the\s+)?$", re.IGNORECASE)
# A sentence that opens on its predicate, its name left out (or cut to a bracket's end: "Nekojiru Grass) is a"; or
# only its bracket left: "([f fa]) is a song by …", a pronunciation without the name).
_OPENS_ON_PREDICATE = re.compile(r"(?:\([^()]{0,60}\)|[^.()]{0,60}\))?\s*" + COPULA_ARTICLE)
PRONOUNS = frozenset("he she it his her its they their him them".split())


@dataclass(frozen=True)
class SpanClaim:
    claim: Claim
    sentence_index: int
    start: int  # character offsets of the claimed object in the whole text
    end: int
    reader: str = "linked"  # which reader found it (READERS)
    # The text does not name the subject: a description stands for the one thing the graph links to this very value
    # (referents.implied_subject), so the graph cannot judge the claim — it would hold by construction.
    subject_by_value: bool = False


# The readers, in the order they run on a sentence; the first to claim a span keeps it.
READERS = ("linked", "title", "lifespan", "fused", "words", "inverse", "types", "triggers", "copula")


def extract_claims(kg, facts, text: str, llm=None, properties=None, readers=frozenset(READERS),
                   about: str | None = None) -> tuple[list[tuple[int, int]], list[SpanClaim]]:
    """(sentence spans, claims with the character span of each claimed object); `readers` picks which
    readers run (an ablation); `about`: the entity id the text is about (the question it answers), what its
    pronouns and unresolved descriptions stand for when nothing in the text says otherwise."""
    from kgcheck.verifier.text.dating import read_dates
    from kgcheck.verifier.text.descriptions import read_descriptions
    from kgcheck.verifier.text.holders import read_holders
    from kgcheck.verifier.text.words import read_words

    sentences = rejoin_names(kg, text, split_sentences(text))
    weak: dict[int, list[tuple[int, int, list[str]]]] = {}
    mentions, adjectives = with_demonyms(
        kg, text, sentences, read_tails(kg, text, sentences, find_mentions(kg, text, sentences, llm, weak), about))
    # A name owning the name right after it ("Canada's Prince Edward Island", "Disney's Jack Kinney") qualifies it.
    possessors = possessor_spans(text, mentions)
    renamed = {}
    if about:
        named = topic_names(kg, about)  # one lookup for both: the names it goes by, and those retitled
        mentions = with_topic(kg, about, text, sentences, mentions, named)
        renamed = retitled(named[0], text, sentences)
    # A weak name inside a linked one ("Christopher" of "Christopher Nolan") is no topic of its own.
    topics = {si: _topic(text, sentences[si], [w for w in ws if not any(m.start <= w[0] and w[1] <= m.end
                                                                        for m in mentions[si])])
              for si, ws in weak.items()}
    subjects = {m.entity_id for ms in mentions for m in ms} | {i for t in topics.values() if t for i in t[2]}
    subjects |= {about} if about else set()
    statements = kg.statements_for(subjects)
    values = {st.value.entity_id for sts in statements.values() for st in sts if st.value.entity_id}
    facts.prefetch_ancestors(values | subjects)
    facts.prefetch_datatypes({st.property for sts in statements.values() for st in sts} | set(TRIGGERS))
    allowed = (lambda pid: True) if properties is None else set(properties).__contains__
    claims: list[SpanClaim] = []
    in_sentence: dict[int, list[SpanClaim]] = {}  # claims by sentence: `taken` looks at one sentence, not all
    seen: set[tuple] = set()
    value_classes: dict[str, set[str]] = {}  # the classes of the subjects' values, read when first needed
    typed: set[str] = set()  # subjects whose values' classes are read
    # sentence -> (the entity a description stands for, the span of the one name the graph links it to): "The film
    # was produced by Lightstorm" is the one film the graph gives that studio — a subject picked because it holds
    # the value, so the claim of that value would be SUPPORTED by construction, a wrong value being another's.
    found_by: dict[int, tuple[str, int, int]] = {}

    def emit(si: int, who: Mention, pid: str, start: int, end: int, object_id: str | None = None,
             predicate: str | None = None, reader: str = "linked") -> None:
        same = (si, who.entity_id, pid, object_id or text[start:end].lower())  # the same claim said twice
        if reader not in readers or not allowed(pid) or (who.entity_id, pid, start) in seen or same in seen:
            return
        if object_id == who.entity_id:
            return  # two mentions of one thing ("Lebanon ... Lebanon"): no text claims that Lebanon's country is Lebanon
        if (who.start, who.end) in adjectives:
            return  # "a Peruvian politician": Peru is what the words describe the politician by, holding nothing here
        if reader != "linked" and (start, end) in possessors:
            return  # "set on Canada's Prince Edward Island": Canada says where the island is; the island is the value
        if reader == "triggers" and (start, end) in adjectives:
            return  # "(born 19 July 1986) is a Finnish skier": the demonym says what he is, not where "born" was
        seen.update({(who.entity_id, pid, start), same})
        by = found_by.get(si)
        claims.append(SpanClaim(Claim(id=f"s{si}-{len(claims)}", subject=who.text,
                                      predicate=facts.label(pid) or predicate or pid, object=text[start:end],
                                      subject_id=who.entity_id, property_id=pid, object_id=object_id), si, start, end,
                                  reader, subject_by_value=by is not None and by[0] == who.entity_id
                                  and start < by[2] and by[1] < end))
        in_sentence.setdefault(si, []).append(claims[-1])

    def holds(holder: Mention, pid: str) -> bool:
        return any(st.property == pid for st in statements.get(holder.entity_id, ()))

    holder_views: dict[str, SubjectView] = {}  # per holder id: its classes and their properties, read once a text

    def may_say(holder: Mention, pid: str, value: str) -> bool:  # the holder may hold pid, the value be its value
        view = holder_views.get(holder.entity_id)
        if view is None:
            view = holder_views[holder.entity_id] = SubjectView.of(kg, holder, statements, (), 0)
        return view.may_hold(pid) and entity_may_be_value(GraphSchema.of(kg), value, statements, pid)

    # The question's topic stands before the text, as a subject named before its first sentence.
    lexicon = _lexicon(kg)  # text -> the properties it names: for the descriptions that name a relation
    topic_name = (facts.label(about) or about) if about else ""
    last_subject: Mention | None = Mention(0, 0, topic_name, about) if about else None
    earlier = EarlierMentions()  # mentions of the sentences before, in text order
    if last_subject is not None:
        earlier.extend([last_subject])
    for si, (a, b) in enumerate(sentences):
        checkpoint("sentences", si, len(sentences))  # a deadline stops here; long texts show progress
        sentence = text[a:b]
        ms = mentions[si]
        # "The director of Titanic is X": the name the opening relation is said of (Titanic), and its properties.
        relation_of = opening_relation(sentence, [(m.start - a, m.end - a) for m in ms], lexicon)
        dates = find_dates(sentence)
        first_pronoun = next((w.start() + a for w in re.finditer(r"\w+", sentence) if w.group().lower() in PRONOUNS),
                             None)
        # Not an aside in brackets (a name that closes the bracket it opens in is not: "( 181902 ) 1999 RD215"),
        # not the month of a date ("From May 2011 until April 2012 Marina Weisband was").
        outside = [m for m in ms if not (in_brackets(text, a, m.start) and in_brackets(text, a, m.end))
                   and not inside_dates(m.start - a, m.end - a, dates)]
        subject = named_subject(text, a, b, outside)
        # "The Best American Poetry 1993, a volume …" of the 1995 volume: the title's year dates the topic.
        for spoken, pid, ys, ye in title_claims(text, a, b, outside, renamed.get(si, []), about,
                                                statements.get(about, ())):
            emit(si, spoken, pid, ys, ye, reader="title")
        if last_subject is not None and first_pronoun is not None and (subject is None or first_pronoun < subject.start):
            subject = last_subject  # "He died in Santa Barbara": he, not Santa Barbara
        elif last_subject is not None and bare_relation_noun(sentence, lexicon):
            subject = last_subject  # "Characters include Uncle Scrooge": the topic's, as "Its characters include"
        if about and _OPENS_ON_PREDICATE.match(sentence):
            # "is a 2004 film …, inspired by the work of X": no name the sentence holds is its subject; the topic is.
            subject = Mention(a, a, topic_name, about)
        described = [d for d in descriptions(sentence, [(m.start - a, m.end - a) for m in ms])
                     if subject is None or d[1] <= subject.start - a]
        if described:
            # "The journal was established in 1981": the journal named before, else the one the graph implies.
            nouns = [noun for _, _, words in described for noun in words]
            main = main_description(sentence, described)
            referent = ms[relation_of[0]] if relation_of else earlier_referent(nouns, earlier, statements, facts)
            # A description that names a relation ("The editor-in-chief is X") is the topic's, as "Its
            # editor-in-chief is X" says: the subject of the sentences before, not a thing to find.
            relation = referent is None and last_subject is not None and relation_noun(sentence, lexicon)
            if relation:
                referent = last_subject
            if referent is None:  # "The red-backed shrike (Lanius collurio) is": a common name, not a description
                referent = common_name(kg, text, topics.get(si), (a + main[0], a + main[1]))
            if referent is None and about and earlier.kinds(about, statements, facts) is None:
                # The graph does not say what the topic is: the text is about it, so its descriptions are too —
                # before a thing the graph links to the names (a wrong value is often another thing's true one).
                start, end = a + main[0], a + main[1]
                referent = Mention(start, end, text[start:end], about)
            if referent is None:
                # The description's own words are no evidence of what it stands for ("The song": not the
                # things whose genre is song).
                spans = [(a + d[0], a + d[1]) for d in described]
                apart = [(m.start, m.end, {m.entity_id}) for m in ms] + [(w[0], w[1], set(w[2])) for w in weak.get(si, ())]
                apart = [(s, e, ids) for s, e, ids in apart if not any(s < de and ds < e for ds, de in spans)]
                found = implied_subject(kg, facts, sentence, [ids for _, _, ids in apart], nouns, allowed,
                                        lambda pid, text: names_property(pid, text, facts))
                implied, voters = found or (None, [])
                named = next((m for m in ms if m.entity_id == implied), None)
                if named is not None:
                    referent = named
                elif implied:
                    statements.update(kg.statements_for([implied]))
                    holder_views.pop(implied, None)  # read again with its statements
                    if not _one_link_among_others(statements[implied], ms, spans, statements):
                        facts.prefetch_ancestors({st.value.entity_id for st in statements[implied]} | {implied})
                        start, end = a + main[0], a + main[1]
                        referent = Mention(start, end, text[start:end], implied)
                        if len(voters) == 1 and implied not in {m.entity_id for m in earlier.mentions}:
                            # found through one name alone, among everything the graph holds rather than the things
                            # the text named before (the topic among them): what the sentence says of that name is
                            # circular ("Nginx is a web server. The software was created by Igor Sysoev" is not)
                            found_by[si] = (implied, *apart[voters[0]][:2])
            # "The asteroid was discovered ... near Bern, Switzerland": an unresolved description that is the
            # sentence's grammatical subject leaves it unknown, not the next name (a place after a comma) —
            # unless that name opens a clause of its own ("The film is a triptych: Amores perros contains").
            opening = described[0]
            if referent is None and subject is not None and not sentence[:opening[0]].strip(" \"'“(") and \
                    (VERB_AFTER.match(sentence, opening[1]) or _VERB_THEN_NAME.match(sentence, opening[1])) and \
                    not _CLAUSE_OPENS.search(sentence, 0, subject.start - a):
                subject = None
            else:
                subject = referent or subject
        if subject is None and about and not described:
            subject = Mention(a, a, topic_name, about)  # "is a 2011 Japanese film": the name left out is the topic
        if subject is not None and subject in ms and last_subject is not None and \
                last_subject.entity_id != subject.entity_id:
            # "A sequel, Banjo-Tooie, was released": the sequel of what the text was about; the rest is the name's.
            for pid in apposed_properties(kg, sentence, subject.start - a, last_subject, statements):
                emit(si, last_subject, pid, subject.start, subject.end, subject.entity_id, reader="words")
        actors = ms + ([subject] if subject is not None and subject not in ms else [])
        for m in outside:  # "Toxicon is a scientific journal": "the journal" of a later sentence is Toxicon
            kind = called(text, m.end) if m.end <= b else None
            if kind:
                earlier.call(m.entity_id, kind)
        earlier.extend(actors)
        weak_here = [w for w in weak.get(si, ()) if not any(m.start < w[1] and w[0] < m.end for m in ms)]
        topic = topics.get(si)
        if topic:
            actors = actors + [Mention(topic[0], topic[1], text[topic[0]:topic[1]], i) for i in topic[2]]
        # 3. What the graph links outright.
        links: dict[frozenset, list[tuple]] = {}
        # "Canada, France and West Germany", "Israel/UK/United States": no item's relation to another
        listed = listed_together(text, [(m.start, m.end) for m in ms] + [(w[0], w[1]) for w in weak_here])
        for x in actors:
            for st in statements.get(x.entity_id, ()):
                v = st.value.entity_id
                if v:
                    for y in ms:
                        if y.entity_id == v and not (y.start < x.end and x.start < y.end) and \
                                frozenset(((x.start, x.end), (y.start, y.end))) not in listed:
                            links.setdefault(frozenset((x.entity_id, v)), []).append((x, st.property, y.start, y.end, v))
                    for s, e, ids in weak_here:
                        if v in ids and not (s < x.end and x.start < e) and \
                                frozenset(((x.start, x.end), (s, e))) not in listed:  # not "dam" in "the dam"
                            links.setdefault(frozenset((x.entity_id, v)), []).append((x, st.property, s, e, v))
                elif st.value.time and st.value.precision:
                    for s, e, date in dates:
                        if date_agrees(date, st.value.time, st.value.precision):
                            links.setdefault((x.entity_id, s), []).append((x, st.property, a + s, a + e, None))
        # Not the weak ones (common words, "win", may be property words), nor a month inside a date ("born on 4 August
        # 1961 in X": the date is a detour between the word and its value, no name between them).
        spans = [(m.start, m.end) for m in ms if not inside_dates(m.start - a, m.end - a, dates)]
        said_of = (ms[relation_of[0]], relation_of[1]) if relation_of else None  # "The producer of X is Y"
        for found in links.values():
            named = spans + [(f[2], f[3]) for f in found]
            for x, pid, s, e, v, *reader in what_the_sentence_says(found, sentence, facts, subject, a, named, holds,
                                                                   said_of, may_say):
                emit(si, x, pid, s, e, v, reader=(reader or ["linked"])[0])
        if subject is None:
            continue
        for pid, s, e in _lifespan(sentence, subject.end - a, dates) if subject.end > subject.start else ():
            emit(si, subject, pid, a + s, a + e, reader="lifespan")  # "X (1921 - 2004)": after a name only
        last_subject = subject
        for s, e, pid, v in fused_values(text, a, b, statements.get(subject.entity_id, ()), facts):
            emit(si, subject, pid, s, e, v, reader="fused")

        def taken(s, e, si=si, subject=subject, ms=ms, listed=listed):
            # A value linked to a name that follows it ("was nominated for X, but lost to Hugo") is still open to
            # the subject's reading: the sentence says it of its subject before it names that other holder. An item
            # of the subject's own list is no value of it ("the United States, Canada, France, and the UK").
            return frozenset(((subject.start, subject.end), (s, e))) in listed or \
                any(c.start < e and s < c.end and not linked_to_later(text, c, subject, ms)
                    for c in in_sentence.get(si, ()))
        guesses: list[tuple] = []  # the types reader's claims read off a property's kind alone (read_words)
        # "X is the director of Y": Y's director (before the types reader, which would take Y for X's)
        held_by = read_holders(kg, facts, si, subject, sentence, a, ms, statements, emit) \
            if "inverse" in readers else set()
        if "words" in readers or "types" in readers:
            if subject.entity_id not in typed:
                own_values = {st.value.entity_id for st in statements.get(subject.entity_id, ()) if st.value.entity_id}
                fetched = kg.statements_for(own_values - set(value_classes), properties=(INSTANCE_OF,))
                for v in own_values:
                    value_classes[v] = {st.value.entity_id for st in fetched.get(v, ()) if st.value.entity_id}
                typed.add(subject.entity_id)
            view = SubjectView.of(kg, subject, statements, ms, a)  # what both readers ask of the subject
            read_words(view, si, subject, sentence, a, ms, dates, statements, value_classes, facts, emit, taken,
                       set(links), readers, held_by, guess=lambda *args, **kw: guesses.append((args, kw)))
            if "types" in readers:
                read_descriptions(si, subject, sentence, a, weak_here, view, emit, taken, dates)
            read_dates(view, si, subject, sentence, a, ms, dates, statements, facts, emit, taken, readers,
                       lambda si=si: in_sentence.get(si, ()))
        read_triggers(si, subject, sentence, a, ms, dates, statements, facts, emit, taken, allowed, set(links),
                      held_by)
        for args, kw in guesses:  # (si, subject, pid, start, end, ...): a span no reader took
            if not taken(args[3], args[4]):
                emit(*args, **kw)
    return sentences, _without_links_the_words_replace(claims)


def _without_links_the_words_replace(claims: list[SpanClaim]) -> list[SpanClaim]:
    """"Steven Spielberg directed Jaws": the inverse reader claims Jaws's director from the verb; the graph's other
    link between the two (Spielberg in Jaws's cast) is not what the sentence states, and SUPPORTED beside the
    director's NOT_ENOUGH_INFO it reads as a check passed. Such a link is dropped (none occurs on text-factcheck-dev)."""
    stated = {(c.claim.subject_id, c.claim.object_id, c.start): c.claim.property_id for c in claims
              if c.reader == "inverse"}
    return [c for c in claims if not (c.reader == "linked" and stated.get(
        (c.claim.subject_id, c.claim.object_id, c.start), c.claim.property_id) != c.claim.property_id)]


def _lexicon(kg):
    """Text -> the properties whose label or alias it is (the index's property lexicon, no vectors)."""
    searcher = kg.searcher()
    return lambda text: [c.id for c in searcher.properties(text, vectors=False)]


def _one_link_among_others(its_statements, mentions, description_spans, statements) -> bool:
    """The graph links the implied entity to one name of the sentence, by a property another name of the sentence
    holds too ("The reservoir behind Mansfield Dam is named Hills Creek Reservoir": Hills Creek Dam, while Mansfield
    Dam has a reservoir of its own). One link is no evidence of what the description stands for — any holder of
    that value fits, a wrong value is another thing's right one, and its claim would be SUPPORTED by construction —
    and the named holder of the relation is the likelier subject."""
    names = [m for m in mentions if not any(m.start < de and ds < m.end for ds, de in description_spans)]
    by_value = {st.value.entity_id: st.property for st in its_statements if st.value.entity_id}
    # one thing named twice ("Nick Park … Park") is one link
    linked = {m.entity_id for m in names if m.entity_id in by_value}
    if len(linked) != 1:
        return False
    (value,) = linked
    relation = by_value[value]
    return any(relation in {st.property for st in statements.get(m.entity_id, ())} for m in names
               if m.entity_id != value)


def _lifespan(sentence: str, after: int, dates) -> list[tuple[str, int, int]]:
    """"Name (11 March 1952 – 11 May 2001)" or "Name (born 11 March 1952)": birth and death dates."""
    group = re.match(r"\s*\(([^()]*)\)", sentence[after:])
    if not group:
        return []
    lo, hi = after + group.start(1), after + group.end(1)
    inside = [(s, e) for s, e, _ in dates if lo <= s and e <= hi]
    if len(inside) == 2 and re.fullmatch(r"\s*(?:-|–|—|to)\s*(?:\w+\s+)?", sentence[inside[0][1]:inside[1][0]]):
        return [("P569", *inside[0]), ("P570", *inside[1])]
    if inside and re.search(r"\b(?:born|b\.)\s*$", sentence[lo:inside[0][0]]):
        return [("P569", *inside[0])]
    return []


def _topic(text: str, sentence: tuple[int, int], weak: list) -> tuple[int, int, list[str]] | None:
    """A lower-case name the sentence opens on ("The red knot (Calidris canutus) is ..."): a possible subject."""
    words = word_spans(text, *sentence)
    first = 1 if words and text[words[0][0]:words[0][1]].lower() in ("the", "a", "an") else 0
    if len(words) <= first:
        return None
    starts_here = [w for w in weak if w[0] == words[first][0]]
    return max(starts_here, key=lambda w: w[1]) if starts_here else None
