"""`kgcheck diff` and `kgcheck recheck` on two builds of the mini fixture that differ by known edits."""
from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from conftest import TESTS


def _entities(path: Path) -> list[dict]:
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
    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
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


def _build(entities: list[dict], out: Path) -> Path:
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
    old = _build(_entities(TESTS / "fixtures" / "mini-dump.json"), root / "old")
    new = _build(edited_entities(), root / "new")
    return old, new


def test_diff_reports_each_known_edit(builds):
    from kgcheck.index.diff import IndexDiff

    old, new = builds
    with IndexDiff(str(old), str(new)) as diff:
        summary = diff.summary()
        rows = {(sid, change) for sid, _, _, change in diff.changed_statement_rows()}
    assert rows == {("Q42$fixture-1", "value"), ("Q21$edit-1", "added"), ("Q84$fixture-1", "rank")} | {
        (sid, "removed") for sid, change in rows if change == "removed"}
    removed = {sid for sid, change in rows if change == "removed"}
    assert any(s.startswith("Q350$") for s in removed) and any(s.startswith("Q12978$") for s in removed)
    assert len(removed) == 2
    st = summary["statements"]
    assert (st["added"], st["removed"], st["changed"]) == (1, 2, 2)
    assert st["changed_by_part"] == {"value": 1, "rank": 1, "qualifiers": 0, "references": 0}
    assert summary["by_property"]["P36"] == {"added": 1, "removed": 0, "changed": 0}
    assert summary["by_property"]["P569"] == {"added": 0, "removed": 0, "changed": 1}
    assert summary["entities"]["removed"] == 1 and summary["entities"]["label"] == 1
    assert summary["entities"]["added"] == 0
    assert summary["labels"]["added"] == 1 and summary["labels"]["removed"] == 2  # Bruxelles; Brussels, Michel


def test_diff_names_qualifier_and_reference_changes_and_their_precedence(builds, tmp_path):
    """A qualifier edited, a reference edited, a reference removed, and rank + qualifier edited on one statement
    (reported as rank: value > rank > qualifiers > references); nothing else differs."""
    from kgcheck.index.diff import IndexDiff

    old, _ = builds
    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
    q31 = {st["id"]: st for st in ents["Q31"]["claims"]["P6"]}
    q31["Q31$fixture-6"]["qualifiers"]["P582"][0]["datavalue"]["value"]["time"] = "+2020-10-27T00:00:00Z"
    q31["Q31$fixture-7"]["qualifiers"]["P580"][0]["datavalue"]["value"]["time"] = "+2021-01-01T00:00:00Z"
    q31["Q31$fixture-7"]["rank"] = "preferred"
    q42 = {st["id"]: st for sts in ents["Q42"]["claims"].values() for st in sts}
    q42["Q42$fixture-2"]["references"][0]["snaks"]["P854"][0]["datavalue"]["value"] = "https://example.org/other"
    del q42["Q42$fixture-1"]["references"]
    new = _build(list(ents.values()), tmp_path / "parts")
    with IndexDiff(str(old), str(new)) as diff:
        rows = {(sid, change) for sid, _, _, change in diff.changed_statement_rows()}
        by_part = diff.summary()["statements"]["changed_by_part"]
    assert rows == {("Q31$fixture-6", "qualifiers"), ("Q31$fixture-7", "rank"), ("Q42$fixture-2", "references"),
                    ("Q42$fixture-1", "references")}
    assert by_part == {"value": 0, "rank": 1, "qualifiers": 1, "references": 2}


def test_diff_of_a_build_with_itself_is_empty(builds, tmp_path):
    import shutil

    from kgcheck.index.diff import diff_indexes

    old, _ = builds
    copy = tmp_path / "copy"
    shutil.copytree(old, copy)
    summary = diff_indexes(str(old), str(copy))
    assert summary["statements"] == {"added": 0, "removed": 0, "changed": 0, "subjects_touched": 0,
                                     "changed_by_part": {"value": 0, "rank": 0, "qualifiers": 0, "references": 0}}
    assert not summary["by_property"] and not any(summary["entities"].values())


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


def _checked_on(index: Path, tmp_path: Path) -> tuple[Path, Path]:
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


def test_recheck_touches_only_reachable_claims_and_reports_flips(builds, tmp_path):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    old, new = builds
    claims, before = _checked_on(old, tmp_path)
    old_verdicts = {r["id"]: r["verdict"] for r in map(orjson.loads, before.read_bytes().splitlines())}
    assert old_verdicts["born"] == "SUPPORTED"
    out = tmp_path / "new.jsonl"
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        # what a full check on NEW says, to compare with
        full = tmp_path / "full.jsonl"
        run_bulk(kg, read_claims(str(claims)), str(full), quiet=True)
    after = {r["id"]: r["verdict"] for r in map(orjson.loads, out.read_bytes().splitlines())}
    full_verdicts = {r["id"]: r["verdict"] for r in map(orjson.loads, full.read_bytes().splitlines())}
    assert summary.results == 5
    assert summary.rechecked == 3  # born (value), capital (added), brussels (its name changed)
    assert after == full_verdicts  # the untouched claims did not need checking
    assert after["born"] != "SUPPORTED"
    assert after["capital"] == "SUPPORTED" and old_verdicts["capital"] != "SUPPORTED"
    flipped = {f["id"]: (f["old"], f["new"]) for f in summary.flipped}
    assert flipped["born"] == ("SUPPORTED", after["born"]) and "capital" in flipped
    assert "uk" not in flipped and "belgium" not in flipped


def test_recheck_keeps_every_other_line_in_place(builds, tmp_path):
    """Lines are keyed by position: a line that is not a result is copied as it was, a repeated id is re-checked
    at each of its lines, and the rewritten lines stay where they were."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    old, new = builds
    _, results = _checked_on(old, tmp_path)
    lines = results.read_bytes().splitlines()
    born = next(line for line in lines if orjson.loads(line)["id"] == "born")
    mixed = tmp_path / "mixed.jsonl"
    malformed = b'{"id": "odd", "verdict": "SUPPORTED", "subject_id": "Q42", "evidence": "not a list"}'
    mixed.write_bytes(b"\n".join([lines[0], b"", b"not a result {", born] + lines[1:] + [b'{"note": 1}', malformed])
                      + b"\n")
    out = tmp_path / "out.jsonl"
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(mixed), str(out))
    written = out.read_bytes().splitlines()
    assert summary.results == 6 and summary.rechecked == 4  # born twice, capital, brussels
    assert summary.not_results == 3  # a broken line, a foreign object, a result of the wrong shape: kept as they were
    assert written[1] == b"not a result {" and written[-2:] == [b'{"note": 1}', malformed]
    assert len(written) == len(lines) + 4
    ids = [orjson.loads(line).get("id") for line in written[:-1] if line.startswith(b'{"id"')]
    assert ids == ["born", "born"] + [orjson.loads(line)["id"] for line in lines[1:]]
    born_after = [orjson.loads(line) for line in written if line.startswith(b'{"id":"born"')]
    assert born_after[0] == born_after[1] and born_after[0]["verdict"] != "SUPPORTED"
    assert [f["id"] for f in summary.flipped].count("born") == 2


def test_cli_diff_json_and_recheck_errors(builds, tmp_path):
    from kgcheck.cli import main

    old, new = builds
    runner = CliRunner()
    res = runner.invoke(main, ["diff", str(old), str(new), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["statements"]["added"] == 1
    text = runner.invoke(main, ["diff", str(old), str(new)])
    assert text.exit_code == 0 and "P569" in text.output
    bad = runner.invoke(main, ["diff", str(old), str(tmp_path / "nowhere")])
    assert bad.exit_code == 1 and "not a kgcheck index" in bad.output
    results = tmp_path / "r.jsonl"
    results.write_text("")
    same = runner.invoke(main, ["recheck", str(results), "--index", str(new), "--old", str(old), "-o", str(results)])
    assert same.exit_code == 1 and "is the results file" in same.output
    # The table outputs of `check` lack what a recheck follows: refused, by extension or by Parquet's magic
    # number, and nothing is written; so is a table as the output of a recheck.
    disguised = tmp_path / "parquet.jsonl"
    disguised.write_bytes(b"PAR1" + b"\0" * 16)
    (tmp_path / "r.csv").write_text("claim_id,verdict\na,SUPPORTED\n")
    for table, kind in ((tmp_path / "r.csv", "CSV"), (disguised, "PARQUET")):
        res = runner.invoke(main, ["recheck", str(table), "--index", str(new), "--old", str(old)])
        assert res.exit_code == 1 and f"is a {kind} table" in res.output
        assert not list(tmp_path.glob("*.recheck.jsonl"))
    res = runner.invoke(main, ["recheck", str(results), "--index", str(new), "--old", str(old), "-o",
                               str(tmp_path / "out.parquet")])
    assert res.exit_code == 1 and "writes JSON lines" in res.output and not (tmp_path / "out.parquet").exists()
    notes = tmp_path / "notes.jsonl"
    notes.write_text("my notes")
    res = runner.invoke(main, ["recheck", str(results), "--index", str(new), "--old", str(old), "-o", str(notes)])
    assert res.exit_code == 1 and "is not a kgcheck results file" in res.output and notes.read_text() == "my notes"


def test_cli_recheck_writes_the_updated_results(builds, tmp_path, monkeypatch):
    from kgcheck.cli import main
    from kgcheck.index import embed

    monkeypatch.setattr(embed, "get_embedder", lambda *a, **k: embed.FakeEmbedder())
    old, new = builds
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS if c.get("subject_id")) + "\n")
    runner = CliRunner()
    results = tmp_path / "results.jsonl"
    assert runner.invoke(main, ["check", str(claims), "--index", str(old), "-o", str(results),
                                "--quiet"]).exit_code == 0
    res = runner.invoke(main, ["recheck", str(results), "--index", str(new), "--old", str(old), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["results"] == 4 and data["rechecked"] == 2 and data["output"].endswith("results.recheck.jsonl")
    assert {f["id"] for f in data["flipped_claims"]} == {"born", "capital"}
    assert len((tmp_path / "results.recheck.jsonl").read_text().splitlines()) == 4
    text = runner.invoke(main, ["recheck", str(results), "--index", str(new), "--old", str(old)])
    assert text.exit_code == 0 and "2 verdicts flipped" in text.output and "born: SUPPORTED ->" in text.output


def test_cli_recheck_defaults_old_to_the_kept_previous_build(builds, tmp_path, monkeypatch):
    import os

    from kgcheck.cli import main

    old, new = builds
    results = tmp_path / "results.jsonl"
    results.write_text("")
    runner = CliRunner()
    lone = tmp_path / "lone"
    lone.mkdir()
    res = runner.invoke(main, ["recheck", str(results), "--index", str(lone)])
    assert res.exit_code == 2 and "--old" in res.output
    current = tmp_path / "current"
    os.symlink(new, current)
    os.symlink(old, tmp_path / "current.previous")  # what `kgcheck build --keep-previous` leaves
    res = runner.invoke(main, ["recheck", str(results), "--index", str(current), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["results"] == 0


def test_saved_changes_are_read_back_for_the_same_pair_only(builds, tmp_path, monkeypatch):
    import shutil

    from kgcheck.index.diff import CHANGES_DIR, IndexDiff

    old, new = builds
    old_copy, new_copy = tmp_path / "old", tmp_path / "new"
    shutil.copytree(old, old_copy)
    shutil.copytree(new, new_copy)
    with IndexDiff(str(old_copy), str(new_copy)) as diff:
        assert not diff.saved
        computed, rows = diff.summary(), diff.changed_statement_rows()
        diff.save()
    assert (new_copy / CHANGES_DIR / "changed_statements.parquet").is_file()

    def no_join(self):
        raise AssertionError("joined both builds again")

    with monkeypatch.context() as m:
        m.setattr(IndexDiff, "_build", no_join)
        with IndexDiff(str(old_copy), str(new_copy)) as diff:
            assert diff.saved and diff.changed_statement_rows() == rows
            assert {**diff.summary(), "from_saved_changes": False} == {**computed, "from_saved_changes": False}
    # Another OLD (its manifest differs): the saved tables are not for it.
    manifest = old_copy / "manifest.json"
    manifest.write_text(manifest.read_text().replace("{", '{"touched": 1, ', 1))
    with IndexDiff(str(old_copy), str(new_copy)) as diff:
        assert not diff.saved and diff.changed_statement_rows() == rows


def test_build_keep_previous_saves_the_changes_recheck_then_reads(tmp_path, monkeypatch):
    from kgcheck.cli import main
    from kgcheck.index.diff import IndexDiff

    monkeypatch.setenv("KGCHECK_EMBEDDER", "fake-trigram")
    first, second = tmp_path / "v1.json", tmp_path / "v2.json"
    first.write_text("[\n" + ",\n".join(json.dumps(e) for e in _entities(TESTS / "fixtures" / "mini-dump.json")) + "\n]\n")
    second.write_text("[\n" + ",\n".join(json.dumps(e) for e in edited_entities()) + "\n]\n")
    out = tmp_path / "index"
    runner = CliRunner()
    for dump in (first, second):
        res = runner.invoke(main, ["build", str(dump), "--out", str(out), "--keep-previous", "--quiet"])
        assert res.exit_code == 0, res.output
    assert (out / "changes" / "changes.json").is_file()
    res = runner.invoke(main, ["diff", f"{out}.previous", str(out), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["from_saved_changes"] and summary["statements"]["added"] == 1
    with IndexDiff(f"{out}.previous", str(out)) as diff:
        assert diff.saved


def test_a_statement_id_repeated_under_two_subjects_is_two_statements(tmp_path):
    """Some dumps repeat a statement id under other entities (the replicated scale dumps do): the diff keys a
    statement by subject and id, so two equal builds differ in nothing and one edit is one change."""
    import copy

    from kgcheck.index.diff import IndexDiff

    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
    twin = copy.deepcopy(ents["Q42"])
    twin["id"], twin["labels"] = "Q4200", {"en": {"language": "en", "value": "Douglas Twin"}}
    twin.pop("aliases", None)
    twin.pop("sitelinks", None)
    base = list(ents.values()) + [twin]
    old = _build(base, tmp_path / "old")
    same = _build(copy.deepcopy(base), tmp_path / "same")
    edited = copy.deepcopy(base)
    edited[-1]["claims"]["P569"][0]["mainsnak"]["datavalue"]["value"]["time"] = "+1953-03-11T00:00:00Z"
    new = _build(edited, tmp_path / "new")
    with IndexDiff(str(old), str(same)) as diff:
        assert diff.changed_statement_rows() == []
    with IndexDiff(str(old), str(new)) as diff:
        assert diff.changed_statement_rows() == [("Q42$fixture-1", "Q4200", "P569", "value")]


def test_a_failed_save_of_the_changes_never_fails_the_build(tmp_path, monkeypatch):
    from kgcheck.cli import main
    from kgcheck.index import diff as diff_module
    from kgcheck.index.manifest import IndexError_

    monkeypatch.setenv("KGCHECK_EMBEDDER", "fake-trigram")
    dump = tmp_path / "v.json"
    dump.write_text("[\n" + ",\n".join(json.dumps(e) for e in edited_entities()) + "\n]\n")
    out = tmp_path / "index"
    runner = CliRunner()
    assert runner.invoke(main, ["build", str(dump), "--out", str(out), "--quiet"]).exit_code == 0

    def full_disk(self, extra=None):
        raise IndexError_("saving the changes failed: no space left on device")

    monkeypatch.setattr(diff_module.IndexDiff, "save", full_disk)
    res = runner.invoke(main, ["build", str(dump), "--out", str(out), "--keep-previous"])
    assert res.exit_code == 0, res.output
    assert "changes since the previous build not saved: saving the changes failed" in res.stderr
    assert (out / "manifest.json").is_file() and (tmp_path / "index.previous" / "manifest.json").is_file()
    assert not (out / "changes").exists()


HELD = [{"id": "writer", "subject": "Douglas Adams", "predicate": "occupation", "object": "writer",
         "subject_id": "Q42", "property_id": "P106", "object_id": "Q36180"},
        {"id": "painter", "subject": "Douglas Adams", "predicate": "occupation", "object": "painter",
         "subject_id": "Q42", "property_id": "P106", "object_id": "Q1028181"}]


def _occupations(edit: str | None = None) -> list[dict]:
    """The mini fixture with two more occupations of Q42, the last one edited: past the few other values a
    SUPPORTED result lists as evidence (an edit of a listed one is an evidence change)."""
    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
    occupations = ents["Q42"]["claims"]["P106"]
    for n, qid in enumerate(("Q21", "Q31"), 1):
        occupations.append({"mainsnak": {"snaktype": "value", "property": "P106", "datatype": "wikibase-item",
                                         "datavalue": {"type": "wikibase-entityid", "value": {
                                             "entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}}},
                            "type": "statement", "id": f"Q42$extra-{n}", "rank": "normal"})
    last = occupations[-1]
    if edit == "rank":
        last["rank"] = "preferred"
    elif edit:
        value = last["mainsnak"]["datavalue"]["value"]
        value["id"] = {"another value": "Q145", "the claimed value": "Q36180"}[edit]
        value["numeric-id"] = int(value["id"][1:])
    return list(ents.values())


@pytest.fixture(scope="module")
def more_occupations(tmp_path_factory):
    return _build(_occupations(), tmp_path_factory.mktemp("occupations") / "old")


@pytest.mark.parametrize("edit, rechecked", [("another value", {"painter"}),
                                             ("the claimed value", {"painter", "writer"}),
                                             ("rank", {"painter", "writer"})])
def test_a_value_the_graph_holds_is_rechecked_only_when_its_property_may_hold_it_otherwise(more_occupations, tmp_path,
                                                                                           edit, rechecked):
    """SUPPORTED by a statement holding the claimed value: another statement of the property changing to a third
    value cannot move it (not re-checked); one coming to hold the claimed value, or a rank change, can. A claim
    the graph does not hold reads every value of the property: re-checked on any of these edits."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    old = more_occupations
    new = _build(_occupations(edit), tmp_path / "new")
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in HELD) + "\n")
    before, out, full = tmp_path / "old.jsonl", tmp_path / "re.jsonl", tmp_path / "full.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(before), quiet=True)
    assert [r["verdict"] for r in map(orjson.loads, before.read_bytes().splitlines())][0] == "SUPPORTED"
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        run_bulk(kg, read_claims(str(claims)), str(full), quiet=True)
    untouched = before.read_bytes().splitlines()
    re_lines, full_lines = out.read_bytes().splitlines(), full.read_bytes().splitlines()
    assert summary.rechecked == len(rechecked)
    assert {orjson.loads(line)["id"] for line, was in zip(re_lines, untouched) if line != was} <= rechecked
    assert [orjson.loads(x)["verdict"] for x in re_lines] == [orjson.loads(x)["verdict"] for x in full_lines]


def test_a_claim_on_a_property_the_subject_lacks_follows_the_subjects_other_statements(builds, tmp_path):
    """Rules B and C read every statement of the subject: a statement added under another property that links
    the subject to the claimed object turns "no statement of located in" into "linked through country"."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
    ents["Q42"]["claims"]["P17"] = [{"mainsnak": {"snaktype": "value", "property": "P17", "datatype": "wikibase-item",
                                                  "datavalue": {"type": "wikibase-entityid", "value": {
                                                      "entity-type": "item", "numeric-id": 84, "id": "Q84"}}},
                                     "type": "statement", "id": "Q42$added-1", "rank": "normal"}]
    old, new = builds[0], _build(list(ents.values()), tmp_path / "new")
    claims = tmp_path / "claims.jsonl"
    claims.write_text(json.dumps({"id": "lacks", "subject": "Douglas Adams", "predicate": "located in",
                                  "object": "London", "subject_id": "Q42", "property_id": "P131",
                                  "object_id": "Q84"}) + "\n")
    before, out, full = tmp_path / "old.jsonl", tmp_path / "re.jsonl", tmp_path / "full.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(before), quiet=True)
    assert orjson.loads(before.read_bytes())["rule"] == "C"
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        run_bulk(kg, read_claims(str(claims)), str(full), quiet=True)
    assert "country" in orjson.loads(full.read_bytes())["reason"]
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_byte_order_mark_before_the_first_result_is_kept_and_read_past(builds, tmp_path):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    old, new = builds
    _, results = _checked_on(old, tmp_path)
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + results.read_bytes())
    assert orjson.loads(results.read_bytes().splitlines()[0])["id"] == "born"  # the first line flips
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        plain = recheck(kg, diff, str(results), str(tmp_path / "plain.jsonl"))
        bom = recheck(kg, diff, str(marked), str(tmp_path / "bom.jsonl"))
    assert (bom.results, bom.rechecked, bom.not_results) == (plain.results, plain.rechecked, 0)
    assert (tmp_path / "bom.jsonl").read_bytes() == b"\xef\xbb\xbf" + (tmp_path / "plain.jsonl").read_bytes()


def test_closed_world_results_are_rechecked_closed_world_only(builds, tmp_path, monkeypatch):
    """Results of `check --closed-world` re-checked with the default open-world reading would mix two readings in
    one file: refused unless --closed-world is given again."""
    from kgcheck.cli import main
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.check import CheckOptions
    from kgcheck.verifier.formats.readers import read_claims

    monkeypatch.setenv("KGCHECK_EMBEDDER", "fake-trigram")
    old, new = builds
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS + HELD[1:]) + "\n")
    results = tmp_path / "closed.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(results), CheckOptions(closed_world=True), quiet=True)
    lines = results.read_bytes().splitlines()
    painter = [n for n, line in enumerate(lines, 1) if orjson.loads(line)["id"] == "painter"][0]
    assert orjson.loads(lines[painter - 1])["exclusivity"] == "closed-world"
    args = ["recheck", str(results), "--index", str(new), "--old", str(old), "-o", str(tmp_path / "re.jsonl")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and f"closed.jsonl:{painter}: a verdict of `check --closed-world`" in res.output
    assert not (tmp_path / "re.jsonl").exists()
    res = CliRunner().invoke(main, [*args, "--closed-world", "--json"])
    assert res.exit_code == 0, res.output
    rechecked = {r["id"]: r for r in map(orjson.loads, (tmp_path / "re.jsonl").read_bytes().splitlines())}
    assert rechecked["born"]["verdict"] == "REFUTED" and rechecked["painter"]["exclusivity"] == "closed-world"


def _county(qid: str, inception: str | None) -> dict:
    entity = {"type": "item", "id": qid, "labels": {"en": {"language": "en", "value": "Washington County"}},
              "descriptions": {}, "aliases": {}, "claims": {}}
    if inception:
        entity["claims"]["P571"] = [{"mainsnak": {"snaktype": "value", "property": "P571", "datatype": "time",
                                                  "datavalue": {"type": "time", "value": {
                                                      "time": f"+{inception}-00-00T00:00:00Z", "timezone": 0,
                                                      "before": 0, "after": 0, "precision": 9,
                                                      "calendarmodel": "http://www.wikidata.org/entity/Q1985727"}}},
                                     "type": "statement", "id": f"{qid}$inception", "rank": "normal"}]
    return entity


def test_a_claim_named_by_text_follows_every_namesake(tmp_path):
    """A subject given by name is tried on every entity of that name: a statement added to another namesake
    than the one the old verdict chose flips it, so the namesakes' statements are keys too."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    base = _entities(TESTS / "fixtures" / "mini-dump.json")
    old = _build(base + [_county("Q9001", "1799"), _county("Q9002", None)], tmp_path / "old")
    new = _build(base + [_county("Q9001", "1799"), _county("Q9002", "1800")], tmp_path / "new")
    claims = tmp_path / "claims.jsonl"
    claims.write_text(json.dumps({"id": "county", "subject": "Washington County", "predicate": "inception",
                                  "object": "1800"}) + "\n")
    before, out, full = tmp_path / "old.jsonl", tmp_path / "re.jsonl", tmp_path / "full.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(before), quiet=True)
    was = orjson.loads(before.read_bytes())
    assert was["verdict"] != "SUPPORTED" and was["subject_id"] == "Q9001"
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        run_bulk(kg, read_claims(str(claims)), str(full), quiet=True)
    assert orjson.loads(full.read_bytes())["verdict"] == "SUPPORTED"
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_predicate_named_by_text_follows_the_labels_and_aliases_of_properties(builds, tmp_path):
    """An alias added to a property that equals a claim's predicate changes the property it is read as."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    ents = {e["id"]: e for e in _entities(TESTS / "fixtures" / "mini-dump.json")}
    ents["P19"].setdefault("aliases", {}).setdefault("en", []).append({"language": "en",
                                                                       "value": "came into the world at"})
    old, new = builds[0], _build(list(ents.values()), tmp_path / "new")
    claims = tmp_path / "claims.jsonl"
    claims.write_text(json.dumps({"id": "born", "subject": "Douglas Adams", "subject_id": "Q42",
                                  "predicate": "came into the world at", "object": "Cambridge"}) + "\n")
    before, out, full = tmp_path / "old.jsonl", tmp_path / "re.jsonl", tmp_path / "full.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(before), quiet=True)
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        summary = recheck(kg, diff, str(before), str(out))
        run_bulk(kg, read_claims(str(claims)), str(full), quiet=True)
    assert orjson.loads(full.read_bytes())["property_ids"][0] == "P19"
    assert orjson.loads(before.read_bytes())["property_ids"][:1] != ["P19"]
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()
