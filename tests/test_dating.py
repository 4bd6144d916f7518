"""Which thing a date in a sentence dates (verifier/text/dating.py): a time property's word before it, the one
date of a sentence on a subject the graph dates once, a bare year after a title, a date opening the sentence, the
object of a far property word."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, claim_on as _claim

item, time, entity, prop = B.item, B.time, B.entity, B.prop


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def test_a_date_after_the_event_word_of_a_date_property(kg_of):
    # "air date" names P577; the sentence says "aired on": the lexicon keys the name by its event word too, since
    # "date" ends most time properties' names (measured, GENERIC_SHARE).
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"),
                 prop("P577", "publication date", "time", aliases=["air date"]),
                 prop("P571", "inception", "time", aliases=["date founded"]),
                 entity("Q21", "Harbour Lights", "episode", claims=[("P577", time("+1990-10-30T00:00:00Z", 11))])])
    tc = _claim(verify_text(kg2, "Harbour Lights originally aired on October 30, 1983."), "October 30, 1983")
    assert (tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("P577", "words", REFUTED)
    assert "1990" in " ".join(tc.verdict.corrections)
    right = _claim(verify_text(kg2, "Harbour Lights originally aired on October 30, 1990."), "October 30, 1990")
    assert right.verdict.verdict == SUPPORTED


def test_a_year_in_brackets_after_a_title(kg):
    tc = _claim(verify_text(kg, "Night Train (1996) is a thriller."), "1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("Q802", "P577", "types",
                                                                                         REFUTED)
    assert _claim(verify_text(kg, "Night Train (2001) is a thriller."), "2001").verdict.verdict == SUPPORTED


def test_a_date_the_words_give_another_property_dates_the_subjects_one_event(kg_of):
    # The journal holds only its inception; "released in" names the publication date: the year is its inception's.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P577", "publication date", "time",
                                                                   aliases=["released"]),
                 prop("P571", "inception", "time"),
                 entity("Q30", "Harbour Lights", "film", claims=[("P577", time("+1990-01-01T00:00:00Z", 9))]),
                 entity("Q31", "Annals of Tides", "journal", claims=[("P571", time("+1960-01-01T00:00:00Z", 9))])])
    tc = _claim(verify_text(kg2, "Annals of Tides was first released in 1951."), "1951")
    assert (tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("P571", "words", REFUTED)
    assert _claim(verify_text(kg2, "Annals of Tides was first released in 1960."), "1960").verdict.verdict == SUPPORTED


def test_a_date_of_an_event_the_subjects_class_never_has_is_not_its_one_event(kg_of):
    # Countries hold an inception, none a time of discovery: "discovered in 1973" dates something else (the
    # asteroid a sentence is about, whose name the gazetteer missed), not the country the sentence falls on.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P571", "inception", "time"),
                 prop("P575", "time of discovery", "time", aliases=["discovered"]), entity("Q6256", "country"),
                 entity("Q41", "Rhaetia", "land", claims=[("P31", item("Q6256", None)),
                                                          ("P571", time("+1291-01-01T00:00:00Z", 9))]),
                 entity("Q42", "Noricum", "land", claims=[("P31", item("Q6256", None)),
                                                          ("P571", time("+1848-01-01T00:00:00Z", 9))]),
                 entity("Q43", "asteroid"), entity("Q44", "Minor Rock", claims=[
                     ("P31", item("Q43", None)), ("P575", time("+1901-01-01T00:00:00Z", 9))])])
    assert not [c for c in verify_text(kg2, "It was discovered in 1973 in Rhaetia.").claims if c.span == "1973"]
    assert not [c for c in verify_text(kg2, "Rhaetia was discovered in 1973.").claims if c.span == "1973"]


def test_the_one_date_of_a_sentence_dates_the_subjects_one_known_event(kg):
    # No property word, no class noun next to the year: the sentence's one date, on a film the graph dates once.
    tc = _claim(verify_text(kg, "Night Train was screened at a festival in Graz in October 1996."), "October 1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("Q802", "P577", "types",
                                                                                         REFUTED)
    assert "2001" in " ".join(tc.verdict.corrections)
    right = verify_text(kg, "Night Train was screened at a festival in Graz in 2001.")
    assert _claim(right, "2001").verdict.verdict == SUPPORTED
    # The subject named in the sentence before and described in this one ("The film was screened ...").
    tc = _claim(verify_text(kg, "Night Train is a film. The film was screened in Graz in October 1996."),
                "October 1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q802", "P577", REFUTED)
    # So is a date the sentence opens on, before the subject ("In 1996, Night Train was ..."), and a bare year in
    # brackets after a title: the linked reader reads them so when the graph agrees.
    tc = _claim(verify_text(kg, "In 1996, Night Train was screened in Graz."), "1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q802", "P577", REFUTED)
    tc = _claim(verify_text(kg, "Night Train appears on the album Harbour Nights (1996)."), "1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q802", "P577", REFUTED)
    assert _claim(verify_text(kg, "Night Train appears on the album Harbour Nights (2001)."), "2001").verdict.verdict \
        == SUPPORTED
    # An aside in brackets, a second date, a date of another thing (a name right after it, a possessive before it)
    # or a sentence that does not open with the subject may be about anything else: no claim.
    for text in ("Night Train was screened in Graz (a city that hosted a festival in 1996).",
                 "Night Train was screened in Graz in 1996 and in Lyon in 1997.",
                 "Night Train was screened at the 1996 Graz festival.",
                 "Night Train retells Bruno Keller's 1996 story.",
                 "Night Train retells the 1996 novel Harbour Nights.",
                 "In Graz, a festival showed Night Train in 1996."):
        assert not [c for c in verify_text(kg, text).claims if c.claim.property_id == "P577"], text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["Night Train", "The Quiet Harbour", "was", "screened", "released", "in", "on", "1996",
                                 "October 30, 2001", "(", ")", "'s", "the", "album", "Graz", "Bruno Keller", ",", "by",
                                 "and", ".", "2001", "A", "Its", "director", "directed", "born"]), max_size=16),
       st.sampled_from([None, "Q801", "Q902"]))
def test_reading_dates_never_fails_and_spans_are_the_texts(kg, words, about):
    report = verify_text(kg, " ".join(words), about=about)  # report.text: the input, a tokenizer's splits joined
    for c in report.claims:
        assert report.text[c.start:c.end] == c.span and c.verdict.verdict in (SUPPORTED, REFUTED, "NOT_ENOUGH_INFO")


def test_the_one_date_of_a_main_clause_after_a_fronted_phrase_dates_its_subject(kg):
    # "Directed by X, <subject> was ... <date>": no property word, the subject's one dated event is meant.
    tc = _claim(verify_text(kg, "Directed by Bruno Keller, Night Train was first shown on 5 May 1996."), "5 May 1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("Q802", "P577", "types",
                                                                                          REFUTED)
    right = _claim(verify_text(kg, "Directed by Bruno Keller, Night Train was first shown in 2001."), "2001")
    assert (right.claim.property_id, right.verdict.verdict) == ("P577", SUPPORTED)
    # A fronted phrase whose subject is not followed by its verb is no main clause: no guess.
    assert not [c for c in verify_text(kg, "Directed by Bruno Keller, Night Train, first shown on 5 May 1996.").claims
                if c.span == "5 May 1996"]


def test_a_date_well_after_its_property_word_dates_the_object_between_them(kg):
    # "<subject> released <object> as ... on <date>": the word is 9 words back, the film between holds the property.
    tc = _claim(verify_text(kg, "Bruno Keller released Night Train as the second feature of his career on 5 May 1996."),
                "5 May 1996")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("Q802", "P577", "words",
                                                                                         REFUTED)
    right = "Bruno Keller released Night Train as the second feature of his career in 2001."
    assert _claim(verify_text(kg, right), "2001").verdict.verdict == SUPPORTED
    # The word must stand right before the name it dates (its object): "released a book on Night Train" is not.
    assert not [c for c in verify_text(kg, "Bruno Keller released a book on Night Train as the second feature of "
                                           "his career on 5 May 1996.").claims if c.span == "5 May 1996"]
    # No property word before the object: the date is not read as its date.
    assert not [c for c in verify_text(kg, "Bruno Keller met Night Train's crew as the second feature of his career "
                                           "began on 5 May 1996.").claims if c.span == "5 May 1996"]


def test_the_nearest_property_word_decides_which_thing_a_far_date_dates(kg_of):
    # "created by X, that was broadcast on Channel Nine ... on <date>": a broadcast date, which the channel has none
    # of — its inception ("created", further back) must not take the date.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P571", "inception", "time", aliases=["created"]),
                 prop("P577", "publication date", "time", aliases=["broadcast"]),
                 entity("Q51", "Channel Nine", claims=[("P571", time("+1926-01-01T00:00:00Z", 9))]),
                 entity("Q52", "Harbour Nights", claims=[("P577", time("+2001-01-01T00:00:00Z", 9))])])
    report = verify_text(kg2, "Harbour Nights was created by a writer, that was broadcast on Channel Nine as a "
                              "special on 5 May 1996.")
    assert not [c for c in report.claims if c.claim.subject_id == "Q51"]


def test_a_date_right_after_a_name_the_subject_is_linked_to_dates_that_link(kg_of):
    # Alice's one dated event is her birth; "received the Golden Lens in 2009" dates the award (its statement's
    # time), not the birth — a false alarm before. A place right before the date ("screened ... in Graz in 1996"
    # above) still leaves it the subject's one event.
    kg2 = kg_of(ENTITIES + [prop("P166", "award received", "wikibase-item"), prop("P569", "date of birth", "time"),
                            entity("Q70", "Golden Lens", "award"),
                            entity("Q911", "Dora Engel", "person", claims=[
                                ("P31", item("Q5", None)), ("P166", item("Q70", None)),
                                ("P569", time("+1961-04-04T00:00:00Z", 11))])])
    report = verify_text(kg2, "Dora Engel received the Golden Lens in 2009.")
    assert not [c for c in report.claims if c.claim.property_id == "P569"]
    wrong = _claim(verify_text(kg2, "Dora Engel was born in 2009."), "2009")
    assert (wrong.claim.property_id, wrong.verdict.verdict) == ("P569", REFUTED)
