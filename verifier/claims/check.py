"""Set-based verification of structured claims: link, retrieve (rules A/B/C), compare, judge.

A batch of claims costs a handful of queries: one label-index lookup for all
subject texts, one for all entity-valued objects, one statements query for all
candidate subjects, and one query per hierarchy level — never a query per claim.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from kgcheck.index.store import ROW_REFERENCE_COUNT, ROW_STATEMENT_ID, held_values, table_rows
from kgcheck.index.text import normalise

from kgcheck.verifier.claims.compare import ClaimObject
from kgcheck.verifier.claims.facts import KGFacts, entity_values
from kgcheck.verifier.claims.judge import NAMED_SCORE, PropertyChoice, judge, reference_pairs
from kgcheck.verifier.claims.gcpause import with_fewer_collections
from kgcheck.verifier.model import NOT_ENOUGH_INFO, SUPPORTED, Claim, Verdict
from kgcheck.verifier.values import parse_date, parse_quantity

MIN_PROPERTY_SCORE = 0.4  # below this a property candidate is noise (a vector hit with cosine < 0.5)
SUBJECT_MARGIN = 0.05
MIN_VECTOR_SUBJECT = 0.6  # 0.8 x cosine 0.75
# Confidence cap of a support when namesakes the text cannot tell apart hold another value (claims-dev:
# 96% of such supports are right, against 98% of supports overall).
NAMESAKE_DOUBT = 0.9
STRONG_SUPPORT = 0.75  # support this strong from any namesake settles which entity the claim is about  # subject candidates this close to the best are all tried, the graph decides


@dataclass(frozen=True)
class CheckOptions:
    top_k: int = 3  # evidence statements per verdict
    rel_tol: float = 0.01  # relative tolerance of quantities
    subject_candidates: int = 40  # the US alone has 31 Washington Counties: every namesake is tried
    property_candidates: int = 3  # Factum: the top-3 predicates
    # GPToLODS's strict reading: any value other than the graph's refutes. Risk: Wikidata is incomplete,
    # so true facts the graph lacks (a second occupation, a co-producing country) are called false.
    closed_world: bool = False


class Checker:
    """Checks batches of structured claims against one open `KG`: `checker.check(claims)` -> verdicts.

    For each claim: link the subject (every close namesake is tried) and the predicate (top property
    candidates) through the index, gather the graph's statements by GPToLODS's rules A/B/C, compare values
    (dates, quantities with units and `options.rel_tol`, entities with their class hierarchy) and judge:
    one `Verdict` per claim, in order, SUPPORTED / REFUTED / NOT_ENOUGH_INFO with evidence and, when
    refuted, the graph's values as corrections. A batch costs a handful of queries, so pass many claims
    at once; a Checker keeps caches (property links, names), so reuse it across batches of one KG.
    Most callers want `kgcheck.check_claims`, which also accepts dicts.
    """

    def __init__(self, kg, embedder=None, options: CheckOptions = CheckOptions()):
        self.kg = kg
        self.options = options
        self.facts = KGFacts(kg)
        self._property_cache: dict[str, list[PropertyChoice]] = {}

    # -- linking --------------------------------------------------------------------------------
    def properties_for(self, predicate: str) -> list[PropertyChoice]:
        key = " ".join(predicate.split())
        cached = self._property_cache.get(key)
        if cached is None:
            found = [c for c in self.kg.search_properties(key, self.options.property_candidates)
                     if c.score >= MIN_PROPERTY_SCORE]
            cached = [PropertyChoice(c.id, min(1.0, c.score), i == 0) for i, c in enumerate(found)]
            self._property_cache[key] = cached
        return cached

    def _subject_candidates(self, claims: list[Claim]) -> dict[str, list[tuple[str, float]]]:
        texts = [c.subject for c in claims if not c.subject_id and c.subject]
        found = self.kg.searcher().entities_bulk(texts, k=self.options.subject_candidates) if texts else {}
        out = {}
        for claim in claims:
            if claim.subject_id:
                out[claim.id] = [(claim.subject_id, 1.0)]
                continue
            # A vector-only hit must be close: a far neighbour is another entity, not a spelling variant.
            cands = [c for c in found.get(claim.subject) or [] if c.matched_by != "vector" or c.score >= MIN_VECTOR_SUBJECT]
            if cands:
                best = cands[0].score
                out[claim.id] = [(c.id, c.score) for c in cands if c.score >= best - SUBJECT_MARGIN]
                # The same name for several entities: the graph decides which one the claim is about.
            else:
                out[claim.id] = []
        return out

    # -- the batch ------------------------------------------------------------------------------
    @with_fewer_collections
    def check(self, claims: list[Claim]) -> list[Verdict]:
        """One Verdict per claim, in order. Claim ids must be distinct within a call (they key the batch)."""
        new_predicates = {" ".join(c.predicate.split()) for c in claims if not c.property_id and c.predicate}
        new_predicates |= {" ".join(p.split()) for c in claims for p, _ in c.qualifiers}
        self.facts.prefetch_predicates(new_predicates - set(self._property_cache))
        subjects = self._subject_candidates(claims)
        props = {c.id: ([PropertyChoice(c.property_id, 1.0, True)] if c.property_id else
                        self.properties_for(c.predicate)) for c in claims}
        all_subjects = {sid for cands in subjects.values() for sid, _ in cands}
        wanted_props = {c.id: {p.pid for p in props[c.id]} for c in claims}
        # One read of every statement row of the candidate subjects, shared by the steps below, each taking into
        # Python only what it reads: the first pass the rows of the properties claimed of each subject (most claims
        # end there), the measures what the subjects hold (three columns), the second pass the rest of the few
        # subjects it redoes. Every row in full cost several times more (on a recheck, a tenth of the checking).
        table = self.kg.statement_table(all_subjects)
        held = held_values(table)
        claimed = {(sid, p) for c in claims for sid, _ in subjects[c.id] for p in wanted_props[c.id]}
        rows = table_rows(table, pairs=claimed)
        statements = self.kg.statements_from_rows(rows)
        with_rows = {h[0] for h in held}  # subjects the graph holds statements of

        # Prefetch everything the comparisons will ask for, in bulk.
        values, labels, named = set(), set(all_subjects), set()  # named: values a claim's object text is held to
        for claim in claims:
            for sid, _ in subjects[claim.id]:
                for st in statements.get(sid, ()):
                    labels.add(st.property)
                    if st.value.unit:
                        labels.add(st.value.unit)
                    if st.property in wanted_props[claim.id] and st.value.entity_id:
                        values.add(st.value.entity_id)
                        if not claim.object_id:
                            named.add(st.value.entity_id)
        object_texts = [c.object for c in claims if c.object and not c.object_id and not looks_literal(c.object)]
        linked = self.kg.searcher().entities_bulk(object_texts, k=3, vectors=False) if object_texts else {}
        linked_ids = {t: tuple(x.id for x in cands) for t, cands in linked.items()}
        object_ids = {c.object_id for c in claims if c.object_id} | {i for ids in linked_ids.values() for i in ids}
        self.facts.prefetch_names(values | object_ids)
        self.facts.prefetch_ancestors(values | object_ids)
        self.facts.prefetch_names({a for v in values for a in self.facts.ancestors(v)})
        self.facts.prefetch_labels(labels | values)
        self.facts.prefetch_demonyms(named)  # "British" for the United Kingdom (compare._relate_entity)
        self.facts.prefetch_datatypes({p.pid for ps in props.values() for p in ps})
        if not self.options.closed_world:
            self.facts.prefetch_measures(_may_measure(claims, subjects, wanted_props, statements, linked_ids), held)
        # Each claim sees its subjects' statements of its own properties only: another claim's properties in the
        # same batch would make its verdict depend on the batch (rule B's same object among them).
        verdicts = [self._judge_one(c, subjects[c.id], props[c.id], statements, linked_ids, wanted_props[c.id],
                                    with_rows) for c in claims]
        # Second pass, rules B (same object) and C: all statements, only of subjects that lack the property.
        redo = [i for i, v in enumerate(verdicts) if v.rule == "C" and v.subject_id]
        if redo:
            again = {verdicts[i].subject_id for i in redo}
            every_row = table_rows(table, subjects=again)
            rows += every_row
            full = self.kg.statements_from_rows(every_row)
            self.facts.prefetch_labels({st.property for sts in full.values() for st in sts})
            self.facts.prefetch_demonyms({st.value.entity_id for i in redo if not claims[i].object_id
                                          for st in full.get(verdicts[i].subject_id, ()) if st.value.entity_id})
            for i in redo:
                c = claims[i]
                # Redone only when no namesake holds the property (else the first pass listed its values):
                # none disagrees, but the name is still shared.
                verdicts[i] = self._named(self._judge_one(c, [(verdicts[i].subject_id, 1.0)], props[c.id], full,
                                                          linked_ids), len(subjects[c.id]), [])
        # Statements read above that have no reference need no lookup (wd50k: 97% of statements).
        unreferenced = {r[ROW_STATEMENT_ID] for r in rows if not r[ROW_REFERENCE_COUNT]}
        return self._with_references(verdicts, unreferenced)

    def _with_references(self, verdicts: list[Verdict], unreferenced: set[str]) -> list[Verdict]:
        """Provenance for the evidence only (not for every candidate statement): one query a batch."""
        keys = {(e.subject, e.statement_id) for v in verdicts for e in v.evidence
                if e.statement_id not in unreferenced}
        refs = self.kg.references_for(keys)
        if not refs:
            return verdicts
        self.facts.prefetch_labels({s.property for rs in refs.values() for r in rs for s in r.snaks} |
                                   {s.value.entity_id for rs in refs.values() for r in rs for s in r.snaks})
        out = []
        for v in verdicts:
            if any(e.statement_id in refs for e in v.evidence):
                evidence = tuple(replace(e, references=reference_pairs(refs.get(e.statement_id, ()), self.facts))
                                 for e in v.evidence)
                v = replace(v, evidence=evidence)
            out.append(v)
        return out

    def _judge_one(self, claim: Claim, candidates, props, statements, linked_ids, wanted=None,
                   with_rows=frozenset()) -> Verdict:
        """statements: per subject; wanted: the properties whose statements the claim reads (None: all given);
        with_rows: subjects known to hold statements (a subject without a label is not unknown for that)."""
        obj = ClaimObject(claim.object, claim.object_id, self.options.rel_tol,
                          linked_ids.get(claim.object, ()))
        if not candidates:
            return Verdict(claim=claim, verdict=NOT_ENOUGH_INFO, confidence=0.9, rule="none",
                           reason=f"no entity named {claim.subject!r} in the graph")
        if not props:
            return Verdict(claim=claim, verdict=NOT_ENOUGH_INFO, confidence=0.8, rule="none",
                           subject_id=candidates[0][0],
                           reason=f"no property of the graph matches the predicate {claim.predicate!r}")
        qualifiers = self._claim_qualifiers(claim)
        best = None
        weak_support = None
        strong = None
        disagree: list[str] = []  # namesakes holding the property without supporting the claim
        for position, (sid, _score) in enumerate(candidates):
            subject_statements = statements.get(sid, [])
            if wanted is not None:
                subject_statements = [st for st in subject_statements if st.property in wanted]
            if (claim.subject_id and not subject_statements and sid not in with_rows
                    and self.facts.label(sid) is None):
                return Verdict(claim=claim, verdict=NOT_ENOUGH_INFO, confidence=0.9, rule="none",
                               reason=f"unknown subject id {sid}", error=f"unknown subject id {sid}")
            chosen = props if claim.property_id else self._choose_properties(props, obj, claim, subject_statements)
            if not chosen:
                continue
            verdict = judge(claim, obj, sid, chosen, subject_statements, self.facts, qualifiers, self.options.top_k,
                            self.options.closed_world)
            if verdict.verdict == SUPPORTED:
                if strong is None and (verdict.confidence >= STRONG_SUPPORT or position == 0):
                    strong = verdict
                # Weak support from a namesake (a day the graph cannot confirm) must not beat the others.
                weak_support = weak_support or verdict
                continue
            has_property = any(st.property == chosen[0].pid for st in subject_statements)
            if has_property:
                disagree.append(sid)
            # Among namesakes that all refute, the one whose value is nearest the claimed value is the
            # entity the claim most likely meant (a wrong year or figure is usually near the right one).
            rank = (has_property, verdict.confidence, -_value_distance(obj, verdict.corrections))
            if best is None or rank > best[0]:
                best = (rank, verdict)
        if strong is None and weak_support is not None and (best is None or not best[0][0]):
            strong = weak_support
        if strong is not None:
            return self._named(strong, len(candidates), disagree)
        if best is None:
            return Verdict(claim=claim, verdict=NOT_ENOUGH_INFO, confidence=0.7, rule="none",
                           subject_id=candidates[0][0], property_ids=tuple(p.pid for p in props),
                           reason=f"no property named like {claim.predicate!r} takes a value like {claim.object!r}")
        return self._named(best[1], len(candidates), [])

    def _named(self, verdict: Verdict, namesakes: int, disagree: list[str]) -> Verdict:
        """Say which entity the verdict is about when the name is shared; doubt a support that namesakes the
        claim's text cannot tell apart contradict (the claim may be about one of them)."""
        if namesakes < 2 or not verdict.subject_id:
            return verdict
        sid = verdict.subject_id
        reason = f"{verdict.reason}; about {self.facts.label(sid) or sid} ({sid}), one of {namesakes} namesakes"
        if verdict.verdict == SUPPORTED and disagree:
            reason += f" ({len(disagree)} with this property do not hold the value, e.g. {disagree[0]})"
            return replace(verdict, reason=reason, confidence=min(verdict.confidence, NAMESAKE_DOUBT))
        return replace(verdict, reason=reason)

    def _choose_properties(self, props, obj: ClaimObject, claim: Claim, statements) -> list[PropertyChoice]:
        """Keep the properties whose datatype can hold the object; the primary one (the only one allowed to
        refute) is the best-named property the subject actually has."""
        compatible = [p for p in props if _accepts(self.facts.datatype(p.pid), obj, claim.kind)]
        if not compatible:
            return []
        present = {st.property for st in statements}
        primary = compatible[0]
        if primary.pid not in present:
            # The best name is absent: a near-equally well named property the subject has may stand in
            # (a lexical match, never a loose vector one: a wrong stand-in would refute wrongly).
            primary = next((p for p in compatible[1:] if p.pid in present and p.score >= NAMED_SCORE), primary)
        return [PropertyChoice(p.pid, p.score, p is primary) for p in
                sorted(compatible, key=lambda p: p is not primary)]

    def _claim_qualifiers(self, claim: Claim) -> list[tuple[str, ClaimObject]]:
        out = []
        for predicate, value in claim.qualifiers:
            choices = self.properties_for(predicate)
            if choices:
                out.append((choices[0].pid, ClaimObject(value, rel_tol=self.options.rel_tol)))
        return out


def _value_distance(obj: ClaimObject, corrections: tuple[str, ...]) -> float:
    """How far the claimed date or quantity is from the nearest offered correction (inf: not comparable)."""
    best = math.inf
    if obj.date is not None:
        want = _years(obj.date)
        for text in corrections:
            got = parse_date(text)
            if got is not None:
                best = min(best, abs(_years(got) - want))
    elif obj.quantity is not None and obj.quantity.amount > 0:
        for text in corrections:
            got = parse_quantity(text)
            if got is not None and got.amount > 0:
                best = min(best, abs(math.log(got.amount / obj.quantity.amount)))
    return best


def _years(date) -> float:
    return date.year + ((date.month or 1) - 1) / 12 + ((date.day or 1) - 1) / 365


_STRING_TYPES = ("string", "external-id", "monolingualtext", "url", "commonsMedia", "math", "musical-notation")


def _accepts(datatype: str | None, obj: ClaimObject, kind: str | None) -> bool:
    """Can a property of this datatype hold the claimed object?"""
    if datatype is None:
        return True
    if datatype == "time":
        return kind in (None, "date") and obj.date is not None
    if datatype == "quantity":
        return kind in (None, "quantity") and obj.quantity is not None
    if datatype.startswith("wikibase-"):
        return kind in (None, "entity") and bool(obj.object_id or any(ch.isalpha() for ch in obj.text))
    if datatype == "globe-coordinate":
        return False
    return kind in (None, "string", "entity") or datatype in _STRING_TYPES


@lru_cache(maxsize=100_000)
def looks_literal(text: str) -> bool:
    """Dates and numbers are not linked as entities (saves a lookup per literal claim)."""
    stripped = normalise(text).replace(" ", "")
    return bool(stripped) and sum(ch.isdigit() for ch in stripped) >= max(1, len(stripped) // 2)


__all__ = ["Checker", "CheckOptions", "entity_values"]


def _may_measure(claims, subjects, wanted_props, statements, linked_ids):
    """(subject, property, held values, claimed values) of every candidate subject holding a claimed property:
    where an open-world verdict may read the measures (held: the subject's values, not deprecated; claimed: the
    readings of the claimed value in the linker's order, the first the one it names best)."""
    for claim in claims:
        claimed = tuple(dict.fromkeys([claim.object_id] if claim.object_id else linked_ids.get(claim.object, ())))
        for sid, _ in subjects[claim.id]:
            held: dict[str, set[str]] = {}
            for st in statements.get(sid, ()):
                if st.property in wanted_props[claim.id]:
                    values = held.setdefault(st.property, set())
                    if st.value.entity_id and st.rank != "deprecated":
                        values.add(st.value.entity_id)
            for pid, values in held.items():
                if claim.object_id in values and not claim.qualifiers:
                    continue  # a held value without qualifiers to disagree: SUPPORTED, no measure read
                yield sid, pid, frozenset(values), claimed
