"""A structured claim may name a place by its demonym, as a table of nationalities does ("country of citizenship:
British"): the graph's demonyms of the value it holds (P1549) make that the same value, and a rebuild that edits
a demonym re-checks the claims naming a place by its old or new text."""
from __future__ import annotations

import json

from kgcheck.index.model import ENTITY, Value
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.claims.compare import CONFLICT, MATCH, ClaimObject, GraphFacts, relate
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim
from conftest import fixture_builders
from diff_builds import build, recheck_beside_full

B = fixture_builders()
item, mono = B.item, B.mono


class _Facts(GraphFacts):
    def __init__(self, names, demonyms):
        self._names, self._demonyms = names, demonyms

    def names(self, eid):
        return self._names.get(eid, set())

    def demonyms(self, eid):
        return self._demonyms.get(eid, set())

    def ancestors(self, eid):
        return set()

    def label(self, eid):
        return None


def test_a_demonym_of_the_graphs_value_is_that_value():
    facts = _Facts({"Q145": {"united kingdom"}, "Q142": {"france"}}, {"Q145": {"british"}, "Q142": {"french"}})
    uk = Value(kind=ENTITY, text="United Kingdom", entity_id="Q145")
    assert relate(ClaimObject("British"), uk, facts) == MATCH
    assert relate(ClaimObject("French"), uk, facts) == CONFLICT
    # A claim given by id is compared by id alone.
    assert relate(ClaimObject("British", object_id="Q142"), uk, facts) == CONFLICT


def test_facts_without_demonyms_compare_names_only():
    class Plain(_Facts):
        demonyms = GraphFacts.demonyms

    uk = Value(kind=ENTITY, text="United Kingdom", entity_id="Q145")
    assert relate(ClaimObject("British"), uk, Plain({"Q145": {"united kingdom"}}, {})) == CONFLICT


def _country(qid, label, demonym):
    return B.entity(qid, label, "country", claims=[("P31", item("Q6256", None)), ("P1549", mono(demonym))])


def _graph(french: str = "French") -> list[dict]:
    people = [B.entity(f"Q9{i:02d}", f"Person {i}", "painter",
                       claims=[("P31", item("Q5", None)), ("P27", item("Q142" if i % 2 else "Q40", None))])
              for i in range(1, 31)]  # enough subjects for the measured test (thresholds.py): P27 takes one value
    return [B.prop("P31", "instance of", "wikibase-item"), B.prop("P27", "country of citizenship", "wikibase-item"),
            B.prop("P1549", "demonym", "monolingualtext"), B.entity("Q5", "human"), B.entity("Q6256", "country"),
            B.entity("Q150", "French", "language"), _country("Q142", "France", french),
            _country("Q40", "Austria", "Austrian"), *people]


def _claim(cid, subject, demonym):
    return Claim(id=cid, subject="", predicate="country of citizenship", object=demonym, subject_id=subject,
                 property_id="P27")


def test_a_citizenship_said_by_demonym_is_checked(kg_of):
    kg = kg_of(_graph())
    right, wrong, other = Checker(kg).check([_claim("a", "Q901", "French"), _claim("b", "Q901", "Austrian"),
                                             _claim("c", "Q902", "Austrian")])
    assert right.verdict == SUPPORTED and "'French' is a demonym of France" in right.reason
    assert right.evidence[0].value_id == "Q142"
    assert wrong.verdict == REFUTED and wrong.correction_ids == ("Q142",), wrong.reason
    assert other.verdict == SUPPORTED


def test_a_recheck_follows_a_demonym_edit(tmp_path):
    old = build(_graph(), tmp_path / "old")
    new = build(_graph(french="Gallic"), tmp_path / "new")
    claims = [{"id": "fr", "subject": "Person 1", "predicate": "country of citizenship", "object": "French",
               "subject_id": "Q901", "property_id": "P27"},
              {"id": "gallic", "subject": "Person 3", "predicate": "country of citizenship", "object": "Gallic",
               "subject_id": "Q903", "property_id": "P27"},
              {"id": "at", "subject": "Person 2", "predicate": "country of citizenship", "object": "Austrian",
               "subject_id": "Q902", "property_id": "P27"}]
    summary, before, out, full = recheck_beside_full(old, new, claims, tmp_path)
    verdicts = [{r["id"]: r["verdict"] for r in map(json.loads, path.read_text().splitlines())}
                for path in (before, out, full)]
    assert verdicts[0] == {"fr": SUPPORTED, "gallic": verdicts[0]["gallic"], "at": SUPPORTED}
    assert verdicts[0]["gallic"] != SUPPORTED
    assert verdicts[1] == verdicts[2]  # the re-checked file says what a full check of NEW says
    assert verdicts[2]["fr"] in (REFUTED, NOT_ENOUGH_INFO) and verdicts[2]["gallic"] == SUPPORTED
    assert {f["id"] for f in summary.flipped} == {"fr", "gallic"}
    assert summary.rechecked == 2  # the Austrian claim's texts and statements did not change
