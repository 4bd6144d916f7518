"""Result lines as recheck reads them: any JSON a hand or another tool put there is either a result whose keys
can be taken, or a line copied as it was — never a crash."""
from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.claims.recheck import claim_of
from kgcheck.verifier.claims.rekeys import is_result, held_value, result_keys
from kgcheck.verifier.claims.remeasure import is_measured

RESULT = {"id": "dev-1", "verdict": "SUPPORTED", "confidence": 0.97, "rule": "A", "reason": "same value",
          "claim": {"subject": "Douglas Adams", "predicate": "occupation", "object": "writer", "subject_id": "Q42",
                    "property_id": "P106", "object_id": "Q36180", "qualifiers": [["P580", "1979"]], "kind": "entity"},
          "subject_id": "Q42", "property_ids": ["P106"],
          "evidence": [{"statement_id": "Q42$1", "subject": "Q42", "property": "P106", "value": "writer",
                        "value_id": "Q36180", "rank": "normal", "relation": "match", "qualifiers": [],
                        "references": []}],
          "corrections": [], "correction_ids": [], "error": None, "exclusivity": None}

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                      max_size=3), max_leaves=8)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(RESULT) if p]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PATHS), json_values | st.just(KeyError)), min_size=1, max_size=3))
def test_any_edit_of_a_result_line_is_read_or_left_alone(edits):
    record = copy.deepcopy(RESULT)
    for path, value in edits:
        node = record
        try:
            for step in path[:-1]:
                node = node[step]
            if value is KeyError:
                del node[path[-1]]
            else:
                node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or replaced the way there
    if is_result(record):
        keys = list(result_keys(record))
        assert all(len(k) == 4 and isinstance(k[0], str) for k in keys)
        held_value(record)
        is_measured(record)
        assert claim_of(record).id == str(record["id"])


def test_the_shape_guard_refuses_what_the_keys_cannot_read():
    assert is_result(RESULT)
    for claim_edit in ({"qualifiers": 5}, {"qualifiers": [["P580"]]}, {"subject": 3}):
        record = copy.deepcopy(RESULT)
        record["claim"].update(claim_edit)
        assert not is_result(record)
    assert not is_result({**RESULT, "evidence": [{"statement_id": 1}]})
    assert not is_result({**RESULT, "id": True})
    # a result may carry evidence fields the guard does not read: the held value tolerates any of them
    unqualified = {**RESULT, "claim": {**RESULT["claim"], "qualifiers": []}}
    assert held_value(unqualified) == "Q36180"
    assert held_value({**unqualified, "evidence": [{**RESULT["evidence"][0], "property": []}]}) is None


class _FakeFacts:
    def __init__(self):
        self.predicates = []

    def prefetch_predicates(self, predicates):
        self.predicates.append(set(predicates))


class _RefutingChecker:
    """Refutes every claim it is given, recording the batches (a stand-in for Checker in checked_records)."""

    def __init__(self):
        self.facts = _FakeFacts()
        self.batches = []

    def check(self, claims):
        from kgcheck.verifier.model import Verdict

        self.batches.append([c.id for c in claims])
        return [Verdict(claim=c, verdict="REFUTED", confidence=0.9, rule="C", reason="fake") for c in claims]


def test_checked_records_pairs_each_old_line_with_its_new_record_in_batches():
    import orjson

    from kgcheck.verifier.claims.recheck import checked_records

    lines = {n: orjson.dumps(dict(RESULT, id=f"dev-{n}")) + b"\n" for n in (3, 7, 12)}
    checker = _RefutingChecker()
    out = checked_records(checker, lines, batch_size=2)
    assert sorted(out) == [3, 7, 12]
    for n, (old, record) in out.items():
        assert old == {"id": f"dev-{n}", "verdict": "SUPPORTED", "claim": RESULT["claim"]}
        assert record["id"] == f"dev-{n}" and record["verdict"] == "REFUTED"
        assert record["claim"]["subject_id"] == "Q42" and record["claim"]["qualifiers"] == [["P580", "1979"]]
    assert checker.batches == [["dev-3", "dev-7"], ["dev-12"]]  # batch_size claims per call, in line order
    assert checker.facts.predicates == [{"occupation"}]  # one prefetch for every predicate of the lines
    assert checked_records(checker, {}, batch_size=2) == {}
