"""`kgcheck diff` and `kgcheck recheck` on two builds of the mini fixture that differ by known edits."""
from __future__ import annotations

import json

import orjson
from click.testing import CliRunner

from diff_builds import (CLAIMS, MINI, build, builds, checked_on, edited_entities,  # noqa: F401 (builds: a fixture)
                         entities_of)



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
    ents = {e["id"]: e for e in entities_of(MINI)}
    q31 = {st["id"]: st for st in ents["Q31"]["claims"]["P6"]}
    q31["Q31$fixture-6"]["qualifiers"]["P582"][0]["datavalue"]["value"]["time"] = "+2020-10-27T00:00:00Z"
    q31["Q31$fixture-7"]["qualifiers"]["P580"][0]["datavalue"]["value"]["time"] = "+2021-01-01T00:00:00Z"
    q31["Q31$fixture-7"]["rank"] = "preferred"
    q42 = {st["id"]: st for sts in ents["Q42"]["claims"].values() for st in sts}
    q42["Q42$fixture-2"]["references"][0]["snaks"]["P854"][0]["datavalue"]["value"] = "https://example.org/other"
    del q42["Q42$fixture-1"]["references"]
    new = build(list(ents.values()), tmp_path / "parts")
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



def test_recheck_touches_only_reachable_claims_and_reports_flips(builds, tmp_path):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.readers import read_claims

    old, new = builds
    claims, before = checked_on(old, tmp_path)
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
    _, results = checked_on(old, tmp_path)
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


def test_cli_recheck_defaults_old_to_the_kept_previousbuild(builds, tmp_path, monkeypatch):
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
    first.write_text("[\n" + ",\n".join(json.dumps(e) for e in entities_of(MINI)) + "\n]\n")
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

    ents = {e["id"]: e for e in entities_of(MINI)}
    twin = copy.deepcopy(ents["Q42"])
    twin["id"], twin["labels"] = "Q4200", {"en": {"language": "en", "value": "Douglas Twin"}}
    twin.pop("aliases", None)
    twin.pop("sitelinks", None)
    base = list(ents.values()) + [twin]
    old = build(base, tmp_path / "old")
    same = build(copy.deepcopy(base), tmp_path / "same")
    edited = copy.deepcopy(base)
    edited[-1]["claims"]["P569"][0]["mainsnak"]["datavalue"]["value"]["time"] = "+1953-03-11T00:00:00Z"
    new = build(edited, tmp_path / "new")
    with IndexDiff(str(old), str(same)) as diff:
        assert diff.changed_statement_rows() == []
    with IndexDiff(str(old), str(new)) as diff:
        assert diff.changed_statement_rows() == [("Q42$fixture-1", "Q4200", "P569", "value")]


def test_a_failed_save_of_the_changes_never_fails_thebuild(tmp_path, monkeypatch):
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
