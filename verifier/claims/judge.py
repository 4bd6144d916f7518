"""Verdict semantics: from typed relations between a claim and its candidate statements to a verdict.

GPToLODS rules: A — a statement with the same subject, property and value; B — same
subject and property (a different value), or same subject and object (another
property); C — any statement of the subject, ranked by similarity. On top of them:
- deprecated statements never support; preferred ones are the correction;
- REFUTED only where the property is single-valued in practice (or the graph says
  "no value"); a multi-valued property without the claimed value is NOT_ENOUGH_INFO;
- values that ended (end time) support as "former"; time series (point in time) are
  compared with every dated value and corrected with the latest.
"""
from __future__ import annotations

from dataclasses import dataclass

from kgcheck.index.model import Statement
from kgcheck.index.render import human_date, plain_value

from kgcheck.verifier.claims.compare import (CONFLICT, INCOMPARABLE, LESS_SPECIFIC, MATCH, MORE_PRECISE, MORE_SPECIFIC, NO_VALUE, SUPPORT_STRENGTH,
                      SUPPORTING, UNKNOWN, ClaimObject, GraphFacts, qualifiers_agree, relate)
from kgcheck.verifier.values.units import unit_by_id
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim, Evidence, Verdict

POINT_IN_TIME, START_TIME, END_TIME = "P585", "P580", "P582"
FUNCTIONAL = 0.8  # functionality above which a conflicting value refutes
SO_RELATED = 0.6  # predicate-property similarity for rule B (same subject and object) to support


@dataclass(frozen=True)
class PropertyChoice:
    pid: str
    score: float  # how well the claim's predicate names this property (0..1+)
    primary: bool  # the best reading of the predicate: the only one allowed to refute


class JudgeFacts(GraphFacts):
    def functionality(self, pid: str) -> float:  # 1.0 single-valued … 0.0 many values per subject
        raise NotImplementedError

    def predicate_similarity(self, predicate: str, pid: str) -> float:
        raise NotImplementedError


def _sort_key_time(st: Statement) -> str:
    for pid in (POINT_IN_TIME, START_TIME):
        values = st.qualifier_values(pid)
        if values and values[0].time:
            return values[0].time.replace("+", "")
    return ""


def _current(statements: list[Statement]) -> list[Statement]:
    """The values a correction should offer: preferred rank, else the latest dated, else all non-deprecated."""
    usable = [s for s in statements if s.rank != "deprecated" and s.value.kind not in ("somevalue", "novalue")]
    preferred = [s for s in usable if s.rank == "preferred"]
    if preferred:
        return preferred
    dated = [s for s in usable if _sort_key_time(s)]
    if dated and len(dated) == len(usable):
        return [max(dated, key=_sort_key_time)]
    return usable


def _one_at_a_time(statements: list[Statement]) -> bool:
    """Values that succeed one another: several, each with a start time, at most one still open."""
    usable = [s for s in statements if s.rank != "deprecated"]
    if len(usable) < 2 or not all(s.qualifier_values(START_TIME) for s in usable):
        return False
    return sum(1 for s in usable if not s.qualifier_values(END_TIME)) <= 1


def _ended(st: Statement) -> str | None:
    end = st.qualifier_values(END_TIME)
    if end and end[0].time:
        return human_date(end[0].time, end[0].precision)
    return None


def evidence_of(st: Statement, relation: str, score: float, facts: GraphFacts) -> Evidence:
    labels = LabelView(facts)
    return Evidence(
        statement_id=st.statement_id, subject=st.subject, subject_label=facts.label(st.subject),
        property=st.property, property_label=facts.label(st.property), value=plain_value(st.value, labels),
        value_id=st.value.entity_id, rank=st.rank, score=round(score, 4), relation=relation,
        qualifiers=tuple((facts.label(q.property) or q.property, plain_value(q.value, labels)) for q in st.qualifiers),
        references=tuple(tuple((facts.label(s.property) or s.property, plain_value(s.value, labels)) for s in r.snaks)
                         for r in st.references),
    )


def reference_pairs(references, facts: GraphFacts) -> tuple:
    labels = LabelView(facts)
    return tuple(tuple((facts.label(s.property) or s.property, plain_value(s.value, labels)) for s in r.snaks)
                 for r in references)


class LabelView(dict):
    """A dict-like view over facts.label for the render helpers."""

    def __init__(self, facts: GraphFacts):
        super().__init__()
        self.facts = facts

    def get(self, key, default=None):
        label = self.facts.label(key) if key else None
        if label is None and key:
            unit = unit_by_id(key)  # units often have no entity record in extracts: use the unit table
            label = unit.label if unit else None
        return label if label is not None else default


def judge(claim: Claim, obj: ClaimObject, subject_id: str, props: list[PropertyChoice], statements: list[Statement],
          facts: JudgeFacts, qualifiers: list[tuple[str, ClaimObject]] = (), top_k: int = 3) -> Verdict:
    by_pid = {p.pid: p for p in props}
    primary = next((p for p in props if p.primary), props[0] if props else None)
    scored: list[tuple[float, str, Statement]] = []  # (strength, relation, statement)
    for st in statements:
        choice = by_pid.get(st.property)
        if choice is None:
            continue
        rel = relate(obj, st.value, facts)
        if rel in SUPPORTING and not qualifiers_agree(qualifiers, st, facts):
            rel = CONFLICT
        scored.append((choice.score, rel, st))

    def verdict(v, confidence, rule, reason, evidence, corrections=()):
        return Verdict(claim=claim, verdict=v, confidence=round(confidence, 3), rule=rule, reason=reason,
                       subject_id=subject_id, property_ids=tuple(p.pid for p in props), evidence=tuple(evidence),
                       corrections=tuple(plain_value(s.value, LabelView(facts)) for s in corrections),
                       correction_ids=tuple(s.value.entity_id or "" for s in corrections))

    support = [(SUPPORT_STRENGTH[rel] * min(1.0, 0.6 + 0.4 * score) + (0.01 if st.rank == "preferred" else 0),
                rel, st) for score, rel, st in scored if rel in SUPPORTING and st.rank != "deprecated"]
    if support:
        support.sort(key=lambda t: -t[0])
        strength, rel, st = support[0]
        reason = _support_reason(rel, st, facts)
        others = [t for t in scored if t[2] is not st][: top_k - 1]
        evidence = [evidence_of(st, rel, strength, facts)] + [evidence_of(o, r, s * 0.5, facts) for s, r, o in others]
        rule = "A" if rel == MATCH else "B"
        return verdict(SUPPORTED, strength, rule, reason, evidence)

    primary_statements = [st for _, _, st in scored if primary and st.property == primary.pid]
    if primary_statements:
        rels = [(rel, st) for _, rel, st in scored if st.property == primary.pid]
        evidence = [evidence_of(st, rel, 0.5, facts) for rel, st in rels[:top_k]]
        current = _current(primary_statements)
        if any(rel == NO_VALUE for rel, _ in rels):
            return verdict(REFUTED, 0.9, "B", f"the graph states that {facts.label(subject_id) or subject_id} has "
                           f"no {facts.label(primary.pid) or primary.pid}", evidence)
        conflicts = [st for rel, st in rels if rel == CONFLICT]
        if any(rel == MORE_SPECIFIC for rel, _ in rels):
            return verdict(NOT_ENOUGH_INFO, 0.6, "B", "the claim is more specific than the graph's value", evidence)
        if all(rel == INCOMPARABLE for rel, _ in rels):
            return verdict(NOT_ENOUGH_INFO, 0.6, "B", "the graph's value cannot be compared with the claim (an "
                           "entity without a label in this index, or another kind of value)", evidence)
        if all(rel == UNKNOWN for rel, _ in rels):
            return verdict(NOT_ENOUGH_INFO, 0.6, "B", "the graph says there is a value but does not know it",
                           evidence)
        functionality = facts.functionality(primary.pid)
        if conflicts and functionality >= FUNCTIONAL and primary.score >= 0.6:
            confidence = 0.55 + 0.4 * functionality * min(1.0, primary.score)
            deprecated_hit = any(rel in SUPPORTING and st.rank == "deprecated" for _, rel, st in scored)
            reason = ("the graph marks the claimed value as deprecated" if deprecated_hit else
                      f"{facts.label(primary.pid) or primary.pid} has a single value in practice and the graph's "
                      "differs")
            return verdict(REFUTED, confidence, "B", reason, evidence, corrections=current[:3])
        if len(conflicts) == len(rels) and not qualifiers and primary.score >= 0.6 and \
                _one_at_a_time(primary_statements):  # every value compared: an unlabelled one may be the claimed
            # Several values, but each for its own period (heads of government): a value that held at no
            # time is wrong, and the value holding now is the answer.
            return verdict(REFUTED, 0.7, "B", f"the graph dates every value of {facts.label(primary.pid) or primary.pid}"
                           " and the claimed one is none of them", evidence, corrections=current[:3])
        return verdict(NOT_ENOUGH_INFO, 0.6, "B",
                       f"the claimed value is not among the graph's values of {facts.label(primary.pid) or primary.pid}"
                       " (a property with several values)", evidence, corrections=())

    return _rule_b_so_or_c(claim, obj, subject_id, props, statements, facts, verdict, top_k)


def _support_reason(rel: str, st: Statement, facts: GraphFacts) -> str:
    reason = {MATCH: "the graph states the same value", LESS_SPECIFIC: "the claim is less specific than the graph's "
              f"value ({plain_value(st.value, LabelView(facts))})",
              MORE_PRECISE: "consistent as far as the graph's precision goes",
              }.get(rel, "the graph's value matches at the claim's precision")
    ended = _ended(st)
    if ended:
        reason += f"; a former value (ended {ended})"
    pit = st.qualifier_values(POINT_IN_TIME)
    if pit and pit[0].time:
        reason += f"; as of {human_date(pit[0].time, pit[0].precision)}"
    return reason


def _rule_b_so_or_c(claim, obj, subject_id, props, statements, facts, verdict, top_k):
    """No statement of the claimed property: same subject and object (rule B) or the most similar (rule C)."""
    same_object = []
    for st in statements:
        if st.rank == "deprecated" or st.property in {p.pid for p in props}:
            continue
        # Only a direct identity here (the object's id or its linked candidates): cheap for every statement.
        value_id = st.value.entity_id
        if value_id and (value_id == obj.object_id or (not obj.object_id and value_id in obj.linked_ids[:1])):
            same_object.append((facts.predicate_similarity(claim.predicate, st.property), st))
    if same_object:
        same_object.sort(key=lambda t: -t[0])
        sim, st = same_object[0]
        evidence = [evidence_of(s, "same-object", sim, facts) for sim, s in same_object[:top_k]]
        if sim >= SO_RELATED:
            return verdict(SUPPORTED, 0.55 + 0.3 * sim, "B", f"the graph links the same subject and object through "
                           f"{facts.label(st.property) or st.property}", evidence)
        return verdict(NOT_ENOUGH_INFO, 0.6, "B", "the graph links subject and object, but through another relation",
                       evidence)
    ranked = sorted(statements, key=lambda s: -facts.predicate_similarity(claim.predicate, s.property))[:top_k]
    evidence = [evidence_of(s, "related", facts.predicate_similarity(claim.predicate, s.property), facts)
                for s in ranked]
    name = props[0].pid if props else "the predicate"
    return verdict(NOT_ENOUGH_INFO, 0.75, "C", f"the graph has no statement of {facts.label(name) or name} for "
                   f"{facts.label(subject_id) or subject_id}", evidence)
