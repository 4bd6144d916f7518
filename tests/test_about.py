"""`verify_text(about=...)` / `kgcheck verify --about`: a text checked as the answer about one thing.

A sentence that never names its subject ("The film was directed by Bruno Keller.", "It was released in 1990.")
says nothing checkable alone; told what the text is about, its pronouns, the descriptions the graph cannot place
elsewhere and sentences that leave the name out stand for that topic.
"""
from __future__ import annotations

import pytest

from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import resolve_topic, verify_text
from wordgraph import ENTITIES, B

# A show the graph gives no class: only the topic can say what "the show" is.
SHOW = B.entity("Q807", "Harbour Lights", claims=[("P57", B.item("Q901", None)),
                                                  ("P577", B.time("+1990-10-30T00:00:00Z", 11))])


@pytest.fixture(scope="module")
def kg(kg_of):
    return kg_of(ENTITIES + [SHOW])


def _on(report, subject_id, pid):
    return [c for c in report.claims if c.claim.subject_id == subject_id and c.claim.property_id == pid]


def test_a_description_of_the_topic_is_checked_against_it(kg):
    text = "The film was directed by Bruno Keller."
    assert not _on(verify_text(kg, text), "Q801", "P57")  # alone it names no film
    found = _on(verify_text(kg, text, about="Q801"), "Q801", "P57")
    assert found and found[0].verdict.verdict != SUPPORTED
    assert "Alice Brandt" in {e.value for e in found[0].verdict.evidence} | set(found[0].verdict.corrections)
    right = _on(verify_text(kg, "The film was directed by Alice Brandt.", about="Q801"), "Q801", "P57")
    assert right and right[0].verdict.verdict == SUPPORTED


def test_a_pronoun_and_a_sentence_without_its_name_stand_for_the_topic(kg):
    for text in ("It was released in 1990.", "is a 1990 film."):
        assert not _on(verify_text(kg, text), "Q801", "P577")
        found = _on(verify_text(kg, text, about="The Quiet Harbour"), "Q801", "P577")
        assert found and found[0].verdict.verdict == REFUTED and "1994" in " ".join(found[0].verdict.corrections)


@pytest.mark.parametrize("text", ["is a film by Lyon director Bruno Keller.",
                                  "Harbour) is a film by Lyon director Bruno Keller.",
                                  # only a bracket left of the name: a pronunciation without its word
                                  "([ha bor]) is a film by Lyon director Bruno Keller."])
def test_a_sentence_that_opens_on_its_predicate_is_the_topics(kg, text):
    found = _on(verify_text(kg, text, about="Q801"), "Q801", "P57")
    assert found and found[0].verdict.verdict != SUPPORTED
    right = _on(verify_text(kg, text.replace("Bruno Keller", "Alice Brandt"), about="Q801"), "Q801", "P57")
    assert right and right[0].verdict.verdict == SUPPORTED


def test_a_topic_the_graph_gives_no_class_takes_the_description_the_graph_cannot_place(kg):
    text = "The show was directed by Bruno Keller."
    found = _on(verify_text(kg, text, about="Q807"), "Q807", "P57")
    assert found and found[0].verdict.verdict != SUPPORTED
    assert not _on(verify_text(kg, text), "Q807", "P57")


def test_a_subject_the_text_names_stays_its_own(kg):
    report = verify_text(kg, "Bruno Keller was born in Lyon.", about="Q801")
    assert {c.claim.subject_id for c in report.claims} == {"Q902"}


def test_the_topic_is_an_id_the_index_holds_or_a_name_it_links(kg):
    assert resolve_topic(kg, "Q801") == resolve_topic(kg, "The Quiet Harbour") == "Q801"
    with pytest.raises(VerifierError, match="not in this index"):
        resolve_topic(kg, "Q424242")
    with pytest.raises(VerifierError, match="no entity named"):
        resolve_topic(kg, "Zzyzx Qwerty")


def test_the_cli_checks_a_text_about_its_topic(mini_kg_dir):
    from test_cli_errors import FAKE, run

    out = run("verify", "He was born in 1962.", "--index", str(mini_kg_dir), *FAKE, "--about", "Q42", "--json")
    claims = __import__("json").loads(out.stdout)["claims"]
    assert [(c["claim"]["subject_id"], c["claim"]["property_id"], c["verdict"]) for c in claims] == \
        [("Q42", "P569", REFUTED)]


def test_a_sentence_without_its_name_has_no_lifespan_brackets(kg):
    """"(1921 - 2004)" dates the name right before it: with the name left out nothing is dated by it."""
    report = verify_text(kg, "(1921 - 2004) was a film director.", about="Q901")
    assert not [c for c in report.claims if c.reader == "lifespan"]


def test_a_list_after_an_opening_preposition_is_its_object_not_the_subject(kg):
    # "Written by A, B and C, the show was ...": every name of the list is the preposition's; the subject is the show.
    text = "Directed by Bruno Keller, Carla Moreau and Alice Brandt, the show was first aired on 30 October 1995."
    found = _on(verify_text(kg, text, about="Q807"), "Q807", "P577")
    assert found and found[0].verdict.verdict == REFUTED and "1990" in " ".join(found[0].verdict.corrections)
    for person in ("Q901", "Q902", "Q903"):
        assert not [c for c in verify_text(kg, text, about="Q807").claims if c.claim.subject_id == person]
    # A name after the opening phrase that its verb follows is the subject, list or not.
    assert not _on(verify_text(kg, "In Graz, Night Train was first aired on 30 October 1995.", about="Q807"),
                   "Q807", "P577")
