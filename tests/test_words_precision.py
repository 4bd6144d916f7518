"""False alarms the free-text readers must not raise (verifier/text/words.py, verify.py): the preposition a property's
name ends with is part of it; a word naming several properties the subject holds none of says none of them; a date
is another named thing's only when the subject cannot hold its property; a description dates only a subject named
before it; a value listed beside the graph's own value of the property is not refuted."""
from __future__ import annotations

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop

COUNTRIES = [entity("Q6256", "country"), entity("Q833", "Malaysia", claims=[("P31", item("Q6256", None))]),
             entity("Q16", "Canada", claims=[("P31", item("Q6256", None))])]


def _claims(report, span):
    """(property, reader, the graph's values shown, or SUPPORTED) of the claims on SPAN."""
    return [(c.claim.property_id, c.reader, SUPPORTED if c.verdict.verdict == SUPPORTED else
             sorted({e.value for e in c.verdict.evidence} | set(c.verdict.corrections)))
            for c in report.claims if c.span == span]


def test_a_name_ending_in_a_preposition_is_said_only_with_it(kg_of):
    # "playing in" (an alias of narrative location) is not said by "played for": the player's sporting country is
    # read from the value's type instead, not SUPPORTED, with the graph's value.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"),
                prop("P840", "narrative location", "wikibase-item", aliases=["playing in"]),
                prop("P1532", "country for sport", "wikibase-item"), *COUNTRIES,
                entity("Q900", "Dina Soon", "badminton player", claims=[("P1532", item("Q16", None))]),
                entity("Q901", "Harbour Tale", "film", claims=[("P840", item("Q833", None))]),
                entity("Q902", "Cold Coast", "film", claims=[("P840", item("Q16", None))])])
    wrong = verify_text(kg, "Dina Soon played for Malaysia in doubles.")
    assert _claims(wrong, "Malaysia") == [("P1532", "types", ["Canada"])]
    right = verify_text(kg, "Dina Soon played for Canada in doubles.")
    assert _claims(right, "Canada") == [("P1532", "linked", SUPPORTED)]
    # With the preposition the name is said: a story playing in Canada is read as its narrative location.
    story = verify_text(kg, "Harbour Tale is playing in Canada.")
    assert _claims(story, "Canada") == [("P840", "words", ["Malaysia"])]


def test_a_word_naming_several_properties_the_subject_holds_none_of_reads_none(kg_of):
    # "music by" names both composer and performer; a song that holds neither (and has no class to measure) gets no
    # claim from the word: which one is meant, the words do not say. Holding one of them, the word reads it.
    props = [prop("P31", "instance of", "wikibase-item"),
             prop("P86", "composer", "wikibase-item", aliases=["music by"]),
             prop("P175", "performer", "wikibase-item", aliases=["music by"]),
             prop("P136", "genre", "wikibase-item")]
    people = [entity("Q5", "human"), entity("Q71", "Ivo Marr", claims=[("P31", item("Q5", None))]),
              entity("Q72", "Lena Voss", claims=[("P31", item("Q5", None))]),
              # Ivo Marr composed one tune and performed another: "music by Ivo Marr" fits either reading.
              entity("Q73", "Other Tune", claims=[("P86", item("Q71", None))]),
              entity("Q74", "Third Tune", claims=[("P175", item("Q71", None))])]
    kg = kg_of(props + people + [entity("Q70", "Quiet Song", claims=[("P136", item("Q5", None))])])
    assert [r for _, r, _ in _claims(verify_text(kg, "Quiet Song, music by Ivo Marr, was a hit."), "Ivo Marr")
            if r == "words"] == []
    kg = kg_of(props + people + [entity("Q70", "Quiet Song", claims=[("P86", item("Q72", None))])])
    held = verify_text(kg, "Quiet Song, music by Ivo Marr, was a hit.")
    assert _claims(held, "Ivo Marr") == [("P86", "words", ["Lena Voss"])]


def test_a_date_is_another_named_things_only_when_the_subject_cannot_hold_its_property(kg_of):
    # The journal (no class, no inception in the graph) may well have been established: the date is not the
    # publisher's, whose inception the graph holds.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P571", "inception", "time", aliases=["established"]),
                prop("P123", "publisher", "wikibase-item", aliases=["published by"]),
                entity("Q50", "Wayne Press", claims=[("P571", B.time("+1868-01-01T00:00:00Z", 9))]),
                entity("Q51", "Annals of Tides", claims=[("P123", item("Q50", None))])])
    report = verify_text(kg, "Annals of Tides was established in 2002, and is published by Wayne Press.")
    assert [(c.claim.subject_id, c.claim.property_id) for c in report.claims if c.span == "2002"] == [("Q51", "P571")]
    assert not [c for c in report.claims if c.verdict.verdict == "REFUTED"]  # the graph has no inception of it


def test_a_description_dates_only_a_subject_named_before_it(kg_of):
    # "… is a 2001 short film, shown in Mitaka, Japan": the film's name is not in the graph; Japan, named after the
    # date, is not what the description describes.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P571", "inception", "time"),
                entity("Q17", "Japan", claims=[("P571", B.time("+1947-05-03T00:00:00Z", 11))])])
    report = verify_text(kg, '"Whale Hunt" is a 2001 short film, shown only in Mitaka, Japan.')
    assert [c.claim.subject_id for c in report.claims if c.span == "2001"] == []
    # (a subject named before the date is still dated: test_words.test_wrong_year_next_to_film)


def test_a_value_listed_beside_the_graphs_value_is_not_refuted(kg_of):
    # Distribution format is measured single-valued; a text that names the graph's value and another beside it says
    # by its own words that this game has several: the other may be missing from the graph (open world).
    formats = [entity("Q3", "distribution format"),
               entity("Q4", "floppy disk", claims=[("P31", item("Q3", None))]),
               entity("Q5", "CD-ROM", claims=[("P31", item("Q3", None))])]
    games = [entity(f"Q{100 + i}", f"Game {i}", claims=[("P437", item(("Q4", "Q5")[i % 2], None))]) for i in range(30)]
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P437", "distribution format", "wikibase-item"),
                *formats, *games, entity("Q90", "Dark Quest", claims=[("P437", item("Q4", None))])])
    listed = verify_text(kg, "Dark Quest was available on both floppy disk and CD-ROM.")
    assert _claims(listed, "floppy disk") == [("P437", "linked", SUPPORTED)]
    [(pid, reader, shown)] = _claims(listed, "CD-ROM")
    cd = next(c for c in listed.claims if c.span == "CD-ROM")
    assert (pid, reader, shown, cd.verdict.verdict) == ("P437", "types", ["floppy disk"], "NOT_ENOUGH_INFO")
    alone = verify_text(kg, "Dark Quest was available on CD-ROM.")
    assert [(c.claim.property_id, c.reader, c.verdict.verdict) for c in alone.claims if c.span == "CD-ROM"] == \
        [("P437", "types", "REFUTED")]


def test_a_description_after_a_bracketed_aside_is_still_the_subjects(kg_of):
    # "Renaud Lavillenie ([.no la.vi.l.ni]; born 18 September 1986) is a French pole vaulter": the asides are read past.
    occupations = [entity("Q10", "pole vaulter"), entity("Q11", "basketball player")]
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P106", "occupation", "wikibase-item"),
                *occupations, entity("Q20", "Ann Hoop", claims=[("P106", item("Q11", None))]),
                entity("Q21", "Lena Voss", claims=[("P106", item("Q10", None))])])
    text = "Lena Voss (born 18 September 1986 in Boulogne-sur-Mer; also written Lena Vos) is a French {}."
    wrong = verify_text(kg, text.format("basketball player"))
    assert _claims(wrong, "basketball player") == [("P106", "types", ["pole vaulter"])]
    right = verify_text(kg, text.format("pole vaulter"))
    assert [v for _, _, v in _claims(right, "pole vaulter")] == [SUPPORTED]


def test_a_common_noun_does_not_refute_a_value_the_graph_names_only_as_a_proper_name(kg_of):
    # "a general of the People's Liberation Army" beside the graph's "Shang Jiang" (that army's general rank): the
    # common noun may be the generic word for it. Beside another common noun ("colonel") it is a swap of a kind.
    ranks = [entity("Q1", "military rank"),
             entity("Q83", "general officer", claims=[("P31", item("Q1", None))], aliases=["general"]),
             entity("Q84", "colonel", claims=[("P31", item("Q1", None))]),
             entity("Q85", "Shang Jiang", claims=[("P31", item("Q1", None))])]
    officers = [entity(f"Q{300 + i}", f"Officer {i}", claims=[("P410", item(("Q83", "Q84")[i % 2], None))])
                for i in range(30)]  # enough single-ranked officers for the rank to be measured single-valued
    kg = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P410", "military rank", "wikibase-item"),
                *ranks, *officers, entity("Q90", "Wang Li", claims=[("P410", item("Q85", None))]),
                entity("Q91", "Chen Bo", claims=[("P410", item("Q84", None))])])

    def verdicts(text):
        return [(c.claim.property_id, c.reader, c.verdict.verdict) for c in verify_text(kg, text).claims
                if c.span == "general"]
    assert verdicts("Wang Li was a general of the army.") == [("P410", "types", "NOT_ENOUGH_INFO")]
    assert verdicts("Chen Bo was a general of the army.") == [("P410", "types", "REFUTED")]


def test_a_property_words_value_is_the_first_name_after_it(kg_of):
    # "a sequel, Lolo II, that came out in Japan": Lolo II is the sequel, Japan is not, though Japan was once a
    # "followed by" value elsewhere (its roles tie, so the types reader makes no claim either). A list of names, or
    # a possessive before the name ("Ann Reed's novel Old Lolo"), goes on to the word's value.
    kg = kg_of([prop("P31", "instance of", "wikibase-item"),
                prop("P156", "followed by", "wikibase-item", aliases=["sequel"]),
                prop("P495", "country of origin", "wikibase-item"),
                prop("P144", "based on", "wikibase-item", aliases=["adaptation of"]),
                prop("P123", "publisher", "wikibase-item", aliases=["published by"]),
                prop("P407", "language of work", "wikibase-item"),
                entity("Q21", "Japanese"), entity("Q22", "Harbour Press"), entity("Q23", "Quay Books"),
                entity("Q17", "Japan"), entity("Q18", "France"), entity("Q20", "Ann Reed"),
                entity("Q10", "Empire", claims=[("P156", item("Q17", None))]),
                entity("Q19", "Reel", claims=[("P495", item("Q17", None))]),
                entity("Q11", "Lolo", claims=[("P156", item("Q12", None)), ("P495", item("Q18", None)),
                                              ("P144", item("Q14", None)), ("P123", item("Q23", None))]),
                entity("Q12", "Lolo II"), entity("Q13", "Lolo III"), entity("Q14", "Young Lolo"),
                entity("Q15", "Old Lolo")])
    report = verify_text(kg, "Lolo had a sequel, Lolo II, that came out in Japan.")
    assert _claims(report, "Lolo II") == [("P156", "linked", SUPPORTED)]
    assert _claims(report, "Japan") == []
    listed = verify_text(kg, "Lolo had sequels, Lolo II and Lolo III.")
    assert [(p, r) for p, r, _ in _claims(listed, "Lolo III")] == [("P156", "words")]
    owned = verify_text(kg, "Lolo is an adaptation of Ann Reed's novel Old Lolo.")
    assert [(p, r) for p, r, _ in _claims(owned, "Old Lolo")] == [("P144", "words")]
    # A name in a phrase of its own between them is not the word's object: "published in Japanese by Harbour Press".
    press = verify_text(kg, "Lolo was published in Japanese by Harbour Press.")
    assert [(p, r) for p, r, _ in _claims(press, "Harbour Press")] == [("P123", "words")]
