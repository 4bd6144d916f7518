"""Linking names to entities (verifier/text/mentions.py): namesakes settled by what the text calls the name, by
context, by description, by the LLM, by popularity — over stub graphs."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.index.text import normalise
from kgcheck.verifier.llm.backends import FakeLLM, LLMError
from kgcheck.verifier.text.mentions import called, find_mentions, split_sentences


# -- disambiguation among namesakes, over a stub graph ---------------------------------------------

class NamesakeKG:
    """Two Cambridges: the English one (less popular) is linked to London; the other is not."""

    LABELS = {"cambridge": [("Q350", 90, 5, "label"), ("Q49111", 150, 9, "label")], "london": [("Q84", 250, 2, "label")]}
    ENTITIES = {"Q350": ("Q350", "Cambridge", "city in England"), "Q49111": ("Q49111", "Cambridge", "city in Massachusetts"),
                "Q84": ("Q84", "London", "capital of the UK")}

    def lookup_in(self, query, values, extra=()):
        if "label_index" in query:
            written = (None,) if ", text FROM" in query else ()  # the name as written: not in capitals here
            return [(v, *cand, *written) for v in values for cand in self.LABELS.get(normalise(v), ())]
        return [self.ENTITIES[v] for v in values if v in self.ENTITIES]

    def sql(self, query, params):
        subjects, values = params
        return [(s, v) for s, v in [("Q350", "Q84")] if s in subjects and v in values]

    def subject_rows(self, columns, subjects, where="", params=None):
        return self.sql("", [sorted(subjects)] + list(params or []))


def link(text, llm=None):
    return [(m.text, m.entity_id) for ms in find_mentions(NamesakeKG(), text, split_sentences(text), llm) for m in ms]


class CalledKG(NamesakeKG):
    ENTITIES = dict(NamesakeKG.ENTITIES, Q49111=("Q49111", "Cambridge", "town in Massachusetts"))


def test_what_the_text_calls_a_name_picks_among_namesakes():
    # No context: popularity would take the Massachusetts town; the text calls it a city, and only one is.
    found = lambda text: [(m.text, m.entity_id) for ms in find_mentions(CalledKG(), text, split_sentences(text))
                          for m in ms]
    assert found("Cambridge is a city on the Cam.") == [("Cambridge", "Q350")]
    assert found("Cambridge is a town with a harbour.") == [("Cambridge", "Q49111")]
    assert found("Cambridge has a harbour.") == [("Cambridge", "Q49111")]  # nothing said: popularity


def test_context_beats_popularity():
    assert link("Cambridge is 80 km from London.") == [("Cambridge", "Q350"), ("London", "Q84")]


def test_popularity_without_context():
    assert link("Cambridge is a city.") == [("Cambridge", "Q49111")]


class AliasedKG(NamesakeKG):
    """"Germany" is the country's label and an alias of Hamburg; "France" the country's label and an alias of the
    Kingdom of France. The graph links Germany to France, Hamburg to France and to the Kingdom."""

    LABELS = {"germany": [("Q183", 300, 650, "label"), ("Q1055", 200, 90, "alias")],
              "france": [("Q142", 300, 385, "label"), ("Q70972", 50, 6, "alias")]}
    ENTITIES = {"Q183": ("Q183", "Germany", "country"), "Q1055": ("Q1055", "Hamburg", "city"),
                "Q142": ("Q142", "France", "country"), "Q70972": ("Q70972", "Kingdom of France", "former state")}

    def sql(self, query, params):
        subjects, values = params
        return [(s, v) for s, v in [("Q183", "Q142"), ("Q1055", "Q142"), ("Q1055", "Q70972")]
                if s in subjects and v in values]


def test_one_name_counts_once_however_many_of_its_namesakes_a_candidate_is_linked_to():
    # Hamburg meets two of France's namesakes, Germany one: each is linked to the one name "France", so the tie
    # goes to the namesake whose label "Germany" is (before, Hamburg won two links to one).
    found = [(m.text, m.entity_id) for ms in find_mentions(AliasedKG(), "Germany borders France.",
                                                           split_sentences("Germany borders France.")) for m in ms]
    assert found == [("Germany", "Q183"), ("France", "Q142")]


class WrittenKG(NamesakeKG):
    """An album "Anti'christ" (obscure) and a film "Antichrist" (popular): one normalised name, two labels."""

    LABELS = {"antichrist": [("Q584595", 0, 1, "label"), ("Q574998", 0, 40, "label")]}
    ENTITIES = {"Q584595": ("Q584595", "Anti'christ", None), "Q574998": ("Q574998", "Antichrist", "2009 film")}


def test_a_name_written_as_one_namesakes_label_picks_it():
    found = lambda text: [(m.text, m.entity_id) for ms in find_mentions(WrittenKG(), text, split_sentences(text))
                          for m in ms]
    assert found("Anti'christ is a studio album.") == [("Anti'christ", "Q584595")]
    assert found("Antichrist is a studio album.") == [("Antichrist", "Q574998")]
    assert found("ANTICHRIST is a studio album.") == [("ANTICHRIST", "Q574998")]  # written as neither: popularity


class DescribedKG(NamesakeKG):
    """The stub with an embedder: "university town" reads like "city in England"."""

    class Searcher:
        AXES = {"university": 0, "england": 0, "massachusetts": 1}

        def query_vector(self, text):
            import numpy as np

            v = np.zeros(3)
            for word, axis in self.AXES.items():
                v[axis] += word in text.lower()
            v[2] += 0.1
            return v / np.linalg.norm(v)

    def searcher(self):
        return self.Searcher()


def test_description_similarity_beats_popularity():
    text = "Cambridge is a university town."
    got = find_mentions(DescribedKG(), text, split_sentences(text))
    assert [(m.text, m.entity_id) for ms in got for m in ms] == [("Cambridge", "Q350")]
    # Without a clear difference, popularity stands.
    text = "Cambridge is a city."
    assert [m.entity_id for ms in find_mentions(DescribedKG(), text, split_sentences(text)) for m in ms] == ["Q49111"]


def test_llm_chooses_when_context_does_not_settle():
    llm = FakeLLM(["Q350"])
    assert link("Cambridge is a university town.", llm) == [("Cambridge", "Q350")]
    assert "Q49111: Cambridge (city in Massachusetts)" in llm.calls[0].user


def test_llm_no_match_drops_the_mention():
    assert link("Cambridge is a university town.", FakeLLM(["NO MATCH"])) == []


@pytest.mark.parametrize("answer", [LLMError("broken"), "Q1"])
def test_llm_failure_falls_back_to_popularity(answer):
    assert link("Cambridge is a university town.", FakeLLM([answer])) == [("Cambridge", "Q49111")]


def test_llm_not_asked_when_context_settles():
    llm = FakeLLM([])
    assert link("Cambridge is 80 km from London.", llm)[0] == ("Cambridge", "Q350")
    assert llm.calls == []


@pytest.mark.parametrize("sentence, kind", [
    ("X is a 2011 American parody film that was written by Y.", "2011 american parody film"),
    ("X is a journal published by Elsevier.", "journal"),
    ("X was an American film director", "american film director"),
    ("X is a peer-reviewed journal in toxicology.", "peer reviewed journal"),
    ("X, a journal, was founded in 1990.", None),  # an apposition, not the copula
    ("X is the capital of France.", None),  # "the": which one, not what kind
    ("X is a Greek.", None),  # a name, not a lower-case noun
    ("X. is a album.", "album"),  # "Lorenzo 2015 CC.": a label's own full stop, left out of the mention
    ("X. Is a album.", None),  # a sentence end
])
def test_what_the_text_calls_a_name(sentence, kind):
    assert called(sentence, 1) == kind


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Xis wajnd,.()-ed1")), max_size=60), st.integers(0, 60))
def test_what_the_text_calls_a_name_never_fails(sentence, end):
    kind = called(sentence, min(end, len(sentence)))
    assert kind is None or (kind == normalise(kind) and kind)


class SlashKG(NamesakeKG):
    """A name of words joined by a slash ("DG/UX", "AC/DC"): the index normalises it as the words."""

    LABELS = {"dg ux": [("Q1172217", 5, 20, "label")], "unix": [("Q11368", 90, 40, "label")]}
    ENTITIES = {"Q1172217": ("Q1172217", "DG/UX", "operating system"), "Q11368": ("Q11368", "Unix", "OS family")}


def test_a_name_joined_by_a_slash_is_one_name():
    # Its second word is no capitalised neighbour of the first that would make it part of a longer unknown name.
    text = "DG/UX is a discontinued Unix operating system."
    assert [(m.text, m.entity_id) for ms in find_mentions(SlashKG(), text, split_sentences(text)) for m in ms] == \
        [("DG/UX", "Q1172217"), ("Unix", "Q11368")]


class TwoLetterKG(NamesakeKG):
    """'us' is an alias of the United States, 'fencer' a label of the occupation."""
    LABELS = {"us": [("Q30", 300, 9, "alias")], "fencer": [("Q13381863", 20, 3, "label")]}


def test_a_two_letter_lower_case_word_is_no_name():
    text = "Some of us know a fencer."
    weak: dict = {}
    find_mentions(TwoLetterKG(), text, split_sentences(text), None, weak)
    assert [text[s:e] for s, e, _ in weak[0]] == ["fencer"]


class OpenerKG(NamesakeKG):
    """'major' the military rank (labelled in lower case), 'Major' a town (a name), the Orkhon River."""
    LABELS = {"major": [("Q983927", 20, 3, "label")], "orkhon river": [("Q237099", 30, 8, "label")],
              "moscow": [("Q649", 300, 40, "label")]}
    ENTITIES = {"Q983927": ("Q983927", "major", "military rank"),
                "Q237099": ("Q237099", "Orkhon River", "river in Mongolia"), "Q649": ("Q649", "Moscow", "capital")}


class TownOpenerKG(OpenerKG):
    LABELS = dict(OpenerKG.LABELS, major=[("Q983927", 20, 3, "label"), ("Q99", 5, 2, "label")])
    ENTITIES = dict(OpenerKG.ENTITIES, Q99=("Q99", "Major", "town"))


def test_a_common_word_opening_a_sentence_is_no_name():
    # "Major" is capitalised only because it opens the sentence, and the index labels every entity so named in lower
    # case: a common word (weak), not the sentence's subject; in mid-sentence as before, it is no mention at all.
    text = "Major tributaries of the Orkhon River are long. Moscow is big. Major is a rank."
    weak: dict = {}
    found = [(m.text, m.entity_id) for ms in find_mentions(OpenerKG(), text, split_sentences(text), None, weak)
             for m in ms]
    # A name opening its sentence stays one, and so does a common word its verb follows (as "Broccoli is").
    assert found == [("Orkhon River", "Q237099"), ("Moscow", "Q649"), ("Major", "Q983927")]
    assert [text[s:e] for s, e, _ in weak[0]] == ["Major"]
    # A namesake the index labels with a capital (a town called Major) keeps the name a name.
    found = [(m.text, m.entity_id) for ms in find_mentions(TownOpenerKG(), text, split_sentences(text)) for m in ms]
    assert ("Major", "Q983927") in found or ("Major", "Q99") in found


class RiverKG(NamesakeKG):
    LABELS = {"east normanby river": [("Q1277955", 5, 4, "label")], "beni river": [("Q142604", 9, 9, "label")]}
    ENTITIES = {"Q1277955": ("Q1277955", "East Normanby River", "river"), "Q142604": ("Q142604", "Beni River", "river")}


def test_the_last_word_of_an_unknown_name_is_no_short_form_of_a_known_one():
    # "River" of "the Tuichi River" (a name the index lacks) is not the East Normanby River named before it.
    text = "Beni River is joined by the East Normanby River and the Tuichi River."
    found = [(m.text, m.entity_id) for ms in find_mentions(RiverKG(), text, split_sentences(text)) for m in ms]
    assert found == [("Beni River", "Q142604"), ("East Normanby River", "Q1277955")]


class DesignationKG(NamesakeKG):
    """A computer known by its designation alone, an operating system likewise, and "Political" a word of names."""
    LABELS = {"aim 65": [("Q293761", 5, 6, "label")], "tops 10": [("Q1670222", 5, 6, "label")],
              "political": [("Q7", 5, 2, "label")]}
    ENTITIES = {"Q293761": ("Q293761", "AIM-65", "computer"), "Q1670222": ("Q1670222", "TOPS-10", "operating system"),
                "Q7": ("Q7", "Political", "album")}


def test_a_designation_of_capitals_and_digits_is_a_name_beside_another_capitalised_word():
    # "Rockwell AIM-65", "TOPS-10 System": the maker's name or a generic word next to the designation does not make it
    # a word of a longer unknown name; an ordinary capitalised word there still is one ("PLA General Political ...").
    text = "The Rockwell AIM-65 computer ran TOPS-10 System software, said the PLA General Political Department."
    found = [(m.text, m.entity_id) for ms in find_mentions(DesignationKG(), text, split_sentences(text)) for m in ms]
    assert found == [("AIM-65", "Q293761"), ("TOPS-10", "Q1670222")]


class ArmyKG(NamesakeKG):
    """The French Army, and "army officer" a common noun (an occupation's alias)."""
    LABELS = {"french army": [("Q1076619", 40, 9, "label")], "army officer": [("Q189290", 60, 9, "alias")]}
    ENTITIES = {"Q1076619": ("Q1076619", "French Army", "land warfare branch"),
                "Q189290": ("Q189290", "military officer", "member of an armed force")}


@pytest.mark.parametrize("text, found", [
    # "Army officer" is the longer span, but its capital says "Army" ends the name before it.
    ("He was a French Army officer in the war.", [("French Army", "Q1076619")]),
    ("He served in the French Army as an officer.", [("French Army", "Q1076619")]),
    ("In 1900 Army officer training began.", [("Army officer", "Q189290")]),  # a year is no name
    ("He was a decorated Army officer.", [("Army officer", "Q189290")]),  # no capitalised word before it
])
def test_a_span_starting_inside_a_longer_name_is_no_mention(text, found):
    assert [(m.text, m.entity_id) for ms in find_mentions(ArmyKG(), text, split_sentences(text)) for m in ms] == found


@pytest.mark.parametrize("text, span, straddles", [
    ("He was a French Army officer.", "Army officer", True),
    ("The United States men's national team plays.", "United States men's national team", False),  # "The" opens none
    ("He read Jules Verne Around the World in Eighty Days.", "Verne Around the World", False),  # function words only
    ("A French Army officer.", "French Army officer", False),  # starts where the name starts
])
def test_a_span_straddles_a_known_name_that_opens_with_a_capitalised_content_word(text, span, straddles):
    from kgcheck.verifier.text.mentions import word_spans
    from kgcheck.verifier.text.nameparts import capitalised_names, straddles_a_name

    known = ("The United States", "French Army", "Jules Verne")
    grams = [(0, text.index(k), text.index(k) + len(k), k) for k in known if k in text]
    s = text.index(span)
    names = capitalised_names(1, grams)[0]
    assert straddles_a_name(text, s, s + len(span), word_spans(text, 0, len(text)), names) is straddles


def test_an_acronym_names_what_the_index_writes_in_capitals_not_a_lower_case_code(kg_of):
    """"CD" is no alias of DR Congo, whose country code "cd" Wikidata lists; "TV" is television's own "TV"."""
    from conftest import fixture_builders

    B = fixture_builders()
    kg = kg_of([B.entity("Q974", "Democratic Republic of the Congo", "country", aliases=["cd", "DR Congo"]),
                B.entity("Q672", "Tuvalu", "country", aliases=["tv"]),
                B.entity("Q289", "television", "medium", aliases=["TV"])])
    found = lambda text: [(m.text, m.entity_id) for ms in find_mentions(kg, text, split_sentences(text))  # noqa: E731
                          for m in ms]
    assert found("A remastered CD version aired on TV in Tuvalu.") == [("TV", "Q289"), ("Tuvalu", "Q672")]
    assert found("It was shown in the DR Congo.") == [("DR Congo", "Q974")]
    # Postnominal letters after a name are no names: "KG" is here no Kevin Garnett, whom the index writes "KG" too.
    kg2 = kg_of([B.entity("Q189240", "Kevin Garnett", "basketball player", aliases=["KG"]),
                 B.entity("Q145", "United Kingdom", "country", aliases=["UK"]),
                 B.entity("Q30", "United States", "country", aliases=["US"])])
    found2 = lambda text: [m.entity_id for ms in find_mentions(kg2, text, split_sentences(text)) for m in ms]  # noqa
    assert found2("Michael Boyce, Baron Boyce, KG, GCB, OBE, DL (born 1943) is an officer.") == []
    assert found2("KG won the title.") == ["Q189240"]
    assert found2("Teams from the US, UK, KG and GCB took part.") == ["Q30", "Q145", "Q189240"]

