"""KG-first claim extraction from free text (no LLM needed).

1. Sentences; mentions by a gazetteer over labels and aliases: every word n-gram (n ≤ 6)
   is looked up by its normalised form in one batched query; longest non-overlapping
   matches win; a mention must hold a capital letter or a digit (so "city" in running
   text is not the entity "city"); namesakes are resolved by context (candidates linked
   to other mentions of the text) and popularity.
2. Pronouns (he, she, it, his, her, its, they, their) stand for the last subject.
3. Claims, per sentence, about its subject: another mention that is a value of one of
   the subject's statements (or a place above it: "born in England" for Cambridge);
   a mention named by a property word in the sentence ("capital", "born in"); dates and
   quantities found by the parsers, attached to the property whose trigger words appear.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from index.text import normalise

from .model import Claim
from .values import find_dates, find_quantities

MAX_NGRAM = 6
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_WORD = re.compile(r"[\w][\w.'’-]*[\w]|[\w]")
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


def find_mentions(kg, text: str, sentences: list[tuple[int, int]]) -> list[list[Mention]]:
    grams = [(si, s, e, span) for si, (a, b) in enumerate(sentences) for s, e, span in _ngrams(text, a, b)
             if any(ch.isupper() or ch.isdigit() for ch in span) and normalise(span) not in STOP and len(span) > 1]
    norms = sorted({normalise(g[3]) for g in grams})
    by_norm: dict[str, list[tuple]] = {}
    for norm, eid, sitelinks, statements in kg.lookup_in(
            "SELECT norm, id, sitelinks, statement_count FROM label_index WHERE norm IN ({in}) AND type = 'item'",
            norms):
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
    for sent in chosen:
        mentions = []
        for s, e, span, cands in sorted(sent):
            others = {c[0] for sent2 in chosen for *_, cs in sent2 if cs is not cands for c in cs}
            best = max(cands, key=lambda c: (len(linked.get(c[0], set()) & others), c[1], c[2], c[0]))
            mentions.append(Mention(s, e, span, best[0]))
        out.append(mentions)
    return out


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


def extract_claims(kg, facts, text: str) -> tuple[list[tuple[int, int]], list[SpanClaim]]:
    """(sentence spans, claims with the character span of each claimed object)."""
    sentences = split_sentences(text)
    mentions = find_mentions(kg, text, sentences)
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

        def emit(pid: str, start: int, end: int, object_id: str | None = None) -> None:
            claims.append(SpanClaim(Claim(id=f"s{si}-{len(claims)}", subject=subject.text, predicate=facts.label(pid) or pid,
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
    return sentences, claims
