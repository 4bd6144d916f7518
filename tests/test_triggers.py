"""The triggers reader (verifier/text/triggers.py): a property word ("won", "directed") and the name after it.

Whose claim it is: the sentence's subject, unless the word follows another name as a verb follows its subject
("… the festival, where Night Ferry won the Golden Shell") and the graph gives that name the relation.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.triggers import clause_subject
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B

AWARDS = [
    B.prop("P166", "award received", "wikibase-item"),
    B.entity("Q618779", "award"),
    B.entity("Q701", "Golden Shell", "film award", claims=[("P31", B.item("Q618779", None))]),
    B.entity("Q702", "Silver Shell", "film award", claims=[("P31", B.item("Q618779", None))]),
    B.entity("Q703", "Harbour Film Festival", "film festival"),
    B.entity("Q807", "Low Tide", "film", claims=[("P31", B.item("Q11424", None)), ("P166", B.item("Q701", None))]),
    B.entity("Q808", "Night Ferry", "film", claims=[("P31", B.item("Q11424", None)), ("P166", B.item("Q702", None))]),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + AWARDS)


def _on(report, span):
    return [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in report.claims if c.span == span]


def test_the_name_before_the_verb_is_who_won_not_the_sentences_subject(kg):
    text = "The Harbour Film Festival opened in May, where Night Ferry won the Golden Shell."
    found = _on(verify_text(kg, text), "Golden Shell")
    assert found and found[0][:2] == ("Q808", "P166") and found[0][2] != SUPPORTED
    right = _on(verify_text(kg, "The Harbour Film Festival opened in May, where Night Ferry won the Silver Shell."),
                "Silver Shell")
    assert right and right[0] == ("Q808", "P166", SUPPORTED)


def test_without_the_relation_in_the_graph_the_word_stays_the_subjects(kg):
    # Alice Brandt holds no award: the verb's name does not take the claim (the reader reads as before).
    found = _on(verify_text(kg, "The Harbour Film Festival opened in May, where Alice Brandt won the Golden Shell."),
                "Golden Shell")
    assert all(subject != "Q901" for subject, _, _ in found)


def _mentions(sentence, *names):
    return [Mention(sentence.index(n), sentence.index(n) + len(n), n, f"Q{i}") for i, n in enumerate(names)]


@pytest.mark.parametrize("sentence, names, word, expected", [
    ("The festival, where Night Train later won the Golden Shell", ("festival", "Night Train", "Golden Shell"),
     "won", "Night Train"),
    ("The festival showed a film by Night Train won the Golden Shell", ("festival", "Night Train", "Golden Shell"),
     "won", None),  # a preposition's object is no verb's subject
    ("The festival showed Night Train starring Golden Shell", ("festival", "Night Train", "Golden Shell"),
     "starring", None),  # a participle modifies the noun before it
    ("The festival and Night Train won the Golden Shell", ("festival", "Night Train", "Golden Shell"), "won", None),
    ("The festival (Night Train) won the Golden Shell", ("festival", "Night Train", "Golden Shell"), "won", None),
    ("The festival where Night Train, a film, won the Golden Shell", ("festival", "Night Train", "Golden Shell"),
     "won", None),  # not right before the verb
])
def test_clause_subject(sentence, names, word, expected):
    ms = _mentions(sentence, *names)
    found = clause_subject(sentence, 0, ms, ms[0], ms[-1], sentence.index(word))
    assert (found.text if found else None) == expected


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from(["Night", "Ferry", "won", "the", "by", "(", ")", "later", "and", "starring",
                                       ",", "Golden", "Shell", "festival", "has", "of"]), min_size=1, max_size=14),
       picks=st.lists(st.integers(0, 13), max_size=4))
def test_clause_subject_never_fails_and_names_a_mention_before_the_word(words, picks):
    sentence = " ".join(words)
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
    ms = [Mention(starts[i], starts[i] + len(words[i]), words[i], f"Q{i}") for i in sorted(set(picks)) if i < len(words)]
    if len(ms) < 2:
        return
    for word_start in starts:
        found = clause_subject(sentence, 0, ms, ms[0], ms[-1], word_start)
        assert found is None or (found in ms and found.end <= word_start and found not in (ms[0], ms[-1]))


LANGUAGES = [
    B.prop("P1412", "languages spoken, written or signed", "wikibase-item"),
    B.entity("Q150", "French", "Romance language"),
    B.entity("Q904", "Dora Lind", "person", claims=[("P31", B.item("Q5", None))]),
    B.entity("Q905", "Eva Roth", "person", claims=[("P31", B.item("Q5", None)), ("P1412", B.item("Q150", None))]),
    B.prop("P131", "located in the administrative territorial entity", "wikibase-item"),
    B.entity("Q906", "Linz", "city", claims=[("P31", B.item("Q515", None))]),
    B.entity("Q907", "Nibelungen Bridge", "bridge", claims=[("P131", B.item("Q906", None))]),
]


def test_a_name_the_graph_gives_another_role_is_no_value_of_a_property_the_subject_lacks(kg_of):
    # "born" is a trigger of place of birth; "French" is a language in the graph (a value of languages spoken),
    # so "(born 1950) is a French engineer" claims no birthplace — while a place after "born" still does.
    kg = kg_of(ENTITIES + LANGUAGES)
    assert not [c for c in _on(verify_text(kg, "Dora Lind (born 1950) is a French engineer."), "French")
                if c[1] == "P19"]
    assert ("Q904", "P19") in [c[:2] for c in _on(verify_text(kg, "Dora Lind was born in Graz."), "Graz")]


def test_a_place_nobody_was_born_in_yet_is_still_a_birthplace_by_its_class(kg_of):
    # Linz is only a "located in" value in this graph (its role), but a city, the class of the graph's birthplaces.
    kg = kg_of(ENTITIES + LANGUAGES)
    assert ("Q904", "P19") in [c[:2] for c in _on(verify_text(kg, "Dora Lind, born 1950 in Linz, is an engineer."), "Linz")]


@pytest.mark.parametrize("text, value, word, found", [
    ("first published in 1928 by Harbour Press", "Harbour", "published by", ["published|by"]),
    ("Published in the United States by the X", "X", "published by", ["Published|by"]),
    ("released during the 1970s by X", "X", "released by", ["released|by"]),
    ("published by X", "X", "published by", ["published by"]),
    ("set in Paris in 1920", "1920", "set in", ["set in", "set|in"]),  # both: "set in" before Paris, and around it
    ("set in Paris in 1920", "Paris", "set in", ["set in"]),
    ("published in 1928 by X and Y", "Y", "published by", []),  # the value follows the particle
    ("published in 1928, by X", "X", "published by", []),  # a comma ends the detour
    ("published in A Small Town Near The Coast by X", "X", "published by", []),  # too long a name
    ("played in one season for X", "X", "played for", []),  # a time or place: a year or a name
    ("based on the display technology in X", "X", "based in", []),
    ("published with Notes by X", "X", "published by", []),  # a detour opens with a time or place preposition
])
def test_a_phrase_ending_in_a_particle_is_found_around_a_time_or_place_before_its_value(text, value, word, found):
    from kgcheck.verifier.text.triggerwords import word_hits

    hits = ["|".join(text[s:e] for s, e in m.parts) for _, m in word_hits(text, [("P", (word,))], text.index(value))]
    assert sorted(hits) == sorted(found)
    assert [text[m.start():m.end()] for _, m in word_hits(text, [("P", (word,))])] == [h for h in found if "|" not in h]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["published", "by", "in", "on", "during", "the", "1928", "London", "United", "States",
                                 "X", "of", "and", ",", "first", "Rome", "for", "played"]), max_size=14),
       st.integers(min_value=0, max_value=80))
def test_word_hits_parts_stand_in_order_before_the_value(words, value_at):
    # Whatever the words, a hit's parts are in order inside the text, a detour's particle ends where the value's
    # openers start, and without a value there are only whole phrases.
    from kgcheck.verifier.text.triggerwords import OBJECT_OPENS, word_hits

    text = " ".join(words)
    value_at = min(value_at, len(text))
    for _, m in word_hits(text, [("P123", ("published by",)), ("P54", ("played for",))], value_at):
        assert all(0 <= s < e <= len(text) for s, e in m.parts)
        assert all(a[1] < b[0] for a, b in zip(m.parts, m.parts[1:]))
        if len(m.parts) > 1:
            assert OBJECT_OPENS.fullmatch(text, m.end(), value_at)
    assert all(len(m.parts) == 1 for _, m in word_hits(text, [("P123", ("published by",))]))


def test_a_held_value_inside_the_name_is_read_as_the_relation_the_word_names(kg_of):
    # English is spoken in Kenya (its "country"): "born in Kenya" is still no claim about the languages he speaks,
    # which it had been, SUPPORTED as "less specific" than English. "born in England" of a man born in London is
    # his birthplace, less specific than the graph's.
    P = B.prop
    kg2 = kg_of([P("P31", "instance of", "wikibase-item"), P("P17", "country", "wikibase-item"),
                 P("P19", "place of birth", "wikibase-item"), P("P1412", "languages spoken", "wikibase-item"),
                 B.entity("Q5", "human"), B.entity("Q6256", "country"), B.entity("Q34770", "language"),
                 B.entity("Q114", "Kenya", claims=[("P31", B.item("Q6256", None))]),
                 B.entity("Q21", "England", claims=[("P31", B.item("Q6256", None))]),
                 B.entity("Q84", "London", claims=[("P17", B.item("Q21", None))]),
                 B.entity("Q1860", "English", claims=[("P31", B.item("Q34770", None)), ("P17", B.item("Q114", None)),
                                                      ("P17", B.item("Q21", None))]),
                 B.entity("Q901", "Rufus Brandt", claims=[("P31", B.item("Q5", None)), ("P1412", B.item("Q1860", None)),
                                                          ("P19", B.item("Q84", None))]),
                 B.entity("Q902", "Mara Quill", claims=[("P31", B.item("Q5", None)),
                                                        ("P1412", B.item("Q1860", None))])])
    kenya = verify_text(kg2, "Mara Quill was born in Kenya.")
    assert not [c for c in kenya.claims if c.claim.property_id == "P1412"], \
        [(c.claim.property_id, c.reader, c.verdict.verdict) for c in kenya.claims]
    england = _on(verify_text(kg2, "Rufus Brandt was born in England."), "England")
    assert england == [("Q901", "P19", SUPPORTED)]
