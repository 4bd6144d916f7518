"""A property name right before a date names whose event it is (words.names_only_others): "Ben Ode was elected in
1990" names an event of another kind of thing (his class holds no "elected in"), so the date is not read as the
one dated event the graph gives him (a date of birth REFUTED beside 1950); "born in 1990" still is."""
from __future__ import annotations

from kgcheck.verifier.model import REFUTED
from conftest import fixture_builders
from kgcheck.verifier.text.verify import verify_text
from test_holders import SINGLE_VALUE

B = fixture_builders()
item, entity, prop, time = B.item, B.entity, B.prop, B.time


def _graph(kg_of, *more):
    return kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P569", "date of birth", "time", aliases=["born"], constraints=[(SINGLE_VALUE,)]),
        prop("P2715", "elected in", "wikibase-item"),  # a relation no human of this graph holds
        prop("P449", "original broadcaster", "wikibase-item", aliases=["broadcast in"]),
        prop("P577", "publication date", "time", constraints=[(SINGLE_VALUE,)]),
        entity("Q5", "human"), entity("Q15416", "television program"), entity("Q20", "NBC"),
        entity("Q10", "Other Show", claims=[("P31", item("Q15416", None)), ("P449", item("Q20", None))]),
        entity("Q11", "Zed Show", claims=[("P31", item("Q15416", None)), ("P577", time("+1985-01-01T00:00:00Z", 9))]),
        entity("Q1", "Ben Ode", claims=[("P31", item("Q5", None)), ("P569", time("+1950-03-01T00:00:00Z"))]),
        *more,
    ])


def _on(report, pid):
    return [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == ("Q1", pid)]


def test_a_date_after_another_things_event_is_not_the_subjects_one_dated_event(kg_of):
    kg = _graph(kg_of)
    assert not _on(verify_text(kg, "Ben Ode was elected in 1990."), "P569")


def test_the_subjects_own_event_still_dates_it(kg_of):
    kg = _graph(kg_of)
    [birthday] = _on(verify_text(kg, "Ben Ode was born in 1990."), "P569")
    assert birthday.verdict.verdict == REFUTED
    # A show's class holds a broadcaster: its broadcast is its own event, its one dated one.
    report = verify_text(kg, "Zed Show was first broadcast in 1990.")
    [aired] = [c for c in report.claims if c.claim.subject_id == "Q11"]
    assert (aired.claim.property_id, aired.verdict.verdict) == ("P577", REFUTED)
    # A classless subject may hold any relation: the words do not say the event is another thing's.
    bare = _graph(kg_of, entity("Q2", "Cid Roy", claims=[("P569", time("+1950-03-01T00:00:00Z"))]))
    [guess] = [c for c in verify_text(bare, "Cid Roy was elected in 1990.").claims if c.claim.subject_id == "Q2"]
    assert (guess.claim.property_id, guess.verdict.verdict) == ("P569", REFUTED)
