"""Who "the film" is: definite descriptions resolved by the graph.

1. An earlier mention that is an instance of a class the noun names ("The journal was established in
   1981": the scientific journal named before), or that the text itself called so ("Toxicon is a scientific
   journal. The journal …": the graph may not hold the class, the writer's own words do).
2. A description whose words are the label of one thing that is no class, a common name written lower-case
   ("The red-backed shrike (Lanius collurio) is a …"), is that thing (`common_name`).
3. Else the one thing the graph links to what the sentence names ("The dam forms Lake Austin": the
   only dam whose reservoir is Lake Austin). Texts about a topic often never name it again (an
   article's sentences, an LLM's follow-up answer). A single candidate is evidence enough; several,
   or a hub value that hundreds of things link to, are none. What the sentence says of the one name that
   found the candidate is no check of it (a wrong value is another thing's right one): extract.py marks that
   claim, and verify.py leaves it NOT_ENOUGH_INFO; the sentence's other claims are judged. When the graph
   knows the candidate's class it must fit the noun ("the album" is not a film); when it does not, a
   description the dump gives it must ("the journal" is no "American politician"). The description's own
   words cast no vote.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable

from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.stems import FUNCTION_WORDS
from kgcheck.verifier.text.words import VERB_AFTER

# "the film", "the main tributaries": lower-case words, so "The Hague" or "the United States" are names.
_DESCRIPTION = re.compile(r"\b(?:[Tt]he|[Tt]his)\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})\b")
# What kind of thing an entity is: instance of, subclass of, genre, form of creative work.
KIND_PROPERTIES = ("P31", "P279", "P136", "P7937")
MAX_LINKS = 64  # more statements than this point at a value: a hub, no evidence of which subject is meant
MAX_CANDIDATES = 32
CLASS_LINKS = ("P31", "P279")  # a thing others are instances or subclasses of is a kind ("the film"), not one thing
_NEXT_WORD = re.compile(r"\s+([a-z][\w'’-]*)")


def common_name(kg, text: str, opening: tuple[int, int, list[str]] | None, description: tuple[int, int],
                ) -> Mention | None:
    """The thing the lower-case name the sentence opens on names (`opening`: extract._topic's weak mention, with
    its candidate ids), when that name begins inside the description at `description`, has two words or more
    (one noun is a kind: "the station"), ends its noun phrase (punctuation, a function word or a verb next) and
    names one thing nothing is an instance or subclass of: "the red-backed shrike" is the bird species the graph
    labels so, not what the graph links to the sentence's other names (another animal of the genus a wrong
    binomial names)."""
    if not opening or len(opening[2]) != 1 or not description[0] <= opening[0] < description[1] or \
            len(text[opening[0]:opening[1]].split()) < 2:
        return None
    after = _NEXT_WORD.match(text, opening[1])
    if after and after.group(1) not in FUNCTION_WORDS and not VERB_AFTER.match(text, opening[1]):
        return None  # the name ends no noun phrase: "The string orchestra pieces" are pieces
    start, end, (eid,) = opening
    links = kg.subjects_linking_to(eid, MAX_LINKS)
    if links is None or any(pid in CLASS_LINKS for _, pid in links):
        return None
    return Mention(start, end, text[start:end], eid)


def descriptions(sentence: str, names: list[tuple[int, int]]) -> list[tuple[int, int, list[str]]]:
    """(start, end, words) of each definite description outside the sentence's names. Its head noun is
    one of the (up to three) lower-case words after "the": "the lead single", "the film was"."""
    found = []
    for m in _DESCRIPTION.finditer(sentence):
        if not any(s <= m.start() < e for s, e in names):
            words = m.group(1).split()
            found.append((m.start(), m.start(1) + len(words[0]), words))
    return found


# "The editor-in-chief is X", "The editors are A and B": a sentence that opens on a definite description
# (up to four words) followed by a copula and a name or a number — not "The album was released …" nor "The song
# is a ballad", where the description is a thing the sentence goes on to describe.
_OPENING_COPULA = re.compile(r"^[\s\"'“(]*(?:[Tt]he|[Tt]his)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+"
                             r"(?:is|was|are|were)\s+[\"'“]?[A-Z0-9]")


_COMPOUND_HEAD = re.compile(r"-(?:in|of|at|to)-[\w-]+$")
# "The director of Titanic is X": an opening description of up to six words (a property's whole name may hold
# function words: "The language of work or name of"; opening_relation asks the lexicon for the whole), "of", a name.
_RELATION_OF = re.compile(r"^[\s\"'“(]*[Tt]he\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,5}?)\s+of\s+(?:the\s+)?$")
_THEN_COPULA = re.compile(r"\s*(?:is|was|are|were|has been|had been)\s+")


def opening_relation(sentence: str, names: list[tuple[int, int]],
                     properties: Callable[[str], list[str]]) -> tuple[int, list[str]] | None:
    """(the index in NAMES — spans in the sentence, in order — of the name an opening relation is said of, the
    properties it names): "The director of Titanic is James Cameron", "The capital of Peru was Cusco" — Titanic,
    Peru. The description must name a property (properties(text): the index's lexicon; a plural head tried without
    its s) and a copula follow the name; None otherwise ("The city of Paris is", "The story of Ruth was" name no
    property)."""
    for i, (start, end) in enumerate(names):
        opening = _RELATION_OF.match(sentence[:start])
        if opening:
            named = _named_property(opening.group(1).split(), properties) if _THEN_COPULA.match(sentence, end) else []
            return (i, named) if named else None
    return None


def relation_noun(sentence: str, properties: Callable[[str], list[str]]) -> list[str]:
    """The properties an opening description names when it is a relation, not a thing ("The editor-in-chief
    is Torsten Hothorn": the topic's editor, as "Its editor-in-chief is" says): properties(text) gives the ids
    whose label or alias is that text (the index's property lexicon). A plural head ("The editors-in-chief
    are") is tried without its s."""
    m = _OPENING_COPULA.match(sentence)
    return _named_property(m.group(1).split(), properties) if m else []


# "Characters include Uncle Scrooge and Donald Duck", "Editors were A and B", "Characters in the story include": a
# sentence opening on a bare noun phrase (no article, no name before it) that names a relation — what it is said of
# after "in/of the" is a description of the subject —, then a verb of listing and a name.
_BARE_OPENING = re.compile(r"^[\s\"'“(]*([A-Z][a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
                           r"(?:\s+(?:in|of)\s+(?:the|this)\s+[a-z][\w-]*)?\s+"
                           r"(?:include|includes|included|are|were)\s+[\"'“]?[A-Z0-9]")


def bare_relation_noun(sentence: str, properties: Callable[[str], list[str]]) -> list[str]:
    """The properties a sentence's bare opening noun phrase names when it is a relation listing values ("Characters
    include X": the subject named before holds them, as "Its characters include X" says); [] otherwise
    ("Critics were divided" names no property; a name in capitals is no bare noun)."""
    m = _BARE_OPENING.match(sentence)
    if not m:
        return []
    words = m.group(1).split()
    return _named_property([words[0].lower(), *words[1:]], properties)


def _named_property(words: list[str], properties: Callable[[str], list[str]]) -> list[str]:
    """The properties these description words name (relation_noun, opening_relation), trying the head of a compound
    and each plural word without its s."""
    # "editor-in-chief", "commander-in-chief": the head of a compound joined by a preposition comes first.
    heads = [_COMPOUND_HEAD.sub("", w) for w in words]
    tries = [words] + ([heads] if heads != words else [])
    tries += [ws[:i] + [w[:-1]] + ws[i + 1:] for ws in list(tries) for i, w in enumerate(ws)
              if w.endswith("s") and not w.endswith("ss")]  # "The editors are", "editors-in-chief"
    for variant in tries:
        found = properties(" ".join(variant))
        if found:
            return found
    return []


def _kinds(eid: str, statements: dict, facts) -> set[str] | None:
    """Normalised labels of what `eid` is (its classes and their ancestors); None when the graph does not say."""
    from kgcheck.index.text import normalise

    classes = {st.value.entity_id for st in statements.get(eid, ())
               if st.property in KIND_PROPERTIES and st.value.entity_id}
    if not classes:
        return None
    facts.prefetch_ancestors(classes)
    every = classes | {a for c in classes for a in facts.ancestors(c)}
    facts.prefetch_labels(every)
    return {normalise(facts.label(c) or "") for c in every} - {""}


def _named(kinds: set[str], nouns: list[str]) -> bool:
    return any(k == noun or k.endswith(" " + noun) for k in kinds for noun in nouns)


def _described_otherwise(kg, ids: list[str], nouns: list[str]) -> set[str]:
    """Of entities the graph gives no class, those whose label and description (the dump's one-line summary)
    hold none of the nouns: "the journal" is not a person described as "28th President of the United States".
    An entity without a description stays possible."""
    from kgcheck.index.text import normalise

    if not ids or not nouns:
        return set()
    heads = {noun.rsplit(" ", 1)[-1] for noun in nouns}
    out = set()
    for eid, label, description in kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids):
        if not description:
            continue
        words = set(normalise(f"{label or ''} {description}").replace("-", " ").split())
        if not any(h in words or h + "s" in words for h in heads):
            out.add(eid)
    return out


class EarlierMentions:
    """The mentions of the sentences before, in text order, indexed by the last word of their class labels:
    `_named` holds for a one-word noun exactly when it is that last word, so finding the latest mention a
    description names costs the nouns, not a scan of every earlier mention (quadratic on long texts).
    Classes are looked up lazily, once per entity, the first time a description asks."""

    def __init__(self) -> None:
        self.mentions: list[Mention] = []
        self._indexed = 0
        self._latest: dict[str, int] = {}  # last word of a class label -> index of the latest mention
        self._kinds: dict[str, set[str] | None] = {}
        self._called: dict[str, set[str]] = {}  # what the text called an entity ("scientific journal")

    def extend(self, mentions) -> None:
        self.mentions.extend(mentions)

    def call(self, eid: str, kind: str) -> None:
        """The text called `eid` a `kind`: a kind of its mentions from now on, beside the graph's classes."""
        self._called.setdefault(eid, set()).add(kind)

    def kinds(self, eid: str, statements: dict, facts) -> set[str] | None:
        """The graph's kinds of `eid` and what the text called it; None when neither says."""
        if eid not in self._kinds:
            self._kinds[eid] = _kinds(eid, statements, facts)
        graph, text = self._kinds[eid], self._called.get(eid)
        return (graph or set()) | text if text else graph

    def latest(self, nouns: list[str], statements: dict, facts) -> Mention | None:
        for i in range(self._indexed, len(self.mentions)):
            for kind in self.kinds(self.mentions[i].entity_id, statements, facts) or ():
                self._latest[kind.rsplit(" ", 1)[-1]] = i
        self._indexed = len(self.mentions)
        best = max((self._latest.get(noun, -1) for noun in nouns if " " not in noun), default=-1)
        return self.mentions[best] if best >= 0 else None


def earlier_referent(nouns: list[str], earlier, statements: dict, facts) -> Mention | None:
    """The latest earlier mention whose (known) class the noun names (`earlier`: EarlierMentions or a list)."""
    if isinstance(earlier, EarlierMentions) and all(" " not in noun for noun in nouns):
        return earlier.latest(nouns, statements, facts)
    indexed = isinstance(earlier, EarlierMentions)
    for m in reversed(earlier.mentions if indexed else earlier):
        kinds = earlier.kinds(m.entity_id, statements, facts) if indexed else _kinds(m.entity_id, statements, facts)
        if kinds is not None and _named(kinds, nouns):
            return m
    return None


def implied_subject(kg, facts, sentence: str, objects: list[set[str]], nouns: list[str],
                    allowed: Callable[[str], bool], names_property: Callable[[str, str], bool],
                    ) -> tuple[str, list[int]] | None:
    """The one entity the graph links (through allowed properties) to the most things the sentence
    names, of a class the nouns fit, and the indices in `objects` of the names linked to it; None when there is
    no such entity or several tie. It may be named in the sentence too ("The song ... for Hot n Cold's album"):
    then that mention is the subject."""
    voters: dict[str, list[int]] = {}  # candidate -> the names (indices in objects) linked to it: its votes
    named: Counter = Counter()
    for i, ids in enumerate(objects):  # one mention: an entity, or the several namesakes of a weak mention
        hits: set[tuple[str, str]] = set()
        for oid in ids:
            for subject, pid in kg.subjects_linking_to(oid, MAX_LINKS) or ():
                if allowed(pid) and subject not in ids:
                    hits.add((subject, pid))
        for s in {s for s, _ in hits}:
            voters.setdefault(s, []).append(i)
        named.update({s for s, p in hits if names_property(p, sentence)})
    if not voters or len(voters) > MAX_CANDIDATES:
        return None
    statements = kg.statements_for(list(voters), properties=KIND_PROPERTIES)
    kinds = {s: _kinds(s, statements, facts) for s in voters}
    # A class must fit the noun; without one, the entity's own label and description must.
    unknown = _described_otherwise(kg, [s for s, k in kinds.items() if k is None], nouns)
    fitting = [s for s, k in kinds.items() if (s not in unknown if k is None else not nouns or _named(k, nouns))]
    ranked = sorted(((len(voters[s]), named[s]), s) for s in fitting)
    if not ranked or (len(ranked) > 1 and ranked[-1][0] == ranked[-2][0]):
        return None
    return ranked[-1][1], voters[ranked[-1][1]]
