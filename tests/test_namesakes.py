"""Refuting a claim about a name several entities share: the correction comes from the namesake whose
value is nearest the claimed one (a wrong year or figure is usually near the right one)."""
from __future__ import annotations

import pytest

from conftest import fixture_builders
from kgcheck.verifier.claims.compare import GraphFacts
from kgcheck.verifier.claims.evaluate import correction_matches
from kgcheck.verifier.model import Claim, Verdict

fx = fixture_builders()


@pytest.fixture(scope="module")
def namesake_kg(kg_of):
    entities = [
        # The better-known county comes first in linking; the claims below are about the other one.
        fx.entity("Q100", "Monroe County", "county of New York", sitelinks=12, claims=[
            ("P571", fx.time("+1821-02-23T00:00:00Z")), ("P2046", fx.quantity("+3537", "Q712226"))]),
        fx.entity("Q200", "Monroe County", "county of Indiana", sitelinks=3, claims=[
            ("P571", fx.time("+1818-01-01T00:00:00Z", 9)), ("P2046", fx.quantity("+1030", "Q712226"))]),
        fx.entity("Q712226", "square kilometre"),
        fx.prop("P571", "inception", "time"),
        fx.prop("P2046", "area", "quantity"),
    ]
    return kg_of(entities)


def _check(kg, predicate, obj, subject="Monroe County"):
    from kgcheck.verifier.claims.check import Checker

    return Checker(kg).check([Claim(id="c", subject=subject, predicate=predicate, object=obj)])[0]


def test_every_one_of_thirty_namesakes_is_tried(kg_of):
    # The US has 31 Washington Counties; the one with the claimed area is the least known.
    counties = [fx.entity(f"Q{1000 + n}", "Washington County", sitelinks=40 - n,
                          claims=[("P2046", fx.quantity(f"+{500 + 10 * n}", "Q712226"))]) for n in range(30)]
    kg = kg_of(counties + [fx.entity("Q712226", "square kilometre"), fx.prop("P2046", "area", "quantity")])
    verdict = _check(kg, "area", "790 square kilometre", subject="Washington County")
    assert verdict.verdict == "SUPPORTED" and verdict.subject_id == "Q1029"


@pytest.mark.parametrize("predicate, obj, subject, correction", [
    ("inception", "1816", "Q200", "1818"),
    ("inception", "1824", "Q100", "1821"),
    ("area", "553 square kilometre", "Q200", "1030"),
    ("area", "5000 square kilometre", "Q100", "3537"),
])
def test_the_nearest_namesake_gives_the_correction(namesake_kg, predicate, obj, subject, correction):
    verdict = _check(namesake_kg, predicate, obj)
    assert verdict.verdict == "REFUTED"
    assert verdict.subject_id == subject
    assert any(correction in c for c in verdict.corrections)


def test_a_value_one_namesake_has_is_still_supported(namesake_kg):
    verdict = _check(namesake_kg, "area", "1030 square kilometre")
    assert verdict.verdict == "SUPPORTED" and verdict.subject_id == "Q200"


def _verdict(*corrections):
    claim = Claim(id="c", subject="x", predicate="area", object="1")
    return Verdict(claim=claim, verdict="REFUTED", confidence=0.9, rule="B", reason="", corrections=corrections)


def test_corrections_match_the_gold_value_at_its_stated_precision():
    gold = {"kind": "quantity", "correct": "53.42 square kilometre"}
    assert correction_matches(gold, _verdict("53.419789 square kilometre"))
    assert not correction_matches(gold, _verdict("53.43 square kilometre"))
    assert correction_matches({"kind": "quantity", "correct": "1,235"}, _verdict("1235.4262"))
    assert not correction_matches({"kind": "quantity", "correct": "1,235"}, _verdict("1236"))


class _Facts(GraphFacts):
    """Chile (the country) and Santiago, whose aliases include "Chile" and whose closure reaches the UK."""

    NAMES = {"Q298": {"chile"}, "Q2887": {"santiago", "chile"}, "Q145": {"united kingdom"}, "Q2": {"earth"}}
    ANCESTORS = {"Q298": {"Q2"}, "Q2887": {"Q298", "Q145", "Q2"}, "Q145": {"Q2"}}

    def names(self, eid):
        return self.NAMES.get(eid, set())

    def ancestors(self, eid):
        return self.ANCESTORS.get(eid, set())

    def label(self, eid):
        return next(iter(self.NAMES.get(eid, ())), None)


def test_a_wrong_country_is_a_conflict_not_more_specific_through_a_namesake():
    from kgcheck.verifier.claims.compare import CONFLICT, LESS_SPECIFIC, MORE_SPECIFIC, ClaimObject, _relate_entity

    chile = ClaimObject("Chile", linked_ids=("Q298", "Q2887"))  # best-linked first
    assert _relate_entity(chile, "Q145", _Facts()) == CONFLICT
    santiago = ClaimObject("Santiago", linked_ids=("Q2887",))
    assert _relate_entity(santiago, "Q145", _Facts()) == MORE_SPECIFIC
    earth = ClaimObject("Earth", linked_ids=("Q2",))
    assert _relate_entity(earth, "Q298", _Facts()) == LESS_SPECIFIC


def test_a_text_claim_naming_the_graphs_value_is_not_refuted_through_a_namesakes_link(kg_of):
    """The text's "Sense and Sensibility" was linked to the film of that title; the graph's "based on" value is the
    novel of the same label. The words name the graph's value, so the claim is judged with it: SUPPORTED. A name
    that is no label of the graph's value ("Emma") stays REFUTED."""
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.model import REFUTED, SUPPORTED
    from kgcheck.verifier.text.extract import SpanClaim
    from kgcheck.verifier.text.refutations import read_as_the_graphs_namesake as _read_as_the_graphs_namesake

    based_on = lambda qid, label, work: fx.entity(qid, label, "film", claims=[("P144", fx.item(work, None))])  # noqa: E731
    kg = kg_of([fx.prop("P144", "based on", "wikibase-item"),
                fx.entity("Q274744", "Sense and Sensibility", "novel by Jane Austen"),
                fx.entity("Q643263", "Sense and Sensibility", "1995 film"), fx.entity("Q208", "Emma", "1996 film"),
                fx.entity("Q209", "Persuasion", "novel by Jane Austen"),
                based_on("Q1723681", "Kandukondain Kandukondain", "Q274744")] +
               [based_on(f"Q{5000 + i}", f"Remake {i}", ("Q274744", "Q209")[i % 2]) for i in range(30)])
    checker = Checker(kg)

    def claim(obj, obj_id):
        return (SpanClaim(Claim(id=obj, subject="Kandukondain Kandukondain", predicate="based on", object=obj,
                                subject_id="Q1723681", property_id="P144", object_id=obj_id), 0, 0, len(obj),
                          "triggers"), "kg")

    merged = [claim("Sense and Sensibility", "Q643263"), claim("Emma", "Q208")]
    verdicts = checker.check([c.claim for c, _ in merged])
    assert [v.verdict for v in verdicts] == [REFUTED, REFUTED]
    _read_as_the_graphs_namesake(kg, checker, merged, verdicts)
    assert [v.verdict for v in verdicts] == [SUPPORTED, REFUTED]
    assert merged[0][0].claim.object_id == "Q274744" and merged[1][0].claim.object_id == "Q208"
