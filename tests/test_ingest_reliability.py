"""Issue 17, the ingest's half: stale `kgcheck build` staging directories, --languages, damaged
compressed dumps, duplicate entity ids."""
from __future__ import annotations

import bz2
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kgcheck.ingest.dump import DumpError
from kgcheck.ingest.languages import LanguageError, parse_languages
from kgcheck.ingest.pipeline import IngestError, IngestOptions, ingest
from kgcheck.ingest.writer import build_staging_dir


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _cli():
    from kgcheck.cli import main

    return main


# -- item 3: DIR.new-<pid> of a killed build --------------------------------------------------------

def test_staging_dirs_of_dead_builds_are_removed_live_ones_kept(tmp_path):
    out = tmp_path / "kg"
    dead, live = _dead_pid(), os.getppid()
    for name in (f"kg.new-{dead}", f"kg.new-{dead}.building-{dead}-1700000000", f"kg.new-{live}"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "statements.parquet").write_bytes(b"x" * 100)
    (tmp_path / "kg.new-notapid").mkdir()  # not ours to judge
    (tmp_path / f"kg.new-{dead}-notes").mkdir()  # nor is a name that only starts like ours
    staging = build_staging_dir(str(out))
    assert staging == f"{out}.new-{os.getpid()}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"kg.new-{live}", "kg.new-notapid",
                                                                 f"kg.new-{dead}-notes"])


def test_a_later_build_command_removes_what_a_sigkilled_build_left(tmp_path):
    dead = _dead_pid()
    (tmp_path / f"kg.new-{dead}").mkdir()
    res = CliRunner().invoke(_cli(), ["build", str(tmp_path / "missing.json"), "--out", str(tmp_path / "kg")])
    assert res.exit_code == 1 and "no such dump file" in res.output
    assert not (tmp_path / f"kg.new-{dead}").exists()


# -- item 7: --languages ------------------------------------------------------------------------

def test_language_codes_are_lower_cased_and_malformed_ones_refused():
    assert parse_languages("EN, De,mul,en") == ("en", "de")
    assert parse_languages("zh-Hans,be-tarask") == ("zh-hans", "be-tarask")
    for bad in ("english", "e n", "12", "", "mul", "en;de"):
        with pytest.raises(LanguageError):
            parse_languages(bad)


def test_languages_option_normalises_reports_and_refuses(mini_dump, tmp_path):
    res = CliRunner().invoke(_cli(), ["ingest", str(mini_dump), "--out", str(tmp_path / "a"), "--languages", "EN,xx",
                                      "--workers", "1"])
    assert res.exit_code == 0, res.output
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["languages"] == ["en", "xx", "mul"] and manifest["labels_by_language"]["en"] > 20
    assert manifest["languages_without_labels"] == ["xx"] and "no entity has a label in language 'xx'" in res.output
    res = CliRunner().invoke(_cli(), ["ingest", str(mini_dump), "--out", str(tmp_path / "b"), "--languages", "English"])
    assert res.exit_code == 2 and "not a language code" in res.output and not (tmp_path / "b").exists()


# -- item 7: damaged compressed dumps ----------------------------------------------------------------

def test_random_bytes_named_bz2_are_not_bzip2(tmp_path):
    junk = tmp_path / "junk.json.bz2"
    junk.write_bytes(os.urandom(4000).replace(b"BZh", b"xxx"))
    with pytest.raises(DumpError, match="is not bzip2 data"):
        ingest(str(junk), str(tmp_path / "out"), IngestOptions(workers=1, quiet=True))
    gz = tmp_path / "junk.json.gz"
    gz.write_bytes(b"[\n]\n")
    with pytest.raises(DumpError, match="is not gzip data"):
        ingest(str(gz), str(tmp_path / "out"), IngestOptions(workers=1, quiet=True))


@pytest.mark.parametrize("threads", [1, 2])
def test_junk_after_the_bzip2_magic_is_a_clear_error(tmp_path, threads):
    junk = tmp_path / "junk.json.bz2"
    junk.write_bytes(b"BZh9" + bytes(range(256)) * 20)
    with pytest.raises(IngestError, match="corrupt or truncated bzip2 stream"):
        ingest(str(junk), str(tmp_path / "out"), IngestOptions(workers=1, quiet=True, decoder_threads=threads))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_truncated_bz2_says_so_not_std_exception(make_dump, tmp_path, threads):
    dump = make_dump(400, compression="bz2")
    data = dump.read_bytes()
    dump.write_bytes(data[: len(data) // 2])
    with pytest.raises(IngestError) as info:
        ingest(str(dump), str(tmp_path / "out"), IngestOptions(workers=1, quiet=True, decoder_threads=threads))
    message = str(info.value)
    assert "truncated bzip2 stream" in message and "ends early or is damaged" in message
    assert message.count("std::exception") == 0 and not (tmp_path / "out").exists()


# -- item 7: duplicate entity ids --------------------------------------------------------------------

def test_an_entity_the_dump_holds_twice_is_stored_once_first_copy_wins(entity_maker, tmp_path, monkeypatch):
    from kgcheck.index.store import KG

    first, second = entity_maker(1), entity_maker(1)
    second["labels"]["en"]["value"] = "second copy"
    lines = [first, entity_maker(2), second, entity_maker(3), first]
    dump = tmp_path / "dups.json"
    dump.write_text("[\n" + ",\n".join(json.dumps(x) for x in lines) + "\n]\n")
    for builder in ("0", "1"):  # the C builder and rows.py
        out = tmp_path / f"kg{builder}"
        monkeypatch.setenv("KGCHECK_INGEST_PYTHON", builder)
        manifest = ingest(str(dump), str(out), IngestOptions(workers=2, quiet=True))
        assert manifest["duplicate_entities"] == {"ids": 1, "copies_dropped": 2, "file": "errors.jsonl"}
        assert manifest["counts"]["entities"] == 3 and manifest["counts"]["statements"] == 3 * 4
        kg = KG.open(str(out))
        assert kg.entity("Q1").label == "thing 1"
        assert len(kg.statements("Q1")) == 4
        assert all(len(st.references) == 1 for st in kg.statements("Q1") if st.property == "P569")
        errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
        assert [(e["kind"], e["id"], e["first_line"], e["line"]) for e in errors] == [
            ("duplicate-entity", "Q1", 2, 4), ("duplicate-entity", "Q1", 2, 6)]
