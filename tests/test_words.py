"""Readers that take a claim from the sentence's words or its values' types (verifier/text/words.py).

Each wrong fact must be caught by the reader named in the test (its `reader` tag), with the graph's
value as evidence; the same sentence with the right value is SUPPORTED.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.extract import READERS
from kgcheck.verifier.text.schema import GraphSchema
from kgcheck.verifier.text.stems import stem
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, claim_on as _claim, entity, graph_values as _graph_values, item, prop, time


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def test_wrong_director_after_directed_by(kg):
    tc = _claim(verify_text(kg, "The Quiet Harbour was directed by Bruno Keller."), "Bruno Keller")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q801", "P57", "words")
    assert tc.verdict.verdict != SUPPORTED and "Alice Brandt" in _graph_values(tc)
    right = _claim(verify_text(kg, "The Quiet Harbour was directed by Alice Brandt."), "Alice Brandt")
    assert (right.claim.property_id, right.verdict.verdict) == ("P57", SUPPORTED)


def test_wrong_year_next_to_film(kg):
    tc = _claim(verify_text(kg, "The Quiet Harbour is a 1990 film."), "1990")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q801", "P577", "types")
    assert tc.verdict.verdict == REFUTED and "1994" in " ".join(tc.verdict.corrections)
    right = _claim(verify_text(kg, "The Quiet Harbour is a 1994 film."), "1994")
    assert (right.claim.property_id, right.verdict.verdict) == ("P577", SUPPORTED)


def test_wrong_year_after_released(kg):
    tc = _claim(verify_text(kg, "Night Train was released in 1996 to good reviews."), "1996")
    assert (tc.claim.property_id, tc.reader, tc.verdict.verdict) == ("P577", "words", REFUTED)


def test_wrong_birthplace_after_born_in(kg):
    tc = _claim(verify_text(kg, "Bruno Keller was born in Lyon."), "Lyon")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q902", "P19", "words")
    assert tc.verdict.verdict != SUPPORTED and "Graz" in _graph_values(tc)
    right = _claim(verify_text(kg, "Bruno Keller was born in Graz."), "Graz")
    assert (right.claim.property_id, right.verdict.verdict) == ("P19", SUPPORTED)


def test_a_date_between_born_and_in_keeps_the_words_reading(kg):
    # "born in" names the birthplace though "on 3 May 1950" stands between its words (triggerwords.DETOUR).
    tc = _claim(verify_text(kg, "Bruno Keller was born on 3 May 1950 in Lyon."), "Lyon")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q902", "P19", "words")
    assert tc.verdict.verdict != SUPPORTED and "Graz" in _graph_values(tc)


def test_wrong_country_by_the_type_of_the_value(kg):
    tc = _claim(verify_text(kg, "Lyon is a large town of Austria."), "Austria")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q456", "P17", "types")
    assert tc.verdict.verdict != SUPPORTED and "France" in _graph_values(tc)
    right = _claim(verify_text(kg, "Lyon is a large town of France."), "France")
    assert (right.claim.property_id, right.verdict.verdict) == ("P17", SUPPORTED)


def test_without_the_reader_the_wrong_fact_goes_unread(kg):
    text = "The Quiet Harbour is a 1990 film."
    without = verify_text(kg, text, readers=frozenset(READERS) - {"types"})
    assert not [c for c in without.claims if c.span == "1990"]


def test_schema_is_measured_from_the_graph(kg):
    schema = GraphSchema.of(kg)
    assert schema.class_holds({"Q11424"}, "P57") == 1.0
    assert schema.takes("P57", {"Q5"}) == 1.0 and schema.takes("P57", {"Q515"}) == 0.0
    assert any(n.pid == "P57" for n in schema.lexicon()[stem("directed")])


@pytest.mark.parametrize("a, b", [("directed", "director"), ("aired", "air"), ("released", "release"),
                                  ("produced", "producer"), ("starring", "star"), ("tributaries", "tributary"),
                                  ("countries", "country"), ("movies", "movie"), ("studied", "study")])
def test_stems_meet(a, b):
    assert stem(a) == stem(b)


def _novels(kg_of):
    """Two novels and their genres: Dark Water a thriller, Pale Sun a romance novel."""
    return kg_of([B.prop("P136", "genre", "wikibase-item"), prop("P31", "instance of", "wikibase-item"),
                  entity("Q7725634", "novel"), entity("Q1", "thriller"), entity("Q2", "romance novel"),
                  entity("Q10", "Dark Water", claims=[("P31", item("Q7725634", None)), ("P136", item("Q1", None))]),
                  entity("Q11", "Pale Sun", claims=[("P31", item("Q7725634", None)), ("P136", item("Q2", None))])])


def test_a_description_word_is_read_by_its_role(kg_of):
    kg2 = _novels(kg_of)
    tc = _claim(verify_text(kg2, "Dark Water is a romance novel by an unknown writer."), "romance novel")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q10", "P136", "types")
    assert tc.verdict.verdict != SUPPORTED and "thriller" in _graph_values(tc)


def test_a_description_reads_on_past_a_comma_between_its_words(kg_of):
    """"an absurdist, existential romance novel": the comma joins two adjectives, so the description (and the genre in
    it) goes on; before a name or a clause word ("a novel, by X", "a novel, which ...") it ends there."""
    kg2 = _novels(kg_of)
    tc = _claim(verify_text(kg2, "Dark Water is an absurdist, existential romance novel by an unknown writer."),
                "romance novel")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q10", "P136", "types")
    assert tc.verdict.verdict != SUPPORTED and "thriller" in _graph_values(tc)
    right = _claim(verify_text(kg2, "Pale Sun is an absurdist, existential romance novel by an unknown writer."),
                   "romance novel")
    assert (right.claim.property_id, right.verdict.verdict) == ("P136", SUPPORTED)
    ended = verify_text(kg2, "Dark Water is a book, which some call a romance novel.")
    assert not [c for c in ended.claims if c.span == "romance novel" and c.reader == "types"]


def test_a_description_reads_on_past_and_before_a_lower_case_word(kg_of):
    """"a gothic and romance novel": "and" joins two of the description's words, so the genre after it is read;
    before a clause word ("a book and by some a romance novel") the description ends there."""
    kg2 = _novels(kg_of)
    tc = _claim(verify_text(kg2, "Dark Water is a gothic and romance novel set in Lyon."), "romance novel")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q10", "P136", "types")
    assert tc.verdict.verdict != SUPPORTED and "thriller" in _graph_values(tc)
    right = _claim(verify_text(kg2, "Pale Sun is a gothic and romance novel set in Lyon."), "romance novel")
    assert (right.claim.property_id, right.verdict.verdict) == ("P136", SUPPORTED)
    ended = verify_text(kg2, "Dark Water is a book and by some a romance novel.")
    assert not [c for c in ended.claims if c.span == "romance novel" and c.reader == "types"]


def test_a_month_inside_a_date_is_no_value(kg_of):
    # "December" names an entity (the month), but inside "December 30, 2001" it is part of a date: no position held.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P39", "position held", "wikibase-item",
                                                                   aliases=["served as"]),
                 entity("Q126", "December", "month"), entity("Q30185", "mayor"),
                 entity("Q901", "Alice Brandt", "person", claims=[("P39", item("Q30185", None))])])
    report = verify_text(kg2, "Alice Brandt served as the first mayor from December 30, 2001 until 2005.")
    assert not [c for c in report.claims if c.span == "December"], [(c.span, c.claim.property_id) for c in report.claims]


def test_a_bracketed_aside_is_no_value_of_the_property_word_before_it(kg_of):
    # "editor ... Roger Kornberg (Stanford University)": the university is where the editor works.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P98", "editor", "wikibase-item"),
                 entity("Q5", "human"), entity("Q3918", "university"),
                 entity("Q901", "Roger Kornberg", claims=[("P31", item("Q5", None))]),
                 entity("Q902", "Stanford University", claims=[("P31", item("Q3918", None))]),
                 entity("Q31", "Annals of Tides", "journal", claims=[("P98", item("Q901", None))])])
    aside = verify_text(kg2, "The editor of Annals of Tides is Roger Kornberg (Stanford University).")
    assert [c.span for c in aside.claims if c.claim.property_id == "P98"] == ["Roger Kornberg"]
    listed = verify_text(kg2, "Annals of Tides is a journal. The editor is Roger Kornberg and Stanford University.")
    assert "Stanford University" in [c.span for c in listed.claims if c.claim.property_id == "P98"]


def test_a_title_written_with_detached_clitics_is_still_the_subject(kg):
    # Tokenised text ("Ca n't", "I 'll") names the same title as "Can't": its wrong date is refuted.
    tc = _claim(verify_text(kg, "Club Ca n't Wait was released on June 28, 2014."), "June 28, 2014")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q804", "P577", REFUTED)
    assert "2010" in " ".join(tc.verdict.corrections)


def test_the_month_of_a_date_is_never_the_sentence_subject(kg):
    # "April" is an entity of the graph, but in "April 2002" it is part of a date: the film is the subject.
    tc = _claim(verify_text(kg, "From May 2001 until April 2002 Night Train was directed by Carla Moreau."),
                "Carla Moreau")
    assert (tc.claim.subject_id, tc.claim.property_id) == ("Q802", "P57")
    assert tc.verdict.verdict != SUPPORTED and "Bruno Keller" in _graph_values(tc)


def test_a_name_that_closes_the_bracket_it_opens_in_is_the_subject(kg):
    # Tokenised "( 7 ) Iris Rock": the mention starts inside the bracket and ends outside it, so it is no aside.
    tc = _claim(verify_text(kg, "( 7 ) Iris Rock was directed by Carla Moreau."), "Carla Moreau")
    assert (tc.claim.subject_id, tc.claim.property_id) == ("Q805", "P57")
    assert tc.verdict.verdict != SUPPORTED and "Alice Brandt" in _graph_values(tc)


def test_an_unresolved_description_that_is_the_subject_leaves_the_subject_unknown(kg_of):
    # "The bridge was founded in 1950 ..., Rhaetia": the bridge is the subject; the graph cannot say which bridge,
    # and the country named last is not what the sentence dates.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P571", "inception", "time", aliases=["founded"]),
                 entity("Q6256", "country"),
                 entity("Q41", "Rhaetia", "land", claims=[("P31", item("Q6256", None)),
                                                          ("P571", time("+1291-01-01T00:00:00Z", 9))])])
    assert not verify_text(kg2, "The bridge was founded in 1950 near Chur, Rhaetia.").claims
    # A name that opens a clause of its own is that clause's subject.
    tc = _claim(verify_text(kg2, "The bridge is old: Rhaetia was founded in 1950."), "1950")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q41", "P571", REFUTED)
    tc = _claim(verify_text(kg2, "Rhaetia was founded in 1950."), "1950")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q41", "P571", REFUTED)
    # Resolved by the text before it ("Rhaetia is a country. The country ..."), the description is that subject.
    tc = _claim(verify_text(kg2, "Rhaetia is a country. The country was founded in 1950."), "1950")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.verdict.verdict) == ("Q41", "P571", REFUTED)


def test_a_name_holding_an_exclamation_mark_is_one_sentence(kg):
    from kgcheck.verifier.text.mentions import rejoin_names, split_sentences

    # "Chak Ho! Harbour" is a label: the sentence split at its "!" is joined again, and the title is the subject.
    tc = _claim(verify_text(kg, "Chak Ho! Harbour was directed by Carla Moreau."), "Carla Moreau")
    assert (tc.claim.subject_id, tc.claim.property_id) == ("Q806", "P57")
    assert tc.verdict.verdict != SUPPORTED and "Bruno Keller" in _graph_values(tc)
    text = "Night Train won! Paper Moon Rising lost."  # no label spans this "!": two sentences
    assert len(rejoin_names(kg, text, split_sentences(text))) == 2


TEAMS = [
    prop("P2094", "competition class", "wikibase-item"),
    entity("Q820", "women's volleyball"), entity("Q821", "women's floorball"),
    entity("Q822", "Lyon women's volleyball team", claims=[("P2094", item("Q820", None))]),
    entity("Q823", "Graz women's floorball team", claims=[("P2094", item("Q821", None))]),
    entity("Q824", "Arles women's floorball team", claims=[("P2094", item("Q821", None))]),
]


def test_a_lower_case_value_outside_a_description_is_read_by_its_role(kg_of):
    """"women's floorball" is mostly a value of competition class in the graph, and the team holds one."""
    kg = kg_of(ENTITIES + TEAMS)
    text = "Lyon women's volleyball team plays in international women's floorball competitions."
    found = [c for c in verify_text(kg, text).claims if (c.claim.subject_id, c.claim.property_id) == ("Q822", "P2094")]
    assert found and found[0].reader == "types" and found[0].verdict.verdict != SUPPORTED
    assert "women's volleyball" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    right = verify_text(kg, text.replace("floorball", "volleyball")).claims
    assert [c.verdict.verdict for c in right if c.claim.property_id == "P2094"] == [SUPPORTED]
    # A lower-case phrase right before a name describes that name, not the subject.
    other = verify_text(kg, "Lyon women's volleyball team appeared in the women's floorball documentary Night Train.")
    assert not [c for c in other.claims if c.claim.property_id == "P2094"]


def test_a_property_name_whose_particle_the_text_has_owns_the_word(kg_of):
    """"played for Turkey": "played for" names the team (Turkey is none), so the bare "played" of "participant" is no
    reading of these words; the value's type reads the country Kenji Sato plays for: REFUTED with Japan."""
    country = lambda qid, label: entity(qid, label, "country", claims=[("P31", item("Q6256", None))])  # noqa: E731
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P1532", "country for sport", "wikibase-item"),
                 prop("P710", "participant", "wikibase-item", aliases=["played"]),
                 prop("P54", "member of sports team", "wikibase-item", aliases=["played for"]),
                 entity("Q6256", "country"), country("Q17", "Japan"), country("Q43", "Turkey"),
                 entity("Q7700", "Friendly Cup", claims=[("P710", item("Q43", None))]),
                 B.entity("Q7701", "Kenji Sato", "footballer", claims=[("P1532", item("Q17", None))])] +
                [B.entity(f"Q{7710 + i}", f"Player {i}", "footballer",
                          claims=[("P1532", item(("Q17", "Q43")[i % 2], None))]) for i in range(30)])
    tc = _claim(verify_text(kg2, "Kenji Sato played for Turkey."), "Turkey")
    assert (tc.claim.property_id, tc.verdict.verdict) == ("P1532", REFUTED) and "Japan" in tc.verdict.corrections


@pytest.mark.parametrize("players", [59, 58])
def test_a_subject_without_a_class_holds_by_words_only_what_the_holders_of_its_properties_hold(kg_of, players):
    """"a badminton player from Turkey": "player" is an alias of "participant", a property of events. Kenji Sato has
    no class; none of the 60 subjects holding what he holds (a country for sport: he and 59 players) holds a
    participant — under 1 in 20 with 95 % confidence —, so the word names none of his relations and the value's
    type reads the country he plays for: REFUTED with Japan. Among 59 the word may still name it; so may it of a
    subject the graph holds nothing of."""
    country = lambda qid, label: entity(qid, label, "country", claims=[("P31", item("Q6256", None))])  # noqa: E731
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P1532", "country for sport", "wikibase-item"),
                 prop("P641", "sport", "wikibase-item"),
                 prop("P710", "participant", "wikibase-item", aliases=["player"]),
                 entity("Q6256", "country"), country("Q17", "Japan"), country("Q43", "Turkey"),
                 entity("Q7", "badminton"),
                 entity("Q7700", "Friendly Cup", claims=[("P710", item("Q43", None))]),
                 B.entity("Q7701", "Kenji Sato", "badminton player", claims=[("P1532", item("Q17", None))]),
                 B.entity("Q7702", "Aki Mori", "badminton player")] +
                [B.entity(f"Q{7710 + i}", f"Player {i}", "badminton player",
                          claims=[("P1532", item(("Q17", "Q43")[i % 2], None)), ("P641", item("Q7", None))])
                 for i in range(players)])
    tc = _claim(verify_text(kg2, "Kenji Sato is a retired badminton player from Turkey."), "Turkey")
    if players < 59:
        assert tc.claim.property_id == "P710"
        return
    assert (tc.claim.property_id, tc.verdict.verdict) == ("P1532", REFUTED) and "Japan" in tc.verdict.corrections
    right = _claim(verify_text(kg2, "Kenji Sato is a retired badminton player from Japan."), "Japan")
    assert (right.claim.property_id, right.verdict.verdict) == ("P1532", SUPPORTED)
    unknown = _claim(verify_text(kg2, "Aki Mori is a retired badminton player from Turkey."), "Turkey")
    assert unknown.claim.property_id == "P710"


def test_a_value_without_a_class_is_of_the_class_its_role_implies(kg_of):
    """Dan Moss has no class in the graph and is only ever a cast member: "directed by Dan Moss" still reads the
    director (a cast member is a human, as directors are) rather than the cast the value's role would guess, and the
    graph's director flags it. "written by" names a screenwriter and a composer alike: the role decides or nothing
    is read as either, nor is a title without a particle before the name."""
    cast = [prop("P161", "cast member", "wikibase-item"),
            prop("P58", "screenwriter", "wikibase-item", aliases=["written by"]),
            prop("P86", "composer", "wikibase-item", aliases=["written by"]),
            entity("Q950", "Dan Moss"),  # no statement of his own
            entity("Q807", "Sea Glass", "film", claims=[("P31", item("Q11424", None)), ("P57", item("Q903", None)),
                                                        ("P161", item("Q901", None)), ("P86", item("Q902", None))]),
            entity("Q808", "Tin Roof", "film", claims=[("P31", item("Q11424", None)), ("P161", item("Q950", None)),
                                                       ("P58", item("Q901", None))])]
    kg = kg_of(ENTITIES + cast)
    tc = _claim(verify_text(kg, "Sea Glass was directed by Dan Moss."), "Dan Moss")
    assert (tc.claim.property_id, tc.reader) == ("P57", "words") and tc.verdict.verdict != SUPPORTED
    assert "Carla Moreau" in _graph_values(tc)
    written = verify_text(kg, "Sea Glass is a film written by Dan Moss.").claims
    assert not [c for c in written if c.claim.property_id in ("P58", "P86")]
    # A title before the name, no particle, is said of the name ("publishing director Charb"): no director read.
    titled = verify_text(kg, "Sea Glass thanked the director Dan Moss.").claims
    assert not [c for c in titled if c.claim.property_id == "P57"]


def test_a_value_named_beside_the_graphs_own_is_not_refuted(kg_of):
    """Sixty films with one director each: a director the graph lacks is refuted — unless the same words also name
    the graph's director ("directed by A and B"): then the sentence gives the film several directors, one confirmed,
    and the other may be missing from the graph."""
    films = [B.entity(f"Q{8400 + i}", f"Reel {i}", "film", claims=[("P31", item("Q11424", None)),
                                                                     ("P57", item(("Q901", "Q902")[i % 2], None))])
             for i in range(60)]
    kg = kg_of(ENTITIES + films)
    alone = _claim(verify_text(kg, "The Quiet Harbour was directed by Bruno Keller."), "Bruno Keller")
    assert (alone.reader, alone.verdict.verdict) == ("words", REFUTED)
    both = verify_text(kg, "The Quiet Harbour was directed by Alice Brandt and Bruno Keller.")
    assert _claim(both, "Alice Brandt").verdict.verdict == SUPPORTED
    second = _claim(both, "Bruno Keller")
    assert (second.claim.property_id, second.verdict.verdict) == ("P57", "NOT_ENOUGH_INFO")
    assert "also names a value of this property the graph holds" in second.verdict.reason


def test_a_relation_phrase_ending_in_a_preposition_is_read_as_the_relation_not_as_a_thing(kg_of):
    """"based upon" is an alias of "based on" and, in Wikidata, of the item film adaptation: between two names it
    states the relation (upon is a preposition as on is), never a value — the novel's genre "based upon"."""
    novel = lambda qid, label: entity(qid, label, "novel", claims=[("P31", item("Q8261", None)),  # noqa: E731
                                                                 ("P136", item("Q1257444", None))])
    kg2 = kg_of(ENTITIES + [prop("P144", "based on", "wikibase-item", aliases=["based upon"]),
                            prop("P136", "genre", "wikibase-item"), entity("Q8261", "novel"),
                            entity("Q1257444", "film adaptation", aliases=["based upon"]),
                            novel("Q8301", "Simulacron Three"), novel("Q8302", "Voyage to the Moon"),
                            entity("Q8303", "The Thirteenth Floor", "film",
                                   claims=[("P31", item("Q11424", None)), ("P144", item("Q8301", None))])])
    for text in ("The Thirteenth Floor is based upon Voyage to the Moon.",
                 "The Thirteenth Floor is loosely based upon Voyage to the Moon, a novel."):
        report = verify_text(kg2, text)
        assert not [c for c in report.claims if c.span == "based upon"]
        tc = _claim(report, "Voyage to the Moon")
        assert (tc.claim.subject_id, tc.claim.property_id) == ("Q8303", "P144")
        assert tc.verdict.verdict != SUPPORTED and "Simulacron Three" in _graph_values(tc)
    right = _claim(verify_text(kg2, "The Thirteenth Floor is based upon Simulacron Three."), "Simulacron Three")
    assert (right.claim.property_id, right.verdict.verdict) == ("P144", SUPPORTED)


def test_a_possessor_qualifies_the_name_it_owns_and_is_no_value(kg_of):
    """"set mainly on Austria's Prince Albert Town": Austria says where the town is, it is no setting of its own (on
    the true sentence "set principally on Canada's Prince Edward Island" the country was REFUTED as the setting)."""
    setting = lambda qid, label, place: entity(qid, label, "film", claims=[  # noqa: E731
        ("P31", item("Q11424", None)), ("P840", item(place, None))])
    kg2 = kg_of(ENTITIES + [prop("P840", "narrative location", "wikibase-item"),
                            entity("Q8401", "Port Royal", "city", claims=[("P31", item("Q515", None))]),
                            entity("Q8402", "Prince Albert Town", "old town", claims=[("P31", item("Q8403", None))]),
                            entity("Q8403", "old town"),
                            setting("Q8410", "Harbour Lights", "Q8401"), setting("Q8411", "Alpine Night", "Q40")])
    report = verify_text(kg2, "Harbour Lights is set mainly on Austria's Prince Albert Town.")
    assert not [c for c in report.claims if c.span == "Austria"], [(c.span, c.claim.property_id) for c in report.claims]
    plain = verify_text(kg2, "Harbour Lights is set mainly on Austria.")
    assert [c for c in plain.claims if c.span == "Austria" and c.claim.property_id == "P840"]  # read as ever
