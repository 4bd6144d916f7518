"""The types reader's lower-case names (verifier/text/descriptions.py): a word read among the properties a subject like
this one may hold (its own, its classes', its properties' holders'), and the words inside a description the graph
knows only as a title."""
from __future__ import annotations

from kgcheck.verifier.model import SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from wordgraph import claim_on as _claim, entity, graph_values as _graph_values, item, prop


def _instruments():
    """Concertos holding their instrumentation; musicians playing the same instruments far more often (an oboe is
    mostly a musician's instrument in the graph); a work titled "Cello Concerto" that holds nothing of its own."""
    instrument = lambda qid, label: entity(qid, label, claims=[("P31", item("Q34379", None))])  # noqa: E731
    concerto = lambda qid, label, *values: entity(  # noqa: E731
        qid, label, claims=[("P31", item("Q35140", None))] + [("P870", item(v, None)) for v in values])
    return ([prop("P31", "instance of", "wikibase-item"), prop("P870", "instrumentation", "wikibase-item"),
             prop("P1303", "instrument", "wikibase-item"), prop("P106", "occupation", "wikibase-item"),
             entity("Q34379", "musical instrument"), entity("Q35140", "classical composition"),
             entity("Q639669", "musician"),
             instrument("Q6607", "guitar"), instrument("Q8371", "cello"), instrument("Q8377", "oboe"),
             instrument("Q8338", "viola"), instrument("Q1444", "orchestra"),
             concerto("Q939989", "Concierto de Aranjuez", "Q6607", "Q1444"),
             concerto("Q2991914", "Cello Concerto"), concerto("Q2991915", "Oboe Sonatina", "Q8377"),
             concerto("Q2991918", "Elegy in C", "Q8371"),
             prop("P136", "genre", "wikibase-item"), entity("Q189", "serenade"),
             entity("Q2991916", "Rondo Piece", claims=[("P136", item("Q35140", None))]),
             entity("Q2991917", "Night Serenade", claims=[("P136", item("Q189", None))])] +
            [entity(f"Q{4000 + i}", f"Player {i}", claims=[("P106", item("Q639669", None)),
                                                          ("P1303", item(("Q8377", "Q8371", "Q8338")[i % 3], None))])
             for i in range(12)])


def test_a_lower_case_value_is_read_among_the_properties_a_subject_like_this_may_hold(kg_of):
    """An oboe is mostly a musician's instrument (P1303), which no concerto holds: among the properties a concerto
    holds, the oboe is an instrumentation, so "a concerto for viola and oboe" claims an instrumentation the graph
    does not list beside the guitar (Night Serenade: no class, a genre); the true instruments are SUPPORTED. A word
    mostly used as a class stays one."""
    kg = kg_of(_instruments())
    wrong = verify_text(kg, "The Concierto de Aranjuez is a famous concerto for viola and oboe.").claims
    found = {c.claim.object: c for c in wrong if (c.claim.subject_id, c.claim.property_id) == ("Q939989", "P870")}
    assert "oboe" in found  # (the viola is no instrumentation anywhere in this graph: its role says nothing of works)
    assert all(c.reader == "types" and c.verdict.verdict != SUPPORTED for c in found.values())
    assert "guitar" in _graph_values(found["oboe"])
    right = verify_text(kg, "The Concierto de Aranjuez is a famous concerto for guitar and orchestra.").claims
    assert {c.claim.object: c.verdict.verdict for c in right if c.claim.property_id == "P870"} == \
        {"guitar": SUPPORTED, "orchestra": SUPPORTED}
    # "classical composition" is mostly a class (P31), once a genre: said of a subject with no class that holds a
    # genre, it is still no claim of a genre (the class link counts whatever the subject holds).
    other = verify_text(kg, "Night Serenade was later arranged as a classical composition.").claims
    assert not [c for c in other if c.claim.object == "classical composition"]


def test_a_word_inside_a_description_that_the_graph_knows_as_a_title_is_read_by_its_role(kg_of):
    """"a cello concerto": the graph knows "Cello Concerto" as a work's title, which fills no property the
    Concierto holds, and its class names none; the word inside it, "cello", is an instrumentation in the graph:
    flagged beside the guitar. "a guitar concerto" is SUPPORTED."""
    kg = kg_of(_instruments())
    wrong, right = (_claim(verify_text(kg, f"The Concierto de Aranjuez is a {word} concerto by a Spanish composer."),
                           word) for word in ("cello", "guitar"))
    assert (wrong.claim.subject_id, wrong.claim.property_id, wrong.reader) == ("Q939989", "P870", "types")
    assert wrong.verdict.verdict != SUPPORTED and "guitar" in _graph_values(wrong)
    assert (right.claim.property_id, right.verdict.verdict) == ("P870", SUPPORTED)


def test_a_subject_without_a_class_may_hold_what_the_holders_of_its_properties_hold(kg_of):
    """The Bare Film holds a cast member and nothing else, no class either. "love" is the main subject of most films
    and a cast member once (a character's name): films — the subjects that hold a cast member — hold main subjects
    too (the index's measure_profile), so "love" is read as what it mostly is for them, which the Bare Film does
    not hold: no claim. Read among its own one property, the word would have been claimed as its cast."""
    films = [entity(f"Q{5000 + i}", f"Feature {i}", claims=[("P161", item("Q5100", None)),
                                                            ("P921", item("Q316", None))]) for i in range(6)]
    kg = kg_of([prop("P161", "cast member", "wikibase-item"), prop("P921", "main subject", "wikibase-item"),
                entity("Q5100", "Ann Lee"), entity("Q5101", "Bo Park"), entity("Q316", "love"),
                entity("Q5200", "Odd Play", claims=[("P161", item("Q316", None))]),
                entity("Q5201", "The Bare Film", claims=[("P161", item("Q5101", None))])] + films)
    claims = verify_text(kg, "The Bare Film tells a story of love in a small town.").claims
    assert not [c for c in claims if c.claim.object == "love"]
    # A word mostly a cast member is still read as the Bare Film's cast, and flagged beside Bo Park.
    kg2 = kg_of([prop("P161", "cast member", "wikibase-item"), prop("P921", "main subject", "wikibase-item"),
                 entity("Q5100", "ann lee"), entity("Q5101", "Bo Park"), entity("Q316", "love"),
                 entity("Q5201", "The Bare Film", claims=[("P161", item("Q5101", None))])] + films)
    cast = _claim(verify_text(kg2, "The Bare Film tells a story of love with ann lee."), "ann lee")
    assert (cast.claim.property_id, cast.reader) == ("P161", "types") and cast.verdict.verdict != SUPPORTED


def test_fellow_shares_the_words_before_a_name_with_the_subject(kg_of):
    """Words right before a name describe that name ("oboe soloist Player 1"), not the subject — but "fellow" says the
    subject is one too: Player 0 plays the oboe (SUPPORTED), not the cello (not SUPPORTED; the fellows play neither)."""
    kg = kg_of(_instruments())

    def instruments(text):
        return {c.claim.object: c.verdict.verdict for c in verify_text(kg, text).claims
                if (c.claim.subject_id, c.claim.property_id) == ("Q4000", "P1303")}

    assert instruments("Player 0 toured with fellow oboe soloist Player 1.") == {"oboe": SUPPORTED}
    wrong = instruments("Player 0 toured with fellow cello soloist Player 2.")
    assert list(wrong) == ["cello"] and wrong["cello"] != SUPPORTED
    assert instruments("Player 0 toured with cello soloist Player 2.") == {}
