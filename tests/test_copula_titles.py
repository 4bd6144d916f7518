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
