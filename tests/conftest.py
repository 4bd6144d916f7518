"""Shared pytest fixtures. Keep each group small and additive; other areas add theirs below."""
from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SHARED_DATA = TESTS.parents[1] / "shared" / "data"

# -- ingest ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def mini_dump() -> Path:
    """tests/fixtures/mini-dump.json: every value type, ranks, a lexeme, a mul-only label, one bad line."""
    return TESTS / "fixtures" / "mini-dump.json"


@pytest.fixture(scope="session")
def sample_dump() -> Path:
    path = SHARED_DATA / "wikidata-sample.json.bz2"
    if not path.is_file():
        pytest.skip(f"real-data test: {path} is absent (../shared is not beside the repo)")
    return path


@pytest.fixture(scope="session")
def mini_index(mini_dump, tmp_path_factory) -> Path:
    """The mini fixture ingested once per session (read-only for tests)."""
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tmp_path_factory.mktemp("ingest") / "mini-index"
    ingest(str(mini_dump), str(out), IngestOptions(workers=2, quiet=True))
    return out


def small_entity(n: int, prop_count: int = 3) -> dict:
    """A small real-shaped item Q<n> with entity, time, quantity and string statements."""
    wd = "http://www.wikidata.org/entity/"
    claims = {}
    for i in range(prop_count):
        claims[f"P{100 + i}"] = [{
            "mainsnak": {"snaktype": "value", "property": f"P{100 + i}", "datatype": "wikibase-item",
                         "datavalue": {"type": "wikibase-entityid",
                                       "value": {"entity-type": "item", "numeric-id": n + i, "id": f"Q{n + i}"}}},
            "type": "statement", "id": f"Q{n}${i}", "rank": "normal"}]
    claims["P569"] = [{"mainsnak": {"snaktype": "value", "property": "P569", "datatype": "time", "datavalue": {
        "type": "time", "value": {"time": f"+{1000 + n % 1000}-01-02T00:00:00Z", "timezone": 0, "before": 0,
                                  "after": 0, "precision": 11, "calendarmodel": wd + "Q1985727"}}},
        "type": "statement", "id": f"Q{n}$t", "rank": "normal",
        "qualifiers": {"P1082": [{"snaktype": "value", "property": "P1082", "datatype": "quantity", "datavalue": {
            "type": "quantity", "value": {"amount": f"+{n}.5", "unit": "1"}}}]},
        "qualifiers-order": ["P1082"],
        "references": [{"hash": f"h{n}", "snaks": {"P854": [{"snaktype": "value", "property": "P854",
                                                              "datatype": "url", "datavalue": {
                                                                  "type": "string", "value": f"https://x.org/{n}"}}]},
                        "snaks-order": ["P854"]}]}]
    return {"type": "item", "id": f"Q{n}", "labels": {"en": {"language": "en", "value": f"thing {n}"}},
            "descriptions": {"en": {"language": "en", "value": f"test item number {n}"}}, "aliases": {},
            "claims": claims, "sitelinks": {}, "modified": "2024-06-01T12:00:00Z"}


def write_dump(path: Path, lines: list[str], compression: str | None = None, closed: bool = True) -> Path:
    """Lines in the official dump layout (`[`, `line,`..., `]`), optionally gzip/bz2-compressed."""
    text = "[\n" + ",\n".join(lines) + ("\n]\n" if closed else "\n")
    data = text.encode()
    if compression == "gz":
        data = gzip.compress(data, compresslevel=1)
    elif compression == "bz2":
        data = bz2.compress(data, compresslevel=1)
    path.write_bytes(data)
    return path


@pytest.fixture(scope="session")
def entity_maker():
    """small_entity, for tests that write their own dumps (test modules need not import conftest)."""
    return small_entity


@pytest.fixture
def make_dump(tmp_path):
    """make_dump(n_entities, compression=None, extra_lines=(), name=...) -> path of a generated dump."""

    def make(n: int, compression: str | None = None, extra_lines: tuple = (), name: str = "dump.json",
             closed: bool = True) -> Path:
        lines = [json.dumps(small_entity(i + 1), separators=(",", ":")) for i in range(n)]
        for position, line in extra_lines:
            lines.insert(position, line)
        suffix = {"gz": ".gz", "bz2": ".bz2"}.get(compression, "")
        return write_dump(tmp_path / (name + suffix), lines, compression, closed)

    return make

# -- index / verifier ----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def mini_kg_dir(mini_dump, tmp_path_factory) -> Path:
    """The mini fixture ingested and indexed with the deterministic FakeEmbedder (no model, fast)."""
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    out = tmp_path_factory.mktemp("kg") / "mini-kg"
    ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
    build_index(str(out), embedder=FakeEmbedder(), quiet=True)
    return out


@pytest.fixture()
def mini_kg(mini_kg_dir):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG

    kg = KG.open(str(mini_kg_dir), embedder=FakeEmbedder())
    yield kg
    kg.close()


@pytest.fixture(scope="session")
def shared_bench() -> Path:
    path = TESTS.parents[1] / "shared" / "bench"
    if not path.is_dir():
        pytest.skip(f"real-data test: {path} is absent (../shared is not beside the repo)")
    return path


@pytest.fixture(scope="module")
def kg_of(tmp_path_factory):
    """kg_of(entities) -> an open KG of these dump-format entity dicts (FakeEmbedder), closed after the module."""
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    opened = []

    def build(entities: list[dict]):
        dump = tmp_path_factory.mktemp("kg-of") / "dump.json"
        dump.write_text("[\n" + ",\n".join(json.dumps(e) for e in entities) + "\n]\n")
        out = dump.parent / "kg"
        ingest(str(dump), str(out), IngestOptions(workers=1, quiet=True))
        build_index(str(out), embedder=FakeEmbedder(), quiet=True)
        opened.append(KG.open(str(out), embedder=FakeEmbedder()))
        return opened[-1]

    yield build
    for kg in opened:
        kg.close()


def fixture_builders():
    """tests/fixtures/build_fixture.py as a module: entity(), prop(), time(), quantity()…"""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_fixture", TESTS / "fixtures" / "build_fixture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
