"""Two builds of the mini fixture that differ by known edits, and claims checked on them: shared by the tests
of `kgcheck diff` (test_diff.py) and of what `kgcheck recheck` re-checks (test_recheck_keys.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import TESTS

MINI = TESTS / "fixtures" / "mini-dump.json"


def entities_of(path: Path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        body = line.strip().rstrip(",")
        if body in ("[", "]", ""):
            continue
        try:
            out.append(json.loads(body))
        except json.JSONDecodeError:
            continue  # the fixture's deliberately bad line
    return out


def edited_entities() -> list[dict]:
    """The mini fixture with six known edits (see EXPECTED)."""
    ents = {e["id"]: e for e in entities_of(MINI)}
    ents["Q42"]["claims"]["P569"][0]["mainsnak"]["datavalue"]["value"]["time"] = "+1953-03-11T00:00:00Z"  # value
    del ents["Q350"]["claims"]["P1082"]  # removed
    ents["Q21"]["claims"]["P36"] = [{  # added: England's capital is London
        "mainsnak": {"snaktype": "value", "property": "P36", "datatype": "wikibase-item", "datavalue": {
            "type": "wikibase-entityid", "value": {"entity-type": "item", "numeric-id": 84, "id": "Q84"}}},
        "type": "statement", "id": "Q21$edit-1", "rank": "normal"}]
    ents["Q84"]["claims"]["P17"][0]["rank"] = "preferred"  # rank
    ents["Q239"]["labels"]["en"]["value"] = "Bruxelles"  # label
    del ents["Q12978"]  # entity removed (and its one statement)
    return list(ents.values())


def build(entities: list[dict], out: Path) -> Path:
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    dump = out.with_suffix(".json")
    dump.write_text("[\n" + ",\n".join(json.dumps(e) for e in entities) + "\n]\n")
    ingest(str(dump), str(out), IngestOptions(workers=1, quiet=True))
    build_index(str(out), embedder=FakeEmbedder(), quiet=True)
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff")
    old = build(entities_of(MINI), root / "old")
    new = build(edited_entities(), root / "new")
    return old, new


CLAIMS = [
    {"id": "born", "subject": "Douglas Adams", "predicate": "date of birth", "object": "11 March 1952",
     "subject_id": "Q42", "property_id": "P569"},
    {"id": "capital", "subject": "England", "predicate": "capital", "object": "London",
     "subject_id": "Q21", "property_id": "P36"},
    {"id": "brussels", "subject": "Brussels", "predicate": "country", "object": "Belgium"},
    {"id": "uk", "subject": "United Kingdom", "predicate": "capital", "object": "London",
     "subject_id": "Q145", "property_id": "P36"},
    {"id": "belgium", "subject": "Belgium", "predicate": "inception", "object": "1830",
     "subject_id": "Q31", "property_id": "P571"},
]


def checked_on(index: Path, tmp_path: Path) -> tuple[Path, Path]:
    """CLAIMS written to a file and checked on `index`: (claims file, results file)."""
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.formats.readers import read_claims

    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS) + "\n")
    results = tmp_path / "old.jsonl"
    with KG.open(str(index), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(results), quiet=True)
    return claims, results


def item_statement(subject: str, pid: str, qid: str, sid: str) -> dict:
    """A normal-rank statement `subject pid qid` in the dump's JSON."""
    return {"mainsnak": {"snaktype": "value", "property": pid, "datatype": "wikibase-item",
                         "datavalue": {"type": "wikibase-entityid", "value": {
                             "entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}}},
            "type": "statement", "id": f"{subject}${sid}", "rank": "normal"}


def recheck_beside_full(old: Path, new: Path, claims: list[dict], tmp_path: Path):
    """CLAIMS checked on OLD, re-checked after the rebuild to NEW, and checked on NEW in full to compare with:
    (recheck summary, results on OLD, re-checked results, full check's results)."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in claims) + "\n")
    before, out, full = tmp_path / "old.jsonl", tmp_path / "re.jsonl", tmp_path / "full.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(path)), str(before), quiet=True)
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        run_bulk(kg, read_claims(str(path)), str(full), quiet=True)
    assert_parsing_agrees(old, new, before, out, summary, tmp_path)
    return summary, before, out, full


def assert_parsing_agrees(old: Path, new: Path, before: Path, out: Path, summary, tmp_path: Path) -> None:
    """The recheck of BEFORE that read the keys `check` saved beside it (savedkeys.py) wrote OUT: the same recheck
    of a copy without them (every line parsed) writes the same bytes and summary, and the keys saved beside OUT
    are those its lines give."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims import savedkeys
    from kgcheck.verifier.claims.recheck import recheck

    assert savedkeys.load(str(before)) is not None, "check saved no keys beside its results"
    bare, parsed = tmp_path / "bare.jsonl", tmp_path / "parsed.jsonl"
    bare.write_bytes(before.read_bytes())
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        again = recheck(kg, diff, str(bare), str(parsed))
    assert parsed.read_bytes() == out.read_bytes()
    assert {**again.to_dict(), "seconds_diff": 0, "seconds_check": 0} == \
        {**summary.to_dict(), "seconds_diff": 0, "seconds_check": 0}
    assert savedkeys.load(str(parsed)) is None  # a parsed input leaves no keys to carry
    assert_keys_describe(out)


def assert_keys_describe(results: Path) -> None:
    """The keys saved beside RESULTS are those a KeyRecorder notes writing its lines again (rekeys.saved_rows)."""
    import orjson

    from kgcheck.verifier.claims import savedkeys
    from kgcheck.verifier.claims.rekeys import saved_rows

    saved = savedkeys.load(str(results))
    assert saved is not None, f"no keys saved beside {results.name}"
    copy = results.with_name("copy-" + results.name)
    copy.write_bytes(results.read_bytes())
    recorder = savedkeys.KeyRecorder()
    for line in copy.read_bytes().splitlines(keepends=True):
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            record = None
        recorder.add(line, *saved_rows(record if isinstance(record, dict) else None))
    assert recorder.save(str(copy))
    fresh = savedkeys.load(str(copy))

    def rows(table):
        return sorted(map(repr, zip(*table.cast(savedkeys.SCHEMA).to_pydict().values())))
    assert (saved.results, saved.others, list(saved.starts)) == (fresh.results, fresh.others, list(fresh.starts))
    assert rows(saved.table) == rows(fresh.table)
