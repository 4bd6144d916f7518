"""The small graph the word and type readers' tests share (tests/test_words.py, tests/test_types_reader.py): films,
people and cities with one director, year, birthplace or country each; and how a test finds a claim in a report."""
from __future__ import annotations

from conftest import fixture_builders

B = fixture_builders()
item, time, entity, prop = B.item, B.time, B.entity, B.prop


def _film(qid, label, director, year):
    return entity(qid, label, "film", claims=[("P31", item("Q11424", None)), ("P57", item(director, None)),
                                               ("P577", time(f"+{year}-01-01T00:00:00Z", 9))])


def _person(qid, label, birthplace):
    return entity(qid, label, "person", claims=[("P31", item("Q5", None)), ("P19", item(birthplace, None))])


def _city(qid, label, country):
    return entity(qid, label, "city", claims=[("P31", item("Q515", None)), ("P17", item(country, None))])


ENTITIES = [
    prop("P31", "instance of", "wikibase-item"),
    prop("P57", "director", "wikibase-item", aliases=["directed by", "film director"]),
    prop("P577", "publication date", "time", aliases=["released", "date of release"]),
    prop("P19", "place of birth", "wikibase-item", aliases=["born in", "birthplace"]),
    prop("P17", "country", "wikibase-item"),
    entity("Q11424", "film"), entity("Q5", "human"), entity("Q515", "city"), entity("Q6256", "country"),
    entity("Q142", "France", claims=[("P31", item("Q6256", None))]),
    entity("Q40", "Austria", claims=[("P31", item("Q6256", None))]),
    _city("Q456", "Lyon", "Q142"), _city("Q13298", "Graz", "Q40"),
    _person("Q901", "Alice Brandt", "Q456"), _person("Q902", "Bruno Keller", "Q13298"),
    _person("Q903", "Carla Moreau", "Q456"),
    _film("Q801", "The Quiet Harbour", "Q901", 1994), _film("Q802", "Night Train", "Q902", 2001),
    _film("Q803", "Paper Moon Rising", "Q903", 1988), _film("Q804", "Club Can't Wait", "Q903", 2010),
    _film("Q805", "(7) Iris Rock", "Q901", 1999), entity("Q118", "April", "month of the year"),
    _film("Q806", "Chak Ho! Harbour", "Q902", 2003),
]


def claim_on(report, span):
    found = [c for c in report.claims if c.span == span]
    assert found, f"no claim on {span!r}: {[(c.span, c.claim.property_id, c.reader) for c in report.claims]}"
    return found[0]


def graph_values(tc):
    return {e.value for e in tc.verdict.evidence} | set(tc.verdict.corrections)


def claim_tuples(kg, text):
    """(subject, property, object, verdict) of each claim verify_text reads in TEXT."""
    from kgcheck.verifier.text.verify import verify_text

    return [(c.claim.subject_id, c.claim.property_id, c.claim.object_id, c.verdict.verdict)
            for c in verify_text(kg, text).claims]
