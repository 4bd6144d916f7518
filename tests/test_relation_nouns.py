"""An opening description that names a relation ("The editor-in-chief is X") stands for the topic named before
(referents.relation_noun), as "Its editor-in-chief is X" does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import verify_text
from conftest import fixture_builders

B = fixture_builders()
item, entity, prop = B.item, B.entity, B.prop


def _claim(report, span):
    found = [c for c in report.claims if c.span == span]
    assert found, f"no claim on {span!r}: {[(c.span, c.claim.property_id, c.reader) for c in report.claims]}"
    return found[0]


def test_an_opening_description_that_names_a_relation_is_the_topics(kg_of):
    # "X is a journal. The editor-in-chief is Y": the editor is the journal's, as "Its editor-in-chief is Y" says
    # (the compound's head and a plural head are looked up in the property lexicon); a description that names
    # a thing ("The bridge was founded ...") still leaves the subject unknown.
    kg2 = kg_of([prop("P31", "instance of", "wikibase-item"), prop("P98", "editor", "wikibase-item"),
                 entity("Q5", "human"),
                 entity("Q901", "Roger Kornberg", claims=[("P31", item("Q5", None))]),
                 entity("Q903", "Mira Solberg", claims=[("P31", item("Q5", None))]),
                 entity("Q904", "Jonas Ekdahl", claims=[("P31", item("Q5", None))]),
                 entity("Q31", "Annals of Tides", "journal", claims=[("P98", item("Q901", None))])] +
                # enough journals with one editor each for the judge to measure the property as exclusive
                [entity(f"Q{1000 + i}", f"Bulletin {i}", "journal", claims=[("P98", item("Q903", None))])
                 for i in range(30)])
    wrong = _claim(verify_text(kg2, "Annals of Tides is a journal. The editor-in-chief is Mira Solberg."),
                   "Mira Solberg")
    assert (wrong.claim.subject_id, wrong.claim.property_id, wrong.verdict.verdict) == ("Q31", "P98", REFUTED)
    assert "Roger Kornberg" in wrong.verdict.corrections
    right = _claim(verify_text(kg2, "Annals of Tides is a journal. The editors are Roger Kornberg and Jonas Ekdahl."),
                   "Roger Kornberg")
    assert (right.claim.subject_id, right.claim.property_id, right.verdict.verdict) == ("Q31", "P98", SUPPORTED)
    # Without a subject before it there is nothing to stand for; a description of a thing is no relation.
    assert not [c for c in verify_text(kg2, "The editor-in-chief is Mira Solberg.").claims
                if c.claim.property_id == "P98"]
    assert not [c for c in verify_text(kg2, "Annals of Tides is a journal. The bridge is Mira Solberg.").claims
                if c.claim.subject_id == "Q31"]
    # A bare opening noun phrase naming a relation, then a verb of listing ("Editors include Y"), lists the topic's
    # values as "Its editors include Y" does; one naming no relation ("Critics were") leaves the names their own.
    bare = _claim(verify_text(kg2, "Editors include Mira Solberg.", about="Q31"), "Mira Solberg")
    assert (bare.claim.subject_id, bare.claim.property_id, bare.verdict.verdict) == ("Q31", "P98", REFUTED)
    of_it = _claim(verify_text(kg2, "Editors of the journal are Mira Solberg and Jonas Ekdahl.", about="Q31"),
                   "Mira Solberg")
    assert (of_it.claim.subject_id, of_it.claim.property_id, of_it.verdict.verdict) == ("Q31", "P98", REFUTED)
    listed = _claim(verify_text(kg2, "Annals of Tides is a journal. Editors were Roger Kornberg and Jonas Ekdahl."),
                    "Roger Kornberg")
    assert (listed.claim.subject_id, listed.claim.property_id, listed.verdict.verdict) == ("Q31", "P98", SUPPORTED)
    assert not [c for c in verify_text(kg2, "Critics were Mira Solberg and Jonas Ekdahl.", about="Q31").claims
                if c.claim.subject_id == "Q31"]
    assert not [c for c in verify_text(kg2, "Editors include Mira Solberg.").claims if c.claim.property_id == "P98"]
    # A description the sentence goes on to describe is a thing even when a property bears its name ("album" is an
    # alias of "published in"): "The album was released …", "The album is a reissue" name no relation.
    from kgcheck.verifier.text.referents import relation_noun

    lexicon = {"album": ["P1433"], "editor": ["P98"]}.get
    assert relation_noun("The album was released in 2003.", lambda t: lexicon(t, [])) == []
    assert relation_noun("The album is a reissue.", lambda t: lexicon(t, [])) == []
    assert relation_noun("The album is Quiet Songs.", lambda t: lexicon(t, [])) == ["P1433"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("The Editors editors-in chief is are include A1 \"(.")), max_size=50))
def test_relation_noun_never_fails_and_only_names_what_the_lexicon_holds(sentence):
    from kgcheck.verifier.text.referents import bare_relation_noun, relation_noun

    for read in (relation_noun, bare_relation_noun):
        asked = []

        def lexicon(text):
            asked.append(text)
            return ["P98"] if text == "editor" else []

        found = read(sentence, lexicon)
        assert found in ([], ["P98"]) and (not found or "editor" in asked)


def test_a_relation_set_beside_a_name_is_the_topics(kg_of):
    # "X is a game. A sequel, Y, was released in 2000": Y is X's sequel (the word is an alias of "followed by"),
    # and the rest of the sentence is about Y; a wrong sequel is refuted with the graph's one.
    games = [entity(f"Q{1100 + i}", f"Quest {i}", "video game") for i in range(60)]
    kg2 = kg_of([prop("P156", "followed by", "wikibase-item", aliases=["sequel", "successor"]),
                 prop("P577", "publication date", "time"),
                 entity("Q41", "Tiny Kingdom", "video game", claims=[("P156", item("Q42", None))]),
                 entity("Q42", "Tiny Kingdom II", "video game"), entity("Q43", "Far Harbour", "video game")]
                # enough games with one sequel each for the judge to measure the property as exclusive
                + games + [entity(f"Q{1200 + i}", f"Saga {i}", "video game",
                                  claims=[("P156", item(f"Q{1100 + i}", None))]) for i in range(60)])
    right = _claim(verify_text(kg2, "Tiny Kingdom is a game. A sequel, Tiny Kingdom II, was released in 2000."),
                   "Tiny Kingdom II")
    assert (right.claim.subject_id, right.claim.property_id, right.verdict.verdict) == ("Q41", "P156", SUPPORTED)
    wrong = _claim(verify_text(kg2, "A successor, Far Harbour, was released in 2000.", about="Q41"), "Far Harbour")
    assert (wrong.claim.subject_id, wrong.claim.property_id, wrong.verdict.verdict) == ("Q41", "P156", REFUTED)
    assert "Tiny Kingdom II" in wrong.verdict.corrections
    # The date is the sequel's, not the topic's; a description naming no relation claims nothing of the topic.
    report = verify_text(kg2, "A sequel, Far Harbour, was released in 2000.", about="Q41")
    assert not [c for c in report.claims if c.claim.subject_id == "Q41" and c.claim.property_id == "P577"]
    assert not [c for c in verify_text(kg2, "A bridge, Far Harbour, was released in 2000.", about="Q41").claims
                if c.claim.subject_id == "Q41"]
    # Nothing before it in the text: no holder to give the relation to.
    assert not [c for c in verify_text(kg2, "A sequel, Far Harbour, was released in 2000.").claims
                if c.claim.property_id == "P156"]
