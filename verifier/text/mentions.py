"""Sentences and entity mentions of a text: the gazetteer half of KG-first extraction.

Every word n-gram (n ≤ 8) is looked up by its normalised form in one batched query over the
label/alias index; longest non-overlapping matches win. A *mention* must hold a capital letter
or a digit (so "city" in running text is not the entity "city") and must not be one word cut
out of a longer name ("John" of "John Archambault"); namesakes are resolved first by what the text
calls the name ("… is a novel": the candidates whose description holds that noun), then by context
(candidates linked to other mentions of the text), then by the similarity of the sentence to each
candidate's description, then, when an LLM is given, by `choose_candidate` (which may answer "no
match": the mention is dropped), else by popularity.

A run of three or four capitalised words may also name a person by its first and last word
("Lance Edward Armstrong" is "Lance Armstrong"), and one with a quoted nickname by either
first or nickname and a capitalised word after it ('Petrus "Peter" Wilhelmus Nottet' is "Peter Nottet", and
'Steven "Steve" Leslie Hooker OAM' "Steve Hooker"); later in the
text, the last word of such a name alone is that entity ("Adams died"). Lower-case n-grams that name an entity ("fencer", "red knot") are kept apart as *weak*
mentions: they only count when the graph links them to a mention of the same sentence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kgcheck.index.text import normalise
from kgcheck.verifier.control import checkpoint
from kgcheck.verifier.text.fullnames import narrowed, short_names
from kgcheck.verifier.text.nameparts import (STOP, capitalised_names, in_postnominals, inside_longer_name, is_acronym,
                                             possessive, straddles_a_name, YEAR)
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.stems import PREPOSITIONS

MAX_NGRAM = 12  # award and work titles run to 10+ words
JOIN_WORDS = 4  # words on each side of a "!" or "?" that may belong to one name ("Mamma Mia! Here We Go Again")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(“])")
_WORD = re.compile(r"[\w][\w.'’-]*[\w]|[\w]")
_INITIALISM = re.compile(r"(?:\w\.)+\w")  # "a.c" of "A.C.": letters each followed by a full stop
# A full stop after these does not end a sentence ("Warner Bros. Looney Tunes", "L. L. Zamenhof").
ABBREVIATIONS = frozenset("mr mrs ms dr prof sr jr st bros inc ltd co corp no vs etc gen col lt sgt capt rev hon "
                          "mt ft jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k e.g i.e".split())


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    entity_id: str


def split_sentences(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE.finditer(text):
        before = re.search(r"([\w.]+)\.$", text[start:m.start()])
        word = before.group(1).lower() if before else ""
        if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or _INITIALISM.fullmatch(word):
            continue  # an abbreviation or initials ("A.C. Milan"), not the end of a sentence
        if len(word_spans(text, start, m.start())) <= 1:
            continue  # one word is part of a name ("Yahoo! Japan", "AKA ... What a Life!"), not a sentence
        if text[m.start() - 1] in "!?" and text[m.start() - 2].isspace():
            continue  # a detached mark is tokenised text's, inside a title ("Invasion ! ! Alien Shiriri")
        spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def rejoin_names(kg, text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentences split at a "!" or "?" that a name holds ("Chak De! India", "Mamma Mia! Here We Go Again") joined
    again: the words around each such end, up to JOIN_WORDS on either side, looked up in the label index at once."""
    keys: dict[int, set[str]] = {}
    for i in range(len(sentences) - 1):
        (a, b), (c, d) = sentences[i], sentences[i + 1]
        if text[b - 1] not in "!?":
            continue
        before, after = word_spans(text, a, b)[-JOIN_WORDS:], word_spans(text, c, d)[:JOIN_WORDS]
        keys[i] = {normalise(text[s:e]) for s, _ in before for _, e in after}
    if not keys:
        return sentences
    every = sorted(set().union(*keys.values()))
    names = {r[0] for r in kg.lookup_in("SELECT DISTINCT norm FROM label_index WHERE norm IN ({in}) AND type = 'item'",
                                       every)}
    out = [sentences[0]]
    for i in range(1, len(sentences)):
        if keys.get(i - 1, set()) & names:
            out[-1] = (out[-1][0], sentences[i][1])
        else:
            out.append(sentences[i])
    return out


def word_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each word of text[start:end], as offsets into `text`."""
    return [(m.start() + start, m.end() + start) for m in _WORD.finditer(text[start:end])]


def _ngrams(text: str, start: int, end: int):
    words = word_spans(text, start, end)
    for i in range(len(words)):
        for n in range(min(MAX_NGRAM, len(words) - i), 0, -1):
            s, e = words[i][0], words[i + n - 1][1]
            yield s, e, text[s:e]
            if possessive(text, e):  # "Belgium's capital": the mention is "Belgium"
                yield s, e - 2, text[s:e - 2]


def cased(span: str) -> bool:
    return any(ch.isupper() or ch.isdigit() for ch in span)


_NAME_WORD = r"[A-Z][\w.'’-]*"
_NICKNAMED = re.compile(rf"\b({_NAME_WORD})(?:\s+{_NAME_WORD})*\s+[\"“]({_NAME_WORD}(?:\s{_NAME_WORD})?)[\"”]"
                        rf"((?:\s+{_NAME_WORD})+)\b")


def _nicknamed(text: str, start: int, end: int):
    """(start, end, key) for 'Deanna Nicole "Tweety" Nolan': "deanna nolan" and "tweety nolan". Any capitalised
    word after the nickname may be the last name: letters after a name ('Steven "Steve" Leslie Hooker OAM') are
    capitalised too."""
    for m in _NICKNAMED.finditer(text, start, end):
        first, nick = m.group(1, 2)
        for last in re.finditer(_NAME_WORD, m.group(3)):
            for key in (f"{first} {last.group()}", f"{nick} {last.group()}"):
                yield m.start(), m.start(3) + last.end(), normalise(key)


def find_mentions(kg, text: str, sentences: list[tuple[int, int]], llm=None,
                  weak: dict | None = None) -> list[list[Mention]]:
    """Mentions per sentence; with `weak` (a dict), also fills weak[sentence] = [(start, end, candidate ids)]."""
    # (sentence, start, end, span, key, key is not the span's own normalised form). Each span is normalised
    # once: normalise's LRU cache cannot hold a long text's n-grams, so a second call costs a full recompute.
    grams = []
    for si, (a, b) in enumerate(sentences):
        for s, e, span in _ngrams(text, a, b):
            norm = normalise(span)
            if norm not in STOP and len(span) > 1 and not span.replace(".", "").replace(",", "").isdigit():
                grams.append((si, s, e, span, norm, False))
    words = [word_spans(text, a, b) for a, b in sentences]
    shorts = {(si, s, e, key): parts for si, ws in enumerate(words)  # -> (first, middle names left out, last)
              for s, e, key, parts in short_names(text, ws, STOP)}
    grams += [(si, s, e, text[s:e], key, key != normalise(text[s:e])) for si, s, e, key in shorts]
    grams += [(si, s, e, text[s:e], key, key != normalise(text[s:e])) for si, (a, b) in enumerate(sentences)
              for s, e, key in _nicknamed(text, a, b)]
    norms = sorted({g[4] for g in grams})
    by_norm: dict[str, list[tuple[str, int, int]]] = {}
    labelled: set[tuple[str, str]] = set()  # (norm, id) where the name is the entity's label, not only an alias
    capitals: set[tuple[str, str]] = set()  # (norm, id) where a name of the entity is written in capitals
    for norm, eid, sitelinks, statements, kind, written in kg.lookup_in(
            "SELECT norm, id, sitelinks, statement_count, kind, text FROM label_index WHERE norm IN ({in}) "
            "AND type = 'item'", norms):
        if kind == "label":
            labelled.add((norm, eid))
        if written and written.upper() == written:
            capitals.add((norm, eid))
        if all(c[0] != eid for c in by_norm.get(norm, ())):  # a label that is also an alias: one candidate
            by_norm.setdefault(norm, []).append((eid, sitelinks or 0, statements or 0))
    chosen: list[list[tuple]] = [[] for _ in sentences]
    common = _common_openers(kg, text, grams, words, by_norm)
    by_short = narrowed(kg, {g: m for g, m in shorts.items() if g[3] in by_norm}, by_norm)
    blocked: list[list[tuple[int, int]]] = [[] for _ in sentences]  # full names the graph knows another of
    proper = capitalised_names(len(sentences), [g for g in grams if by_short.get(g[:3] + (g[4],), by_norm.get(g[4]))])
    for si, s, e, span, key, _ in sorted(grams, key=lambda g: (-(g[2] - g[1]), g[1], g[5])):
        cands = by_short.get((si, s, e, key), by_norm.get(key))
        if cands and is_acronym(span):
            cands = None if in_postnominals(text, s, e) else [c for c in cands if (key, c[0]) in capitals] or None
        if not cands:
            if by_norm.get(key):  # "William James Hughes": no word of it is a name ("William James") either
                blocked[si].append((s, e))
            continue
        if not cased(span) or (s, e) in common or inside_longer_name(text, s, e, words[si]) or \
                straddles_a_name(text, s, e, words[si], proper[si]):
            # A lower-case two-letter word ("de", "no", "us") is a function word far more often than a name; a
            # lower-case phrase ending in a preposition states a relation ("based upon", "located in"), whatever item
            # an alias gives it elsewhere ("based upon": film adaptation), and is read as words, never as a value.
            if weak is not None and (len(span) > 2 or cased(span)) and \
                    (cased(span) or key.rsplit(" ", 1)[-1] not in PREPOSITIONS):
                weak.setdefault(si, []).append((s, e, [c[0] for c in cands]))
            continue
        if any(not (e <= cs or s >= ce) for cs, ce, *_ in chosen[si] + blocked[si]):
            continue
        chosen[si].append((s, e, span, cands, key))
    all_candidates = {c[0] for sent in chosen for *_, cands, _key in sent for c in cands}
    linked = context_links(kg, all_candidates)
    # The names (one candidate list per name: mentions of the same name share it) giving each candidate. A
    # candidate's context is how many other names the graph links it to, each name once: "France" gives the
    # country and, as an alias, the Kingdom of France and the French Empire; Hamburg, linked to two of them, is no
    # likelier the "Germany" of "Germany borders France" than Germany, linked to one.
    lists = {id(cands): cands for sent in chosen for *_, cands, _key in sent}
    names_giving: dict[str, set[int]] = {}
    for list_id, cands in lists.items():
        for c in cands:
            names_giving.setdefault(c[0], set()).add(list_id)
    out = []
    for si, sent in enumerate(chosen):
        checkpoint()
        mentions = []
        for s, e, span, cands, key in sorted(sent):
            context = {c[0]: len(set().union(*(names_giving.get(j, ()) for j in linked.get(c[0], ()))) - {id(cands)})
                       for c in cands}
            top = max(context.values())
            if len(cands) > 1 and sum(n == top for n in context.values()) > 1:
                # Among namesakes the graph does not tell apart, one whose label the name is outranks those
                # holding it as an alias only ("Egypt" is an alias of Cairo), then the sentence's likeness
                # to each description decides.
                ties = [c[0] for c in cands if context[c[0]] == top]
                if any((key, i) in labelled for i in ties) and not all((key, i) in labelled for i in ties):
                    ties = [i for i in ties if (key, i) in labelled]
                # A name written exactly as one namesake's label ("Anti'christ", the album) outranks those it
                # meets only once normalised ("Antichrist", the film): the apostrophe is the writer's choice.
                exact = _written_as(kg, span, ties) if len(ties) > 1 else set()
                if 0 < len(exact) < len(ties):
                    ties = [i for i in ties if i in exact]
                sentence = text[slice(*sentences[si])]
                if len(ties) > 1 and _OPENING.fullmatch(text, sentences[si][0], s):  # the sentence's likely subject
                    others = [c for ws, we, c in (weak or {}).get(si, ()) if we <= s or ws >= e]
                    others += [[c[0] for c in other] for o_s, o_e, _, other, _ in sent if o_e <= s or o_s >= e]
                    ties = _holding_what_the_sentence_gives(kg, ties, sentence, others)
                described = _description_similarity(kg, sentence, ties) if len(ties) > 1 else {}
                context = {i: (n, i in ties, described.get(i, 0.0)) for i, n in context.items()}
            else:
                context = {i: (n, True, 0.0) for i, n in context.items()}
            # "Harry Potter and the Half-Blood Prince is a novel": what the text calls it picks among namesakes first.
            fits = _called_as(kg, text, e, [c[0] for c in cands]) if len(cands) > 1 else set()
            best = max(cands, key=lambda c: (c[0] in fits, context[c[0]], c[1], c[2], c[0]))
            if llm is not None and len(cands) > 1 and sum(n == context[best[0]] for n in context.values()) > 1:
                # The text's other entities do not settle it: ask the model (it may say "no match").
                choice = _ask_llm(kg, llm, text, sentences[si], span, cands)
                if choice is None:
                    continue
                best = next((c for c in cands if c[0] == choice), best)
            mentions.append(Mention(s, e, span, best[0]))
        out.append(mentions)
    return _surnames(text, words, out)


_OPENING = re.compile(r"[\s\"'“(]*")  # what may precede a sentence's opening name


def _holding_what_the_sentence_gives(kg, ties: list[str], sentence: str, values: list[list[str]]) -> list[str]:
    """Among namesakes the graph does not tell apart that open a sentence, those holding a property its values may
    fill: a name by its likeliest role ("Despacito is a ragtime song": ragtime is a genre, and of two Despacitos one
    holds a genre, the other only a date), a year by any time-valued property. VALUES: the candidates of each other
    name of the sentence, lower-case ones included. All TIES when none or all hold one."""
    roles = GraphSchema.of(kg).roles({i for cands in values for i in cands})
    pids = {max(sorted(r), key=r.get) for r in roles.values() if r}
    dated = bool(YEAR.search(sentence))
    if not pids and not dated:
        return ties
    holding = {s for s, p, kind in kg.subject_rows("DISTINCT subject, property, value_type", ties)
               if p in pids or (dated and kind == "time")}
    kept = [t for t in ties if t in holding]
    return kept if 0 < len(kept) < len(ties) else ties


_PERSONAL_NAME = re.compile(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){1,3}")  # "Douglas Adams", not "Bank of America"


# A lower-case word next that is no verb: the span is a modifier or a noun its phrase goes on from ("Major
# tributaries", "Music critics", "Author of"), not a subject as "Broccoli is" or "Sockeye salmon (O. nerka)" are.
_PHRASE_GOES_ON = re.compile(r"\s+(?!(?:is|was|are|were|has|have|had)\b)[a-z]")


def _common_openers(kg, text: str, grams, words, by_norm) -> set[tuple[int, int]]:
    """Spans opening their sentence whose only capital is the sentence's, that a lower-case word other than a verb
    follows ("Major tributaries of ...") and whose every candidate the index labels in lower case (the rank
    "major"): a common word, weak like any lower-case one."""
    spans = {(s, e): by_norm[key] for si, s, e, span, key, _ in grams if key in by_norm and words[si] and
             s == words[si][0][0] and span[:1].isupper() and not cased(span[1:]) and _PHRASE_GOES_ON.match(text, e)}
    if not spans:
        return set()
    ids = sorted({c[0] for cands in spans.values() for c in cands})
    labels = {i: label for i, label, _ in kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})",
                                                        ids)}
    return {span for span, cands in spans.items() if all((labels.get(c[0]) or "")[:1].islower() for c in cands)}


def _surnames(text: str, words, out: list[list[Mention]]) -> list[list[Mention]]:
    """A capitalised word that is the last word of a longer name mentioned before it is that entity
    ("Douglas Adams wrote ... Adams died"), whatever else the gazetteer would make of the word alone."""
    named: dict[str, str] = {}  # last word -> entity of the latest longer name ending on it
    for si, mentions in enumerate(out):
        taken = {(m.start, m.end): m for m in mentions if " " in m.text}
        names = [m for m in taken.values() if _PERSONAL_NAME.fullmatch(m.text)]
        for s, e in words[si]:
            word = text[s:e]
            # Not the last word of another name the gazetteer does not know ("the Tuichi River" after "the East
            # Normanby River").
            if word in named and word[:1].isupper() and not any(a <= s < b for a, b in taken) and \
                    not inside_longer_name(text, s, e, words[si]):
                mentions = [m for m in mentions if not (m.start <= s < m.end)] + [Mention(s, e, word, named[word])]
            for m in names:
                if m.end == e and m in mentions:
                    named[text[s:e]] = m.entity_id
        out[si] = sorted(mentions, key=lambda m: m.start)
    return out


# "X is a 2011 American parody film that …": after a name, the copula and an article open what the text calls it; the
# phrase ends at a clause word, a participle ("a journal published by"), punctuation or the sentence's end. A title
# whose label ends in a full stop ("Party in the U.S.A.", "Lorenzo 2015 CC.") is matched without it: skip it.
_CALLED = re.compile(r"\.?\s+(?:is|was)\s+(?:a|an)\s+((?:[\w-]+\s+){0,4}?[a-z][a-z-]+)"
                     r"(?=\s+(?:who|which|that|by|from|with|in|on|at|for|and|of|\w+ed)\b|\s*[,;:.()]|\s*$)")


def called(sentence: str, end: int) -> str | None:
    """What the text calls the thing named just before offset `end` ("Toxicon is a scientific journal" ->
    "scientific journal"), normalised; None when no "is a …" follows the name."""
    m = _CALLED.match(sentence, end)
    return normalise(m.group(1)) or None if m else None


def _called_as(kg, text: str, end: int, ids: list[str]) -> set[str]:
    """The candidates that are what the text calls the name ending at `end` ("… is a novel"): the noun's last
    word is a word of their description ("novel by J. K. Rowling", not "2009 film directed by David Yates").
    Empty when the text calls it nothing, or when all or none fit (no help)."""
    kind = called(text, end)
    if not kind:
        return set()
    head = kind.rsplit(" ", 1)[-1]
    rows = kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids[:8])
    found = {i for i, _, description in rows if head in normalise(description or "").split()}
    return found if 0 < len(found) < len(ids) else set()


def _written_as(kg, span: str, ids: list[str]) -> set[str]:
    """The candidates whose label is the span as written, to the character."""
    rows = kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids[:8])
    return {i for i, label, _ in rows if label == span}


def _description_similarity(kg, sentence: str, ids: list[str], step: float = 0.1) -> dict[str, float]:
    """Cosine of the sentence and each candidate's description, in `step`s: a clear difference outranks
    popularity ("Cambridge ... university town" vs "city in Massachusetts"), noise does not."""
    rows = kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids[:8])
    described = {i: d for i, _, d in rows if d}
    if len(described) < 2 or not hasattr(kg, "searcher"):
        return {}
    searcher = kg.searcher()
    query = searcher.query_vector(sentence)
    return {i: round(float(searcher.query_vector(d) @ query) / step) * step for i, d in described.items()}


def _ask_llm(kg, llm, text: str, sentence: tuple[int, int], mention: str, cands: list[tuple]) -> str | None:
    """The model's choice among namesakes; the popularity order stands when the model fails."""
    from kgcheck.verifier.llm.backends import LLMError
    from kgcheck.verifier.llm.extract import choose_candidate

    ids = [c[0] for c in sorted(cands, key=lambda c: (-c[1], -c[2], c[0]))][:8]
    rows = {r[0]: r for r in kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids)}
    listing = [(i, rows.get(i, (i, i, ""))[1] or i, rows.get(i, (i, i, ""))[2] or "") for i in ids]
    try:
        return choose_candidate(llm, text[sentence[0]:sentence[1]], mention, listing)
    except (LLMError, Exception):  # noqa: BLE001 - the model only helps: popularity stands without it
        return ids[0]


def context_links(kg, ids: set[str]) -> dict[str, set[str]]:
    """Which candidates are linked to which (either direction): the context for disambiguation."""
    links: dict[str, set[str]] = {}
    if len(ids) < 2:
        return links
    for subject, value in kg.subject_rows("subject, entity_id", ids, "entity_id IN (SELECT unnest(?))",
                                          [sorted(ids)]):
        links.setdefault(subject, set()).add(value)
        links.setdefault(value, set()).add(subject)
    return links


def fused_values(text: str, start: int, end: int, statements, facts, max_glue: int = 2):
    """(start, end, property, value) where a value of `statements` is named with words of its property
    inside ("James Bay drainage basin" for the drainage basin "James Bay Basin"): no gazetteer match,
    since the name is not contiguous. The extra words must belong to the property's names."""
    words = word_spans(text, start, end)
    norms = [normalise(text[s:e]) for s, e in words]
    for st in statements:
        label = facts.label(st.value.entity_id) if st.value.entity_id else None
        target = normalise(label).split() if label else []
        if len(target) < 2:
            continue
        glue = {w for name in facts.names(st.property) for w in name.split()} - set(target)
        for i, first in enumerate(norms):
            if first != target[0]:
                continue
            j, k, glued = i, 0, 0
            while j < len(norms) and k < len(target):
                if norms[j] == target[k]:
                    k += 1
                elif norms[j] in glue and glued < max_glue:
                    glued += 1
                else:
                    break
                j += 1
            if k == len(target) and glued:
                yield words[i][0], words[j - 1][1], st.property, st.value.entity_id
