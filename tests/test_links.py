"""The linked reader (verifier/text/links.py): the graph links two names a sentence gives, but which relation does
the sentence state? The words right before the value decide; a link the words do not name is no support."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.links import _modifier, blank_names
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B

SHELLS = [
    B.prop("P166", "award received", "wikibase-item", aliases=["award", "awarded"]),
    B.prop("P1411", "nominated for", "wikibase-item", aliases=["nomination received"]),
    B.prop("P162", "producer", "wikibase-item", aliases=["produced by"]),
    B.prop("P371", "presenter", "wikibase-item", aliases=["hosted by", "hosted"]),
    B.entity("Q618779", "award"),
    B.entity("Q701", "Golden Shell", "film award", claims=[("P31", B.item("Q618779", None))]),
    B.entity("Q702", "Silver Shell", "film award", claims=[("P31", B.item("Q618779", None))]),
    B.entity("Q704", "Harbour Critics Award", "film award", claims=[("P31", B.item("Q618779", None))]),
    B.entity("Q809", "Harbour Lights", "film", claims=[
        ("P31", B.item("Q11424", None)), ("P57", B.item("Q901", None)), ("P162", B.item("Q902", None)),
        ("P1411", B.item("Q701", None)), ("P166", B.item("Q702", None)),
        ("P1411", B.item("Q704", None)), ("P166", B.item("Q704", None))]),
    B.entity("Q810", "Low Tide", "film", claims=[("P31", B.item("Q11424", None)), ("P166", B.item("Q701", None)),
                                                 ("P162", B.item("Q902", None))]),  # no director in the graph
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + SHELLS)


def _on(report, span):
    return [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict, c.reader) for c in report.claims
            if c.span == span]


def test_won_is_not_supported_by_a_nomination(kg):
    """The graph links the film to the Golden Shell only as a nomination (another film won it): "won" claims the
    award, which the graph does not hold — it was SUPPORTED as the nomination before."""
    found = _on(verify_text(kg, "Harbour Lights won the Golden Shell."), "Golden Shell")
    assert [f[:2] for f in found] == [("Q809", "P166")] and found[0][2] != SUPPORTED and found[0][3] == "words"
    assert _on(verify_text(kg, "Harbour Lights was nominated for the Golden Shell."), "Golden Shell") == [
        ("Q809", "P1411", SUPPORTED, "linked")]
    assert _on(verify_text(kg, "Harbour Lights won the Silver Shell."), "Silver Shell") == [
        ("Q809", "P166", SUPPORTED, "linked")]


def test_a_producer_said_to_have_directed_is_flagged_with_the_director(kg):
    """Bruno Keller produced the film: "directed by Bruno Keller" is a wrong director (the graph's director in
    evidence), not a supported producer."""
    report = verify_text(kg, "Harbour Lights was directed by Bruno Keller.")
    found = [c for c in report.claims if c.span == "Bruno Keller"]
    assert [(c.claim.property_id, c.reader) for c in found] == [("P57", "words")]
    assert found[0].verdict.verdict != SUPPORTED
    assert "Alice Brandt" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    right = _on(verify_text(kg, "Harbour Lights was produced by Bruno Keller."), "Bruno Keller")
    assert right == [("Q809", "P162", SUPPORTED, "linked")]


@pytest.mark.parametrize("text", ["Low Tide was directed by Bruno Keller.",
                                  "Low Tide is a 2003 Lyon drama directed by Bruno Keller."])
def test_a_trigger_word_claims_its_relation_though_the_graph_gives_the_holder_none(kg, text):
    """The graph lists Bruno Keller as Low Tide's producer and gives it no director; "directed by" says director,
    a relation films have (others hold it): the claim is its director, which the graph cannot confirm — it was
    SUPPORTED as the producer before. A name in the holder's own predicate ("a 2003 Lyon drama") is no other
    subject of the word."""
    found = _on(verify_text(kg, text), "Bruno Keller")
    assert [f[1:2] + f[3:] for f in found] == [("P57", "words")] and found[0][2] != SUPPORTED
    assert _on(verify_text(kg, "Low Tide was produced by Bruno Keller."), "Bruno Keller") == [
        ("Q810", "P162", SUPPORTED, "linked")]


@pytest.mark.parametrize("text", ["Low Tide was written and directed by Bruno Keller.",
                                  "Low Tide was directed in 2003 with help from Bruno Keller."])
def test_a_trigger_word_coordinated_or_apart_from_the_value_keeps_the_link(kg, text):
    """"written and directed by": the other word may state the link's relation (as "produced" would); a trigger word
    with more than a particle before the value is no reading of it: the graph's link stands."""
    assert _on(verify_text(kg, text), "Bruno Keller") == [("Q810", "P162", SUPPORTED, "linked")]


def test_a_value_linked_under_another_relation_keeps_a_guess_beside_it_open(kg):
    """"directed by Bruno Keller and produced by Alice Brandt": the graph holds Bruno Keller as the producer, so the
    sentence names the graph's producer — read as a director, but named all the same — and a guessed producer beside
    him may be one the graph lacks: a refutation of it (made here, as a measured graph would) is NOT_ENOUGH_INFO."""
    from dataclasses import replace

    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED

    class Strict(Checker):  # the fixture is too small to measure producer as single-valued: refute as if it were
        def check(self, claims):
            return [replace(v, verdict=REFUTED) if v.claim.object == "Alice Brandt" and v.claim.property_id == "P162"
                    else v for v in super().check(claims)]

    report = verify_text(kg, "Low Tide was directed by Bruno Keller and produced by Alice Brandt.", checker=Strict(kg))
    assert _on(report, "Bruno Keller") == [("Q810", "P57", NOT_ENOUGH_INFO, "words")]
    guess = [c for c in report.claims if c.span == "Alice Brandt"]
    assert [(c.claim.property_id, c.verdict.verdict) for c in guess] == [("P162", NOT_ENOUGH_INFO)]
    assert "also names the graph's value" in guess[0].verdict.reason


def test_a_trigger_word_before_a_value_of_another_kind_keeps_the_link(kg):
    """"directed by the Golden Shell": an award is no director (its role in the graph), so the words do not say
    a relation of these two names; the graph's link (the award received) stands."""
    assert _on(verify_text(kg, "Low Tide was directed by the Golden Shell."), "Golden Shell") == [
        ("Q810", "P166", SUPPORTED, "linked")]


def test_a_word_inside_the_value_names_no_relation(kg):
    """"Award" is an alias of award received, but here it is part of the value's name: the sentence names only the
    nomination (both links held, so both were claimed before)."""
    found = _on(verify_text(kg, "Harbour Lights was nominated for the Harbour Critics Award."), "Harbour Critics Award")
    assert found == [("Q809", "P1411", SUPPORTED, "linked")]


def test_the_word_of_another_name_does_not_replace_the_link(kg):
    """"… and Alice Brandt won the Golden Shell": "won" is Alice Brandt's verb, not the film's; the film's link
    stands (no award claimed of it)."""
    report = verify_text(kg, "Harbour Lights opened in May, and Alice Brandt won the Golden Shell.")
    assert ("Q809", "P166") not in {(c.claim.subject_id, c.claim.property_id) for c in report.claims}


def test_blank_names_keeps_offsets():
    sentence = "X won the Golden Shell."
    plain = blank_names(sentence, 10, [(20, 32)])
    assert len(plain) == len(sentence) and plain == "X won the             ."


def test_a_relation_that_fits_neither_name_keeps_the_link(kg):
    """"hosted" names presenter (an alias) but the film has no presenter and the Golden Shell is no one's: the
    words are no relation of these two names, so the graph's link stands."""
    found = _on(verify_text(kg, "Harbour Lights hosted the Golden Shell."), "Golden Shell")
    assert found == [("Q809", "P1411", SUPPORTED, "linked")]


def test_a_possessive_is_not_the_words_value(kg):
    """"directed by Bruno Keller's friend": the words' value is the friend, not Bruno Keller, so they claim no
    director of him (the graph's link, his producing it, stays)."""
    report = verify_text(kg, "Harbour Lights was directed by Bruno Keller's friend.")
    words = {(c.claim.subject_id, c.claim.property_id) for c in report.claims if c.reader == "words"}
    assert ("Q809", "P57") not in words


def test_an_opening_relation_is_no_support_for_the_link(kg):
    """"The producer of Harbour Lights is Alice Brandt": she directed it (the graph's link), which the words do not
    say; the claim is its producer, NOT SUPPORTED (Bruno Keller in evidence)."""
    report = verify_text(kg, "The producer of Harbour Lights is Alice Brandt.")
    found = [c for c in report.claims if c.span == "Alice Brandt"]
    assert [(c.claim.subject_id, c.claim.property_id, c.reader) for c in found] == [("Q809", "P162", "words")]
    assert found[0].verdict.verdict != SUPPORTED
    assert "Bruno Keller" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    right = _on(verify_text(kg, "The director of Harbour Lights is Alice Brandt."), "Alice Brandt")
    assert right == [("Q809", "P57", SUPPORTED, "linked")]


def test_a_name_modifying_the_next_is_not_the_words_value(kg):
    """"won the Alice Brandt Golden Shell" (an award named after her, as "the United States Air Force Distinguished
    Service Medal"): what was won is the name after hers; her link to the film (its director) is not replaced."""
    report = verify_text(kg, "Harbour Lights won the Alice Brandt Golden Shell.")
    assert [(c.claim.property_id, c.reader) for c in report.claims if c.span == "Alice Brandt"] == [("P57", "linked")]


def test_a_name_describing_the_noun_after_it_is_not_the_words_subject(kg_of):
    """"a French director born in Graz": French (after "a", before a lower-case noun) describes the director; "born
    in" is still the subject's. Dora Lind lives in Graz (the graph's link), so the link once stood as a SUPPORTED
    residence; the words claim her birthplace, Lyon in evidence."""
    extra = [B.prop("P551", "residence", "wikibase-item"), B.entity("Q150", "French", "language"),
             B.entity("Q905", "Dora Lind", "person", claims=[("P31", B.item("Q5", None)), ("P19", B.item("Q456", None)),
                                                            ("P551", B.item("Q13298", None))])]
    kg = kg_of(ENTITIES + extra)
    found = _on(verify_text(kg, "Dora Lind was a French director born in Graz."), "Graz")
    assert [f[:2] + f[3:] for f in found] == [("Q905", "P19", "words")] and found[0][2] != SUPPORTED
    assert _on(verify_text(kg, "Dora Lind was a French director born in Lyon."), "Lyon") == [
        ("Q905", "P19", SUPPORTED, "linked")]
    assert _on(verify_text(kg, "Dora Lind was a director who lives in Graz."), "Graz") == [
        ("Q905", "P551", SUPPORTED, "linked")]


@pytest.mark.parametrize("text, name, expected", [
    ("Ada was a Scottish writer born in Leith", "Scottish", True),
    ("Ada was an English writer born in Leith", "English", True),
    ("Ada opened in May, and Winslet received a nomination", "Winslet", False),  # the verb's subject
    ("Ada was a Scottish Writers Guild member", "Scottish", False),  # a name goes on, not a noun
    ("Ada met the Scottish writer in Leith", "Scottish", False),  # only an indefinite article marks a description
])
def test_modifier(text, name, expected):
    start = text.index(name)
    assert _modifier(text, start, start + len(name)) is expected


def test_a_value_before_a_place_or_time_phrase_is_open_to_the_subjects_words(kg_of):
    """"nominated for the Bronze Shell at the Shell Festival": the festival has the award as a part (the linked
    reader's claim), and the sentence names the film's nomination before that phrase — its claim is read too, not
    SUPPORTED (the graph lists other nominations). With "of" between ("the Bronze Shell of the Shell Festival") the
    festival's link keeps the span: the phrase may name the value's own holder."""
    bronze = B.entity("Q706", "Bronze Shell", "film award", claims=[("P31", B.item("Q618779", None))])
    festival = B.entity("Q705", "Shell Festival", "film festival", claims=[("P527", B.item("Q706", None))])
    kg = kg_of(ENTITIES + SHELLS + [B.prop("P527", "has part", "wikibase-item"), bronze, festival])
    found = _on(verify_text(kg, "Harbour Lights was nominated for the Bronze Shell at the Shell Festival."),
                "Bronze Shell")
    assert ("Q705", "P527", SUPPORTED, "linked") in found
    words = [f for f in found if f[0] == "Q809"]
    assert [f[1] for f in words] == ["P1411"] and words[0][2] != SUPPORTED
    found = _on(verify_text(kg, "Harbour Lights was nominated for the Bronze Shell of the Shell Festival."),
                "Bronze Shell")
    assert [f[0] for f in found] == ["Q705"]


@pytest.mark.parametrize("text, names, pairs", [
    ("between Canada, France and West Germany.", ["Canada", "France", "West Germany"], 3),
    ("by the United States, Japan, and the European Union", ["United States", "Japan", "European Union"], 3),
    ("a Israel/UK/United States co-production", ["Israel", "UK", "United States"], 3),
    ("born in Bern, Switzerland.", ["Bern", "Switzerland"], 0),  # a comma alone: where the first is
    ("Bern and Paris won, France said", ["Bern", "Paris", "France"], 1),  # the list ends at "won"
    ("Canada shares a border with France", ["Canada", "France"], 0),
    ("Donald Duck and Scrooge's nephews", ["Donald Duck", "Scrooge"], 0),  # the item is "Scrooge's nephews"
    ("in Canada, France, and the UK", ["Canada", "France"], 1),  # its last item a name the index lacks
    ("played first for Malaysia and later for Japan", ["Malaysia", "Japan"], 1),  # parallel phrases
    ("born in Paris and raised in Lyon", ["Paris", "Lyon"], 0),  # another verb: no parallel
    ("played for Malaysia and later in Japan", ["Malaysia", "Japan"], 0),  # another preposition
])
def test_listed_together(text, names, pairs):
    from kgcheck.verifier.text.coordination import listed_together

    spans = [(text.index(n), text.index(n) + len(n)) for n in names]
    found = listed_together(text, spans)
    assert len(found) == pairs
    if pairs == 1:
        assert found == {frozenset(spans[:2])}


@given(st.text(alphabet="AB ,/&'s-andor", max_size=40), st.lists(st.tuples(st.integers(0, 40), st.integers(0, 8)),
                                                                max_size=6))
def test_listed_together_pairs_only_given_spans(text, raw):
    from kgcheck.verifier.text.coordination import listed_together

    spans = [(s, min(len(text), s + n)) for s, n in raw if s <= len(text)]
    for pair in listed_together(text, spans):
        assert len(pair) == 2 and pair <= set(spans)


COUNTRIES = [
    B.prop("P530", "diplomatic relation", "wikibase-item", aliases=["diplomatic relations"]),
    B.prop("P495", "country of origin", "wikibase-item"),
    B.prop("P17", "country", "wikibase-item"),
    B.entity("Q6256", "country"),
    B.entity("Q515", "city"),
    B.entity("Q16", "Canada", "country", claims=[("P31", B.item("Q6256", None)), ("P530", B.item("Q142", None)),
                                                 ("P17", B.item("Q16", None))]),
    B.entity("Q142", "France", "country", claims=[("P31", B.item("Q6256", None)), ("P530", B.item("Q16", None)),
                                                 ("P530", B.item("Q713750", None)), ("P17", B.item("Q142", None))]),
    B.entity("Q713750", "West Germany", "country", claims=[("P31", B.item("Q6256", None)),
                                                         ("P530", B.item("Q142", None)),
                                                         ("P17", B.item("Q713750", None))]),
    B.entity("Q90", "Paris", "city", claims=[("P31", B.item("Q515", None)), ("P17", B.item("Q142", None))]),
    B.entity("Q172", "Toronto", "city", claims=[("P31", B.item("Q515", None)), ("P17", B.item("Q16", None))]),
    B.entity("Q11424", "film"),
    B.entity("Q905", "Northern Crossing", "film", claims=[("P31", B.item("Q11424", None)),
                                                          ("P495", B.item("Q16", None))]),
]


def test_items_of_one_list_are_no_link_of_each_other(kg_of):
    """"a co-production between Canada, France and West Germany" says nothing of the countries' relations to each
    other: the graph's diplomatic relations between them were SUPPORTED claims by construction. The same link the
    words state is still read."""
    kg = kg_of(COUNTRIES)
    listed = verify_text(kg, "Northern Crossing was a co-production between Canada, France and West Germany.")
    assert not [c for c in listed.claims if c.claim.property_id == "P530"]
    # Nor is an item the value of the list's first item, which may pass for the subject: no country of Canada.
    for text in ("Canada, France and West Germany are countries.",
                 "Canada, France, and the UK were the countries of the film."):  # the UK: a name the index lacks
        assert not [c for c in verify_text(kg, text).claims if c.claim.subject_id == "Q16"], text
    stated = verify_text(kg, "France has diplomatic relations with Canada.")
    assert [(c.claim.subject_id, c.claim.property_id, c.claim.object_id, c.verdict.verdict)
            for c in stated.claims] in ([("Q142", "P530", "Q16", SUPPORTED)], [("Q16", "P530", "Q142", SUPPORTED)])
