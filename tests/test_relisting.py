"""An open listing ("the graph lists X, Y, ... not Z") whose only change is an edit of a statement it does not cite
is re-checked only when that edit can move it (relisting.py): the old or new value related to Z, a rank or a count
that moved, or a test on the new held set that refutes."""
from __future__ import annotations

import json

import pytest

CLAIM = {"id": "cast", "subject": "Film X", "predicate": "cast member", "object": "Zed", "subject_id": "Q7100",
         "property_id": "P161", "object_id": "Q8100"}


def _films(fx, twelfth: str = "Q8012", rank: str = "normal", beside_z: bool = False, unknown: bool = False
           ) -> list[dict]:
    """Film X with twelve cast members Q8001-Q8012 (its listing cites the first ten), the twelfth as edited, and with
    `unknown` a thirteenth whose value is unknown; twenty films with Q8001 and Q8002 (the property and the values
    take several values); with `beside_z`, five films with Q8012 and Zed (Q8100), so that Zed is held beside one
    of Film X's values."""
    film = ("P31", fx.item("Q11424", None))
    cast = [("P161", fx.item(f"Q{8000 + i}", None)) for i in range(1, 12)] + \
        [("P161", fx.item(twelfth, None), {"rank": rank})] + \
        ([("P161", None, {"snaktype": "somevalue"})] if unknown else [])
    films = [fx.entity("Q7100", "Film X", "film", claims=[film] + cast)]
    films += [fx.entity(f"Q{7200 + i}", f"Film {i}", "film",
                        claims=[film, ("P161", fx.item("Q8001", None)), ("P161", fx.item("Q8002", None))])
              for i in range(20)]
    if beside_z:
        films += [fx.entity(f"Q{7300 + i}", f"Other film {i}", "film",
                            claims=[film, ("P161", fx.item("Q8012", None)), ("P161", fx.item("Q8100", None))])
                  for i in range(5)]
    actors = [fx.entity(f"Q{8000 + i}", f"Actor {i}", "actor") for i in range(1, 14)]
    actors += [fx.entity("Q8100", "Zed", "actor"),
               fx.entity("Q8200", "Zed junior", "actor", claims=[("P279", fx.item("Q8100", None))])]
    return films + actors + [fx.entity("Q11424", "film"), fx.prop("P161", "cast member", "wikibase-item"),
                             fx.prop("P31", "instance of", "wikibase-item"),
                             fx.prop("P279", "subclass of", "wikibase-item")]


def _recheck(kg_of, tmp_path, old_graph, new_graph, claimed: dict = CLAIM):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    old, new = kg_of(old_graph), kg_of(new_graph)
    claim = Claim(**claimed)
    before = Checker(old).check([claim])[0]
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text(json.dumps(verdict_to_dict(before)) + "\n")
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
    full = verdict_to_dict(Checker(new).check([claim])[0])
    return before, summary, json.loads(out.read_text()), full


@pytest.mark.parametrize("edit, rechecked", [
    ({"twelfth": "Q8013"}, False),  # another actor no one else plays beside Zed: nothing moves
    ({"twelfth": "Q8100"}, True),  # the claimed actor himself: SUPPORTED
    ({"twelfth": "Q8200"}, True),  # a subclass of the claimed value: supported as less specific
    ({"twelfth": "Q8011"}, True),  # a value held already: the reason's count of values moves
    ({"twelfth": "Q8013", "rank": "deprecated"}, True),  # the value and its rank: the held set shrinks
    ({"twelfth": "Q8013", "rank": "preferred"}, True),  # the value and its rank: not followed (kept to be safe)
    ({"twelfth": "Q8013", "unknown": True}, True),  # a held set the by-value replica cannot read exactly
])
def test_an_uncited_value_edit_rechecks_an_open_listing_only_when_it_can_move_it(kg_of, tmp_path, edit, rechecked):
    from conftest import fixture_builders

    fx = fixture_builders()
    base = {"unknown": True} if edit.get("unknown") else {}
    before, summary, out, full = _recheck(kg_of, tmp_path, _films(fx, **base), _films(fx, **edit))
    assert before.verdict == "NOT_ENOUGH_INFO" and before.exclusivity == "none", before.reason
    assert len(before.evidence) == 10
    assert summary.rechecked == int(rechecked)
    assert summary.listings_unmoved == int(not rechecked)
    assert out == full  # byte for byte what a full check says, the reason's counts included


def test_an_uncited_edit_that_leaves_the_claim_never_held_beside_a_value_rechecks_it(kg_of, tmp_path):
    """Zed is played beside Q8012 in five other films: Film X's listing is open. Its twelfth actor edited away, no
    film holds Zed beside any of Film X's actors, and the co-occurrence test on the new held set refutes — though
    on both builds' measures over that new set it comes out the same (remeasure.cooccurrence_flips sees nothing)."""
    from conftest import fixture_builders

    fx = fixture_builders()
    before, summary, out, full = _recheck(kg_of, tmp_path, _films(fx, beside_z=True),
                                          _films(fx, twelfth="Q8013", beside_z=True))
    assert before.verdict == "NOT_ENOUGH_INFO" and before.exclusivity == "none", before.reason
    assert full["verdict"] == "REFUTED" and full["exclusivity"] == "co-occurrence", full["reason"]
    assert summary.rechecked == 1 and summary.listings_unmoved == 0
    assert out == full


def _directed(fx, stamped: int) -> list[dict]:
    """Film X with thirteen directors, the first `stamped` each with its own start time (a sequence, one at a time),
    the rest without one; sixty films with one director each (the property measured single-valued)."""
    film = ("P31", fx.item("Q11424", None))
    directors = [("P57", fx.item(f"Q{8000 + i}", None),
                  {"qualifiers": [("P580", fx.time(f"+{1900 + i}-01-01T00:00:00Z", 9))]} if i <= stamped else {})
                 for i in range(1, 14)]
    # Its producer is Zed, the claimed director: the trace test (trace.py) finds Zed near it and refutes nothing.
    films = [fx.entity("Q7100", "Film X", "film", claims=[film, ("P162", fx.item("Q8100", None))] + directors)]
    films += [fx.entity(f"Q{7200 + i}", f"Film {i}", "film", claims=[film, ("P57", fx.item(f"Q{8300 + i}", None))])
              for i in range(60)]
    people = [fx.entity(f"Q{8000 + i}", f"Director {i}", "director") for i in range(1, 14)]
    people += [fx.entity(f"Q{8300 + i}", f"Other director {i}", "director") for i in range(60)]
    people += [fx.entity("Q8100", "Zed", "director")]
    return films + people + [fx.entity("Q11424", "film"), fx.prop("P57", "director", "wikibase-item"),
                             fx.prop("P162", "producer", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item")]


def test_an_uncited_time_qualifier_edit_that_ends_several_values_at_once_rechecks_the_listing(kg_of, tmp_path):
    """Film X holds two directors at once (two without a start time): the measured share (one director per film)
    does not refute beside them. A start time given to the thirteenth (a statement the listing does not cite, a
    qualifier-only edit) leaves every director its own time: the share refutes again."""
    from conftest import fixture_builders

    fx = fixture_builders()
    claim = dict(CLAIM, predicate="director", property_id="P57")
    before, summary, out, full = _recheck(kg_of, tmp_path, _directed(fx, 11), _directed(fx, 13), claim)
    assert before.verdict == "NOT_ENOUGH_INFO" and "holds several values itself" in before.reason, before.reason
    assert full["verdict"] == "REFUTED" and full["exclusivity"] == "measured", full["reason"]
    assert summary.rechecked == 1 and summary.listings_unmoved == 0
    assert out == full
