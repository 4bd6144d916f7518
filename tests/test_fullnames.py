"""A full name links through its short form ("Orlando Lamar Pace" is "Orlando Pace") only to a thing whose own
full names, if the graph knows any, have the same middle names: "William James Hughes" is neither Billy Hughes
(William Morris Hughes) nor William James, the words of his name."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgcheck.verifier.text.fullnames import _keys, agrees
from kgcheck.verifier.text.mentions import find_mentions, split_sentences
from conftest import fixture_builders

B = fixture_builders()
item = B.item


@pytest.mark.parametrize("middles, names, fits", [
    (["james"], {"william hughes", "william morris hughes"}, False),
    (["morris"], {"william hughes", "william morris hughes"}, True),
    (["m"], {"william morris hughes"}, True),  # an initial
    (["morris"], {"william m hughes"}, True),
    (["james"], {"william hughes"}, True),  # no full form known: the short form stands
    (["james"], {"the right honourable william hughes", "bill hughes"}, True),
    (["morris"], {"william morris billy hughes"}, True),  # a nickname beside the middle name
    (["lamar", "x"], {"william lamar hughes"}, False),
])
def test_middle_names_agree(middles, names, fits):
    assert agrees(middles, "william", "hughes", names) is fits


_WORD = st.text("abcdefgh", min_size=1, max_size=6)


@given(st.lists(_WORD, min_size=1, max_size=3), st.lists(_WORD, min_size=1, max_size=3))
def test_a_thing_known_by_the_texts_full_name_agrees_and_one_without_a_middle_name_in_common_does_not(mine, other):
    assert agrees(mine, "ann", "lee", {f"ann {' '.join(mine)} lee", "ann lee"})
    clash = not any(m == w or m.startswith(w[:1]) and (len(m) == 1 or len(w) == 1) for m in mine for w in other)
    if clash:  # no middle word of the text is one of the other full name's, nor an initial of one
        assert not agrees(mine, "ann", "lee", {f"ann {' '.join(other)} lee"})


@given(_WORD, st.lists(_WORD, min_size=1, max_size=4), _WORD)
def test_short_name_keys_try_the_initials_first_and_the_bare_first_and_last_name_last(first, middles, last):
    keys = _keys(first, middles, last)
    assert keys[0] == " ".join([first, *(m[0] for m in middles), last]) and keys[-1] == f"{first} {last}"
    assert len(keys) == len(set(keys))
    assert all(k.startswith(first + " ") and k.endswith(" " + last) for k in keys)


GRAPH = [
    B.prop("P31", "instance of", "wikibase-item"), B.entity("Q5", "human"),
    B.entity("Q152666", "Billy Hughes", "Australian politician", aliases=["William Hughes", "William Morris Hughes"],
             claims=[("P31", item("Q5", None))]),
    B.entity("Q125249", "William James", "American philosopher", claims=[("P31", item("Q5", None))]),
    B.entity("Q25478", "Orlando Pace", "American football player", claims=[("P31", item("Q5", None))]),
    B.entity("Q168149", "Henry B. Banning", "American politician", claims=[("P31", item("Q5", None))]),
    B.entity("Q84475", "Michael Hainisch", "Austrian politician", claims=[("P31", item("Q5", None))]),
    B.entity("Q23505", "George H. W. Bush", "41st president", claims=[("P31", item("Q5", None))]),
    B.entity("Q207", "George W. Bush", "43rd president", aliases=["George Walker Bush"],
             claims=[("P31", item("Q5", None))]),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(GRAPH)


@pytest.mark.parametrize("text, linked", [
    ("William James Hughes is a footballer.", set()),
    ("William Morris Hughes was a politician.", {"Q152666"}),
    ("William M. Hughes was a politician.", {"Q152666"}),
    ("William Hughes was a politician.", {"Q152666"}),
    ("Orlando Lamar Pace is a player.", {"Q25478"}),
    ("William James was a philosopher.", {"Q125249"}),
    # The graph's label keeps the middle names as initials.
    ("Henry Blackstone Banning (November 10, 1836) was a lawyer.", {"Q168149"}),
    ("Henry Benjamin Banning was a lawyer.", {"Q168149"}),
    ("George Herbert Walker Bush was a president.", {"Q23505"}),
    ("George Walker Bush was a president.", {"Q207"}),
    ("George Herbert Bush was a president.", set()),  # no key: "George H. W. Bush" keeps two initials
    ("Henry Blackstone Cole Banning was a lawyer.", set()),  # "Henry B. Banning" has one middle name
    # Five words, three middle names left out.
    ("Michael Arthur Josef Jakob Hainisch was an Austrian politician.", {"Q84475"}),
])
def test_a_full_name_links_only_where_its_middle_names_agree(kg, text, linked):
    mentions = find_mentions(kg, text, split_sentences(text))
    assert {m.entity_id for ms in mentions for m in ms} == linked
