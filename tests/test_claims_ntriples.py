"""N-Triples as LLMs write them (GPToLODS's examples, dbr:/dbo:/wd: URIs, typed literals) into Claims."""
from pathlib import Path

import pytest

from test_claims import read, spo
from kgcheck.verifier.formats.readers import read_claims
from kgcheck.verifier.model import BadClaim, Claim

GPTOLODS = Path(__file__).resolve().parent / "fixtures" / "claims" / "gptolods.nt"


def test_gptolods_examples():
    items = list(read_claims(str(GPTOLODS)))
    assert all(isinstance(item, Claim) for item in items), [item for item in items if isinstance(item, BadClaim)]
    got = {(item.subject, item.predicate, item.object): item for item in items}
    assert ("Aristophanes", "genre", "Comedy") in got and ("Aristophanes", "notable work", "Lysistrata") in got
    assert got["Georgios Souris", "birth date", "1886-05-13"].kind == "date"
    assert got["Georgios Souris", "active years", "1949"].kind is None  # a plain string
    assert got["El Greco", "artist", "View of Toledo"].kind == "entity"  # the paper's own conversion example
    assert got["Naxos", "highest mountain", "Zas"].source_line == 10
    assert got["Naxos", "area total", "428 square kilometre"].kind == "quantity"
    assert got["George Papanicolaou", "known for", "Pap test"].kind is None  # no final dot
    assert ("Douglas Adams", "birth place", "Cambridge") in got
    wikidata = got["Q42", "P569", "1952-03-11"]
    assert (wikidata.subject_id, wikidata.property_id, wikidata.object_id, wikidata.kind) == ("Q42", "P569", None,
                                                                                             "date")


@pytest.mark.parametrize("line, expected", [
    ('dbr:Douglas_Adams dbo:birthPlace dbr:Cambridge .', ("Douglas Adams", "birth place", "Cambridge", "entity")),
    ('dbr:Douglas_Adams dbo:birthPlace dbr:Cambridge.', ("Douglas Adams", "birth place", "Cambridge", "entity")),
    ('dbr:Washington,_D.C. dbo:country dbr:United_States .', ("Washington, D.C.", "country", "United States",
                                                                 "entity")),
    ('<http://dbpedia.org/resource/AC/DC> <http://dbpedia.org/property/genre> <http://dbpedia.org/resource/Hard_rock>',
     ("AC/DC", "genre", "Hard rock", "entity")),
    ('dbr:Cambridge_(Massachusetts) dbo:populationTotal "118403"^^xsd:integer .',
     ("Cambridge (Massachusetts)", "population total", "118403", "quantity")),
    ('dbr:Mount_Zeus dbo:elevation "1004.0"^^xsd:double .', ("Mount Zeus", "elevation", "1004.0", "quantity")),
    ('dbr:Crete dbo:elevation 2456 .', ("Crete", "elevation", "2456", "quantity")),
    ('dbr:El_Greco dbo:birthYear "1541"^^xsd:gYear .', ("El Greco", "birth year", "1541", "date")),
    ('dbr:X dbo:date "1952-03-11T00:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .',
     ("X", "date", "1952-03-11T00:00:00", "date")),
    ('dbr:Heraklion rdfs:label "Ηράκλειο"@el .', ("Heraklion", "label", "Ηράκλειο", None)),
    ('dbr:X foaf:name "The \\"Hitchhiker\\" \\u00e9\\ud83d\\ude00" .', ("X", "name", 'The "Hitchhiker" é😀', None)),
    ('dbr:S%C3%A3o_Paulo dbo:country dbr:Brazil . # trailing comment', ("São Paulo", "country", "Brazil", "entity")),
    ('dbr:Odysseas_Elytis a dbo:Writer .', ("Odysseas Elytis", "type", "Writer", "entity")),
    ('http://dbpedia.org/resource/Naxos dbo:highestMountain "Mt. Zeus" .', ("Naxos", "highest mountain",
                                                                             "Mt. Zeus", None)),
    ('"Douglas Adams" dbo:birthPlace dbr:Cambridge .', ("Douglas Adams", "birth place", "Cambridge", "entity")),
])
def test_triple_shapes(tmp_path, line, expected):
    [item] = read(tmp_path, "c.nt", line + "\n")
    assert isinstance(item, Claim), item
    assert (*spo(item), item.kind) == expected and item.id == "line-1"


def test_wikidata_names_go_to_ids(tmp_path):
    text = ("@prefix wikidata: <http://www.wikidata.org/entity/> .\n"
            "<http://www.wikidata.org/entity/Q42> <http://www.wikidata.org/prop/direct/P19> wd:Q350 .\n"
            "wd:Q42 p:P69 wikidata:Q691283 .\n"
            "wd:Q42 ps:P569 \"1952-03-11\"^^xsd:date .\n")
    items = read(tmp_path, "c.nt", text)
    assert [(item.subject_id, item.property_id, item.object_id) for item in items] == [
        ("Q42", "P19", "Q350"), ("Q42", "P69", "Q691283"), ("Q42", "P569", None)]
    assert [item.source_line for item in items] == [2, 3, 4]


@pytest.mark.parametrize("line, error", [
    ('dbr:X dbo:quote "unterminated .', "unterminated literal"),
    ('<http://dbpedia.org/resource/X dbo:p dbr:Y .', "malformed IRI"),
    ('dbr:X dbo:genre dbr:A , dbr:B .', "',' object lists are not supported"),
    ('dbr:X dbo:genre dbr:A ; dbo:author dbr:B .', "';' predicate lists are not supported"),
    ('dbr:X dbo:genre .', "found 2 term(s)"),
    ('dbr:X dbo:genre dbr:A dbr:B .', "found 4 term(s) (one triple per line)"),
    ('dbr:X dbo:genre dbr:A . dbr:B', "text after the final '.'"),
    ('_:b0 dbo:genre dbr:A .', "blank node _:b0 cannot be checked"),
    ('dbr:X dbo:quote "" .', "empty object"),
    ('dbr:X dbo:quote "\\U00110000" .', "bad escape"),
    ('dbr:X dbo:quote "\\ud83d alone" .', "lone surrogate"),
    ('Douglas Adams was born in Cambridge.', "unexpected text"),
    ('@prefix dbr <http://dbpedia.org/resource/> .', "malformed @prefix"),
])
def test_bad_triples(tmp_path, line, error):
    [item] = read(tmp_path, "c.nt", f"dbr:A dbo:b dbr:C .\n{line}\n", "nt")[1:]
    assert isinstance(item, BadClaim) and item.line == 2 and error in item.error and item.raw == line.strip()


def test_markdown_fences_comments_and_declarations_are_not_claims(tmp_path):
    text = ("```turtle\n@prefix dbo: <http://dbpedia.org/ontology/> .\nBASE <http://x/>\n# note\n"
            "dbr:A dbo:b dbr:C .\n```\n")
    assert [item.source_line for item in read(tmp_path, "c.nt", text)] == [5]


