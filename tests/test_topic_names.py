"""How a text names the thing it is about, and what a description may stand for (verifier/text/topic.py,
referents.implied_subject, mentions' namesakes).

Each test fails without the rule it names: a lower-case label, a surname, initials the gazetteer reads as
another entity, a classless candidate whose own description says it is no journal, a label outranking an alias.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.mentions import find_mentions, split_sentences
from kgcheck.verifier.text.topic import topic_names, with_topic
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B

item, time, entity, prop = B.item, B.time, B.entity, B.prop

EXTRA = [
    prop("P571", "inception", "time", aliases=["established", "founded"]),
    prop("P108", "employer", "wikibase-item"),
    # A journal the graph gives no class and no description: only the text says what it is.
    entity("Q810", "Journal of Test Infection", claims=[("P571", time("+1979-01-01T00:00:00Z", 9))]),
    entity("Q813", "Harbour Press", "publishing house"),
    # A person the graph gives no class either, linked to what the sentence names.
    entity("Q811", "Ann Reed", "American politician", claims=[("P108", item("Q813", None))]),
    entity("Q814", "Jute Trade Institute", "research institute", aliases=["JTI"]),
    entity("Q817", "Vienna", "Austria's capital", aliases=["Austria"],
           claims=[("P31", item("Q515", None)), ("P17", item("Q40", None))]),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + EXTRA)


def _on(report, subject_id, pid):
    return [c for c in report.claims if c.claim.subject_id == subject_id and c.claim.property_id == pid]


def test_the_topic_named_in_lower_case(kg):
    text = "The quiet harbour, unlike Night Train, was released in 1990."
    sentences = split_sentences(text)
    named = with_topic(kg, "Q801", text, sentences, find_mentions(kg, text, sentences))[0]
    assert [(m.text, m.entity_id) for m in named] == [("The quiet harbour", "Q801"), ("Night Train", "Q802")]
    report = verify_text(kg, text, about="Q801")
    assert not _on(report, "Q802", "P577")  # the name the gazetteer found is not what the sentence is about
    found = _on(report, "Q801", "P577")
    assert found and found[0].verdict.verdict == REFUTED and "1994" in " ".join(found[0].verdict.corrections)
    right = _on(verify_text(kg, text.replace("1990", "1994"), about="Q801"), "Q801", "P577")
    assert right and right[0].verdict.verdict == SUPPORTED


def test_the_topics_surname_stands_for_it(kg):
    text = "Brandt, like Carla Moreau, was born in Graz."
    report = verify_text(kg, text, about="Q901")
    assert not _on(report, "Q903", "P19")
    found = _on(report, "Q901", "P19")
    assert found and found[0].verdict.verdict != SUPPORTED
    assert "Lyon" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    # Without the topic, "Brandt" is read as the only Brandt the graph holds (tails.py; namesakes: test_tails.py).
    assert [c.claim.subject_id for c in verify_text(kg, text).claims if c.claim.property_id == "P19"] == ["Q901"]


def test_the_topics_initials_outrank_another_entity_of_that_name(kg):
    text = "JTI was established in 1976."
    assert "JTI" in topic_names(kg, "Q810")[1]
    report = verify_text(kg, text, about="Q810")
    assert not _on(report, "Q814", "P571")
    found = _on(report, "Q810", "P571")
    assert found and found[0].verdict.verdict == REFUTED and "1979" in " ".join(found[0].verdict.corrections)


def test_a_classless_candidate_described_as_something_else_is_not_the_description(kg):
    """The graph links Harbour Press to Ann Reed only: without her description she would be "the journal"."""
    text = "Established in 1976, the journal was published by Harbour Press."
    plain = verify_text(kg, text)
    assert not [c for c in plain.claims if c.claim.subject_id == "Q811"]
    found = _on(verify_text(kg, text, about="Q810"), "Q810", "P571")
    assert found and found[0].verdict.verdict == REFUTED


def test_a_label_outranks_an_alias_among_namesakes(kg):
    text = "Carla Moreau moved to Austria."
    mentions = find_mentions(kg, text, split_sentences(text))[0]
    assert [m.entity_id for m in mentions if m.text == "Austria"] == ["Q40"]


def test_a_sentence_opening_on_its_predicate_is_the_topics_whatever_follows(kg):
    """The name cut off ("… ) is a 1990 film"): a description later in the sentence is not its subject."""
    for text in ("is a 1990 film, inspired by the work of Bruno Keller.",
                 "Harbour Tales) is a 1990 film, inspired by the work of Bruno Keller."):
        found = _on(verify_text(kg, text, about="Q801"), "Q801", "P577")
        assert found and found[0].verdict.verdict == REFUTED and "1994" in " ".join(found[0].verdict.corrections)



def test_a_name_beside_a_place_after_a_preposition_is_no_subject(kg):
    """"in Graz, Austria": Austria belongs to the place phrase; with the topic given, the topic is the subject."""
    text = "Filming took place in Graz, Austria and the film was released in 1990."
    assert not [c for c in verify_text(kg, text).claims if c.claim.subject_id == "Q40"]
    found = _on(verify_text(kg, text, about="Q801"), "Q801", "P577")
    assert found and found[0].verdict.verdict == REFUTED
    # A phrase opening the sentence is no place the next name stands beside: that name is the subject.
    opening = _on(verify_text(kg, "In France, Bruno Keller was born in Lyon."), "Q902", "P19")
    assert opening and opening[0].verdict.verdict != SUPPORTED


def test_a_short_form_inside_a_date_is_the_date(kg_of):
    kg = kg_of(ENTITIES + [entity("Q830", "Theresa May", "politician")])
    text = "In May 2016, Theresa May became leader."
    sentences = split_sentences(text)
    named = with_topic(kg, "Q830", text, sentences, find_mentions(kg, text, sentences))[0]
    assert [(m.text, m.entity_id) for m in named if m.entity_id == "Q830"] == [("Theresa May", "Q830")]


YEARLY = [prop("P577", "publication date", "time"),
          entity("Q840", "Harbour Verse 1995", "anthology", claims=[("P577", time("+1995-01-01T00:00:00Z", 9))]),
          entity("Q841", "Harbour Verse 1993", "anthology", claims=[("P577", time("+1993-01-01T00:00:00Z", 9))]),
          entity("Q842", "Harbour Verse 1994", "anthology", claims=[("P577", time("+1994-01-01T00:00:00Z", 9))])]


def test_the_topics_title_with_another_year_dates_the_topic(kg_of):
    kg2 = kg_of(ENTITIES + YEARLY)
    text = "Harbour Verse 1993, a volume in the series, was edited by Carla Moreau."
    report = verify_text(kg2, text, about="Q840")
    found = _on(report, "Q840", "P577")
    assert [(c.reader, c.verdict.verdict) for c in found] == [("title", REFUTED)]
    assert "1995" in " ".join(found[0].verdict.corrections)
    assert _on(report, "Q841", "P577")[0].verdict.verdict == SUPPORTED  # the volume it names stays its own
    # Written right, the label is the topic's own name: its date is SUPPORTED, no title claim.
    right = _on(verify_text(kg2, text.replace("1993", "1995"), about="Q840"), "Q840", "P577")
    assert right and all(c.verdict.verdict == SUPPORTED and c.reader != "title" for c in right)
    # Not the sentence's subject: a sibling named in passing says nothing of the topic's date.
    aside = verify_text(kg2, "As in Harbour Verse 1993, Harbour Verse 1995 was edited by Carla Moreau.", about="Q840")
    assert not [c for c in aside.claims if c.reader == "title"]
    # Without a topic nothing is retitled.
    assert not [c for c in verify_text(kg2, text).claims if c.reader == "title"]


def test_a_title_year_the_topic_holds_on_two_properties_claims_nothing(kg_of):
    kg2 = kg_of(ENTITIES + [prop("P577", "publication date", "time"), prop("P571", "inception", "time"),
                            entity("Q843", "Harbour Verse 1995", "anthology",
                                   claims=[("P577", time("+1995-01-01T00:00:00Z", 9)),
                                           ("P571", time("+1995-03-01T00:00:00Z", 10))])])
    report = verify_text(kg2, "Harbour Verse 1993, a volume in the series, was edited by Carla Moreau.", about="Q843")
    assert not [c for c in report.claims if c.reader == "title"]


@given(before=st.text(alphabet=st.characters(blacklist_categories=("Nd", "Cs")), max_size=20),
       after=st.text(alphabet=st.characters(blacklist_categories=("Nd", "Cs")), max_size=20),
       own=st.integers(1000, 2099), other=st.integers(1000, 2099))
@settings(max_examples=200, deadline=None)
def test_year_patterns_find_the_name_with_any_other_year(before, after, own, other):
    from kgcheck.verifier.text.topic import _year_patterns
    name = f"{before} {own} {after}"
    [(pattern, year)] = _year_patterns([name])
    assert year == str(own)
    found = pattern.search(f"{before} {other} {after}")
    assert found is not None and found.group(1) == str(other)
    assert _year_patterns([f"{name} {own}"]) == []  # two years: which one a wrong year replaced is unknown


TAXA = [prop("P171", "parent taxon", "wikibase-item"), prop("P105", "taxon rank", "wikibase-item"),
        entity("Q16521", "taxon"), entity("Q7432", "species"),
        entity("Q850", "Lanius", "genus of birds", claims=[("P31", item("Q16521", None))]),
        entity("Q851", "Callorhinus", "genus of mammals", claims=[("P31", item("Q16521", None))]),
        entity("Q852", "Red-backed Shrike", claims=[("P31", item("Q16521", None)), ("P171", item("Q850", None))]),
        # The one thing the graph links to the wrong genus: without the common name, the sentence's subject.
        entity("Q853", "northern fur seal", claims=[("P31", item("Q16521", None)), ("P171", item("Q851", None))]),
        # A kind with two words that things are instances of: a description, not one thing.
        entity("Q854", "passenger ship"),
        entity("Q855", "Sea Queen", claims=[("P31", item("Q854", None)), ("P171", item("Q851", None))])]


def test_a_common_name_written_lower_case_is_the_thing_it_labels(kg_of):
    kg2 = kg_of(ENTITIES + TAXA)
    wrong = verify_text(kg2, "The red-backed shrike (Callorhinus collurio) is a passerine bird.")
    found = _on(wrong, "Q852", "P171")
    # Flagged (this small graph cannot measure whether a taxon takes one parent: NOT_ENOUGH_INFO, not REFUTED).
    assert found and found[0].verdict.verdict != SUPPORTED
    assert not _on(wrong, "Q853", "P171")  # not the fur seal the wrong genus leads to
    right = _on(verify_text(kg2, "The red-backed shrike (Lanius collurio) is a passerine bird."), "Q852", "P171")
    assert right and right[0].verdict.verdict == SUPPORTED
    # A kind ("passenger ship": something is an instance of it) stays a description the graph resolves; one word
    # is a kind too; several things of one name say nothing.
    from kgcheck.verifier.text.referents import common_name
    assert common_name(kg2, "The passenger ship sank.", (4, 18, ["Q854"]), (0, 18)) is None
    assert common_name(kg2, "The shrike sank.", (4, 10, ["Q852"]), (0, 10)) is None
    assert common_name(kg2, "The sea queen sank.", (4, 13, ["Q852", "Q855"]), (0, 13)) is None
    assert common_name(kg2, "The sea queen was lost.", (4, 13, ["Q855"]), (0, 13)).entity_id == "Q855"
    assert common_name(kg2, "The sea queen pieces were lost.", (4, 13, ["Q855"]), (0, 13)) is None  # pieces
    assert common_name(kg2, "The sea queen has sunk.", (4, 13, ["Q855"]), (0, 13)).entity_id == "Q855"
