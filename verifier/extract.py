"""KG-first claim extraction from free text (no LLM needed).

1. Sentences; mentions by a gazetteer over labels and aliases: every word n-gram (n ≤ 8)
   is looked up by its normalised form in one batched query; longest non-overlapping
   matches win; a mention must hold a capital letter or a digit (so "city" in running
   text is not the entity "city"); namesakes are resolved by context (candidates linked
   to other mentions of the text), then, when an LLM is given, by `choose_candidate` (which
   may answer "no match": the mention is dropped), else by popularity.
2. Pronouns (he, she, it, his, her, its, they, their) stand for the last subject.
3. Claims, per sentence, about its subject: another mention that is a value of one of
   the subject's statements (or a place above it: "born in England" for Cambridge);
   a mention named by a property word in the sentence ("capital", "born in"); dates and
   quantities found by the parsers, attached to the property whose trigger words appear;
   "<property words> is <phrase>" with no linked object ("its head of state is a king")
   becomes a claim on that phrase when the subject lacks the property or the phrase is a
   name — the graph then answers NOT_ENOUGH_INFO rather than the claim being dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from index.text import normalise

from .model import Claim
from .values import find_dates, find_quantities

MAX_NGRAM = 8
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_WORD = re.compile(r"[\w][\w.'’-]*[\w]|[\w]")
# "<property words> is <phrase>": the phrase ends at punctuation or a conjunction.
_COPULA = re.compile(r"\s+(?:is|was|are|were|has been|had been)\s+((?:(?!and\b|but\b|while\b|which\b)[\w'’-]+\s?){1,6})",
                     re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
PRONOUNS = frozenset("he she it his her its they their him them".split())
STOP = frozenset("a an the of in on at to for by with and or is was are were be been from as its it his her their "
                 "this that which who whom s he she they".split())
# Words people use for common properties, beyond the properties' own labels and aliases.
TRIGGERS = {
    "P569": ("born", "birth"), "P19": ("born", "birthplace", "native of"), "P570": ("died", "death", "passed away"),
    "P20": ("died", "death"), "P571": ("founded", "established", "formed", "created", "inception", "since"),
    "P577": ("published", "released", "premiered"), "P36": ("capital",), "P17": ("country",),
    "P1082": ("population", "inhabitants", "people live"), "P2046": ("area", "square"), "P2044": ("elevation",),
    "P2048": ("tall", "height"), "P35": ("head of state", "king", "queen", "president", "monarch"),
    "P6": ("prime minister", "head of government", "premier"), "P50": ("written by", "author", "wrote"),
    "P57": ("directed", "director"), "P161": ("starring", "starred", "cast"), "P86": ("composed", "composer"),
    "P175": ("performed", "performer", "sung by"), "P136": ("genre",), "P495": ("country of origin",),
    "P159": ("headquartered", "headquarters", "based in"), "P131": ("located in",), "P47": ("border",),
    "P26": ("married", "spouse", "wife", "husband"), "P108": ("worked for", "employer"), "P69": ("educated", "studied"),
    "P106": ("occupation", "worked as"), "P27": ("citizen",), "P22": ("father",), "P25": ("mother",),
}
ITEM_VALUED = frozenset(p for p in TRIGGERS if p not in ("P569", "P570", "P571", "P577", "P1082", "P2046", "P2044",
                                                          "P2048"))


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    entity_id: str


@dataclass(frozen=True)
class SpanClaim:
    claim: Claim
    sentence_index: int
    start: int  # character offsets of the claimed object in the whole text
    end: int


def split_sentences(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def _ngrams(text: str, start: int, end: int):
    words = [(m.start() + start, m.end() + start) for m in _WORD.finditer(text[start:end])]
    for i in range(len(words)):
        for n in range(min(MAX_NGRAM, len(words) - i), 0, -1):
            s, e = words[i][0], words[i + n - 1][1]
            yield s, e, text[s:e]
            if text[e - 2:e] in ("'s", "’s"):  # "Belgium's capital": the mention is "Belgium"
                yield s, e - 2, text[s:e - 2]


def find_mentions(kg, text: str, sentences: list[tuple[int, int]], llm=None) -> list[list[Mention]]:
    grams = [(si, s, e, span) for si, (a, b) in enumerate(sentences) for s, e, span in _ngrams(text, a, b)
             if any(ch.isupper() or ch.isdigit() for ch in span) and normalise(span) not in STOP and len(span) > 1]
    norms = sorted({normalise(g[3]) for g in grams})
    by_norm: dict[str, list[tuple]] = {}
    for norm, eid, sitelinks, statements in kg.lookup_in(
            "SELECT norm, id, sitelinks, statement_count FROM label_index WHERE norm IN ({in}) AND type = 'item'",
            norms):
        if all(c[0] != eid for c in by_norm.get(norm, ())):  # a label that is also an alias: one candidate
            by_norm.setdefault(norm, []).append((eid, sitelinks or 0, statements or 0))
    chosen: list[list[tuple]] = [[] for _ in sentences]
    for si, s, e, span in sorted(grams, key=lambda g: (-(g[2] - g[1]), g[1])):
        cands = by_norm.get(normalise(span))
        if not cands or any(not (e <= cs or s >= ce) for cs, ce, *_ in chosen[si]):
            continue
        if span.replace(".", "").isdigit():
            continue  # a bare number is a value, not an entity
        chosen[si].append((s, e, span, cands))
    all_candidates = {c[0] for sent in chosen for *_, cands in sent for c in cands}
    linked = _context_links(kg, all_candidates)
    out = []
    for si, sent in enumerate(chosen):
        mentions = []
        for s, e, span, cands in sorted(sent):
            others = {c[0] for sent2 in chosen for *_, cs in sent2 if cs is not cands for c in cs}
            context = {c[0]: len(linked.get(c[0], set()) & others) for c in cands}
            best = max(cands, key=lambda c: (context[c[0]], c[1], c[2], c[0]))
            if llm is not None and len(cands) > 1 and sum(n == context[best[0]] for n in context.values()) > 1:
                # The text's other entities do not settle it: ask the model (it may say "no match").
                choice = _ask_llm(kg, llm, text, sentences[si], span, cands)
                if choice is None:
                    continue
                best = next((c for c in cands if c[0] == choice), best)
            mentions.append(Mention(s, e, span, best[0]))
        out.append(mentions)
    return out


def _ask_llm(kg, llm, text: str, sentence: tuple[int, int], mention: str, cands: list[tuple]) -> str | None:
    """The model's choice among namesakes; the popularity order stands when the model fails."""
    from .llm import LLMError
    from .llm_extract import choose_candidate

    ids = [c[0] for c in sorted(cands, key=lambda c: (-c[1], -c[2], c[0]))][:8]
    rows = {r[0]: r for r in kg.lookup_in("SELECT id, label, description FROM entities WHERE id IN ({in})", ids)}
    listing = [(i, rows.get(i, (i, i, ""))[1] or i, rows.get(i, (i, i, ""))[2] or "") for i in ids]
    try:
        return choose_candidate(llm, text[sentence[0]:sentence[1]], mention, listing)
    except (LLMError, Exception):  # noqa: BLE001 - the model only helps: popularity stands without it
        return ids[0]


def _context_links(kg, ids: set[str]) -> dict[str, set[str]]:
    """Which candidates are linked to which (either direction): the context for disambiguation."""
    links: dict[str, set[str]] = {}
    if len(ids) < 2:
        return links
    for subject, value in kg.sql(
            "SELECT subject, entity_id FROM statements WHERE subject IN (SELECT unnest(?)) "
            "AND entity_id IN (SELECT unnest(?))", [sorted(ids), sorted(ids)]):
        links.setdefault(subject, set()).add(value)
        links.setdefault(value, set()).add(subject)
    return links


def extract_claims(kg, facts, text: str, llm=None) -> tuple[list[tuple[int, int]], list[SpanClaim]]:
    """(sentence spans, claims with the character span of each claimed object)."""
    sentences = split_sentences(text)
    mentions = find_mentions(kg, text, sentences, llm)
    subjects = {m.entity_id for ms in mentions for m in ms}
    statements = kg.statements_for(subjects)
    values = {st.value.entity_id for sts in statements.values() for st in sts if st.value.entity_id}
    facts.prefetch_ancestors(values | subjects)
    facts.prefetch_datatypes({st.property for sts in statements.values() for st in sts} | set(TRIGGERS))
    claims: list[SpanClaim] = []
    last_subject: Mention | None = None
    for si, (a, b) in enumerate(sentences):
        sentence = text[a:b]
        ms = mentions[si]
        first_pronoun = next((w.start() + a for w in _WORD.finditer(sentence) if w.group().lower() in PRONOUNS), None)
        subject = ms[0] if ms else None
        if last_subject is not None and first_pronoun is not None and (subject is None or first_pronoun < subject.start):
            subject = last_subject  # "He died in Santa Barbara": he, not Santa Barbara
        if subject is None:
            continue
        last_subject = subject
        sid = subject.entity_id
        own = statements.get(sid, [])
        props_of = {st.property for st in own}

        def triggered(datatype: str, at: int | None = None) -> list[str]:
            """Properties of this datatype named in the sentence; with `at`, the nearest word before it first."""
            found: dict[str, int] = {}
            named = [(p, ws) for p, ws in TRIGGERS.items() if facts.datatype(p) == datatype]
            named += [(p, [facts.label(p)]) for p in props_of
                      if facts.datatype(p) == datatype and facts.label(p) and len(facts.label(p)) > 3]
            lower = sentence.lower()
            for pid, ws in named:
                for w in ws:
                    for m in re.finditer(r"\b" + re.escape(w.lower()) + r"\b", lower):
                        distance = (at - m.end()) if at is not None and m.end() <= at else 10_000 + m.start()
                        found[pid] = min(found.get(pid, 1 << 30), distance)
            return sorted(found, key=lambda p: (found[p], p not in props_of))

        def emit(pid: str, start: int, end: int, object_id: str | None = None, predicate: str | None = None) -> None:
            claims.append(SpanClaim(Claim(id=f"s{si}-{len(claims)}", subject=subject.text,
                                          predicate=facts.label(pid) or predicate or pid,
                                          object=text[start:end], subject_id=sid, property_id=pid,
                                          object_id=object_id), si, start, end))

        for m in ms:
            if m is subject or m.entity_id == sid:
                continue
            direct = [st.property for st in own if st.value.entity_id == m.entity_id]
            above = [st.property for st in own if st.value.entity_id and m.entity_id in facts.ancestors(st.value.entity_id)]
            named = triggered("wikibase-item")
            for pid in dict.fromkeys(direct or [p for p in named if p in props_of] or above or named[:1]):
                emit(pid, m.start, m.end, m.entity_id)
                break
        for s, e, _date in find_dates(sentence):
            for pid in triggered("time", s)[:1]:
                emit(pid, a + s, a + e)
        for s, e, quantity in find_quantities(sentence):
            if any(s < ds_e and e > ds_s for ds_s, ds_e, _ in find_dates(sentence)):
                continue  # a year is not a quantity
            for pid in triggered("quantity", s)[:1]:
                emit(pid, a + s, a + e)
        claimed = {(c.claim.property_id, c.start) for c in claims if c.sentence_index == si}
        for pid, start, end, words in _unlinked_objects(sentence, ms, props_of, facts):
            if (pid, a + start) not in claimed and not any(c.start < a + end and a + start < c.end
                                                           for c in claims if c.sentence_index == si):
                emit(pid, a + start, a + end, predicate=words)
    return sentences, claims


def _unlinked_objects(sentence: str, mentions: list[Mention], props_of: set[str], facts):
    """(property, start, end, property words) for "<property words> is <phrase>" with no entity in the phrase.

    Kept when the subject lacks the property (the graph will say NOT_ENOUGH_INFO) or the phrase is a name;
    a common noun for a property the subject has ("its head of state is a king") describes the value
    rather than names it, and would be refuted wrongly.
    """
    names = [(p, w) for p, ws in TRIGGERS.items() for w in ws if facts.datatype(p) == "wikibase-item" or
             (facts.datatype(p) is None and p in ITEM_VALUED)]  # a small index may lack the property entity
    names += [(p, facts.label(p)) for p in props_of
              if facts.datatype(p) == "wikibase-item" and facts.label(p) and len(facts.label(p)) > 3]
    seen = set()
    for pid, words in names:
        for m in re.finditer(r"\b" + re.escape(words.lower()) + r"\b", sentence.lower()):
            copula = _COPULA.match(sentence, m.end())
            if not copula or pid in seen:
                continue
            phrase_start, phrase = copula.start(1), copula.group(1).rstrip()
            article = _ARTICLE.match(phrase)
            if article:
                phrase_start, phrase = phrase_start + article.end(), phrase[article.end():]
            end = phrase_start + len(phrase)
            if not phrase or any(mn.start < end and phrase_start < mn.end for mn in mentions):
                continue  # an entity there is handled by the mention rule
            if pid in props_of and not phrase[:1].isupper():
                continue
            seen.add(pid)
            yield pid, phrase_start, end, words
