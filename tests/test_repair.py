"""Mojibake in pasted text (verifier/text/repair.py): UTF-8 read as Windows-1252 is undone before the text is read,
so its names link; clean text is left as it is."""
from __future__ import annotations

import ftfy.bad_codecs  # noqa: F401 - registers "sloppy-windows-1252" (every byte decodes, as browsers do)
from hypothesis import given, settings, strategies as st

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.repair import repair_mojibake, untokenize
from kgcheck.verifier.text.verify import verify_text
from wordgraph import ENTITIES, entity, item


def _mangled(text: str) -> str:
    return text.encode("utf-8").decode("sloppy-windows-1252")


def test_known_mojibake_is_undone_and_clean_text_kept():
    assert repair_mojibake("Ozan GÃ¶ksu Yanar, Kany GarcÃ­a") == "Ozan Göksu Yanar, Kany García"
    for clean in ("Douglas Adams was born in 1952.", "naïve café – “quoted”", "SÃO PAULO", "Zürich, Kraków, Łódź"):
        assert repair_mojibake(clean) == clean


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüéèàçñøåßłćńśźżőű", min_size=3, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=6))
def test_a_repair_undoes_the_mangling_or_leaves_the_text_alone(words):
    # ftfy declines what it cannot tell from real text ("AÃ¥a"): never a third string, and clean text is kept
    text = " ".join(w.capitalize() for w in words) + " was born here."
    assert repair_mojibake(_mangled(text)) in (text, _mangled(text))
    assert repair_mojibake(text) == text


def test_a_mangled_name_links_after_repair(kg_of):
    kg = kg_of(ENTITIES + [entity("Q8000", "Köping", "city", claims=[("P31", item("Q515", None))]),
                           entity("Q8001", "Ernfrid Malmgren", "person",
                                  claims=[("P31", item("Q5", None)), ("P19", item("Q8000", None))])])
    report = verify_text(kg, _mangled("Ernfrid Malmgren was born in Köping."))
    assert report.text == "Ernfrid Malmgren was born in Köping."
    assert any("mojibake" in note for note in report.notes)
    born = [c for c in report.claims if c.claim.property_id == "P19"]
    assert born and born[0].span == "Köping" and born[0].verdict.verdict == SUPPORTED


def test_a_tokenizers_splits_are_joined_and_prose_kept():
    assert untokenize("Let 's Join Joanie , Does n't Really Matter ( You Drive Me ) Crazy : Invasion ! ! Alien") == \
        "Let's Join Joanie, Doesn't Really Matter (You Drive Me) Crazy: Invasion!! Alien"
    assert untokenize("Who 's That Chick ?'s fourth") == "Who's That Chick?'s fourth"
    for prose in ("Douglas Adams (1952 - 2001) was born in Cambridge.", "It cost $3 .5 million", "Hello ...",
                  "the 's-Hertogenbosch area", "x - y, z; w: v!"):
        assert untokenize(prose) == prose


_PROSE = st.lists(st.sampled_from(["Let's", "Join", "Joanie,", "(You", "Drive", "Me)", "Crazy:", "don't",
                                   "Invasion!!", "St.", "Mary's", "won", "the", "award."]), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(_PROSE)
def test_untokenize_undoes_a_penn_treebank_split_and_keeps_prose(words):
    prose = " ".join(words)
    split = " ".join(words)
    for clitic in ("'s", "n't"):
        split = split.replace(clitic, " " + clitic)
    for mark in (",", ":", ")", "!", "."):
        split = split.replace(mark, " " + mark)
    split = split.replace("(", "( ")
    assert untokenize(prose) == prose
    assert untokenize(split) == prose
    assert untokenize(untokenize(split)) == prose


def test_a_tokenized_name_is_read_as_written(kg_of):
    kg = kg_of(ENTITIES + [entity("Q8002", "Let's Join Joanie", "sitcom", claims=[("P31", item("Q5398426", None))])])
    report = verify_text(kg, "Let 's Join Joanie , a sitcom .")
    assert report.text == "Let's Join Joanie, a sitcom."
    assert any("tokenizer" in note for note in report.notes)
    assert verify_text(kg, "Let's Join Joanie, a sitcom.").notes == ()
