"""The copula reader ("<property words> is <phrase>") and the names after it (verifier/text/extract.py)."""
from __future__ import annotations

from test_extract import claims_of


def test_an_abbreviated_title_before_a_name_is_no_value(mini_kg):
    got = claims_of(mini_kg, "Belgium's head of state is Dr. Douglas Adams.")
    assert not [c for c in got if c[0] == "Dr"]
    # a name the graph does not know: the title's name is read as the value
    got = claims_of(mini_kg, "Belgium's head of state is Dr. Arthur Dent.")
    assert ("Arthur Dent", "Q31", "P35", None) in got and not [c for c in got if c[0] == "Dr"]


def test_the_name_after_the_copula_is_left_to_the_mention_rule_in_a_later_sentence_too(mini_kg):
    """The phrase is compared with the mentions in the sentence's own offsets: in a second sentence a name after
    the copula was not seen as one, and read again as an unlinked value ("Brussels" as Belgium's head of state)."""
    alone = claims_of(mini_kg, "Belgium's head of state is Brussels.")
    later = claims_of(mini_kg, "Brussels is a city. Belgium's head of state is Brussels.")
    assert [c for c in later if c[0] != "city"] == alone
    assert not [c for c in later if c[2] == "P35"]


def test_the_one_a_thing_is_by_is_the_value(mini_kg):
    # "X was by Y" names Y as the property's value; the preposition is no part of it
    got = claims_of(mini_kg, "Belgium's head of state was by Arthur Dent.")
    assert ("Arthur Dent", "Q31", "P35", None) in got and not [c for c in got if c[0].startswith("by ")]


def test_a_title_word_after_a_name_ends_it_as_a_surname():
    # "Peter Lord and Nick Park": Peter is a word of the name Peter Lord (not Saint Peter, alias "Peter"); before a
    # capitalised word the title word opens a title ("UK Prime Minister Boris"), and after one it is a title too
    from kgcheck.verifier.text.mentions import word_spans
    from kgcheck.verifier.text.nameparts import inside_longer_name

    def inside(text, word):
        s = text.index(word)
        return inside_longer_name(text, s, s + len(word), word_spans(text, 0, len(text)))

    assert inside("It was directed by Peter Lord and Nick Park.", "Peter")
    assert inside("It was written by Jack King.", "Jack")
    assert not inside("The UK Prime Minister Boris Johnson spoke.", "UK")
    assert not inside("It was opened by Queen Elizabeth in 1950.", "Elizabeth")
    assert not inside("It was built by Peter, Lord of the manor.", "Peter")
