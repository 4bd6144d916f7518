"""Relations an answer states as a title or an opening, where the graph links the two names otherwise.

- "The capital of Freedonia is Portmoor": the graph links Portmoor to Freedonia as its country; the words claim
  Freedonia's capital (links.said_backwards), which the graph then judges — not the link, SUPPORTED by construction.
- "Portmoor is the capital of Freedonia", "Freedonia's capital is Portmoor": the same, the holder after "of" or
  before "'s" (links.stated_between).
- "Hun Sen is the Prime Minister of Jamaica": "Prime Minister" is also the name of a thing (the office); written as
  a title before "of", it is the relation's words (holders._titles_as_words), and Jamaica the holder.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.extract import READERS
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop
SINGLE_VALUE = "Q19474404"


def _country(qid, label, capital, head):
    return entity(qid, label, "country", claims=[("P31", item("Q6256", None)), ("P36", item(capital, None)),
                                                 ("P6", item(head, None))])


def _city(qid, label, country, capital_of=None):
    return entity(qid, label, "city", claims=[("P31", item("Q515", None)), ("P17", item(country, None))] +
                  ([("P1376", item(capital_of, None))] if capital_of else []))


def _person(qid, label):
    return entity(qid, label, "person", claims=[("P31", item("Q5", None))])


ENTITIES = [
    prop("P31", "instance of", "wikibase-item"), prop("P17", "country", "wikibase-item"),
    prop("P36", "capital", "wikibase-item", constraints=[(SINGLE_VALUE,)]),
    prop("P1376", "capital of", "wikibase-item"),
    prop("P6", "head of government", "wikibase-item", aliases=["prime minister", "premier"],
         constraints=[(SINGLE_VALUE,)]),
    entity("Q6256", "country"), entity("Q515", "city"), entity("Q5", "human"),
    entity("Q14212", "prime minister", "head of government in parliamentary systems"),
    _country("Q801", "Freedonia", "Q811", "Q821"), _country("Q802", "Sylvania", "Q813", "Q822"),
    _city("Q811", "Capitol City", "Q801", capital_of="Q801"), _city("Q812", "Portmoor", "Q801"),
    _city("Q813", "Zenda", "Q802", capital_of="Q802"),
    _person("Q821", "Rufus Firefly"), _person("Q822", "Trentino Ambassador"),
]


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES)


def _on(report, subject_id, pid):
    found = [c for c in report.claims if (c.claim.subject_id, c.claim.property_id) == (subject_id, pid)]
    return found[0] if found else None


def test_an_opening_relation_is_claimed_where_the_graph_links_the_value_back_by_another(kg):
    wrong = verify_text(kg, "The capital of Freedonia is Portmoor.")
    claim = _on(wrong, "Q801", "P36")
    assert claim is not None and claim.verdict.verdict == REFUTED, [(c.claim.property_id, c.reader) for c in wrong.claims]
    assert "Capitol City" in claim.verdict.corrections
    assert _on(wrong, "Q812", "P17") is None  # the link the words do not state is no claim of the sentence
    # The right value: the sentence names the link's own relation ("capital of"), which supports it.
    right = verify_text(kg, "The capital of Freedonia is Capitol City.")
    assert [c.verdict.verdict for c in right.claims] and all(c.verdict.verdict == SUPPORTED for c in right.claims)


def test_without_the_rule_the_back_link_is_supported(kg):
    from kgcheck.verifier.text import links

    original = links.said_backwards
    links.said_backwards = lambda *args, **kw: None
    try:
        report = verify_text(kg, "The capital of Freedonia is Portmoor.")
    finally:
        links.said_backwards = original
    assert _on(report, "Q801", "P36") is None
    assert _on(report, "Q812", "P17").verdict.verdict == SUPPORTED  # the wrong capital read as a true fact


def test_a_title_before_of_is_the_relations_words(kg):
    wrong = verify_text(kg, "Trentino Ambassador is the Prime Minister of Freedonia.")
    claim = _on(wrong, "Q801", "P6")
    assert claim is not None and claim.reader == "inverse" and claim.verdict.verdict == REFUTED
    assert "Rufus Firefly" in claim.verdict.corrections
    right = _on(verify_text(kg, "Rufus Firefly is the Prime Minister of Freedonia."), "Q801", "P6")
    assert right is not None and right.verdict.verdict == SUPPORTED
    # Without the inverse reader the office's name is a thing, and nothing is said of Freedonia.
    without = verify_text(kg, "Trentino Ambassador is the Prime Minister of Freedonia.",
                          readers=frozenset(READERS) - {"inverse"})
    assert _on(without, "Q801", "P6") is None
    # A title with no "of" after it stays a name ("the Prime Minister visited Sylvania": no holder is named).
    met = verify_text(kg, "Rufus Firefly met the Prime Minister in Sylvania.")
    assert not [c for c in met.claims if c.reader == "inverse"]


def test_a_copula_relation_of_the_name_after_of_is_its_holders(kg):
    # "Portmoor is the capital of Freedonia": the graph links the two only as Portmoor's country; the words say
    # Freedonia's capital (links.stated_between), which the graph refutes with its own.
    wrong = verify_text(kg, "Portmoor is the capital of Freedonia.")
    claim = _on(wrong, "Q801", "P36")
    assert claim is not None and claim.verdict.verdict == REFUTED and claim.span == "Portmoor", \
        [(c.claim.subject_id, c.claim.property_id, c.reader, c.verdict.verdict) for c in wrong.claims]
    assert "Capitol City" in claim.verdict.corrections
    assert _on(wrong, "Q812", "P17") is None
    # The possessive says the same ("Freedonia's capital is Portmoor"), the holder before the words.
    possessive = _on(verify_text(kg, "Freedonia's capital is Portmoor."), "Q801", "P36")
    assert possessive is not None and possessive.verdict.verdict == REFUTED
    # The right capital: the words name its own link's relation ("capital of"), SUPPORTED as before.
    right = verify_text(kg, "Capitol City is the capital of Freedonia.")
    assert right.claims and all(c.verdict.verdict == SUPPORTED for c in right.claims)
    # A word that qualifies the relation reads nothing of the holder: "the former capital" may be true.
    former = verify_text(kg, "Portmoor is the former capital of Freedonia.")
    assert _on(former, "Q801", "P36") is None


def test_a_title_whose_lower_case_is_longer_keeps_the_offsets(kg):
    # The title is read as the relation's words, the sentence lower-cased in place: it keeps its length, so that the
    # mentions' offsets still index it — also with "İ", which lower-cases to two characters (such a name is left
    # as written: defensive, as its stems then match no property name anyway).
    from kgcheck.verifier.text.holders import _titles_as_words
    from kgcheck.verifier.text.mentions import Mention
    from kgcheck.verifier.text.schema import GraphSchema
    from kgcheck.verifier.claims.check import Checker

    facts, lexicon = Checker(kg).facts, GraphSchema.of(kg).lexicon()
    for title in ("Prime Minister", "PRİME Minister"):
        text = f"Trentino Ambassador is the {title} of Freedonia."
        start = text.index(title)
        ms = [Mention(0, 19, "Trentino Ambassador", "Q822"), Mention(start, start + len(title), title, "Q14212")]
        sentence, titles = _titles_as_words(text, 0, ms, lexicon, facts)
        assert len(sentence) == len(text)
        assert [m.text for m in titles] == (["Prime Minister"] if title == "Prime Minister" else [])
    text = "Trentino Ambassador is the PRİME Minister of Freedonia, and Rufus Firefly is the capital of Sylvania."
    assert all(text[c.start:c.end] == c.span for c in verify_text(kg, text).claims)
