"""The hand-made fixture dump through the whole ingest: tables, manifest, errors.jsonl, CLI options."""
from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import os
import pty
import shutil
import subprocess
import sys
from kgcheck.ingest.writer import SCHEMA_VERSION
from pathlib import Path

from kgcheck.ingest.writer import open_database
import pytest

import kgcheck.ingest as ingest_pkg
from kgcheck.ingest.pipeline import IngestOptions, ingest

REPO = Path(__file__).resolve().parents[1]


def kgcheck(*args, stdin=None, stderr=subprocess.PIPE, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kgcheck.cli", *args], cwd=REPO, stdin=stdin,
                          stdout=subprocess.PIPE, stderr=stderr, timeout=timeout)


def query(index_dir: Path, sql: str, params=()):
    con = open_database(index_dir)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def statement(index_dir: Path, sid: str) -> dict:
    con = open_database(index_dir)
    try:
        cur = con.execute("SELECT * FROM statements WHERE statement_id = ?", [sid])
        names = [d[0] for d in cur.description]
        return dict(zip(names, cur.fetchone()))
    finally:
        con.close()


def test_each_value_type_lands_in_its_columns(mini_index):
    birth = statement(mini_index, "Q42$fixture-1")
    assert (birth["value_type"], birth["time"], birth["time_precision"], birth["value_text"]) == \
        ("time", "+1952-03-11T00:00:00Z", 11, "1952-03-11")
    assert statement(mini_index, "Q42$fixture-0")["entity_id"] == "Q5"
    height = statement(mini_index, "Q42$fixture-10")
    assert (height["amount"], height["unit"]) == (1.96, "Q11573")
    name = statement(mini_index, "Q42$fixture-8")
    assert (name["value_type"], name["string"], name["language"]) == ("monolingualtext", "Douglas Noël Adams", "en")
    assert statement(mini_index, "Q42$fixture-9")["string"] == "113230702"
    coord = statement(mini_index, "Q350$fixture-3")
    assert (coord["latitude"], coord["longitude"], coord["globe"]) == (52.205, 0.119, "Q2")
    area = statement(mini_index, "Q31$fixture-3")
    assert (area["amount"], area["lower"], area["upper"], area["unit"]) == (30689.0, 30688.0, 30690.0, "Q712226")


def test_somevalue_novalue_and_ranks(mini_index):
    assert statement(mini_index, "Q42$fixture-11")["snaktype"] == "somevalue"
    novalue = statement(mini_index, "Q42$fixture-12")
    assert (novalue["snaktype"], novalue["value_type"], novalue["entity_id"]) == ("novalue", None, None)
    ranks = dict(query(mini_index, "SELECT entity_id, rank FROM statements WHERE subject='Q42' AND property='P106'"))
    assert ranks == {"Q36180": "preferred", "Q28389": "normal", "Q1930187": "deprecated"}


def test_qualifiers_and_references_in_order(mini_index):
    quals = query(mini_index, "SELECT qualifier_order, property, time FROM qualifiers "
                              "WHERE statement_id='Q31$fixture-6' ORDER BY qualifier_order")
    assert quals == [(0, "P580", "+2014-10-11T00:00:00Z"), (1, "P582", "+2019-10-27T00:00:00Z")]
    refs = query(mini_index, 'SELECT reference_order, snak_order, property, entity_id, string FROM "references" '
                             "WHERE statement_id='Q42$fixture-1' ORDER BY reference_order, snak_order")
    assert refs == [(0, 0, "P248", "Q5375741", None), (0, 1, "P854", None, "https://example.org/source")]


def test_mul_only_label_lexeme_and_bad_line(mini_index, mini_dump):
    assert query(mini_index, "SELECT label, description, sitelinks FROM entities WHERE id='Q42'") == \
        [("Douglas Adams", "English author and humourist", 120)]
    assert query(mini_index, "SELECT count(*) FROM entities WHERE id LIKE 'L%'") == [(0,)]
    manifest = json.loads((mini_index / "manifest.json").read_text())
    assert manifest["skipped_entities"] == {"type:lexeme": 1}
    assert manifest["bad_lines"]["total"] == 1
    errors = [json.loads(x) for x in (mini_index / "errors.jsonl").read_text().splitlines()]
    assert len(errors) == 1 and errors[0]["kind"] == "invalid-json"
    data = mini_dump.read_bytes()
    assert data[errors[0]["offset"]:].startswith(b'{"type": "item", "id": "Q999"')
    assert data.split(b"\n")[errors[0]["line"] - 1].startswith(b'{"type": "item", "id": "Q999"')


def test_manifest_fields_are_all_there_and_right(mini_index, mini_dump):
    m = json.loads((mini_index / "manifest.json").read_text())
    src = m["source"]
    assert src["path"] == str(mini_dump.resolve())
    assert src["size_bytes"] == mini_dump.stat().st_size
    assert src["sha256"] == hashlib.sha256(mini_dump.read_bytes()).hexdigest()
    assert (src["compression"], src["decompressed_bytes"], src["complete_array"]) == ("none", src["size_bytes"], True)
    assert (src["dump_date"], src["dump_date_from"]) == ("2025-01-01", "latest modified entity")
    assert src["lines"] == 50
    assert m["counts"] == {"entities": 46, "labels": 82, "statements": 51, "qualifiers": 22, "references": 4}
    for table, n in m["counts"].items():
        assert query(mini_index, f'SELECT count(*) FROM "{table}"') == [(n,)]
    assert m["languages"] == ["en", "mul"]
    assert (m["schema_version"], m["kgcheck_version"], m["kind"]) == (SCHEMA_VERSION, ingest_pkg.__version__, "kgcheck-index")
    assert m["wall_seconds"] > 0 and m["workers"] == 2
    assert m["bad_lines"] == {"total": 1, "by_reason": {"invalid-json": 1}, "file": "errors.jsonl"}


def _table_digest(index_dir: Path) -> str:
    rows = query(index_dir, "SELECT * FROM statements ORDER BY statement_id") + \
        query(index_dir, "SELECT * FROM qualifiers ORDER BY statement_id, qualifier_order") + \
        query(index_dir, 'SELECT * FROM "references" ORDER BY statement_id, reference_order, snak_order') + \
        query(index_dir, "SELECT * FROM labels ORDER BY ALL") + query(index_dir, "SELECT * FROM entities ORDER BY id")
    return hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.mark.parametrize("compression", ["gz", "bz2"])
def test_compressed_dumps_and_date_in_name_give_the_same_tables(mini_dump, mini_index, tmp_path, compression):
    opener = gzip.compress if compression == "gz" else bz2.compress
    dump = tmp_path / f"wikidata-20240115-all.json.{compression}"
    dump.write_bytes(opener(mini_dump.read_bytes()))
    out = tmp_path / "idx"
    manifest = ingest(str(dump), str(out), IngestOptions(workers=1, quiet=True))
    assert manifest["source"]["compression"] == {"gz": "gzip", "bz2": "bz2"}[compression]
    assert (manifest["source"]["dump_date"], manifest["source"]["dump_date_from"]) == ("2024-01-15", "file name")
    assert manifest["source"]["decompressed_bytes"] == mini_dump.stat().st_size
    assert _table_digest(out) == _table_digest(mini_index)
    assert (out / "errors.jsonl").read_text() == (mini_index / "errors.jsonl").read_text()


def test_stdin_json_output_and_workers(mini_dump, mini_index, tmp_path):
    out = tmp_path / "from-stdin"
    with open(mini_dump, "rb") as fh:
        done = kgcheck("ingest", "-", "--out", str(out), "--workers", "3", "--json", stdin=fh)
    assert done.returncode == 0, done.stderr
    manifest = json.loads(done.stdout)
    assert manifest["source"]["path"] == "-" and manifest["workers"] == 3
    assert manifest["source"]["sha256"] == hashlib.sha256(mini_dump.read_bytes()).hexdigest()
    assert _table_digest(out) == _table_digest(mini_index)


def test_compressed_stdin(mini_dump, mini_index, tmp_path):
    dump = tmp_path / "mini.json.bz2"
    dump.write_bytes(bz2.compress(mini_dump.read_bytes()))
    with open(dump, "rb") as fh:
        done = kgcheck("ingest", "-", "--out", str(tmp_path / "o"), "--json", stdin=fh)
    assert done.returncode == 0, done.stderr
    manifest = json.loads(done.stdout)
    assert (manifest["source"]["compression"], manifest["source"]["size_bytes"]) == ("bz2", dump.stat().st_size)
    assert manifest["source"]["sha256"] == hashlib.sha256(dump.read_bytes()).hexdigest()
    assert _table_digest(tmp_path / "o") == _table_digest(mini_index)


def test_default_workers_is_all_cores():
    assert IngestOptions().worker_count() == (os.cpu_count() or 1)
    assert IngestOptions(workers=3).worker_count() == 3


def test_limit_and_languages(mini_dump, tmp_path):
    m = ingest(str(mini_dump), str(tmp_path / "a"), IngestOptions(workers=1, quiet=True, limit=5,
                                                                  languages=("en", "de")))
    assert (m["entities_seen"], m["skipped_entities"], m["limit_reached"]) == (4, {"type:lexeme": 1}, True)
    assert m["languages"] == ["en", "de", "mul"]
    assert query(tmp_path / "a", "SELECT id FROM entities ORDER BY id") == [("Q145",), ("Q21",), ("Q350",), ("Q42",)]


def test_progress_bar_only_on_a_terminal_and_not_quiet(mini_dump, tmp_path):
    piped = kgcheck("ingest", str(mini_dump), "--out", str(tmp_path / "p"))
    assert piped.returncode == 0 and b"entities/s" not in piped.stderr and b"/s]" not in piped.stderr
    for quiet, expect_bar in ((False, True), (True, False)):
        leader, follower = pty.openpty()
        args = ["ingest", str(mini_dump), "--out", str(tmp_path / f"t{quiet}")] + (["--quiet"] if quiet else [])
        done = kgcheck(*args, stderr=follower)
        os.close(follower)
        seen = b""
        try:
            while chunk := os.read(leader, 65536):
                seen += chunk
        except OSError:
            pass
        os.close(leader)
        assert done.returncode == 0
        assert (b"entities, " in seen and b"/s" in seen and b"ingest: " in seen) == expect_bar, seen[-300:]


def test_bad_lines_offsets_point_at_the_lines_in_compressed_dumps(make_dump, tmp_path):
    bad = [(3, '{"type":"item","id":"Q77","claims":{'), (10, "not json at all"),
           (20, '{"type":"item","id":"Q78","claims":{"P1":[{"id":"x","mainsnak":{"snaktype":"value",'
                '"property":"P1","datavalue":{"type":"quantity","value":{"amount":"many"}}}}]}}'),
           (30, "[1, 2, 3]")]
    for compression in ("gz", "bz2"):
        dump = make_dump(60, compression=compression, extra_lines=bad, name=f"bad-{compression}.json")
        out = tmp_path / f"out-{compression}"
        m = ingest(str(dump), str(out), IngestOptions(workers=2, quiet=True))
        assert m["bad_lines"]["by_reason"] == {"invalid-json": 2, "bad-value": 1}
        # The line with the bad amount is kept: its statement is stored, its value marked invalid.
        assert m["entities_seen"] == 61 and m["invalid_values"]["total"] == 1
        data = (gzip.decompress if compression == "gz" else bz2.decompress)(dump.read_bytes())
        all_lines = data.split(b"\n")
        errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
        assert [e["line"] for e in errors] == sorted(e["line"] for e in errors) and len(errors) == 4
        for err, (position, text) in zip(errors, bad):
            line = data[err["offset"]:].split(b"\n", 1)[0]
            assert line.rstrip(b",").decode() == text
            assert all_lines[err["line"] - 1] == line
            if err["kind"] == "invalid-value":
                assert (err["statement_id"], err["table"], err["property"]) == ("x", "statements", "P1")
            else:
                assert err["text"] == text[:200]


def test_languages_option_on_the_cli(mini_dump, tmp_path):
    done = kgcheck("ingest", str(mini_dump), "--out", str(tmp_path / "x"), "--languages", "de,en", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["languages"] == ["de", "en", "mul"]
    shutil.rmtree(tmp_path / "x")
