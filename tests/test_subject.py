"""Which name a sentence is about (verifier/text/subject.py) and the date of a name another date qualifies
(dating._dated_name): each test fails without the rule it names; the same sentence with the right value is
SUPPORTED."""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.subject import described_before, main_description, named_subject, opens_main_clause
from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.verify import verify_text
from test_about import SHOW
from wordgraph import ENTITIES, B

ALBUM = B.entity("Q808", "Tidewater", "album", claims=[("P31", B.item("Q482994", None)),
                                                       ("P577", B.time("+1987-01-01T00:00:00Z", 9))])


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + [SHOW, ALBUM, B.entity("Q482994", "album")])


def _on(report, subject_id, pid):
    return [c for c in report.claims if c.claim.subject_id == subject_id and c.claim.property_id == pid]


def _mentions(text, *names):
    return [Mention(text.index(n), text.index(n) + len(n), n, f"Q{k}") for k, n in enumerate(names)]


def _subject_of(text, *names):
    found = named_subject(text, 0, len(text), _mentions(text, *names))
    return found.text if found is not None else None


@pytest.mark.parametrize("text, names, subject", [
    # In an opening participle's phrase, a name is the subject only with its own verb after it.
    ("Written by Keys, Kanye West and Harold Lilly, the track was released in 2001.", ("Kanye West", "Harold Lilly"),
     None),
    ("Born in Paris, Anna Smith moved to Lyon.", ("Paris", "Anna Smith", "Lyon"), "Anna Smith"),
    ("Developed and marketed by Extreme Networks, AutoCAD was first released in 1982.",
     ("Extreme Networks", "AutoCAD"), "AutoCAD"),
    ("Born in 1950 in Lyon, Anna Smith was a painter.", ("Lyon", "Anna Smith"), "Anna Smith"),
    # Its verb after an aside between commas: the subject still, past a list the phrase opened with several words.
    ("Published in 1755 and written by Anna Smith, Tidewater, sometimes called Smith's Tides, is a novel.",
     ("Anna Smith", "Tidewater"), "Tidewater"),
    ("Written by Anna Smith, Tidewater, sometimes called Smith's Tides, is a novel.", ("Anna Smith", "Tidewater"),
     "Tidewater"),
    ("Written by Anna Smith, Bruno Keller, the track, was released in 2001.", ("Anna Smith", "Bruno Keller"), None),
    # An irregular participle opens such a phrase too: the place it is set in is no subject.
    ("Set in Seattle, Washington, in 1946, the novel is written in the voice of a narrator.",
     ("Seattle", "Washington"), None),
    ("Built in Lyon by Anna Smith, Tidewater was opened in 1987.", ("Lyon", "Anna Smith", "Tidewater"), "Tidewater"),
    ("Set in Stone is a 2010 album.", ("Set in Stone",), "Set in Stone"),
    # A year may stand between the preposition and the place; a fronted date before a subject and its verb is not.
    ("Set in 1973 Lyon during the war, the film tells the story of two pupils.", ("Lyon",), None),
    ("Set in 1930s Lyon, the novel follows a painter.", ("Lyon",), None),
    ("In 1955 Anna Smith became a painter.", ("Anna Smith",), "Anna Smith"),
    ("In 1921 Anna Smith and Bruno Keller founded Tidewater.", ("Anna Smith", "Bruno Keller", "Tidewater"),
     "Anna Smith"),
    # So in an indefinite noun phrase set before the subject.
    ("A member of the Lyon Union, Anna Smith moved to Paris.", ("Lyon Union", "Anna Smith", "Paris"), "Anna Smith"),
    ("An American film by Anna Smith, Tidewater was released in 1987.", ("Anna Smith", "Tidewater"), "Tidewater"),
    ("Established in 1999, Annals of Tides's founding editors were Anna Smith and Bruno Keller.",
     ("Annals of Tides", "Anna Smith"), "Annals of Tides"),
    ("Released on 2 October 1995, Morning Glory ? was produced by Anna Smith.", ("Morning Glory", "Anna Smith"),
     "Morning Glory"),
    # The title's closing mark stands between it and its verb: still the verb's subject, not an item of the list.
    ("Written and composed by Anna Smith, Morning Glory ! was adopted in 1983.", ("Anna Smith", "Morning Glory"),
     "Morning Glory"),
    ('Written and composed by Anna Smith, "Tidewater" was adopted in 1983.', ("Anna Smith", "Tidewater"),
     "Tidewater"),
    # An opening subordinate or prepositional phrase: its names before the comma are not the subject, unless
    # their own verb follows; names after the comma are read as ever.
    ("Following the dissolution of the Soviet Union, Anna Smith was elected.", ("Soviet Union", "Anna Smith"),
     "Anna Smith"),
    ("When Tidewater was released, it sold well.", ("Tidewater",), "Tidewater"),
    ("Unlike Lyon's neighbours Paris and Nice it is not listed.", ("Lyon", "Paris", "Nice"), "Lyon"),
    ("During the war, Anna Smith, a painter, moved to Lyon.", ("Anna Smith", "Lyon"), "Anna Smith"),
    # A name modifying the phrase's noun ("the German occupation") has no verb of its own there.
    ("During the German occupation, the film was made by Tidewater.", ("German", "Tidewater"), None),
    ("During the Anna Smith administration, Bruno Keller was elected.", ("Anna Smith", "Bruno Keller"),
     "Bruno Keller"),
    ("After Anna Smith left, the band recorded Tidewater.", ("Anna Smith", "Tidewater"), "Anna Smith"),
    ("After Earth is a film.", ("After Earth",), "After Earth"),
    # "As" opens such a phrase too (a role the subject held): what it is "of" is no subject.
    ("As the Lunar Module Pilot of Apollo 14, Anna Smith spent nine hours on the Moon.",
     ("Apollo 14", "Anna Smith", "Moon"), "Anna Smith"),
    ("As Anna Smith notes, Lyon is old.", ("Anna Smith", "Lyon"), "Anna Smith"),
    ("Previously a member of the Lyon Union, Anna Smith moved to Paris.", ("Lyon Union", "Anna Smith", "Paris"),
     "Anna Smith"),
    # A title opening on a participle is a name, not a phrase before the subject.
    ("Born in the U.S.A. was released by Columbia.", ("Born in the U.S.A.", "Columbia"), "Born in the U.S.A."),
    # A one-word name describing the next name is not the subject ...
    ("The American singer Anna Smith was born in Lyon.", ("American", "Anna Smith", "Lyon"), "Anna Smith"),
    # ... not a longer name, nor one a verb or a function word follows, nor a name after the first.
    ("The Lyon women's national team represents France in friendly matches.",
     ("Lyon women's national team", "France"), "Lyon women's national team"),
    ("The French company Renault acquired Nissan.", ("French", "Renault", "Nissan"), "Renault"),
    ("The FAR supports Anna Smith.", ("FAR", "Anna Smith"), "FAR"),
    ("Paris is the home of Anna Smith.", ("Paris", "Anna Smith"), "Paris"),
    # A place list after a preposition stays its object past items the gazetteer did not link ("Cappadocia").
    ("Filming took place in Seoul, Lyon and Cappadocia, Turkey.", ("Seoul", "Lyon", "Turkey"), None),
    ("Filming took place in Seoul, Cappadocia, Lyon.", ("Seoul", "Lyon"), None),
    ("In Seoul and Cappadocia, Anna Smith was born.", ("Seoul", "Anna Smith"), "Anna Smith"),
    ("In Seoul and Cappadocia, Anna Smith founded Tidewater.", ("Seoul", "Anna Smith", "Tidewater"), "Anna Smith"),
    # Words opening a list of examples are read as a preposition is.
    ("It ended in July, with other filming locations including Lyon, Seoul and Tokyo.", ("Lyon", "Seoul", "Tokyo"),
     None),
    ("Painters such as Anna Smith lived in Lyon.", ("Anna Smith", "Lyon"), None),
    ("Along with Anna Smith, Bruno Keller founded Tidewater.", ("Anna Smith", "Bruno Keller", "Tidewater"),
     "Bruno Keller"),
])
def test_which_name_is_the_subject(text, names, subject):
    assert _subject_of(text, *names) == subject


def test_a_noun_phrase_opens_with_an_article_and_content_words_only():
    assert described_before("An full-length animated motion picture X", 0, 39)
    assert not described_before("The director of X", 0, 16)


def test_the_description_opening_the_main_clause_is_the_subject():
    sentence = "After the album was shelved, the song was issued as a single in 1969."
    described = [(6, 15, ["album"]), (29, 37, ["song"])]
    assert main_description(sentence, described) == (29, 37, ["song"])
    assert main_description("The album was shelved.", [(0, 9, ["album"])]) == (0, 9, ["album"])
    # After words describing it, a name opens the main clause; after an article alone it heads no description.
    assert opens_main_clause("An animated film Night Train was made in 1995.", 17, 28)
    assert not opens_main_clause("A CD of the soundtrack was issued in 1997.", 2, 4)


def test_a_date_in_the_main_clause_after_a_subordinate_one_dates_the_topic(kg):
    # The graph gives the show no class: the descriptions stand for the topic; the main clause's is the subject.
    text = "After the series was shelved, the show was first aired on 30 October 1995."
    found = _on(verify_text(kg, text, about="Q807"), "Q807", "P577")
    assert found and found[0].verdict.verdict == REFUTED and "1990" in " ".join(found[0].verdict.corrections)
    right = _on(verify_text(kg, text.replace("1995", "1990"), about="Q807"), "Q807", "P577")
    assert right and right[0].verdict.verdict == SUPPORTED


def test_a_list_in_an_opening_participles_phrase_leaves_the_topic_the_subject(kg):
    text = "Directed by Keys, Bruno Keller and Alice Brandt, the show was first aired on 30 October 1995."
    found = _on(verify_text(kg, text, about="Q807"), "Q807", "P577")
    assert found and found[0].verdict.verdict == REFUTED
    assert not [c for c in verify_text(kg, text, about="Q807").claims if c.claim.subject_id in ("Q901", "Q902")]


def test_a_year_before_a_class_noun_and_a_name_dates_that_name(kg):
    text = "Night Train appeared on her 1990 album Tidewater."
    found = _on(verify_text(kg, text), "Q808", "P577")
    assert found and found[0].reader == "types" and found[0].verdict.verdict == REFUTED
    assert "1987" in " ".join(found[0].verdict.corrections)
    assert not _on(verify_text(kg, text), "Q802", "P577")  # not the subject's date
    right = _on(verify_text(kg, text.replace("1990", "1987")), "Q808", "P577")
    assert right and right[0].verdict.verdict == SUPPORTED
    # No class noun of the name between them, or no determiner before the year: no reading.
    assert not _on(verify_text(kg, "Night Train appeared on her 1990 tour Tidewater."), "Q808", "P577")
    assert not _on(verify_text(kg, "Night Train appeared in 1990 album Tidewater."), "Q808", "P577")


def test_an_opening_noun_phrase_leaves_its_head_name_the_subject(kg):
    text = "An animated motion picture Night Train and a manga, both based on novels, were made in 1995."
    found = _on(verify_text(kg, text), "Q802", "P577")
    assert found and found[0].verdict.verdict == REFUTED and "2001" in " ".join(found[0].verdict.corrections)


def test_a_value_linked_to_a_name_in_a_later_clause_is_still_read_for_the_subject(kg):
    # "The Quiet Harbour was directed by Bruno Keller, as was Night Train": the graph links Night Train to Bruno
    # Keller (reader "linked"), and the sentence says it of The Quiet Harbour too — whose director is Alice Brandt.
    text = "The Quiet Harbour was directed by Bruno Keller, as was Night Train."
    found = _on(verify_text(kg, text), "Q801", "P57")
    assert found and found[0].reader == "words" and found[0].verdict.verdict != SUPPORTED
    assert "Alice Brandt" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    assert _on(verify_text(kg, text), "Q802", "P57")[0].verdict.verdict == SUPPORTED
    right = _on(verify_text(kg, "The Quiet Harbour was directed by Alice Brandt, as was (7) Iris Rock."), "Q801", "P57")
    assert right and right[0].verdict.verdict == SUPPORTED
    # A list is no later clause, and its items are no values of one another (coordination.py): Graz is read for
    # the subject as it is without the list, and no link makes it Bruno Keller's.
    listed = verify_text(kg, "Alice Brandt lived in Graz, Bruno Keller and Lyon.")
    alone = verify_text(kg, "Alice Brandt lived in Graz.")
    assert [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in listed.claims if c.span == "Graz"] \
        == [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in alone.claims] != []
    assert not [c for c in listed.claims if c.claim.subject_id == "Q902"]
    # A date another name owns in the same clause ("1994's The Quiet Harbour") stays that name's.
    owned = verify_text(kg, "Night Train was the first film since 1994's The Quiet Harbour to be shown in Lyon.")
    assert not [c for c in _on(owned, "Q802", "P577") if c.verdict.verdict == REFUTED]


def test_a_description_with_a_verb_of_its_own_keeps_the_name_after_it_an_object(kg):
    # "The film stars Bruno Keller …": the unresolved film is the subject, not Bruno Keller (no claim of his).
    for text in ("The film stars Bruno Keller and was released in 1990.",
                 "The film follows Bruno Keller and was released in 1990."):
        assert not [c for c in verify_text(kg, text).claims if c.claim.subject_id == "Q902"], text
    # A name the description's noun phrase holds is still the subject ("The film series Night Train").
    assert _on(verify_text(kg, "The film series Night Train was released in 1990."), "Q802", "P577")
