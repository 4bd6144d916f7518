"""The streaming index build: vectorised normalisation, FAISS shards, the on-disk cache, --embed choices,
chunked statement fetches."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.index.manifest import INDEX_SCHEMA_VERSION
from kgcheck.index.embed import FakeEmbedder
from kgcheck.index.text import normalise, normalise_array

_PIECES = st.sampled_from(["a", "Z", "9", "_", " ", "  ", "\t", "'s", "'", ".", "`", "-", "s", "F.C.", "\x1c",
                           "\x0b", "é", "ß", "Ⅻ", "’s", "x", "\u0301", "İ", "n't", "'ll", "'d", "n", "’m"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=12).map("".join), max_size=20))
def test_normalise_array_equals_normalise(texts):
    assert normalise_array(texts).to_pylist() == [normalise(t) for t in texts]


def test_shards_search_like_one_flat_index(tmp_path, monkeypatch):
    import faiss

    from kgcheck.index import vectors

    monkeypatch.setattr(vectors, "SHARD_VECTORS", 7)
    rng = np.random.default_rng(1)
    data = rng.normal(size=(30, 8)).astype(np.float32)
    sink = vectors.FaissSink("flat", 8, 30, str(tmp_path), "entities")
    for start in range(0, 30, 4):
        sink.add(data[start:start + 4])
    shards = sink.close()
    assert len(shards) == 5
    sharded = vectors.ShardedIndex([str(tmp_path / s) for s in shards])
    flat = faiss.IndexFlatIP(8)
    flat.add(data)
    query = rng.normal(size=(3, 8)).astype(np.float32)
    assert np.array_equal(sharded.search(query, 5)[1], flat.search(query, 5)[1])


def test_cache_on_disk_and_legacy_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from kgcheck.index.vectors import EmbeddingCache, text_key

    emb = FakeEmbedder(dim=8)
    vecs = emb.encode(["one", "two"])
    flat = pa.array(vecs.astype(np.float16).reshape(-1))
    table = pa.table({"key": pa.array([text_key("one"), text_key("two")], pa.binary(16)),
                      "vector": pa.FixedSizeListArray.from_arrays(flat, 8)}).replace_schema_metadata({"model": emb.name})
    pq.write_table(table, tmp_path / "old.parquet")
    cache = EmbeddingCache(str(tmp_path / "new.sqlite"), emb.name, 8)
    assert cache.attach(str(tmp_path / "old.parquet"), str(tmp_path))
    found, missing = cache.lookup(["two", "three", "one"])
    assert missing == [1]
    assert np.allclose(found[0], vecs[1], atol=1e-3) and np.allclose(found[2], vecs[0], atol=1e-3)
    other = EmbeddingCache(str(tmp_path / "other.sqlite"), "another-model", 8)
    assert not other.attach(str(tmp_path / "new.sqlite"))  # another model's vectors are never mixed in
    cache.close()
    other.close()


@pytest.mark.parametrize("embed, min_sitelinks", [("none", 0), ("labels", 0), ("aliases", 10 ** 9)])
def test_embed_choices(mini_kg_dir, tmp_path, embed, min_sitelinks):
    from kgcheck.index.build import BuildSettings, build_index
    from kgcheck.index.store import KG

    copy = tmp_path / "kg"
    shutil.copytree(mini_kg_dir, copy)
    full = KG.open(str(mini_kg_dir)).manifest["index"]["counts"]["entity_vectors"]
    manifest = build_index(str(copy), embedder=FakeEmbedder(), quiet=True,
                           settings=BuildSettings(embed=embed, embed_min_sitelinks=min_sitelinks))
    n = manifest["index"]["counts"]["entity_vectors"]
    assert (n == 0) if embed == "none" or min_sitelinks else (0 < n < full)
    with KG.open(str(copy), embedder=FakeEmbedder()) as kg:
        assert kg.search_entities("douglas ADAMS", 3)[0].id == "Q42"  # lexical matching needs no vectors
        fuzzy = kg.search_entities("Dougla Adams", 3)
        assert bool(fuzzy) == (embed == "labels")


def test_statement_fetches_in_chunks_match_one_query(mini_kg, monkeypatch):
    from kgcheck.index import store

    subjects = [r[0] for r in mini_kg.sql("SELECT DISTINCT subject FROM statements ORDER BY 1")]
    whole = mini_kg.statements_for(subjects, details=True)
    about = mini_kg.statements_about("Q350")
    monkeypatch.setattr(store, "IN_CHUNK", 1)
    assert mini_kg.statements_for(subjects, details=True) == whole
    assert mini_kg.statements_about("Q350") == about
    assert sum(len(v) for v in whole.values()) == mini_kg.sql("SELECT count(*) FROM statements")[0][0]


def test_cli_index_settings(mini_kg_dir, tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    import kgcheck.cli as cli
    from kgcheck.commands import build as build_commands

    copy = tmp_path / "kg"
    shutil.copytree(mini_kg_dir, copy)
    monkeypatch.setattr(build_commands, "_index_embedder", lambda opts: FakeEmbedder())
    runner = CliRunner()
    res = runner.invoke(cli.main, ["index", str(copy), "--embed", "none", "--memory", "512MB", "--temp-dir",
                                   str(tmp_path / "spill"), "--quiet", "--json"])
    assert res.exit_code == 0, res.output
    info = json.loads(res.output)["index"]
    assert info["embed"] == {"texts": "none", "min_sitelinks": 0} and info["counts"]["entity_vectors"] == 0
    assert info["index_schema_version"] == INDEX_SCHEMA_VERSION
    assert not (copy / "label_index").exists() and (copy / "statements_by_object.parquet").is_file()
    res = runner.invoke(cli.main, ["index", str(copy), "--embed", "everything"])
    assert res.exit_code == 2


def test_statement_table_rows_of_pairs_or_subjects_and_held_values(mini_kg):
    """The checker's one read as an Arrow table: its rows are the tuples DuckDB's fetchall gives, in statement order —
    all, those of the claimed (subject, property) pairs, or of some subjects — and what every subject holds in
    three columns (a deprecated statement's property is held, its value is not)."""
    from kgcheck.index.store import _STATEMENT_COLS, ROW_PROPERTY, ROW_SUBJECT, held_values, table_rows

    subjects = [r[0] for r in mini_kg.sql("SELECT DISTINCT subject FROM statements ORDER BY 1")]
    every = mini_kg.sql(f"SELECT {_STATEMENT_COLS} FROM statements ORDER BY subject, statement_order")
    table = mini_kg.statement_table(subjects)
    assert table_rows(table) == every
    pairs = {(r[ROW_SUBJECT], r[ROW_PROPERTY]) for r in every[::3]}
    assert pairs and len(pairs) < len({(r[ROW_SUBJECT], r[ROW_PROPERTY]) for r in every})
    assert table_rows(table, pairs=pairs) == [r for r in every if (r[ROW_SUBJECT], r[ROW_PROPERTY]) in pairs]
    assert table_rows(table, pairs=set()) == [] and table_rows(mini_kg.statement_table([])) == []
    assert table_rows(table, subjects=subjects[:2]) == [r for r in every if r[ROW_SUBJECT] in subjects[:2]]
    statements = mini_kg.sql("SELECT subject, property, rank, entity_id FROM statements")
    assert any(rank == "deprecated" for _, _, rank, _ in statements)
    held = held_values(table)
    assert len(held) == len(set(held))
    assert set(held) == {(s, p, None if rank == "deprecated" else e) for s, p, rank, e in statements}


@pytest.mark.parametrize("string_type", ["string", "large_string"])
def test_table_rows_and_held_values_take_either_string_type(string_type):
    """DuckDB may hand strings over as Arrow's large strings: the filters and the group-by follow the column's type."""
    import pyarrow as pa

    from kgcheck.index.store import held_values, table_rows

    kind = getattr(pa, string_type)()
    columns = {"statement_id": ["a", "b", "c"], "subject": ["Q1", "Q1", "Q2"], "property": ["P1", "P2", "P1"],
               "rank": ["normal", "deprecated", "normal"], "entity_id": ["Q5", "Q6", None]}
    table = pa.table({name: pa.array(values, kind) for name, values in columns.items()})
    assert table_rows(table, pairs={("Q1", "P2")}) == [("b", "Q1", "P2", "deprecated", "Q6")]
    assert table_rows(table, subjects=["Q2"]) == [("c", "Q2", "P1", "normal", None)]
    assert set(held_values(table)) == {("Q1", "P1", "Q5"), ("Q1", "P2", None), ("Q2", "P1", None)}
