"""The "inverse" reader (verifier/text/holders.py): "X is the director of Y" claims Y's director is X.

Each wrong fact is caught by that reader, with the graph's value as the correction; the same sentence with the right
value is SUPPORTED; without the reader the sentence reads the wrong way round or not at all.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.extract import READERS
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop
SINGLE_VALUE = "Q19474404"


def _film(qid, label, director):
    return entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P57", item(director, None))])


def _person(qid, label):
    return entity(qid, label, "person", claims=[("P31", item("Q5", None))])


def _river(qid, label, *tributaries):
    return entity(qid, label, "river", claims=[("P31", item("Q4022", None))] +
                  [("P974", item(t, None)) for t in tributaries])


def _country(qid, label, capital):
    return entity(qid, label, "country", claims=[("P31", item("Q6256", None)), ("P36", item(capital, None))])


def _city(qid, label, country):
    return entity(qid, label, "city", claims=[("P31", item("Q515", None)), ("P1376", item(country, None))])


ENTITIES = [
    prop("P31", "instance of", "wikibase-item"),
    prop("P57", "director", "wikibase-item", aliases=["directed by"], constraints=[(SINGLE_VALUE,)]),
    prop("P36", "capital", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
    prop("P1376", "capital of", "wikibase-item"),
    prop("P974", "tributary", "wikibase-item"),
    entity("Q11424", "film"), entity("Q5", "human"), entity("Q4022", "river"), entity("Q6256", "country"),
    entity("Q515", "city"),
    _person("Q901", "Alice Brandt"), _person("Q902", "Bruno Keller"), _person("Q903", "Carla Moreau"),
    _film("Q801", "The Quiet Harbour", "Q901"), _film("Q802", "Night Train", "Q902"),
    _film("Q803", "Paper Moon Rising", "Q903"),
    _country("Q183", "Germany", "Q64"), _country("Q142", "France", "Q90"),
    _city("Q64", "Berlin", "Q183"), _city("Q90", "Paris", "Q142"),
    _river("Q1497", "Mississippi River", "Q4915", "Q5092"), _river("Q3392", "Nile", "Q7001"),
    _river("Q4915", "Ohio River"), _river("Q5092", "Missouri River"), _river("Q7001", "Atbara River"),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def _claims(report, span):
    return [c for c in report.claims if c.span == span]


def _on(report, subject_id, pid):
    """The claim on (subject, property) whichever reader found it first (the graph's link, when it holds it)."""
    found = [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == (subject_id, pid)]
    assert found, f"no claim on {subject_id} {pid}: {[(c.span, c.claim.property_id, c.reader) for c in report.claims]}"
    return found[0]


def _inverse(report, span):
    found = [c for c in _claims(report, span) if c.reader == "inverse"]
    assert found, f"no inverse claim on {span!r}: {[(c.span, c.claim.property_id, c.reader) for c in report.claims]}"
    return found[0]


def test_a_wrong_director_named_before_of_is_refuted_on_the_work(kg):
    tc = _inverse(verify_text(kg, "Bruno Keller is the director of The Quiet Harbour."), "Bruno Keller")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.claim.object_id) == ("Q801", "P57", "Q902")
    assert tc.verdict.verdict == REFUTED and "Alice Brandt" in tc.verdict.corrections
    right = _on(verify_text(kg, "Alice Brandt was the director of The Quiet Harbour."), "Q801", "P57")
    assert (right.span, right.verdict.verdict) == ("Alice Brandt", SUPPORTED)


def test_the_correction_puts_the_right_value_where_the_subject_was(kg):
    report = verify_text(kg, "Paris is the capital of Germany.", fix=True)
    tc = _inverse(report, "Paris")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q183", "P36", REFUTED)
    assert tc.verdict.corrections[0] == "Berlin"
    assert report.fixed_text.startswith("Berlin is the capital of Germany")


def test_a_name_ending_in_of_is_still_read_the_direct_way(kg):
    report = verify_text(kg, "Berlin is the capital of Germany.")
    assert {(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in report.claims} >= {
        ("Q64", "P1376", SUPPORTED), ("Q183", "P36", SUPPORTED)}


def test_modifiers_and_one_of_the_stand_between_the_copula_and_the_property_word(kg):
    for text, span in (("The Ohio River is the largest tributary of the Nile.", "Ohio River"),
                       ("The Missouri River is one of the tributaries of the Nile.", "Missouri River")):
        tc = _inverse(verify_text(kg, text), span)
        assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) != ("Q3392", "P974", SUPPORTED)
        assert (tc.claim.subject_id, tc.claim.property_id) == ("Q3392", "P974")


def test_the_holder_is_never_read_as_the_subjects_own_value(kg):
    """Before: "The Ohio River is a tributary of the Nile" claimed the Ohio's tributary is the Nile."""
    report = verify_text(kg, "The Ohio River is a tributary of the Nile.")
    assert not [c for c in report.claims if c.claim.subject_id == "Q4915" and c.claim.property_id == "P974"]
    tc = _inverse(report, "Ohio River")
    assert (tc.claim.subject_id, tc.claim.property_id) == ("Q3392", "P974")
    assert tc.verdict.verdict != SUPPORTED and "Atbara River" in {e.value for e in tc.verdict.evidence}


def test_without_the_reader_the_wrong_director_goes_unread(kg):
    text = "Bruno Keller is the director of The Quiet Harbour."
    without = verify_text(kg, text, readers=frozenset(READERS) - {"inverse"})
    assert not [c for c in without.claims if c.claim.property_id == "P57" and c.verdict.verdict == REFUTED]


def test_a_value_that_does_not_fit_the_property_makes_no_claim(kg):
    """A river is no film's director: the subject's role in the graph (a tributary) does not fit."""
    report = verify_text(kg, "The Ohio River is the director of The Quiet Harbour.")
    assert not [c for c in report.claims if c.reader == "inverse"]
    # nor a holder that neither holds the property nor is of a class that does (a person has no tributaries)
    report = verify_text(kg, "The Ohio River is a tributary of Alice Brandt.")
    assert not [c for c in report.claims if c.reader == "inverse"]


def test_a_wrong_director_before_the_verb_is_refuted_on_the_work(kg):
    tc = _inverse(verify_text(kg, "Bruno Keller directed The Quiet Harbour."), "Bruno Keller")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q801", "P57", REFUTED)
    assert "Alice Brandt" in tc.verdict.corrections
    right = _on(verify_text(kg, "Alice Brandt directed The Quiet Harbour."), "Q801", "P57")
    assert (right.span, right.verdict.verdict) == ("Alice Brandt", SUPPORTED)


def test_a_verb_the_subject_itself_holds_reads_no_inverse_claim(kg):
    """Films hold directors: "Night Train directed The Quiet Harbour" is no claim that a film directed another."""
    report = verify_text(kg, "Night Train directed The Quiet Harbour.")
    assert not [c for c in report.claims if c.reader == "inverse"]


def test_an_apposition_names_the_holder_as_a_copula_does(kg):
    report = verify_text(kg, "Bruno Keller, the director of The Quiet Harbour, lives in Graz.")
    tc = _inverse(report, "Bruno Keller")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q801", "P57", REFUTED)


@pytest.mark.parametrize("text", [
    "Paris is the former capital of Germany.",  # a qualified relation is not the relation
    "The Ohio River is a major tributary of the Nile.",
    "The Ohio River is the second largest tributary of the Nile.",
    "Paris is a city located in the capital of Germany.",  # another phrase between
    "Bruno Keller is the director of The Quiet Harbour actor Alice Brandt.",  # the name modifies the next one
    "Bruno Keller is the of of The Quiet Harbour.",  # no words of a relation at all
])
def test_words_that_qualify_or_replace_the_relation_read_nothing(kg, text):
    assert not [c for c in verify_text(kg, text).claims if c.reader == "inverse"]


def test_a_name_holding_of_is_read_whole(kg_of):
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P35", "head of state", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        entity("Q5", "human"), entity("Q6256", "country"),
        entity("Q1", "Anna Lind", claims=[("P31", item("Q5", None))]),
        entity("Q2", "Berta Lang", claims=[("P31", item("Q5", None))]),
        entity("Q10", "Nordland", claims=[("P31", item("Q6256", None)), ("P35", item("Q1", None))]),
        entity("Q11", "Sudland", claims=[("P31", item("Q6256", None)), ("P35", item("Q2", None))]),
    ])
    tc = _inverse(verify_text(kg, "Berta Lang is the head of state of Nordland."), "Berta Lang")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q10", "P35", REFUTED)
    assert tc.verdict.corrections[0] == "Anna Lind"


def test_of_before_a_thing_of_the_class_the_word_names_is_the_direct_reading(kg_of):
    """"the constellation of Orion": Orion is a constellation (its class's label holds the word), so the galaxy's
    constellation is Orion — not a constellation that Orion holds."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P59", "constellation", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        entity("Q8928", "constellation"), entity("Q318", "galaxy"),
        entity("Q8860", "Orion", claims=[("P31", item("Q8928", None))]),
        entity("Q8839", "Cetus", claims=[("P31", item("Q8928", None))]),
        entity("Q1", "NGC 1", claims=[("P31", item("Q318", None)), ("P59", item("Q8839", None))]),
        entity("Q2", "NGC 2", claims=[("P31", item("Q318", None)), ("P59", item("Q8860", None))]),
    ])
    report = verify_text(kg, "NGC 1 is a spiral galaxy in the constellation of Orion.")
    assert not [c for c in report.claims if c.reader == "inverse"]
    tc = _on(report, "Q1", "P59")
    assert (tc.span, tc.reader, tc.verdict.verdict) == ("Orion", "words", REFUTED)
    assert tc.verdict.corrections[0] == "Cetus"


def test_an_opening_relation_of_a_name_is_said_of_that_name(kg):
    """"The director of Y is X": Y's director, not the film the graph links X to (that one was the sentence's subject
    before, and X was SUPPORTED as its director)."""
    tc = _on(verify_text(kg, "The director of The Quiet Harbour is Bruno Keller."), "Q801", "P57")
    assert (tc.span, tc.reader, tc.verdict.verdict) == ("Bruno Keller", "words", REFUTED)
    assert "Alice Brandt" in tc.verdict.corrections
    report = verify_text(kg, "The capital of Germany is Paris.")
    assert not [c for c in report.claims if c.claim.subject_id == "Q142"]  # France, whose capital Paris is
    tc = _on(report, "Q183", "P36")
    assert (tc.span, tc.verdict.verdict, tc.verdict.corrections[0]) == ("Paris", REFUTED, "Berlin")
    right = _on(verify_text(kg, "The capital of Germany is Berlin."), "Q183", "P36")
    assert right.verdict.verdict == SUPPORTED


def test_opening_relation_needs_a_property_and_a_copula():
    from kgcheck.verifier.text.referents import opening_relation

    lexicon = {"director": ["P57"], "capital": ["P36"]}.get
    sentence = "The directors of Night Train are Bruno Keller and Alice Brandt."
    assert opening_relation(sentence, [(17, 28), (33, 45), (50, 62)], lambda t: lexicon(t) or []) == (0, ["P57"])
    assert opening_relation("The city of Paris is large.", [(12, 17)], lambda t: lexicon(t) or []) is None
    assert opening_relation("The capital of Germany, Berlin, is large.", [(15, 22), (24, 30)],
                            lambda t: lexicon(t) or []) is None


def test_a_pronoun_opening_the_sentence_is_the_value_it_stands_for(kg):
    report = verify_text(kg, "Bruno Keller lives in Graz. He is the director of The Quiet Harbour.", fix=True)
    tc = _inverse(report, "He")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.claim.object_id, tc.verdict.verdict) == (
        "Q801", "P57", "Q902", REFUTED)
    assert report.fixed_text.endswith("Alice Brandt is the director of The Quiet Harbour.")
    assert not [c for c in verify_text(kg, "He is the director of The Quiet Harbour.").claims
                if c.reader == "inverse"]  # no one named before: nothing to stand for


def _sport_graph(kg_of):
    return kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P1532", "country for sport", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        prop("P17", "country", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        prop("P641", "sport", "wikibase-item"),
        prop("P463", "member of", "wikibase-item"),
        prop("P161", "cast member", "wikibase-item"),
        entity("Q5", "human"), entity("Q6256", "country"), entity("Q11424", "film"), entity("Q847", "tennis"),
        entity("Q17", "Japan", claims=[("P31", item("Q6256", None))]),
        entity("Q769", "Grenada", claims=[("P31", item("Q6256", None))]),
        entity("Q1", "Naoko Sawa", claims=[("P31", item("Q5", None)), ("P1532", item("Q17", None)),
                                           ("P641", item("Q847", None))]),
        entity("Q2", "Aiko Mori", claims=[("P31", item("Q5", None)), ("P1532", item("Q769", None))]),
        entity("Q20", "Screen Guild", claims=[]),
        entity("Q3", "Ben Ode", claims=[("P31", item("Q5", None)), ("P463", item("Q20", None))]),
        entity("Q4", "Cid Roy", claims=[("P31", item("Q5", None)), ("P463", item("Q20", None))]),
        entity("Q10", "Harbour Lights", claims=[("P31", item("Q11424", None)), ("P161", item("Q3", None))]),
        entity("Q11", "Night Rain", claims=[("P31", item("Q11424", None)), ("P161", item("Q4", None))]),
    ])


def test_a_property_name_with_function_words_is_read_whole(kg_of):
    """"the country for sport of X": "for" is the name's own, so the inverse reading holds; neither "country" nor the
    trigger word "sport" inside the longer name reads a claim of its own about Grenada."""
    kg = _sport_graph(kg_of)
    report = verify_text(kg, "Grenada is the country for sport of Naoko Sawa.")
    tc = _inverse(report, "Grenada")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q1", "P1532", REFUTED)
    assert tc.verdict.corrections[0] == "Japan"
    assert not [c for c in report.claims if c.claim.subject_id == "Q769" and c.claim.property_id in ("P17", "P641")]
    right = _on(verify_text(kg, "Japan is the country for sport of Naoko Sawa."), "Q1", "P1532")
    assert right.verdict.verdict == SUPPORTED
    # Function words that join two relations are no name's: nothing is read.
    assert not [c for c in verify_text(kg, "Grenada is the country and sport of Naoko Sawa.").claims
                if c.reader == "inverse"]


def test_a_longer_property_name_owns_its_words(kg_of):
    """"a cast member of Y" is not "a member of Y": without the rule the words reader read the film as one more of
    Ben Ode's memberships (he is a member of a guild) and refuted it."""
    kg = _sport_graph(kg_of)
    report = verify_text(kg, "Ben Ode is a cast member of Night Rain.")
    assert not [c for c in report.claims if c.claim.property_id == "P463"]
    tc = _inverse(report, "Ben Ode")
    assert (tc.claim.subject_id, tc.claim.property_id) == ("Q11", "P161")
    assert tc.verdict.verdict != SUPPORTED
    assert _on(verify_text(kg, "Ben Ode is a cast member of Harbour Lights."), "Q10", "P161").verdict.verdict == SUPPORTED


def test_the_relation_picks_the_namesake_it_fits(kg_of):
    """"Comanche is the ethnic group of X": the name links to the better-known namesake (the language), which is no
    ethnic group; the people, a value of that property elsewhere in the graph, is the one the sentence means."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P172", "ethnic group", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        prop("P407", "language of work or name", "wikibase-item"),
        entity("Q5", "human"), entity("Q7725634", "book"),
        entity("Q32972", "Comanche", "a language", sitelinks=30),
        entity("Q117133", "Comanche", "a people", sitelinks=5),
        entity("Q49085", "Lenape", "a people"),
        entity("Q1", "Bay Rust", claims=[("P31", item("Q5", None)), ("P172", item("Q49085", None))]),
        entity("Q2", "Quanah Ode", claims=[("P31", item("Q5", None)), ("P172", item("Q117133", None))]),
        entity("Q3", "Plains Songs", claims=[("P31", item("Q7725634", None)), ("P407", item("Q32972", None))]),
    ])
    tc = _inverse(verify_text(kg, "Comanche is the ethnic group of Bay Rust."), "Comanche")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.claim.object_id) == ("Q1", "P172", "Q117133")
    assert (tc.verdict.verdict, tc.verdict.corrections[0]) == (REFUTED, "Lenape")
    right = _on(verify_text(kg, "Comanche is the ethnic group of Quanah Ode."), "Q2", "P172")
    assert right.verdict.verdict == SUPPORTED


def test_a_property_name_before_of_is_no_description_of_the_subject(kg_of):
    """"Finland is the narrative location of The Quest": the words name a relation to The Quest, not what Finland is
    — the types reader had read "location" as Finland's quality (a value of that property elsewhere) and refuted it."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P840", "narrative location", "wikibase-item"),
        prop("P1552", "has quality", "wikibase-item"),
        entity("Q6256", "country"), entity("Q11424", "film"), entity("Q2221906", "location"),
        entity("Q99", "neutrality"),
        entity("Q33", "Finland", claims=[("P31", item("Q6256", None)), ("P1552", item("Q99", None))]),
        entity("Q34", "Sweden", claims=[("P31", item("Q6256", None))]),
        entity("Q5", "Rift Zone", claims=[("P1552", item("Q2221906", None))]),
        entity("Q1", "The Quest", claims=[("P31", item("Q11424", None)), ("P840", item("Q33", None))]),
    ])
    report = verify_text(kg, "Finland is the narrative location of The Quest.")
    assert not [c for c in report.claims if c.verdict.verdict == REFUTED]
    assert _on(report, "Q1", "P840").verdict.verdict == SUPPORTED
    assert not [c for c in report.claims if c.claim.property_id == "P1552"]


def test_a_long_relation_name_opening_the_sentence_is_said_of_the_name_after_it(kg_of):
    """"The language of work or name of River Tales is Comanche": the five words are one property's whole name, so the
    relation is River Tales's — not "The language" standing for the work the graph gives Comanche as its language."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P407", "language of work or name", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        entity("Q34770", "language"), entity("Q7725634", "book"),
        entity("Q32972", "Comanche", "a language", claims=[("P31", item("Q34770", None))]),
        entity("Q49085", "Lenape", "a language", claims=[("P31", item("Q34770", None))]),
        entity("Q3", "Plains Songs", claims=[("P407", item("Q32972", None))]),  # classless, as most works of dense-dev
        entity("Q4", "River Tales", claims=[("P31", item("Q7725634", None)), ("P407", item("Q49085", None))]),
    ])
    _refuted_on_the_named_subject(kg, "The language of work or name of River Tales is {}.", ("Comanche", "Lenape"),
                                  ("Q4", "P407"), not_about="Q3")


def test_a_description_is_not_the_holder_of_its_one_linked_value_when_others_are_named(kg_of):
    """"The reservoir behind Stone Dam is named Clear Lake": the graph links Clear Lake to Creek Dam only, so any
    holder of the (wrong) value would be "the reservoir" and its claim SUPPORTED by construction; Stone Dam, named,
    is the subject and its reservoir is Long Lake."""
    kg = kg_of([
        prop("P31", "instance of", "wikibase-item"),
        prop("P4661", "reservoir created", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
        entity("Q1", "Stone Dam", claims=[("P4661", item("Q11", None))]),  # classless, as dense-dev's dams
        entity("Q2", "Creek Dam", claims=[("P4661", item("Q12", None))]),
        entity("Q11", "Long Lake"), entity("Q12", "Clear Lake"),
    ])
    _refuted_on_the_named_subject(kg, "The reservoir behind Stone Dam is named {}.", ("Clear Lake", "Long Lake"),
                                  ("Q1", "P4661"), not_about="Q2")


def _refuted_on_the_named_subject(kg, sentence: str, wrong_right: tuple[str, str], subject_property: tuple[str, str],
                                  not_about: str) -> None:
    """The sentence with the wrong value: nothing claimed of NOT_ABOUT, the named subject's claim REFUTED with the
    right value; with the right value, SUPPORTED."""
    wrong, right = wrong_right
    report = verify_text(kg, sentence.format(wrong))
    assert not [c for c in report.claims if c.claim.subject_id == not_about]
    tc = _on(report, *subject_property)
    assert (tc.span, tc.verdict.verdict, tc.verdict.corrections[0]) == (wrong, REFUTED, right)
    assert _on(verify_text(kg, sentence.format(right)), *subject_property).verdict.verdict == SUPPORTED
