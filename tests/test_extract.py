"""KG-first claim extraction: sentences, gazetteer mentions, pronouns, claims per property (namesakes and what the
text calls a name: test_mentions.py)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.text.extract import extract_claims, find_mentions, split_sentences


def claims_of(kg, text, llm=None):
    _, claims = extract_claims(kg, Checker(kg).facts, text, llm)
    return [(text[c.start:c.end], c.claim.subject_id, c.claim.property_id, c.claim.object_id) for c in claims]


def test_sentence_split_keeps_offsets():
    text = "Douglas Adams was born in 1952.  He died in 2001! Did he? "
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == ["Douglas Adams was born in 1952.", "He died in 2001!", "Did he?"]


def test_longest_match_and_aliases(mini_kg):
    text = "The Kingdom of Belgium borders the United Kingdom."
    mentions = find_mentions(mini_kg, text, split_sentences(text))[0]
    # "Kingdom of Belgium" (an alias) beats the shorter "Belgium"; "United Kingdom" is one mention.
    assert [(m.text, m.entity_id) for m in mentions] == [("Kingdom of Belgium", "Q31"), ("United Kingdom", "Q145")]


def test_lowercase_common_words_and_bare_numbers_are_not_mentions(mini_kg):
    text = "A writer lived in a city with 1952 people."
    assert find_mentions(mini_kg, text, split_sentences(text)) == [[]]


def test_pronoun_stands_for_the_last_subject(mini_kg):
    got = claims_of(mini_kg, "Douglas Adams was born in Cambridge. He died in Santa Barbara.")
    assert got == [("Cambridge", "Q42", "P19", "Q350"), ("Santa Barbara", "Q42", "P20", "Q159288")]


def test_dates_attach_to_the_triggered_property(mini_kg):
    got = claims_of(mini_kg, "Douglas Adams was born on 11 March 1962 and died in 2001.")
    assert ("11 March 1962", "Q42", "P569", None) in got and ("2001", "Q42", "P570", None) in got


def test_quantities_attach_to_population_and_area(mini_kg):
    got = claims_of(mini_kg, "Belgium has a population of 12 million and an area of 30,689 km2.")
    props = {span: pid for span, _, pid, _ in got}
    assert props.get("12 million") == "P1082" and props.get("30,689 km2") == "P2046"


def test_a_quantity_in_units_of_another_dimension_is_not_the_named_property(mini_kg):
    # the graph gives Belgium's area in km² (an area): a length after "area" is no area, a bare number may be one
    got = claims_of(mini_kg, "Belgium covers 30,689 km2 in area and its coast is 67 kilometres long.")
    props = {span: pid for span, _, pid, _ in got}
    assert props.get("30,689 km2") == "P2046" and "67 kilometres" not in props
    bare = {span: pid for span, _, pid, _ in claims_of(mini_kg, "Belgium has an area of 30,689.")}
    assert bare.get("30,689") == "P2046"


def test_property_the_subject_lacks_still_yields_a_claim(mini_kg):
    """"head of state" has no statement for Belgium: a claim (→ NOT_ENOUGH_INFO), not silence."""
    text = "Belgium's capital is Brussels and its head of state is a king."
    got = claims_of(mini_kg, text)
    assert ("Brussels", "Q31", "P36", "Q239") in got
    assert ("king", "Q31", "P35", None) in got


def test_common_noun_for_a_property_the_subject_has_is_not_a_claim(mini_kg):
    # Belgium has a capital: "a large city" describes it, it does not name it.
    assert claims_of(mini_kg, "Belgium's capital is a large city.") == []


# -- claims the graph links outright, sentence splitting, names ------------------------------------

def test_abbreviations_and_initials_do_not_end_a_sentence():
    text = "It is a Warner Bros. cartoon by Dr. Seuss and L. L. Zamenhof. Next one."
    assert [text[a:b] for a, b in split_sentences(text)] == [text[:-10], "Next one."]


def test_marks_inside_names_do_not_end_a_sentence():
    text = ("Good ! Afternoon is a magazine. Yahoo! Japan is a portal! It is old. He coached A.C. Milan. "
            "AKA ... What a Life! was a single. Invasion ! ! Alien Shiriri is a film. It ends here.")
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "Good ! Afternoon is a magazine.", "Yahoo! Japan is a portal!", "It is old.", "He coached A.C. Milan.",
        "AKA ... What a Life! was a single.", "Invasion ! ! Alien Shiriri is a film.", "It ends here."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Good", "!", "?", ".", "...", "A.C.", "Milan", "U.S.", "It", "was", " ", "  ", "\n",
                                 "(", ")", "'", "\"", "Dr.", "L.", "x", "1999", "é"]), max_size=30).map(" ".join))
def test_sentences_are_ordered_disjoint_and_hold_the_whole_text(text):
    spans = split_sentences(text)
    assert all(0 <= a < b <= len(text) and text[a:b].strip() for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    covered = "".join(text[a:b] for a, b in spans)
    assert "".join(covered.split()) == "".join(text.split())  # only whitespace falls between sentences


def test_a_pair_the_graph_links_is_a_claim_whichever_comes_first(mini_kg):
    # Belgium's head of government, said with the person first: the claim is about Belgium.
    got = claims_of(mini_kg, "Charles Michel has served as prime minister of Belgium since 2014.")
    assert ("Charles Michel", "Q31", "P6", "Q12978") in got


def test_lower_case_value_of_a_mentioned_entity(mini_kg):
    # "journalist" is no mention (lower case) but names one of Douglas Adams's occupations.
    got = claims_of(mini_kg, "Douglas Adams was an English journalist.")
    assert ("journalist", "Q42", "P106", "Q1930187") in got


def test_lower_case_word_the_graph_does_not_link_is_no_claim(mini_kg):
    assert all(span != "city" for span, *_ in claims_of(mini_kg, "Douglas Adams liked the city."))


def test_sentence_opening_on_a_lower_case_name(mini_kg):
    # A lower-case name the sentence opens on is its subject when the graph links it to the sentence...
    assert ("England", "Q350", "P131", "Q21") in claims_of(mini_kg, "cambridge lies in England.")
    # ... and silent otherwise ("city" names Q515 only weakly).
    assert claims_of(mini_kg, "The city is large.") == []


def test_a_first_name_inside_a_linked_name_is_no_topic(kg_of):
    """"Christopher" (an alias of another person) opens "Christopher Nolan": it is no subject of its own, so nothing
    the graph links that other person to ("writer") becomes a claim about him; a lower-case name that only starts
    inside a name ("The Red" + "red knot") still opens the sentence."""
    from conftest import fixture_builders

    fx = fixture_builders()
    kg = kg_of([
        fx.prop("P106", "occupation", "wikibase-item"), fx.prop("P171", "parent taxon", "wikibase-item"),
        fx.entity("Q36180", "writer"), fx.entity("Q2526255", "film director"),
        fx.entity("Q7542", "Prince", aliases=["Christopher"], claims=[("P106", fx.item("Q36180", None))]),
        fx.entity("Q25191", "Christopher Nolan", claims=[("P106", fx.item("Q2526255", None))]),
        fx.entity("Q30838", "Calidris"), fx.entity("Q80845", "The Red"),
        fx.entity("Q27124", "red knot", claims=[("P171", fx.item("Q30838", None))]),
    ])
    got = claims_of(kg, "Christopher Nolan is a film director and writer.")
    assert ("film director", "Q25191", "P106", "Q2526255") in got
    assert not [c for c in got if c[1] == "Q7542"]
    assert ("Calidris", "Q27124", "P171", "Q30838") in claims_of(kg, "The red knot (Calidris) is a shorebird.")


def test_one_word_of_a_longer_unknown_name_is_not_a_mention(mini_kg):
    text = "The book was written by Douglas Smith and Belgium Travel."
    assert [m.text for m in find_mentions(mini_kg, text, split_sentences(text))[0]] == []


def test_first_and_last_word_of_a_three_word_name(mini_kg):
    text = "Douglas N. Adams was born in Cambridge."  # "Douglas Adams" with his middle name's initial
    mentions = find_mentions(mini_kg, text, split_sentences(text))[0]
    assert [(m.text, m.entity_id) for m in mentions] == [("Douglas N. Adams", "Q42"), ("Cambridge", "Q350")]
    # Not with another middle name: the graph knows him as Douglas Noel Adams (fullnames.py).
    text = "Douglas Xavier Adams was born in Cambridge."
    assert [m.entity_id for m in find_mentions(mini_kg, text, split_sentences(text))[0]] == ["Q350"]


def test_properties_limit_the_claims(mini_kg):
    text = "Douglas Adams was born in Cambridge on 11 March 1962."
    _, claims = extract_claims(mini_kg, Checker(mini_kg).facts, text, properties={"P19"})
    assert [(c.claim.property_id, text[c.start:c.end]) for c in claims] == [("P19", "Cambridge")]


def test_of_several_graph_links_between_two_names_the_named_one(mini_kg):
    # London-UK is linked both ways (country; capital): the sentence names "capital".
    got = claims_of(mini_kg, "London is the capital of the United Kingdom.")
    assert got == [("London", "Q145", "P36", "Q84")]


def test_birth_and_death_dates_in_brackets_after_the_name(mini_kg):
    got = claims_of(mini_kg, "Douglas Adams (11 March 1952 – 11 May 2001) founded a company in 1990.")
    assert ("11 March 1952", "Q42", "P569", None) in got and ("11 May 2001", "Q42", "P570", None) in got
    assert all(pid != "P571" or span == "1990" for span, _, pid, _ in got)
    got = claims_of(mini_kg, "Douglas Adams (born 1962) wrote books.")
    assert ("1962", "Q42", "P569", None) in got


def test_the_nearest_property_word_decides(mini_kg):
    # "born" names the place of birth; "died" further back does not make Cambridge a place of death.
    got = claims_of(mini_kg, "Douglas Adams, who died in Santa Barbara, was born in Cambridge.")
    assert ("Cambridge", "Q42", "P19", "Q350") in got and ("Cambridge", "Q42", "P20", "Q350") not in got
    # Only properties allowed: the nearest word ("written by") names none of them, so no director claim.
    _, claims = extract_claims(mini_kg, Checker(mini_kg).facts, "Belgium was written by Charles Michel.",
                               properties={"P57"})
    assert claims == []


def test_a_date_far_from_the_property_word_is_another_event(mini_kg):
    got = claims_of(mini_kg, "Belgium was founded in 1830 as a constitutional monarchy and renamed by a new "
                             "parliament in 1950.")
    assert ("1830", "Q31", "P571", None) in got
    assert not any(span == "1950" for span, *_ in got)
    assert ("1830", "Q31", "P571", None) in claims_of(mini_kg, "In 1830, Belgium was founded.")


def test_a_property_word_inside_a_name_is_not_a_property_word(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    kg = kg_of([
        fx.entity("Q1", "1957 New Zealand rugby league season", claims=[("P641", fx.item("Q10962", None))]),
        fx.entity("Q10962", "rugby league"), fx.entity("Q664", "New Zealand"),
        fx.prop("P118", "league", "wikibase-item"), fx.prop("P641", "sport", "wikibase-item"),
    ])
    got = claims_of(kg, "The 1957 New Zealand rugby league season was the 50th season of rugby league "
                        "played in New Zealand.")
    assert not any(pid == "P118" for _, _, pid, _ in got)  # "league" here is part of "rugby league"


def test_two_mentions_of_one_thing_claim_nothing_of_it_about_itself(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    # Wikidata gives a country itself as its country: a sentence naming it twice does not say so.
    kg = kg_of([
        fx.entity("Q822", "Lebanon", claims=[("P17", fx.item("Q822", None)), ("P36", fx.item("Q3820", None))]),
        fx.entity("Q3820", "Beirut", claims=[("P17", fx.item("Q822", None))]),
        fx.prop("P17", "country", "wikibase-item"), fx.prop("P36", "capital", "wikibase-item"),
    ])
    got = claims_of(kg, "Lebanon hosted the games in Beirut, the largest city in Lebanon.")
    assert ("Lebanon", "Q3820", "P17", "Q822") in got  # what the sentence does say: Beirut lies in Lebanon
    assert not any(subject == value for _, subject, _, value in got)


def test_a_name_after_another_name_and_of_is_part_of_it(mini_kg):
    text = "Douglas Adams once worked for the Bank of England in London."
    mentions = find_mentions(mini_kg, text, split_sentences(text))[0]
    assert [m.text for m in mentions] == ["Douglas Adams", "London"]  # not England: the Bank of England
    text = "The queen of England lived in London."
    assert "England" in [m.text for m in find_mentions(mini_kg, text, split_sentences(text))[0]]


def test_the_class_noun_stands_for_the_entity_named_before(mini_kg):
    got = claims_of(mini_kg, "Douglas Adams was born in Cambridge. The city has a population of 120,000.")
    assert ("120,000", "Q350", "P1082", None) in got  # "The city": Cambridge (a city), not Douglas Adams
    got = claims_of(mini_kg, "Douglas Adams was born in Cambridge. The country has a population of 120,000.")
    assert not any(pid == "P1082" for _, _, pid, _ in got)  # nothing named before is a country


def test_the_description_stands_for_what_the_text_called_so(kg_of):
    # The graph does not say what Annals of Tides is; the text does, and "the journal" is it from then on.
    from conftest import fixture_builders

    from kgcheck.verifier.model import REFUTED, SUPPORTED
    from kgcheck.verifier.text.verify import verify_text

    fx = fixture_builders()
    kg = kg_of([fx.prop("P571", "inception", "time"),
                fx.entity("Q31", "Annals of Tides", claims=[("P571", fx.time("+1960-01-01T00:00:00Z", 9))])])
    wrong = verify_text(kg, "Annals of Tides is a peer-reviewed scientific journal. The journal was established in 1951.")
    found = [(c.claim.subject_id, c.claim.property_id, c.verdict.verdict) for c in wrong.claims if c.span == "1951"]
    assert found == [("Q31", "P571", REFUTED)]
    right = verify_text(kg, "Annals of Tides is a journal published by Elsevier. The journal was established in 1960.")
    assert [(c.claim.property_id, c.verdict.verdict) for c in right.claims if c.span == "1960"] == [("P571", SUPPORTED)]
    # "an American film director" calls it a director: "the film" is not Annals of Tides.
    assert claims_of(kg, "Annals of Tides is an American film director. The film was established in 1951.") == []


def test_a_name_after_a_preposition_is_not_the_subject(mini_kg):
    # The band, unnamed, was founded; Belgium is only where (not a claim that Belgium dates from 1990).
    assert not any(pid == "P571" for *_, pid, _ in claims_of(mini_kg, "The band was founded in Belgium in 1990."))
    assert ("1830", "Q31", "P571", None) in claims_of(mini_kg, "Founded in 1830, Belgium is a kingdom.")


def test_a_ten_word_name_is_one_mention(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    long_name = "National Film Award for Best Popular Film Providing Wholesome Entertainment"
    kg = kg_of([fx.entity("Q1", long_name), fx.entity("Q2", "National Film Award for Best Popular Film")])
    text = f"Darr won the {long_name}."
    mentions = find_mentions(kg, text, split_sentences(text))[0]
    assert [(m.text, m.entity_id) for m in mentions] == [(long_name, "Q1")]


def test_a_name_with_a_quoted_nickname(mini_kg):
    text = 'Douglas Noel "Bop" Adams was born in Cambridge.'
    mentions = find_mentions(mini_kg, text, split_sentences(text))[0]
    assert [(m.text, m.entity_id) for m in mentions] == [('Douglas Noel "Bop" Adams', "Q42"), ("Cambridge", "Q350")]
    text = 'Douglas Noel "Bop" Adams OBE was born in Cambridge.'  # letters after the name are capitalised too
    mentions = find_mentions(mini_kg, text, split_sentences(text))[0]
    assert ('Douglas Noel "Bop" Adams', "Q42") in [(m.text, m.entity_id) for m in mentions]


def test_a_surname_stands_for_the_full_name_before_it(mini_kg):
    got = claims_of(mini_kg, "Douglas Adams wrote books. Adams died in Santa Barbara.")
    assert ("Santa Barbara", "Q42", "P20", "Q159288") in got
    text = "Adams died in Santa Barbara."  # no full name before: "Adams" alone is no one
    assert all(m.entity_id != "Q42" for m in find_mentions(mini_kg, text, split_sentences(text))[0])


# -- "The dam forms Lake Austin": a description the graph resolves --------------------------------

def _dams(kg_of, *, second_dam=False, dam_class=True):
    from conftest import fixture_builders

    fx = fixture_builders()
    kind = [("P31", fx.item("Q12323", None))] if dam_class else []
    entities = [
        fx.entity("Q7816897", "Tom Miller Dam", claims=kind + [("P4661", fx.item("Q1128082", None)),
                                                                ("P571", fx.time("+1940-00-00T00:00:00Z", 9))]),
        fx.entity("Q1128082", "Lake Austin"), fx.entity("Q12323", "dam"),
        fx.prop("P4661", "reservoir created", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item"),
        fx.prop("P571", "inception", "time"),
    ]
    if second_dam:
        entities.append(fx.entity("Q9", "Longhorn Dam", claims=kind + [("P4661", fx.item("Q1128082", None))]))
    return kg_of(entities)


def test_the_description_is_the_one_thing_the_graph_links_to_what_the_sentence_names(kg_of):
    kg = _dams(kg_of)
    got = claims_of(kg, "The dam was created in 1942 and forms Lake Austin.")
    # The reservoir it forms, then a claim the graph can refute (built 1940); "dam" is no claim of its own.
    assert got == [("Lake Austin", "Q7816897", "P4661", "Q1128082"), ("1942", "Q7816897", "P571", None)]
    without_class = _dams(kg_of, dam_class=False)  # the graph does not say what it is: the link alone decides
    assert ("Lake Austin", "Q7816897", "P4661", "Q1128082") in claims_of(without_class, "The dam forms Lake Austin.")


def test_a_subject_found_through_the_value_alone_does_not_support_that_value(kg_of):
    from conftest import fixture_builders
    from kgcheck.verifier.text.verify import verify_text

    fx = fixture_builders()
    kg = _dams(kg_of)
    verdicts = {c.span: c.verdict for c in verify_text(kg, "The dam was created in 1942 and forms Lake Austin.").claims}
    # The one dam forming Lake Austin holds it by construction: no evidence either way. Its date is a real check.
    assert verdicts["Lake Austin"].verdict == "NOT_ENOUGH_INFO" and "does not name its subject" in \
        verdicts["Lake Austin"].reason
    assert verdicts["1942"].verdict == "REFUTED"
    # Two names the graph links to the same dam: each is corroborated by the other, so both are judged.
    both = kg_of([
        fx.entity("Q7816897", "Tom Miller Dam", claims=[("P31", fx.item("Q12323", None)),
                                                        ("P4661", fx.item("Q1128082", None)),
                                                        ("P177", fx.item("Q846", None))]),
        fx.entity("Q1128082", "Lake Austin"), fx.entity("Q846", "Colorado River"), fx.entity("Q12323", "dam"),
        fx.prop("P4661", "reservoir created", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item"),
        fx.prop("P177", "crosses", "wikibase-item")])
    report = verify_text(both, "The dam crosses the Colorado River and forms Lake Austin.")
    assert {c.span: c.verdict.verdict for c in report.claims} == {"Colorado River": "SUPPORTED",
                                                                 "Lake Austin": "SUPPORTED"}
    # A thing the text named before is no pick among everything the graph holds: judged (the graph gives the dam no
    # class, so only the link tells "the dam" is it).
    named_before = verify_text(_dams(kg_of, dam_class=False),
                               "Tom Miller Dam stands in Texas. The dam forms Lake Austin.")
    assert {c.span: c.verdict.verdict for c in named_before.claims}["Lake Austin"] == "SUPPORTED"


def test_no_description_is_resolved_against_the_class_or_between_equals(kg_of):
    assert claims_of(_dams(kg_of), "The film forms Lake Austin.") == []  # the only candidate is a dam
    assert claims_of(_dams(kg_of, second_dam=True), "The dam forms Lake Austin.") == []  # two dams: either


def test_a_hub_value_is_no_evidence_of_the_subject(kg_of, monkeypatch):
    from kgcheck.verifier.text import referents

    kg = _dams(kg_of)
    monkeypatch.setattr(referents, "MAX_LINKS", 0)  # Lake Austin now counts as a hub
    assert claims_of(kg, "The dam forms Lake Austin.") == []


def test_a_value_named_with_its_property_words_inside(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    kg = kg_of([fx.entity("Q1", "Saganash River", claims=[("P4614", fx.item("Q2", None))]),
                fx.entity("Q2", "James Bay Basin"), fx.prop("P4614", "drainage basin", "wikibase-item")])
    got = claims_of(kg, "Saganash River is in the James Bay drainage basin.")
    assert ("James Bay drainage basin", "Q1", "P4614", "Q2") in got
    # Words that are not the property's do not glue a name together.
    assert not any(obj == "Q2" for *_, obj in claims_of(kg, "Saganash River is in the James Bay lowland basin."))


def test_a_tokenised_possessive_is_the_name(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    kg = kg_of([fx.entity("Q1", "Anne's House of Dreams")])
    text = "Anne 's House of Dreams is a novel."  # Text2KGBench's sentences are tokenised so
    assert [m.entity_id for m in find_mentions(kg, text, split_sentences(text))[0]] == ["Q1"]
