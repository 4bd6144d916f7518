"""A demonym before a noun ("an Austrian painter", "a French film") names the place whose demonym (P1549) it is in
the graph, not the language or the people that go by the same word: the readers then ask which of the subject's
properties such a place fills — a person's country of citizenship, a film's country of origin — and the graph
judges it. Elsewhere ("speaks French") the word keeps its own link."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.demonyms import demonym_places, with_demonyms
from kgcheck.verifier.text.mentions import Mention, split_sentences
from kgcheck.verifier.text.verify import verify_text
from wordgraph import B, claim_on, graph_values

item, mono = B.item, B.mono


def _country(qid, label, *demonyms, capital=None):
    return B.entity(qid, label, "country", claims=[("P31", item("Q6256", None))] +
                    [("P1549", mono(d)) for d in demonyms] + ([("P36", item(capital, None))] if capital else []))


def _person(qid, label, country, *languages):
    return B.entity(qid, label, "painter", claims=[("P31", item("Q5", None)), ("P27", item(country, None))] +
                    [("P1412", item(lang, None)) for lang in languages])


def _film(qid, label, country):
    return B.entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P495", item(country, None))])


GRAPH = [
    B.prop("P31", "instance of", "wikibase-item"),
    B.prop("P27", "country of citizenship", "wikibase-item", aliases=["citizenship"]),
    B.prop("P495", "country of origin", "wikibase-item"),
    B.prop("P1412", "languages spoken, written or signed", "wikibase-item", aliases=["speaks"]),
    B.prop("P1549", "demonym", "monolingualtext"),
    B.entity("Q5", "human"), B.entity("Q6256", "country"), B.entity("Q11424", "film"),
    B.entity("Q34770", "language"),
    B.entity("Q150", "French", "language", claims=[("P31", item("Q34770", None))]),
    B.entity("Q41", "Americans", "ethnic group", aliases=["American"]),
    _country("Q142", "France", "French"), _country("Q40", "Austria", "Austrian", capital="Q1741"),
    B.entity("Q1741", "Vienna", "city", claims=[("P31", item("Q515", None)), ("P131", item("Q40", None))]),
    B.prop("P36", "capital", "wikibase-item"), B.entity("Q515", "city"),
    B.prop("P131", "located in the administrative territorial entity", "wikibase-item"),
    B.prop("P19", "place of birth", "wikibase-item", aliases=["born in"]),
    B.entity("Q905", "Eva Lang", "painter", claims=[("P31", item("Q5", None)), ("P19", item("Q1741", None))]),
    B.entity("Q906", "Franz Huber", "painter", claims=[("P31", item("Q5", None))]),  # no birthplace, no country
    _country("Q30", "United States", "American"),
    _person("Q901", "Alice Brandt", "Q142", "Q150"), _person("Q902", "Bruno Keller", "Q40"),
    _person("Q903", "Carla Moreau", "Q142"), _person("Q904", "Dan Ortiz", "Q30"),
    _film("Q801", "The Quiet Harbour", "Q142"), _film("Q802", "Night Train", "Q30"),
    _film("Q803", "Paper Moon Rising", "Q40"), _film("Q804", "The painter's last summer", "Q142"),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(GRAPH)


def test_the_graphs_demonyms_name_their_places(kg):
    assert demonym_places(kg) == {"french": "Q142", "austrian": "Q40", "american": "Q30"}


def test_a_right_nationality_is_supported(kg):
    said = claim_on(verify_text(kg, "Alice Brandt is a French painter."), "French")
    assert (said.claim.property_id, said.claim.object_id, said.verdict.verdict) == ("P27", "Q142", SUPPORTED)


def test_a_wrong_nationality_is_flagged_with_the_graphs_value(kg):
    said = claim_on(verify_text(kg, "Alice Brandt is an Austrian painter."), "Austrian")
    assert (said.claim.property_id, said.claim.object_id) == ("P27", "Q40")
    assert said.verdict.verdict != SUPPORTED and "France" in graph_values(said)


def test_a_word_another_thing_goes_by_is_read_as_the_place(kg):
    # "American" is an alias of the ethnic group too: before a noun it is the country's demonym.
    said = claim_on(verify_text(kg, "Night Train is an American film."), "American")
    assert (said.claim.property_id, said.claim.object_id, said.verdict.verdict) == ("P495", "Q30", SUPPORTED)
    wrong = claim_on(verify_text(kg, "Paper Moon Rising is an American film."), "American")
    assert wrong.claim.property_id == "P495" and wrong.verdict.verdict != SUPPORTED
    assert "Austria" in graph_values(wrong)


def test_the_word_keeps_its_own_link_where_no_noun_follows(kg):
    report = verify_text(kg, "Alice Brandt speaks French.")
    assert all(c.claim.object_id != "Q142" for c in report.claims)


@pytest.mark.parametrize("text, word, supported", [
    ("Alice Brandt is French.", "French", True),
    ("Alice Brandt was French and lived in Lyon.", "French", True),
    ("Bruno Keller is Austrian.", "Austrian", True),
    ("Alice Brandt is Austrian.", "Austrian", False),
])
def test_a_demonym_that_is_the_whole_predicate_is_read_as_the_place(kg, text, word, supported):
    said = claim_on(verify_text(kg, text), word)
    assert said.claim.property_id == "P27" and said.claim.object_id == demonym_places(kg)[word.lower()]
    assert (said.verdict.verdict == SUPPORTED) is supported
    if not supported:
        assert "France" in graph_values(said)


def test_a_predicative_demonym_must_close_its_clause(kg):
    # "is French painting's …": the word opens a longer phrase, not the predicate; no claim of France.
    report = verify_text(kg, "Alice Brandt is French painting's best known name.")
    assert all(c.claim.object_id != "Q142" for c in report.claims)


@pytest.mark.parametrize("text", ["The native language of Alice Brandt is French.",
                                  "Alice Brandt's languages spoken, written or signed are French.",
                                  "The languages spoken, written or signed of Alice Brandt are French."])
def test_a_predicate_said_of_a_relation_of_the_name_is_no_demonym(kg, text):
    # the copula's subject is the relation ("native language"), not the name: "French" is the language's, not France
    report = verify_text(kg, text)
    assert all(c.claim.object_id != "Q142" for c in report.claims)
    sentences = split_sentences(text)
    mentions, spans = with_demonyms(kg, text, sentences, [[]])
    assert not spans


def test_a_name_holding_a_possessive_is_no_relation_of_it(kg):
    said = claim_on(verify_text(kg, "The painter's last summer is French."), "French")
    assert (said.claim.property_id, said.claim.object_id, said.verdict.verdict) == ("P495", "Q142", SUPPORTED)


def test_a_longer_name_holding_the_word_stays_whole(kg):
    text = "Dan Ortiz was the American Film Club's host and is an American painter."
    sentences = split_sentences(text)
    club = Mention(text.index("American Film"), text.index("'s host"), "American Film Club", "Q999")
    [found], spans = with_demonyms(kg, text, sentences, [[club]])
    assert club in found
    assert [(m.text, m.entity_id) for m in found if m != club] == [("American", "Q30")]
    assert spans == {(text.index("an American") + 3, text.index(" painter"))}


def test_only_the_subjects_description_is_read(kg):
    # "Austrian" describes the collector, not Alice Brandt: no claim of Alice's citizenship
    report = verify_text(kg, "Alice Brandt sold a painting to an Austrian collector.")
    assert all(c.claim.object_id != "Q40" for c in report.claims)


def test_a_demonym_holds_nothing(kg):
    # "Austrian" describes Bruno: no claim is Austria's (its capital, Vienna, linked to it)
    report = verify_text(kg, "Bruno Keller is an Austrian painter who lived in Vienna.")
    assert claim_on(report, "Austrian").claim.subject_id == "Q902"
    assert not [c for c in report.claims if c.claim.subject_id == "Q40"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["American", "French", "Austrian", "painter", "Film", "is", "an", "the", ".", ",",
                                 "-", "Club", "speaks", "x"]), max_size=14))
def test_demonym_mentions_never_overlap(kg, words):
    text = " ".join(words)
    sentences = split_sentences(text)
    for ms in with_demonyms(kg, text, sentences, [[] for _ in sentences])[0]:
        assert all(m.text == text[m.start:m.end] for m in ms)
        assert all(x.end <= y.start for x, y in zip(ms, ms[1:]))


def test_a_demonym_after_born_is_no_birthplace(kg):
    # Austria holds Vienna, a birthplace: "born" and a place in reach, but the demonym says what Franz is
    report = verify_text(kg, "Franz Huber (born 3 May 1970) is an Austrian painter.")
    said = [(c.claim.property_id, c.claim.object_id, c.verdict.verdict) for c in report.claims]
    assert not [c for c in said if c[0] == "P19"], said
