"""Free-text verification: extract → link → verify → score → retrofit (KGR) → enrich (Factum).

Verdicts always come from the graph comparison (Checker); the LLM, when there is one, only
proposes extra claims (kept when their subject links and their object is in the text) and
smooths the wording of a corrected text (kept only if it keeps every corrected value).

Factuality Degree (Factum, eq. 1) here: the mean, over the claims the graph can settle
(SUPPORTED or REFUTED), of the claim's score — a SUPPORTED claim scores its confidence
(the strength of its best matching statement), a REFUTED claim scores 0. NOT_ENOUGH_INFO
claims are left out (the graph says nothing about them); FD is None when no claim is settled.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.control import checkpoint
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.text.extract import READERS, SpanClaim, extract_claims, names_property
from kgcheck.verifier.text.refutations import (beyond_known_containers, held_the_other_way, read_as_the_graphs_namesake,
                                              swap_of_a_kind)
from kgcheck.verifier.text.repair import repair_mojibake, untokenize
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim, Verdict
from kgcheck.verifier.formats.serialize import verdict_to_dict
from kgcheck.verifier.values import parse_date

CHECK_BATCH = 256  # claims checked between two deadline checkpoints
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


@dataclass(frozen=True)
class TextClaim:
    sentence_index: int
    start: int
    end: int
    span: str
    claim: Claim
    verdict: Verdict
    source: str  # "kg", "llm" or "both"
    reader: str = "linked"  # the reader that found it (extract.READERS, or "llm")


@dataclass(frozen=True)
class TextReport:
    text: str
    sentences: tuple[tuple[int, int], ...]
    claims: tuple[TextClaim, ...]
    factuality_degree: float | None
    shares: dict
    fixed_text: str | None = None
    enrichment: tuple[dict, ...] = ()
    notes: tuple[str, ...] = ()


def factuality_degree(verdicts: list[Verdict]) -> float | None:
    settled = [v for v in verdicts if v.verdict in (SUPPORTED, REFUTED)]
    if not settled:
        return None
    return round(sum(v.confidence if v.verdict == SUPPORTED else 0.0 for v in settled) / len(settled), 4)


def shares(verdicts: list[Verdict]) -> dict:
    n = len(verdicts)
    return {v: round(sum(1 for x in verdicts if x.verdict == v) / n, 4) if n else 0.0
            for v in (SUPPORTED, REFUTED, NOT_ENOUGH_INFO)}


def _llm_claims(kg, llm, text: str, sentences, facts, properties=None) -> list[SpanClaim]:
    """The model's triples, kept when the subject links by name, the object is a span of the sentence and the
    predicate names a property (with `properties`, the model may only answer those properties' labels)."""
    from kgcheck.verifier.llm.extract import extract_triples_per_sentence, grounded

    by_label = None
    if properties is not None:
        facts.prefetch_labels(properties)
        by_label = {facts.label(p): p for p in sorted(properties) if facts.label(p) and '"' not in facts.label(p)}
    out = []
    # Free strings, not an enum of the text's spans: as precise after the grounding checks below, and
    # 1.3-2x faster (a grammar of hundreds of alternatives slows every sampled token).
    triples = extract_triples_per_sentence(llm, [text[a:b] for a, b in sentences],
                                           predicates=sorted(by_label) if by_label else None, spans_only=False)
    for si, (sentence_triples, (a, b)) in enumerate(zip(triples, sentences)):
        sentence = text[a:b]
        for t in sentence_triples:
            pos = sentence.find(t.object)
            if pos < 0 or not grounded(t.subject, text):
                continue  # the object must be a span of the text, the subject must be in it
            cands = kg.search_entities(t.subject, 1)
            if not cands or cands[0].matched_by == "vector":
                continue
            if by_label is not None:
                pid = by_label.get(t.predicate)
            else:
                props = kg.search_properties(t.predicate, 1)
                # A tiny model's predicate is loose: keep it only when it names a property outright (label or
                # alias), or one the subject really has — otherwise it would only add unverifiable noise.
                if not props or (props[0].matched_by == "vector" and
                                 not kg.sql("SELECT 1 FROM statements WHERE subject = ? AND property = ? LIMIT 1",
                                            [cands[0].id, props[0].id])):
                    continue
                pid = props[0].id
            if pid is None:
                continue
            start, end = a + pos, a + pos + len(t.object)
            claim = Claim(id=f"llm{si}-{len(out)}", subject=t.subject, predicate=t.predicate, object=t.object,
                          subject_id=cands[0].id, property_id=pid)
            out.append(SpanClaim(claim, si, start, end, "llm"))
    return out


def _merge(kg_claims: list[SpanClaim], llm_claims: list[SpanClaim]
           ) -> tuple[list[tuple[SpanClaim, str]], list[SpanClaim]]:
    """(claims with their source, the model's claims overruled by the graph-first reading of the same pair)."""
    merged = [(c, "kg") for c in kg_claims]
    overruled = []
    key = {(c.claim.subject_id, c.claim.property_id, c.start, c.end): i for i, c in enumerate(kg_claims)}
    pairs = {(c.claim.subject_id, c.start, c.end) for c in kg_claims}
    for c in llm_claims:
        k = (c.claim.subject_id, c.claim.property_id, c.start, c.end)
        if k not in key and (c.claim.subject_id, c.start, c.end) in pairs:
            overruled.append(c)  # the graph-first reading of the same subject and value stands
            continue
        if k in key:
            merged[key[k]] = (merged[key[k]][0], "both")
        else:
            merged.append((c, "llm"))
            key[k] = len(merged) - 1
    return merged, overruled


def _replacement(span: str, correction: str) -> str:
    """The graph's value written like the claim's span: '1962' → '1952', 'March 11, 1962' → 'March 11, 1952'.

    Never more precise than the graph ('1952' stays a year), never more than the claim ('1962' does not
    become '11 March 1952'); values other than dates are replaced by the graph's value as is.
    """
    claimed, graph = parse_date(span), parse_date(correction)
    if not (claimed and graph):
        return correction
    precision = min(claimed.precision, graph.precision)
    year = str(graph.year) if graph.year > 0 else f"{-graph.year} BC"
    if precision <= 8 and span.rstrip().endswith("s"):
        return f"{graph.year // 10 * 10}s"
    if precision <= 9 or graph.month is None:
        return year
    short = bool(re.search(r"\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b\.?", span))
    month = MONTHS[graph.month - 1][:3] if short else MONTHS[graph.month - 1]
    if precision == 10 or graph.day is None:
        return f"{month} {year}"
    if re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", span) and graph.year > 0:
        return f"{graph.year:04d}-{graph.month:02d}-{graph.day:02d}"
    if re.match(r"\s*[A-Za-z]", span):  # month first: "March 11, 1962"
        return f"{month} {graph.day}, {year}"
    return f"{graph.day} {month} {year}"


def fix_text(text: str, claims: list[TextClaim]) -> str:
    """Deterministic span replacement of refuted objects (right to left, so offsets stay valid)."""
    out = text
    for tc in sorted((c for c in claims if c.verdict.verdict == REFUTED and c.verdict.corrections),
                     key=lambda c: -c.start):
        out = out[:tc.start] + _replacement(tc.span, tc.verdict.corrections[0]) + out[tc.end:]
    return out


def related_facts(kg, checker: Checker, text: str, subject_ids: list[str], n: int = 5, m: int = 5) -> list[dict]:
    """Factum: the top-n properties of the linked entities by similarity to the text, then the top-m facts."""
    from kgcheck.index.render import plain_value

    from kgcheck.verifier.claims.judge import LabelView

    statements = kg.statements_for(subject_ids)
    facts = checker.facts
    scored = []
    for sid in subject_ids:
        for st in statements.get(sid, []):
            if st.rank == "deprecated" or st.value.kind in ("somevalue", "novalue") or st.value.kind == "string":
                continue
            scored.append((facts.predicate_similarity(text, st.property), st))
    top_props = list(dict.fromkeys(st.property for _, st in sorted(scored, key=lambda t: -t[0])))[:n]
    chosen = [t for t in sorted(scored, key=lambda t: -t[0]) if t[1].property in top_props][:m]
    labels = LabelView(facts)
    return [{"subject": st.subject, "subject_label": facts.label(st.subject), "property": st.property,
             "property_label": facts.label(st.property), "value": plain_value(st.value, labels),
             "statement_id": st.statement_id, "score": round(score, 4),
             "sentence": f"{facts.label(st.subject)} — {facts.label(st.property)}: {plain_value(st.value, labels)}"}
            for score, st in chosen]


GUESSED = ("types", "triggers")  # readers that take the relation from the value's type or a nearby word


def verify_text(kg, text: str, *, llm=None, fix: bool = False, rounds: int = 1, enrich: bool = False,
                checker: Checker | None = None, properties=None, readers=frozenset(READERS),
                about: str | None = None) -> TextReport:
    """Extract claims from `text`, judge each against the graph, score, and optionally fix and enrich.

    `kg` is an open `KG`. Claims are found graph-first (mentions linked to the index, then the graph's own
    facts about them); `llm` (an `LLM`, e.g. `kgcheck.verifier.llm.backends.load_llm()`) adds claims a
    model reads. `fix` rewrites refuted claims with the graph's values (`rounds` times); `enrich` adds
    the most relevant graph facts. `properties` (property ids) limits the claims to those properties,
    e.g. an ontology's relations. Returns a `TextReport` (claims with verdicts and evidence, a score;
    `report_to_dict` gives its JSON form).
    `readers` the graph-side readers that run (extract.READERS; an ablation).
    `about`: what the text is about (the question it answers: an entity id or a name, `resolve_topic`) — its
    pronouns, definite descriptions the graph cannot place ("The journal was established in 1957") and sentences
    whose subject is left out stand for it, as they do for a subject the text named first.
    """
    checker = checker or Checker(kg)
    topic = resolve_topic(kg, about) if about else None
    notes = []
    repaired = repair_mojibake(text)  # the report's text and spans are the repaired text's
    if repaired != text:
        notes.append("mojibake repaired before reading (UTF-8 read as Windows-1252: 'KÃ¶ping' for 'Köping')")
        text = repaired
    joined = untokenize(text)
    if joined != text:
        notes.append("a tokenizer's splits joined before reading ('Let 's Join Joanie' as 'Let's Join Joanie', "
                     "'Oh , Mabel' as 'Oh, Mabel'): the report's text and spans are the joined text's")
        text = joined
    sentences, kg_claims = extract_claims(kg, checker.facts, text, llm, properties, readers, topic)
    llm_claims = []
    if llm is not None:
        try:
            llm_claims = _llm_claims(kg, llm, text, sentences, checker.facts, properties)
        except Exception as exc:  # noqa: BLE001 - the LLM only adds claims: KG-first results stand without it
            notes.append(f"LLM extraction failed: {exc}")
    merged, overruled = _merge(kg_claims, llm_claims)
    notes.extend(f"LLM reading not kept (the graph-first reading of the pair stands): {c.claim.subject} | "
                 f"{c.claim.predicate} | {c.claim.object}" for c in overruled)
    verdicts = []
    for i in range(0, len(merged), CHECK_BATCH):  # in batches, so that a deadline can stop a long text here
        checkpoint("claims", i, len(merged))
        verdicts.extend(checker.check([c.claim for c, _ in merged[i:i + CHECK_BATCH]]))
    read_as_the_graphs_namesake(kg, checker, merged, verdicts)
    kept = []
    # (sentence, subject, property) of the values the graph links outright, each the graph's own value — also where
    # the words read the pair as another relation ("directed by" a screenwriter: the evidence is the same-object link)
    linked_values = {(c.sentence_index, c.claim.subject_id, c.claim.property_id)
                     for (c, _), v in zip(merged, verdicts) if c.reader == "linked" and v.verdict == SUPPORTED}
    linked_values |= {(c.sentence_index, c.claim.subject_id, v.evidence[0].property)
                      for (c, _), v in zip(merged, verdicts) if v.evidence and v.evidence[0].relation == "same-object"
                      and v.evidence[0].subject == c.claim.subject_id}
    # (sentence, subject, property) of the values the graph holds as read: a value the same words give beside one
    # of them is one of several the sentence names.
    held_values = {(c.sentence_index, c.claim.subject_id, c.claim.property_id)
                   for (c, _), v in zip(merged, verdicts) if v.verdict == SUPPORTED and v.evidence
                   and v.evidence[0].relation != "same-object"}
    for (c, source), v in zip(merged, verdicts):
        a, b = sentences[c.sentence_index]
        # A tiny model's reading is a guess: it stays when the graph confirms it, or refutes it and the sentence
        # names the property right before the value; one the graph cannot settle is only noted.
        # Support through another property ("the graph links them through director") confirms the pair, not
        # the model's relation.
        confirmed = v.verdict == SUPPORTED and not (v.evidence and v.evidence[0].relation == "same-object")
        if source == "llm" and not confirmed and not (v.verdict == REFUTED and names_property(
                c.claim.property_id, text[a:b], checker.facts, before=c.start - a)):
            notes.append(f"LLM reading not kept ({v.verdict}): {c.claim.subject} | {c.claim.predicate} | "
                         f"{c.claim.object}")
            continue
        # The sentence names the graph's value of this property too ("available on floppy disk and CD-ROM", "directed
        # by William Joyce and Brandon Oldenburg", the graph holding only Oldenburg): by its own words the property has
        # several values here, so one the graph lacks may be missing from it rather than wrong (open world) — as a
        # subject seen holding several values is not refuted (judge.py). For a guessed relation, beside a value the
        # graph links outright; for one the words state, beside any value the graph holds as read, unless a
        # constraint makes the property single-valued (on text-factcheck-dev such refutations were wrong 26 times in
        # 39 with a topic, 16 in 28 without).
        guessed = c.reader in GUESSED
        beside = (linked_values if guessed else held_values) if v.verdict == REFUTED else ()
        if c.subject_by_value:
            v = replace(v, verdict=NOT_ENOUGH_INFO, corrections=(), correction_ids=(), reason=(
                f"the text does not name its subject: {c.claim.subject!r} was read as "
                f"{checker.facts.label(c.claim.subject_id) or c.claim.subject_id} ({c.claim.subject_id}), the one "
                f"thing the graph links to this value, so the graph cannot judge the claim ({v.verdict} of that "
                f"thing: {v.reason})"))
        elif not guessed and (reverse := held_the_other_way(kg, checker.facts, v)) is not None:
            n, both = GraphSchema.of(kg).reversal(c.claim.property_id)
            relation = reverse.property_label or reverse.property
            v = replace(v, verdict=REFUTED, confidence=round(1.0 - max(both / n, 0.03), 3), evidence=(reverse, *v.evidence),
                        reason=f"the graph states it the other way round: {reverse.subject_label or reverse.subject}'s "
                               f"{relation} is {reverse.value} ({both} of {n} {relation} statements are held both ways)",
                        corrections=(), correction_ids=(), exclusivity="reverse")
        elif (c.sentence_index, c.claim.subject_id, c.claim.property_id) in beside and \
                (guessed or v.exclusivity != "constraint"):
            v = replace(v, verdict=NOT_ENOUGH_INFO, reason=v.reason + (
                "; the sentence also names the graph's value of this property: a value beside it may be missing "
                "from the graph, not refuted" if guessed else "; the sentence also names a value of this property "
                "the graph holds: the others it names may be missing from the graph, not refuted"))
        elif c.reader == "types" and c.claim.object_id and v.verdict == REFUTED and not swap_of_a_kind(kg, v):
            # The relation was guessed from the value's type, not stated: unless the graph's value is of the same
            # kind as the claimed one, the sentence may mean another relation; doubtful, not wrong.
            v = replace(v, verdict=NOT_ENOUGH_INFO, reason=v.reason + "; relation read from the value's type, "
                                                                        "not stated in the sentence: not refuted")
        elif v.verdict == REFUTED and beyond_known_containers(kg, checker.facts, v):
            v = replace(v, verdict=NOT_ENOUGH_INFO, reason=v.reason + (
                f"; but {c.claim.object} is a container of such values, and the graph places "
                f"{', '.join(v.corrections) or 'its value'} in nothing of its kind: it cannot tell whether it lies "
                "there"), corrections=(), correction_ids=())
        kept.append(TextClaim(c.sentence_index, c.start, c.end, text[c.start:c.end], c.claim, v, source, c.reader))
    claims = tuple(kept)
    verdicts = [c.verdict for c in claims]
    fixed = None
    if fix:
        fixed = text
        for _ in range(max(1, rounds)):  # KGR: retrofit, then verify the retrofitted text again
            round_report = claims if fixed == text else verify_text(kg, fixed, llm=llm, checker=checker,
                                                                    properties=properties, readers=readers,
                                                                    about=topic).claims
            new = fix_text(fixed, list(round_report))
            if new == fixed:
                break
            fixed = new
        if llm is not None and fixed != text:
            from kgcheck.verifier.llm.extract import smooth_text_safely

            required = [_replacement(c.span, c.verdict.corrections[0]) for c in claims
                        if c.verdict.verdict == REFUTED and c.verdict.corrections]
            fixed = smooth_text_safely(llm, fixed, required)
    enrichment = ()
    if enrich:
        subject_ids = list(dict.fromkeys(c.claim.subject_id for c in claims if c.claim.subject_id))
        enrichment = tuple(related_facts(kg, checker, text, subject_ids))
    return TextReport(text, tuple(sentences), claims, factuality_degree(list(verdicts)), shares(list(verdicts)),
                      fixed, enrichment, tuple(notes))


def resolve_topic(kg, about: str) -> str:
    """The entity id ABOUT names: an id the index holds, else the entity its name links to first (a label or
    alias, as a claimed subject is linked). VerifierError when the index has neither."""
    about = about.strip()
    if re.fullmatch(r"Q\d+", about):
        if kg.lookup_in("SELECT id FROM entities WHERE id IN ({in})", [about]):
            return about
        raise VerifierError(f"the topic {about} is not in this index")
    found = kg.searcher().entities_bulk([about], k=1, vectors=False).get(about) if about else None
    if not found:
        raise VerifierError(f"no entity named {about!r} in this index (give its id, e.g. Q42)")
    return found[0].id


def report_to_dict(report: TextReport) -> dict:
    claims = []
    for tc in report.claims:
        d = verdict_to_dict(tc.verdict)
        d.update({"start": tc.start, "end": tc.end, "span": tc.span, "source": tc.source, "reader": tc.reader,
                  "sentence_index": tc.sentence_index})
        claims.append(d)
    return {"text": report.text, "sentences": [list(s) for s in report.sentences], "claims": claims,
            "factuality_degree": report.factuality_degree, "shares": report.shares, "fixed_text": report.fixed_text,
            "enrichment": list(report.enrichment), "notes": list(report.notes)}

