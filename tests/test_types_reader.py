"""The types reader (verifier/text/words.py): a claim whose relation is read from the kind of value named — its class
against the subject's values, its role in the graph, or the property such a value most likely fills — judged by the
graph; a swap is REFUTED only between values of a kind (verifier/text/verify.py)."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B, claim_on as _claim, entity, graph_values as _graph_values, item, prop


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
    from kgcheck.verifier.text.refutations import swap_of_a_kind as _swap_of_a_kind

    refuted = Checker(kg2).check([Claim(id="c", subject="Euphrates", predicate="mouth of the watercourse",
                                        object=name, subject_id="Q73", property_id="P403", object_id=qid)
                                  for qid, name in (("Q84", "Lake Geneva"), ("Q72", "Emme"))])
    assert [v.verdict for v in refuted] == [REFUTED, REFUTED]
    assert [_swap_of_a_kind(kg2, v) for v in refuted] == [False, True]


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
    # the word stands right before the value: the relation is stated, no longer a type's guess (the triggers tag)
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q808", "P166", "triggers")
    assert tc.verdict.verdict != SUPPORTED
    # a word further off only breaks the tie between the properties the value's type fits
    far = _claim(verify_text(kg, "Night Ferry won praise and, later that year, the Bronze Shell."), "Bronze Shell")
    assert (far.claim.property_id, far.reader) == ("P166", "types")


def test_a_property_word_right_before_a_type_read_value_states_the_relation(kg_of):
    """Ottawa is a capital, Hong Kong a city, and Ottawa fills "filming location" less often than "place of birth":
    read by type alone, "in Ottawa" is no swap of a kind, only doubtful (NOT_ENOUGH_INFO). "filmed in Ottawa" states
    the relation, so the graph's one filming location refutes it (30 films, one filming location each)."""
    props = [B.prop("P915", "filming location", "wikibase-item", aliases=["filmed at"])]
    places = [B.entity("Q515", "city"), B.entity("Q5119", "capital"),
              B.entity("Q8646", "Hong Kong", claims=[("P31", item("Q515", None))]),
              B.entity("Q1930", "Ottawa", claims=[("P31", item("Q5119", None))])]
    people = [B.entity(f"Q{4100 + i}", f"Ann Lee {i}", claims=[("P19", item("Q1930", None))]) for i in range(2)]
    films = [B.entity("Q462155", "The Jade Lantern", "film",
                      claims=[("P31", item("Q11424", None)), ("P915", item("Q8646", None))]),
             B.entity("Q4200", "Snow Bridge", "film", claims=[("P31", item("Q11424", None)), ("P915", item("Q1930", None))])]
    films += [B.entity(f"Q{4300 + i}", f"Reel {i}", "film",
                       claims=[("P31", item("Q11424", None)), ("P915", item("Q8646", None))]) for i in range(30)]
    kg = kg_of(ENTITIES + props + places + people + films)
    stated = _claim(verify_text(kg, "The Jade Lantern was the first film to be filmed in Ottawa."), "Ottawa")
    assert (stated.claim.property_id, stated.reader, stated.verdict.verdict) == ("P915", "triggers", REFUTED)
    assert "Hong Kong" in stated.verdict.corrections
    guessed = _claim(verify_text(kg, "The Jade Lantern opens with a long night in Ottawa."), "Ottawa")
    assert (guessed.claim.property_id, guessed.reader) == ("P915", "types")
    assert guessed.verdict.verdict not in (REFUTED, SUPPORTED)


def test_a_place_of_death_no_one_was_born_in_can_still_be_a_birthplace(kg_of):
    """In a sparse graph Velden, a market town, is only a place of death, and Lena Ott's birthplace (Graz, a city)
    shares no class with it, while her residence does: once her residence was read. But market towns are what
    birthplaces are too (words.may_be_value) and "born in" names place of birth right before it, so the words reader
    claims her birthplace by the town's class (before 2026-11-30 the types reader did, tagged triggers), flagged with
    Graz; "lives in Velden" stays her residence."""
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
    assert (tc.claim.subject_id, tc.claim.property_id, tc.reader) == ("Q7151", "P19", "words")
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
    # "wrote" names the author, which a language cannot be: it does not stand against the language's kind
    wrote = _claim(verify_text(kg, "Ida Roux wrote chiefly in Thai."), "Thai")
    assert (wrote.claim.property_id, wrote.reader) == ("P1412", "types") and wrote.verdict.verdict != SUPPORTED


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
    from kgcheck.verifier.text.subjectview import SubjectView

    view = SubjectView(_Shares(held_share, value_share), frozenset(held_share), frozenset({"Q5"}),
                       dict(held_share), ())
    assert view.filled_by_kind({"Q34770"}) == expected


def test_a_description_names_a_value_no_one_holds_by_the_property_its_kind_is_named_after(kg_of):
    # "a farce film": no film's genre is farce in the graph (no role), but farce is a comedic genre, a kind of genre
    # the graph gives (slapstick), and "genre" is a property the film holds: a genre claim, judged against the
    # graph's genre. A value whose kind names no held property ("a kettle film": a kettle is a household item) gives
    # no claim, nor a subject without a genre.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P136", "genre", "wikibase-item"),
                prop("P57", "director", "wikibase-item"),
                entity("Q201", "film genre"), entity("Q202", "comedic genre"), entity("Q203", "household item"),
                entity("Q210", "comedy horror", claims=[("P31", item("Q201", None))]),
                entity("Q211", "farce", claims=[("P31", item("Q202", None))]),
                entity("Q212", "kettle", claims=[("P31", item("Q203", None))]),
                entity("Q213", "slapstick", claims=[("P31", item("Q202", None))]),
                entity("Q222", "Pie Fight", claims=[("P136", item("Q213", None))]),
                entity("Q901", "Alice Brandt"),
                entity("Q220", "Bug Hunter", claims=[("P136", item("Q210", None)), ("P57", item("Q901", None))]),
                entity("Q221", "Night Shift Blues", claims=[("P57", item("Q901", None))])])
    farce = _claim(verify_text(kg, "Bug Hunter is a 1998 American farce film directed by Alice Brandt."), "farce")
    assert (farce.reader, farce.claim.property_id, farce.claim.object_id) == ("types", "P136", "Q211")
    assert farce.verdict.verdict != SUPPORTED and "comedy horror" in _graph_values(farce)
    right = _claim(verify_text(kg, "Bug Hunter is a 1998 American comedy horror film."), "comedy horror")
    assert (right.claim.property_id, right.verdict.verdict) == ("P136", SUPPORTED)
    assert not [c for c in verify_text(kg, "Bug Hunter is a 1998 American kettle film.").claims if c.span == "kettle"]
    assert not [c for c in verify_text(kg, "Night Shift Blues is a 1998 farce film.").claims if c.span == "farce"]


def test_a_name_no_one_holds_is_read_as_the_property_its_kind_is_named_after(kg_of):
    # The film's studio and most studios of the graph are "film studios"; Avid Pictures is a "film production
    # company", a kind one production company in four is (too few for the kind a production company mostly is) and
    # no one's production company (no role), but the kind is named "production company": the words claim it,
    # flagged with the graph's studio. A household item's kind names nothing the film holds: no claim.
    studios = [entity(f"Q{60 + i}", f"Studio {i}", claims=[("P31", item("Q40" if i < 3 else "Q41", None))])
               for i in range(4)]
    films = [entity(f"Q{70 + i}", f"Reel {i}", claims=[("P272", item(f"Q{60 + i}", None))]) for i in range(4)]
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P272", "production company", "wikibase-item"),
                entity("Q40", "film studio"), entity("Q41", "film production company"), entity("Q42", "household item"),
                *studios, *films,
                entity("Q51", "Avid Pictures", claims=[("P31", item("Q41", None))]),
                entity("Q52", "Kettle Works", claims=[("P31", item("Q42", None))])])
    tc = _claim(verify_text(kg, "Reel 1 was a hit for Avid Pictures."), "Avid Pictures")
    assert (tc.claim.property_id, tc.reader) == ("P272", "types")
    assert tc.verdict.verdict != SUPPORTED and "Studio 1" in _graph_values(tc)
    assert not [c for c in verify_text(kg, "Reel 1 was a hit for Kettle Works.").claims if c.span == "Kettle Works"]


def _publishers_graph(kg_of):
    # Books with one publisher each (enough for the judge to measure "publisher" as single-valued); Kestrel Games, a
    # company and video game publisher the graph gives only as a developer, is nobody's publisher.
    def book(qid, label, publisher):
        return entity(qid, label, "book", claims=[("P123", item(publisher, None))])

    return kg_of([prop("P31", "instance of", "wikibase-item"), prop("P123", "publisher", "wikibase-item"),
                  prop("P178", "developer", "wikibase-item"),
                  entity("Q41", "publishing house"), entity("Q42", "company"), entity("Q43", "video game publisher"),
                  entity("Q3001", "Harbour Press", claims=[("P31", item("Q41", None))]),
                  entity("Q3002", "Lantern Books", claims=[("P31", item("Q42", None))]),
                  entity("Q3003", "Kestrel Games", claims=[("P31", item("Q42", None)), ("P31", item("Q43", None))]),
                  entity("Q3200", "Fen Runner", "video game", claims=[("P178", item("Q3003", None))]),
                  book("Q3100", "The Winter Atlas", "Q3001")] +
                 [book(f"Q{3300 + i}", f"Ledger {i}", ("Q3001", "Q3002")[i % 2]) for i in range(30)])


@pytest.mark.parametrize("between", ["published in 1928 by", "published in London by", "published by"])
def test_a_time_or_place_between_a_verb_and_its_particle_keeps_the_words_reading(kg_of, between):
    # "published ... by" names the publisher though "in 1928" stands inside it (triggerwords.DETOUR): the claim is
    # the words' (tagged triggers; right after "published by", the words reader's by the value's class) and REFUTED
    # with the graph's publisher, not a kind-read guess (types) left open.
    kg = _publishers_graph(kg_of)
    wrong = _claim(verify_text(kg, f"The Winter Atlas was first {between} Kestrel Games."), "Kestrel Games")
    assert (wrong.claim.property_id, wrong.verdict.verdict) == ("P123", REFUTED)
    assert wrong.reader == ("words" if between == "published by" else "triggers")
    assert "Harbour Press" in wrong.verdict.corrections
    right = _claim(verify_text(kg, f"The Winter Atlas was first {between} Harbour Press."), "Harbour Press")
    assert (right.claim.property_id, right.verdict.verdict) == ("P123", SUPPORTED)


def test_values_of_classes_named_after_the_property_are_of_a_kind(kg_of):
    # The graph joins no class of drum and bass (a music genre) with comedy horror's (a film genre), but both classes
    # are named after "genre": a type-read swap between them is REFUTED, as it is against a genre the graph gives no
    # class; a city read as a genre is not of the kind (NOT_ENOUGH_INFO, the sentence may mean another relation).
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.model import Claim
    from kgcheck.verifier.text.refutations import swap_of_a_kind as _swap_of_a_kind

    def film(qid, label, genre):
        return entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P136", item(genre, None))])

    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P136", "genre", "wikibase-item"),
                 entity("Q11424", "film"), entity("Q51", "music genre"), entity("Q52", "film genre"),
                 entity("Q515", "city"),
                 entity("Q60", "comedy horror", claims=[("P31", item("Q52", None))]), entity("Q61", "slapstick"),
                 entity("Q62", "drum and bass", claims=[("P31", item("Q51", None))]),
                 entity("Q64", "jungle", claims=[("P31", item("Q51", None))]),
                 entity("Q63", "Harbour Town", claims=[("P31", item("Q515", None))]),
                 entity("Q80", "Night Bus", "song", claims=[("P136", item("Q64", None))]),
                 film("Q70", "Hello Stranger", "Q60"), film("Q71", "Low Tide", "Q61")] +
                [film(f"Q{4000 + i}", f"Reel {i}", ("Q60", "Q61")[i % 2]) for i in range(30)])
    refuted = Checker(kg2).check([Claim(id="c", subject=s, predicate="genre", object=name, subject_id=sid,
                                        property_id="P136", object_id=qid)
                                  for sid, s, qid, name in (("Q70", "Hello Stranger", "Q62", "drum and bass"),
                                                            ("Q71", "Low Tide", "Q62", "drum and bass"),
                                                            ("Q70", "Hello Stranger", "Q63", "Harbour Town"))])
    assert [v.verdict for v in refuted] == [REFUTED] * 3
    assert [_swap_of_a_kind(kg2, v) for v in refuted] == [True, True, False]
    swap = _claim(verify_text(kg2, "Hello Stranger is a short drum and bass film."), "drum and bass")
    assert (swap.claim.property_id, swap.verdict.verdict) == ("P136", REFUTED)
    assert "comedy horror" in swap.verdict.corrections
