"""A value's namesake that fits the relation the words name (verifier/text/namesakes.py): "born in Chicago" of the
city, where the gazetteer took the better-known band of that name."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from conftest import fixture_builders
from kgcheck.verifier.text.verify import verify_text
from test_holders import SINGLE_VALUE, _on

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop


def _graph(kg_of, *more, birth_aliases=("born in",)):
    return kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P19", "place of birth", "wikibase-item", aliases=list(birth_aliases), constraints=[(SINGLE_VALUE,)]),
        prop("P175", "performer", "wikibase-item"),
        entity("Q5", "human"), entity("Q515", "city"), entity("Q215380", "band"), entity("Q7366", "song"),
        entity("Q64", "Berlin", claims=[("P31", item("Q515", None))]),
        entity("Q1297", "Chicago", "city in Illinois", sitelinks=5, claims=[("P31", item("Q515", None))]),
        entity("Q371938", "Chicago", "American rock band", sitelinks=50, claims=[("P31", item("Q215380", None))]),
        entity("Q9", "Saturday", claims=[("P31", item("Q7366", None)), ("P175", item("Q371938", None))]),
        entity("Q1", "Ben Ode", claims=[("P31", item("Q5", None)), ("P19", item("Q64", None))]),
        entity("Q2", "Cid Roy", claims=[("P31", item("Q5", None)), ("P19", item("Q1297", None))]),
        *more,
    ])


@pytest.mark.parametrize("aliases, reader", [(("born in",), "words"), ((), "triggers")])
def test_the_namesake_the_words_relation_fits_is_the_value(kg_of, aliases, reader):
    # "born in" a name of the property (the lexicon: words reader), or only the trigger list's "born" (triggers)
    kg = _graph(kg_of, birth_aliases=aliases)
    tc = _on(verify_text(kg, "Ben Ode was born in Chicago."), "Q1", "P19")
    assert (tc.span, tc.claim.object_id, tc.reader, tc.verdict.verdict) == ("Chicago", "Q1297", reader, REFUTED)
    right = _on(verify_text(kg, "Cid Roy was born in Chicago."), "Q2", "P19")
    assert (right.claim.object_id, right.verdict.verdict) == ("Q1297", SUPPORTED)


def test_two_fitting_namesakes_leave_the_mention_as_linked(kg_of):
    # A second city called Chicago: the words do not say which city; neither is taken on a guess.
    kg = _graph(kg_of, entity("Q5000", "Chicago", "city in Ontario", sitelinks=1, claims=[("P31", item("Q515", None))]))
    assert not [c for c in verify_text(kg, "Ben Ode was born in Chicago.").claims
                if c.claim.object_id in ("Q1297", "Q5000")]



def test_a_name_with_too_many_namesakes_is_not_re_linked(kg_of):
    # More bands called Chicago than MAX_NAMESAKES: the one city among them is no evidence of what the text means.
    from kgcheck.verifier.text.namesakes import MAX_NAMESAKES

    bands = [entity(f"Q{7000 + n}", "Chicago", "band", claims=[("P31", item("Q215380", None))])
             for n in range(MAX_NAMESAKES)]
    kg = _graph(kg_of, *bands)
    assert not [c for c in verify_text(kg, "Ben Ode was born in Chicago.").claims if c.claim.object_id == "Q1297"]


def _songs(kg_of):
    """Two songs called "Nova" the graph does not tell apart (no sitelinks, one statement each): Q9001 holds a
    release date only, Q8001 a genre; the id would pick Q9001. Ragtime and pop are genres of other songs too."""
    time = B.time
    return kg_of([
        prop("P136", "genre", "wikibase-item"), prop("P577", "publication date", "time"),
        entity("Q41", "ragtime"), entity("Q42", "pop"), entity("Q43", "Latin pop"),
        entity("Q9001", "Nova", claims=[("P577", time("+2017-01-12T00:00:00Z", 11))]),
        entity("Q8001", "Nova", claims=[("P136", item("Q43", None))])] +
        [entity(f"Q{700 + i}", f"Tune {i}", claims=[("P136", item(("Q41", "Q42", "Q43")[i % 3], None))])
         for i in range(9)])


def test_the_sentences_values_pick_the_opening_namesake_that_can_hold_them(kg_of):
    kg = _songs(kg_of)
    genre = _on(verify_text(kg, "Nova is a ragtime song."), "Q8001", "P136")
    assert genre.claim.object == "ragtime" and genre.verdict.verdict != SUPPORTED
    assert "Latin pop" in genre.verdict.reason
    # a year votes for the namesake holding a date: with a genre word beside it, neither is dropped
    dated = verify_text(kg, "Nova was among the best pop songs of 2010.").claims
    assert any(c.claim.subject_id == "Q9001" and c.claim.property_id == "P577" for c in dated)
