"""Readers that take a claim from the sentence's words or its values' types (verifier/text/words.py).

Each wrong fact must be caught by the reader named in the test (its `reader` tag), with the graph's
value as evidence; the same sentence with the right value is SUPPORTED.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED
from kgcheck.verifier.text.extract import READERS
from kgcheck.verifier.text.schema import GraphSchema, stem
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, time, entity, prop = B.item, B.time, B.entity, B.prop


def _film(qid, label, director, year):
    return entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P57", item(director, None)),
                                               ("P577", time(f"+{year}-01-01T00:00:00Z", 9))])


def _person(qid, label, birthplace):
    return entity(qid, label, "person", claims=[("P31", item("Q5", None)), ("P19", item(birthplace, None))])


def _city(qid, label, country):
    return entity(qid, label, "city", claims=[("P31", item("Q515", None)), ("P17", item(country, None))])


ENTITIES = [
    prop("P31", "instance of", "wikibase-item"),
    prop("P57", "director", "wikibase-item", aliases=["directed by", "film director"]),
    prop("P577", "publication date", "time", aliases=["released", "date of release"]),
    prop("P19", "place of birth", "wikibase-item", aliases=["born in", "birthplace"]),
    prop("P17", "country", "wikibase-item"),
    entity("Q11424", "film"), entity("Q5", "human"), entity("Q515", "city"), entity("Q6256", "country"),
    entity("Q142", "France", claims=[("P31", item("Q6256", None))]),
    entity("Q40", "Austria", claims=[("P31", item("Q6256", None))]),
    _city("Q456", "Lyon", "Q142"), _city("Q13298", "Graz", "Q40"),
    _person("Q901", "Alice Brandt", "Q456"), _person("Q902", "Bruno Keller", "Q13298"),
    _person("Q903", "Carla Moreau", "Q456"),
    _film("Q801", "The Quiet Harbour", "Q901", 1994), _film("Q802", "Night Train", "Q902", 2001),
    _film("Q803", "Paper Moon Rising", "Q903", 1988), _film("Q804", "Club Can't Wait", "Q903", 2010),
    _film("Q805", "(7) Iris Rock", "Q901", 1999), entity("Q118", "April", "month of the year"),
    _film("Q806", "Chak Ho! Harbour", "Q902", 2003),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def _claim(report, span):
    found = [c for c in report.claims if c.span == span]
    assert found, f"no claim on {span!r}: {[(c.span, c.claim.property_id, c.reader) for c in report.claims]}"
    return found[0]


def _graph_values(tc):
    return {e.value for e in tc.verdict.evidence} | set(tc.verdict.corrections)


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


def test_a_type_read_swap_is_refuted_only_when_the_values_are_of_a_kind(kg_of):
    # A country for a country (same class): REFUTED with the graph's value. A name read inside the graph's value
    # ("Greek" of "Ancient Greek"): a reading of one name, not a swap, so NOT_ENOUGH_INFO.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P17", "country", "wikibase-item"),
                 prop("P407", "language of work", "wikibase-item"),
                 entity("Q6256", "country"), entity("Q34770", "language"),
                 entity("Q142", "France", claims=[("P31", item("Q6256", None))]),
                 entity("Q40", "Austria", claims=[("P31", item("Q6256", None))]),
                 entity("Q35497", "Ancient Greek", claims=[("P31", item("Q34770", None))]),
                 entity("Q9129", "Greek", claims=[("P31", item("Q34770", None))]),
                 entity("Q456", "Lyon", claims=[("P17", item("Q142", None))]),
                 entity("Q600", "Phocais", claims=[("P407", item("Q35497", None))]),
                 entity("Q601", "Odyssey Notes", claims=[("P407", item("Q9129", None))])] +
                # enough subjects holding one value each for the judge to measure both properties as exclusive
                [entity(f"Q{1000 + i}", f"Town {i}", claims=[("P17", item(("Q142", "Q40")[i % 2], None))])
                 for i in range(30)] +
                [entity(f"Q{2000 + i}", f"Epic {i}", claims=[("P407", item(("Q35497", "Q9129")[i % 2], None))])
                 for i in range(30)])
    swap = _claim(verify_text(kg2, "Lyon is a large town of Austria."), "Austria")
    assert (swap.reader, swap.verdict.verdict) == ("types", REFUTED) and "France" in swap.verdict.corrections
    reading = _claim(verify_text(kg2, "Phocais was an epic in Greek."), "Greek")
    assert reading.reader == "types" and reading.verdict.verdict != REFUTED


def test_a_type_read_swap_of_a_classless_value_that_fills_the_property_elsewhere_is_refuted(kg_of):
    # No classes to compare: the claimed river is a mouth as often as a tributary (2 and 2 of its 5 uses), so the
    # property is its likeliest reading and the swap is REFUTED; a river more often a tributary that is a mouth
    # once (the Emme, of the Ilfis) is of the kind too; a lake the graph never gives as a mouth is not (lakes are
    # mouths, so the type suggests the property, but the Shatt Canal has no class to compare the lake with).
    def river(qid, label, **claims):
        return entity(qid, label, "river", claims=[(p, item(v, None)) for p, vs in claims.items() for v in vs])

    kg2 = kg_of([prop("P403", "mouth of the watercourse", "wikibase-item"), prop("P974", "tributary", "wikibase-item"),
                 prop("P206", "located next to body of water", "wikibase-item"),
                 river("Q70", "Shatt Canal"), river("Q71", "Aare"), river("Q72", "Emme"),
                 river("Q73", "Euphrates", P403=["Q70"]),
                 river("Q74", "Reuss", P403=["Q71"]), river("Q75", "Limmat", P403=["Q71"]),
                 river("Q76", "Saane", P974=["Q71", "Q72"]), river("Q77", "Sense", P974=["Q71", "Q72"]),
                prop("P31", "instance of", "wikibase-item"), entity("Q81", "lake"),
                entity("Q82", "Lake Constance", claims=[("P31", item("Q81", None))]),
                entity("Q84", "Lake Geneva", claims=[("P31", item("Q81", None))]), river("Q83", "Alpenrhein", P403=["Q82"]),
                 river("Q78", "Brienz Lake", P206=["Q71"]), river("Q79", "Ilfis", P403=["Q72"])] +
                [river(f"Q{3000 + i}", f"Brook {i}", P403=[("Q70", "Q79")[i % 2]]) for i in range(30)])
    swap = _claim(verify_text(kg2, "The Euphrates empties into the Aare."), "Aare")
    assert (swap.reader, swap.claim.property_id, swap.verdict.verdict) == ("types", "P403", REFUTED)
    assert "Shatt Canal" in swap.verdict.corrections
    other = _claim(verify_text(kg2, "The Euphrates empties into the Emme."), "Emme")
    assert (other.claim.property_id, other.verdict.verdict) == ("P403", REFUTED)
    # the gate itself, on the graph's refutation of a lake as the Euphrates' mouth (no reader offers that claim here)
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.model import Claim
    from kgcheck.verifier.text.verify import _swap_of_a_kind

    refuted = Checker(kg2).check([Claim(id="c", subject="Euphrates", predicate="mouth of the watercourse",
                                        object=name, subject_id="Q73", property_id="P403", object_id=qid)
                                  for qid, name in (("Q84", "Lake Geneva"), ("Q72", "Emme"))])
    assert [v.verdict for v in refuted] == [REFUTED, REFUTED]
    assert [_swap_of_a_kind(kg2, v) for v in refuted] == [False, True]


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


def test_the_types_reader_takes_the_relation_the_nearest_property_word_names(kg_of):
    # Bronze Shell is a nominee's award twice in the graph and nobody's win: its type alone reads "nominated for".
    props = [B.prop("P166", "award received", "wikibase-item"), B.prop("P1411", "nominated for", "wikibase-item")]
    award = lambda qid, label: B.entity(qid, label, "film award", claims=[("P31", item("Q618779", None))])  # noqa: E731
    shells = [B.entity("Q618779", "film award"), award("Q701", "Golden Shell"), award("Q702", "Silver Shell"),
              award("Q703", "Bronze Shell")]
    films = [B.entity(q, label, "film", claims=[("P31", item("Q11424", None)), *claims]) for q, label, claims in [
        ("Q808", "Night Ferry", [("P166", item("Q702", None)), ("P1411", item("Q701", None))]),
        ("Q809", "Low Tide", [("P1411", item("Q703", None))]), ("Q810", "High Water", [("P1411", item("Q703", None))])]]
    kg = kg_of(ENTITIES + props + shells + films)
    tc = _claim(verify_text(kg, "Night Ferry won the Bronze Shell."), "Bronze Shell")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q808", "P166", "types")
    assert tc.verdict.verdict != SUPPORTED


def test_a_place_of_death_no_one_was_born_in_can_still_be_a_birthplace(kg_of):
    """In a sparse graph Velden, a market town, is only a place of death, and Lena Ott's birthplace (Graz, a city)
    shares no class with it, while her residence does: once her residence was read. But market towns are what
    birthplaces are too (words.may_be_value) and "born" names place of birth, so the types reader claims her
    birthplace as the word states it (tagged triggers), flagged with Graz; "lives in Velden" stays her residence."""
    town = lambda qid, label: entity(qid, label, "market town", claims=[("P31", item("Q1637706", None))])  # noqa: E731
    extra = [prop("P20", "place of death", "wikibase-item"), prop("P551", "residence", "wikibase-item"),
             entity("Q1637706", "market town"), town("Q7050", "Velden"), town("Q7051", "Oberdorf"),
             town("Q7052", "Kirchdorf"),
             B.entity("Q7150", "Person Last", "person", claims=[("P31", item("Q5", None)), ("P20", item("Q7050", None)),
                                                                ("P19", item("Q7051", None))]),
             B.entity("Q7151", "Lena Ott", "person", claims=[("P31", item("Q5", None)), ("P19", item("Q13298", None)),
                                                             ("P551", item("Q7052", None))])]
    kg = kg_of(ENTITIES + extra)
    tc = _claim(verify_text(kg, "Lena Ott was born in Velden."), "Velden")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q7151", "P19", "triggers")
    assert tc.verdict.verdict != SUPPORTED and "Graz" in _graph_values(tc)
    lives = _claim(verify_text(kg, "Lena Ott lives in Velden."), "Velden")
    assert (lives.claim.property_id, lives.reader) == ("P551", "types")


def _speakers_graph(kg_of, couples: int = 0):
    """Languages spoken (P1412) are languages in the graph: 12 of its 13 values (Esperanto, a constructed language,
    the thirteenth). Nobody speaks Thai. Place named after (P138) takes a person once in four."""
    lang = lambda qid, label: entity(qid, label, "language", claims=[("P31", item("Q34770", None))])  # noqa: E731
    people = [B.entity(f"Q{7300 + i}", f"Speaker {i}", "person",
                       claims=[("P31", item("Q5", None)), ("P1412", item(("Q7201", "Q7202", "Q7203")[i % 3], None))])
              for i in range(12)]
    places = [B.entity(f"Q{7400 + i}", f"Square {i}", "square",
                       claims=[("P138", item("Q901" if i == 0 else ("Q142", "Q40", "Q456")[i % 3], None))])
              for i in range(4)]
    wed = [B.entity(f"Q{7500 + i}", f"Partner {i}", "person", claims=[("P31", item("Q5", None)),
                                                                        ("P26", item(f"Q{7300 + i}", None))])
           for i in range(couples)]  # spouses of the speakers, all people
    return kg_of(ENTITIES + people + places + wed + [
        prop("P1412", "languages spoken, written or signed", "wikibase-item"),
        prop("P26", "spouse", "wikibase-item"), prop("P138", "named after", "wikibase-item"),
        entity("Q34770", "language"), entity("Q33289", "constructed language"),
        lang("Q7201", "Basque"), lang("Q7202", "Welsh"), lang("Q7203", "Breton"), lang("Q9217", "Thai"),
        entity("Q143", "Esperanto", claims=[("P31", item("Q33289", None))]),
        B.entity("Q7160", "Ida Roux", "person", claims=[("P31", item("Q5", None)), ("P1412", item("Q143", None)),
                                                        ("P26", item("Q7161", None)), ("P138", item("Q142", None))]),
        B.entity("Q7161", "Marc Roux", "person")])


def test_the_types_reader_reads_a_value_of_the_kind_a_held_property_mostly_takes(kg_of):
    """Thai shares no class with Esperanto, the one language Ida Roux speaks, and no one speaks Thai; but languages
    are what "languages spoken" mostly gives (12 of its 13 values), so the words claim she spoke Thai: flagged with
    Esperanto. A person is no such kind of "named after" (1 of 4 values; hers is a country) or of her spouse (a
    classless value)."""
    kg = _speakers_graph(kg_of)
    tc = _claim(verify_text(kg, "Ida Roux often spoke Thai."), "Thai")
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q7160", "P1412", "types")
    assert tc.verdict.verdict != SUPPORTED and "Esperanto" in _graph_values(tc)
    report = verify_text(kg, "Ida Roux met Carla Moreau.")
    assert not [c for c in report.claims if c.claim.property_id in ("P138", "P26")], \
        [(c.span, c.claim.property_id, c.reader) for c in report.claims]


def test_a_property_word_before_the_value_outweighs_the_kind_the_subject_holds(kg_of):
    """Spouses are people in this graph (her husband's class is unknown): Carla Moreau is of the kind of Ida Roux's
    spouse, but "directed by Carla Moreau" names the director, so the value's kind does not make her the spouse."""
    kg = _speakers_graph(kg_of, couples=6)
    met = _claim(verify_text(kg, "Ida Roux met Carla Moreau."), "Carla Moreau")
    assert (met.claim.property_id, met.reader) == ("P26", "types") and "Marc Roux" in _graph_values(met)
    report = verify_text(kg, "Ida Roux was directed by Carla Moreau.")
    assert not [c for c in report.claims if c.claim.property_id == "P26"], \
        [(c.span, c.claim.property_id, c.reader) for c in report.claims]


class _Shares:
    """A schema of fixed shares: per property, the share of the subject's class holding it and of its values of
    the class asked."""
    def __init__(self, held_share, value_share):
        self.held_share, self.value_share = held_share, value_share

    def datatype(self, pid):
        return "wikibase-item"

    def class_holds(self, classes, pid):
        return self.held_share.get(pid, 0.0)

    def takes(self, pid, classes):
        return self.value_share.get(pid, 0.0)


@pytest.mark.parametrize("held_share, value_share, expected", [
    ({"P1412": 0.48, "P103": 0.07, "P6886": 0.06}, {"P1412": 0.82, "P103": 0.74, "P6886": 0.87}, "P1412"),
    # people: spouse, sibling, child, influence — none likelier than the rest together
    ({"P26": 0.13, "P3373": 0.06, "P40": 0.05, "P737": 0.06}, {"P26": 1.0, "P3373": 1.0, "P40": 1.0, "P737": 0.98},
     None),
    # the likeliest by far, but its values are mostly of another kind (a person once in four "named after")
    ({"P138": 0.5, "P26": 0.05}, {"P138": 0.25, "P26": 0.0}, None),
])
def test_the_property_a_kind_of_value_fills_is_a_majority_both_ways(held_share, value_share, expected):
    from kgcheck.verifier.text.words import SubjectView

    view = SubjectView(_Shares(held_share, value_share), frozenset(held_share), frozenset({"Q5"}),
                       dict(held_share), ())
    assert view.filled_by_kind({"Q34770"}) == expected


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
