"""A proper name called by its last word alone (verifier/text/tails.py, label_tails of index/build.py).

"Brandt was born in Graz." names Alice Brandt when she is the only Brandt the graph holds, or the one Brandt the
text's other names are linked to; two Kellers the text does not tell apart leave "Keller" unread.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.index.text import name_tails, normalise
from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.mentions import find_mentions, split_sentences
from kgcheck.verifier.text.tails import MAX_CANDIDATES, read_tails
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, B

MORE = [
    B.entity("Q904", "Hugo Keller", "person", claims=[("P31", B.item("Q5", None)), ("P19", B.item("Q456", None))]),
    B.entity("Q950", "Harbour Keller Works", "company"),  # a third Keller, never a person
    B.entity("Q960", "Moreau", "family name"),  # a word that is itself a name: the gazetteer's to read
    B.entity("Q970", "Ever After", "film made after the war"),  # "after": a word the descriptions write lower-case
    B.entity("Q980", "Rich Little", "comedian"), B.entity("Q981", "little owl", "bird"),  # and "little" a label
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + MORE)


def _on(report, subject_id, pid):
    return [c for c in report.claims if c.claim.subject_id == subject_id and c.claim.property_id == pid]


def _linked(kg, text):
    sentences = split_sentences(text)
    return [(m.text, m.entity_id) for ms in read_tails(kg, text, sentences, find_mentions(kg, text, sentences))
            for m in ms]


@pytest.mark.parametrize("text, tail", [
    ("Bayard Rustin", "rustin"), ("Gregory H. Johnson", "johnson"), ("Ludwig van Beethoven", "beethoven"),
    ("Soyuz MS-02", "ms 02"), ("Apollo 11", None), ("Poetry 1993", None), ("Route 7A", "7a"), ("Léa Seydoux", "seydoux"), ("Thomson TO7", "to7"),
    ("Journal of Infection", None), ("The Seven Minutes", None), ("A Tribe Called Quest", None), ("Paris", None), ("the red knot", None), ("One Two Three Four Five", None),
    ("Gone with the Wind", None), (None, None)])
def test_a_proper_names_last_word_is_its_tail(text, tail):
    assert name_tails([text]).to_pylist() == [tail]


def test_the_only_name_ending_on_the_word_is_read_and_its_claim_checked(kg):
    assert ("Brandt", "Q901") in _linked(kg, "Brandt was born in Graz.")
    wrong = _on(verify_text(kg, "Brandt was born in Graz."), "Q901", "P19")
    assert wrong and wrong[0].verdict.verdict != SUPPORTED
    assert "Lyon" in {e.value for e in wrong[0].verdict.evidence} | set(wrong[0].verdict.corrections)
    right = _on(verify_text(kg, "Brandt's birthplace was Lyon."), "Q901", "P19")
    assert right and right[0].verdict.verdict == SUPPORTED


def test_namesakes_are_told_apart_by_the_texts_other_names(kg):
    # Two Keller persons and a company: Night Train's director is Bruno Keller.
    assert ("Keller", "Q902") in _linked(kg, "Keller directed Night Train.")
    found = [c for c in verify_text(kg, "Night Train was directed by Keller.").claims if c.span == "Keller"]
    assert found and (found[0].claim.subject_id, found[0].claim.property_id) == ("Q802", "P57")
    assert found[0].claim.object_id == "Q902" and found[0].verdict.verdict == SUPPORTED


def test_namesakes_the_text_does_not_tell_apart_stay_unread(kg):
    assert not any(eid in {"Q902", "Q904", "Q950"} for _, eid in _linked(kg, "Keller was a painter."))


def test_a_word_the_gazetteer_knows_or_a_longer_unknown_name_is_not_a_tail(kg):
    assert ("Moreau", "Q903") not in _linked(kg, "Moreau was born in Lyon.")  # "Moreau" names the family name
    assert not any(eid == "Q901" for _, eid in _linked(kg, "Sophie Brandt was born in Graz."))
    assert not any(eid == "Q901" for _, eid in _linked(kg, "The Brandt Prize was given in Graz."))


def test_a_word_that_opens_a_longer_name_is_no_tail(kg):
    for text in ("Brandt del Rio was born in Graz.", 'Brandt "Bee" Hoffmann was born in Graz.'):
        assert not any(eid == "Q901" for _, eid in _linked(kg, text)), text
    assert ("Brandt", "Q901") in _linked(kg, "Brandt and Keller were born in Graz.")  # "and" is no particle


def test_told_the_topic_a_short_name_must_be_connected_to_it_or_the_text(kg):
    # Alice Brandt directed The Quiet Harbour (Q801): connected to that topic; Night Train (Q802) is not hers.
    found = _on(verify_text(kg, "Brandt was born in Graz.", about="Q801"), "Q901", "P19")
    assert found and found[0].verdict.verdict != SUPPORTED
    assert not [c for c in verify_text(kg, "Brandt was born in Graz.", about="Q802").claims
                if c.claim.subject_id == "Q901"]


def test_a_word_the_descriptions_write_lower_case_is_no_tail(kg):
    assert not [c for c in kg.lookup_sql("SELECT id FROM label_tails WHERE tail = 'after'")]
    assert not any(eid == "Q970" for _, eid in _linked(kg, "After Brandt was born in Graz, Keller moved."))
    assert not any(eid == "Q980" for _, eid in _linked(kg, "Little is known of Brandt."))
    assert kg.lookup_sql("SELECT id FROM label_tails WHERE tail = 'brandt'") == [("Q901",)]


def test_an_index_without_tails_and_a_word_of_too_many_names_change_nothing():
    class NoTails:
        def has_lookup_table(self, name):
            return False

    mentions = [[]]
    assert read_tails(NoTails(), "Brandt was born in Graz.", [(0, 24)], mentions) is mentions

    class Crowded:
        def has_lookup_table(self, name):
            return name == "label_tails"

        def lookup_in(self, query, values, extra=()):
            if "label_tails" in query:
                return [("smith", f"Q{i}") for i in range(MAX_CANDIDATES + 1)]
            return []

    assert read_tails(Crowded(), "Smith was born in Graz.", [(0, 23)], [[]]) == [[]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="AbcÉé7-. 'ofthe", min_size=0, max_size=8), min_size=1, max_size=6))
def test_a_tail_is_the_normalised_last_word_of_a_name_of_two_to_four_words(parts):
    text = " ".join(parts)
    [tail] = name_tails([text]).to_pylist()
    words = text.split()
    if tail is not None:
        assert 2 <= len(words) <= 4 and tail == normalise(words[-1]) and words[-1][:1].isupper() | words[-1][:1].isdigit()
        assert any(ch.isalpha() for ch in words[-1])
        assert not {w.lower() for w in words[1:-1]} & {"of", "the"} and words[0].lower() != "the"


class _TailsStub:
    """label_tails: "brandt" -> Q1, "keller" -> Q2, Q3 (Q3 linked to Q9, the only other name: "Lyon")."""
    def has_lookup_table(self, name):
        return name == "label_tails"

    def lookup_in(self, query, values, extra=()):
        if "label_tails" in query:
            table = {"brandt": ["Q1"], "keller": ["Q2", "Q3"]}
            return [(v, i) for v in values for i in table.get(v, ())]
        return []

    def subject_rows(self, columns, subjects, where="", params=None):
        return [(s, v) for s, v in [("Q3", "Q9")] if s in subjects and v in params[0]]

    def has_table(self, name):  # roles of the other names (tails._only_holder): none
        return False

    def sql(self, query, params=None):
        return []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Brandt", "Keller", "Lyon", "Sophie", "After", "was", "born", "in", "Dr.", ",",
                                 "'s", "Brandt's", "7", "the", "Keller-Brandt", "\n", "."]), max_size=14))
def test_tails_never_overlap_a_mention_and_name_what_the_text_says(words):
    from kgcheck.verifier.text.mentions import Mention

    text = " ".join(words)
    sentences = split_sentences(text)
    lyon = [[Mention(m.start(), m.end(), "Lyon", "Q9") for m in __import__("re").finditer(r"\bLyon\b", text)
             if a <= m.start() < b] for a, b in sentences]
    out = read_tails(_TailsStub(), text, sentences, [list(ms) for ms in lyon])
    for si, (a, b) in enumerate(sentences):
        spans = sorted((m.start, m.end) for m in out[si])
        assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))  # no overlap
        for m in out[si]:
            assert a <= m.start < m.end <= b and text[m.start:m.end] == m.text
            if m.entity_id != "Q9":
                assert (m.text, m.entity_id) in {("Brandt", "Q1"), ("Keller", "Q3")}
                assert m.entity_id != "Q3" or any(x.entity_id == "Q9" for ms in out for x in ms)


WAGNERS = [
    B.entity("Q7001", "Rolf Wagner", "politician", claims=[("P31", B.item("Q5", None)), ("P102", B.item("Q7101", None))]),
    B.entity("Q7002", "Tom Wagner", "painter", claims=[("P31", B.item("Q5", None)), ("P19", B.item("Q456", None))]),
    B.entity("Q7101", "Blue Party", "political party"), B.entity("Q7102", "Green Party", "political party"),
    B.entity("Q7003", "Anna Frei", "politician", claims=[("P31", B.item("Q5", None)), ("P102", B.item("Q7102", None))]),
]


def test_namesakes_no_name_links_are_told_apart_by_the_one_holding_what_the_other_names_are_values_of(kg_of):
    # No Wagner is linked to the Green Party, but a party is a value of "member of political party", which only
    # Rolf Wagner holds: the sentence is about him, and its wrong party is flagged with the graph's.
    kg = kg_of(ENTITIES + MORE + WAGNERS)
    assert ("Wagner", "Q7001") in _linked(kg, "Wagner joined the Green Party.")
    wrong = _on(verify_text(kg, "Wagner joined the Green Party."), "Q7001", "P102")
    assert wrong and wrong[0].verdict.verdict != SUPPORTED
    assert "Blue Party" in {e.value for e in wrong[0].verdict.evidence} | set(wrong[0].verdict.corrections)
    # Told the topic, or with two namesakes holding the property, the word stays unread.
    assert not any(eid == "Q7001" for _, eid in _linked_about(kg, "Wagner joined the Green Party.", "Q7003"))
    eva = B.entity("Q7004", "Eva Wagner", "politician", claims=[("P102", B.item("Q7101", None))])
    assert not any(eid in {"Q7001", "Q7004"} for _, eid in _linked(kg_of(ENTITIES + MORE + WAGNERS + [eva]),
                                                                    "Wagner joined the Green Party."))


def _linked_about(kg, text, about):
    sentences = split_sentences(text)
    return [(m.text, m.entity_id) for ms in read_tails(kg, text, sentences, find_mentions(kg, text, sentences), about)
            for m in ms]
