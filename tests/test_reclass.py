"""A subject whose own classes were edited is re-checked only when its by-class test comes out otherwise on each
build's classes and counts (reclass.class_edit_flips), not on every edit of an instance-of statement."""
from __future__ import annotations

import json

import pytest

CLAIM = {"id": "city", "subject": "City 0", "predicate": "country", "object": "United States of America",
         "subject_id": "Q4000", "property_id": "P17", "object_id": "Q30"}


def _places(fx, city_zero_class: str = "Q515") -> list[dict]:
    """30 football clubs and 30 stadiums in Russia (one country each: each class takes one value); 30 cities in
    Russia, ten of them also in the Soviet Union (the class, the property and Russia's holders take several); City
    0's class as edited."""
    clubs = [fx.entity(f"Q{3000 + i}", f"Club {i}", "football club",
                       claims=[("P31", fx.item("Q476028", None)), ("P17", fx.item("Q159", None))]) for i in range(30)]
    clubs += [fx.entity(f"Q{3500 + i}", f"Stadium {i}", "stadium",
                        claims=[("P31", fx.item("Q483110", None)), ("P17", fx.item("Q159", None))]) for i in range(30)]
    cities = [fx.entity(f"Q{4000 + i}", f"City {i}", "city",
                        claims=[("P31", fx.item(city_zero_class if i == 0 else "Q515", None)),
                                ("P17", fx.item("Q159", None))] +
                        ([("P17", fx.item("Q15180", None))] if 10 <= i < 20 else [])) for i in range(30)]
    named = {"Q476028": "association football club", "Q483110": "stadium", "Q515": "city", "Q3957": "town", "Q159": "Russia",
             "Q15180": "Soviet Union", "Q30": "United States of America"}
    return clubs + cities + [fx.entity(q, label) for q, label in named.items()] + \
        [fx.prop("P17", "country", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item")]


@pytest.mark.parametrize("edit, rechecked", [
    ("Q3957", False),  # city -> town (no other town): no class measurable on NEW, none exclusive on OLD
    ("Q476028", True),  # city -> football club: the class now takes one value, and the claim is refuted
])
def test_a_class_edit_rechecks_only_when_the_class_test_comes_out_otherwise(kg_of, tmp_path, edit, rechecked):
    from conftest import fixture_builders

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_places(fx)), kg_of(_places(fx, edit))
    claim = Claim(**CLAIM)
    before = Checker(old).check([claim])[0]
    assert before.verdict == "NOT_ENOUGH_INFO" and before.exclusivity == "none", before.reason
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text(json.dumps(verdict_to_dict(before)) + "\n")
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
    full = verdict_to_dict(Checker(new).check([claim])[0])
    assert summary.rechecked == int(rechecked)
    assert (full["verdict"] == "REFUTED" and full["exclusivity"] == "class") is rechecked, full["reason"]
    assert json.loads(out.read_text()) == full


def test_a_verdict_the_class_test_decided_is_rechecked_when_another_class_decides_it(kg_of, tmp_path):
    """City 0 moved from the football clubs to the stadiums: refuted by its class on both builds, but the reason
    (and the confidence) now come from another class — re-checked, as a full check words it."""
    from conftest import fixture_builders

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_places(fx, "Q476028")), kg_of(_places(fx, "Q483110"))
    claim = Claim(**CLAIM)
    before = verdict_to_dict(Checker(old).check([claim])[0])
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text(json.dumps(before) + "\n")
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
    full = verdict_to_dict(Checker(new).check([claim])[0])
    assert before["exclusivity"] == full["exclusivity"] == "class" and before["reason"] != full["reason"]
    assert summary.rechecked == 1 and json.loads(out.read_text()) == full
