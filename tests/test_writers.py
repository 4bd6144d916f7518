"""`kgcheck check -o out.csv|out.parquet`: flat rows, resuming, and never clobbering a foreign file."""
from __future__ import annotations

import csv
import json

import duckdb
import pytest

from kgcheck.verifier.formats.writers import TABLE_COLUMNS

CLAIMS = [
    {"id": "c1", "subject": "Douglas Adams", "predicate": "date of birth", "object": "11 March 1952",
     "subject_id": "Q42", "property_id": "P569"},
    {"id": "c2", "subject": "Douglas Adams", "predicate": "date of birth", "object": "1960",
     "subject_id": "Q42", "property_id": "P569"},
    {"id": "c3", "subject": "Belgium", "predicate": "capital", "object": "Brussels",
     "subject_id": "Q31", "property_id": "P36"},
]


@pytest.fixture()
def claims_file(tmp_path):
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in CLAIMS) + "\n{not json\n")
    return path


def run(kg, claims_file, out, resume=True):
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.formats.readers import read_claims

    return run_bulk(kg, read_claims(str(claims_file)), str(out), quiet=True, resume=resume)


def test_csv_rows_are_flat_and_carry_the_best_evidence(mini_kg, claims_file, tmp_path):
    out = tmp_path / "out.csv"
    summary = run(mini_kg, claims_file, out)
    assert summary.checked == 3 and summary.bad_lines == 1
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == TABLE_COLUMNS
    by_id = {r["claim_id"]: r for r in rows}
    assert by_id["c1"]["verdict"] == "SUPPORTED" and by_id["c1"]["evidence_statement_id"] == "Q42$fixture-1"
    assert by_id["c1"]["subject_id"] == "Q42" and "P569" in by_id["c1"]["property_ids"].split(";")
    assert by_id["c2"]["verdict"] != "SUPPORTED"
    bad = [r for r in rows if r["error"] and not r["verdict"]]
    assert len(bad) == 1 and bad[0]["line"] == "4"


def test_parquet_joins_in_duckdb_and_resume_skips_done_ids(mini_kg, claims_file, tmp_path):
    out = tmp_path / "out.parquet"
    run(mini_kg, claims_file, out)
    rows = duckdb.sql(f"SELECT claim_id, verdict, property_ids, confidence FROM '{out}' ORDER BY claim_id").fetchall()
    assert [r[0] for r in rows if r[1]] == ["c1", "c2", "c3"]
    assert "P569" in rows[0][2] and isinstance(rows[0][3], float)
    again = run(mini_kg, claims_file, out)
    assert again.checked == 0 and again.skipped_done == 3 and again.bad_lines == 1
    ids = duckdb.sql(f"SELECT claim_id FROM '{out}'").fetchall()
    assert len(ids) == 4 == len(set(ids))  # three verdicts and the bad line, nothing doubled
    assert not list(tmp_path.glob("out.parquet.tmp-*"))


def test_csv_resume_rechecks_a_torn_row(mini_kg, claims_file, tmp_path):
    out = tmp_path / "out.csv"
    run(mini_kg, claims_file, out)
    lines = out.read_text().splitlines(keepends=True)
    good = [l for l in lines if l.startswith(("claim_id", "c1", "c2"))]
    torn = next(l for l in lines if l.startswith("c3"))[:12]
    out.write_text("".join(good) + torn)  # c3's row cut by a killed run
    again = run(mini_kg, claims_file, out)
    assert again.skipped_done == 2 and again.checked == 1
    with open(out, newline="") as fh:
        ids = [r["claim_id"] for r in csv.DictReader(fh) if r["verdict"]]
    assert sorted(ids) == ["c1", "c2", "c3"]


@pytest.mark.parametrize("name, content", [("user.csv", "a,b\n1,2\n"), ("user.parquet", None)])
def test_a_foreign_file_is_never_replaced(mini_kg, claims_file, tmp_path, name, content):
    from kgcheck.verifier.errors import VerifierError

    out = tmp_path / name
    if content is None:
        duckdb.sql(f"COPY (SELECT 1 AS a) TO '{out}' (FORMAT parquet)")
    else:
        out.write_text(content)
    before = out.read_bytes()
    for resume in (True, False):
        with pytest.raises(VerifierError, match="not a kgcheck results table"):
            run(mini_kg, claims_file, out, resume=resume)
    assert out.read_bytes() == before


def test_cli_check_writes_by_extension(mini_kg_dir, claims_file, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kgcheck.cli import main
    from kgcheck.index import embed

    monkeypatch.setattr(embed, "get_embedder", lambda *a, **k: embed.FakeEmbedder())
    out = tmp_path / "r.parquet"
    res = CliRunner().invoke(main, ["check", str(claims_file), "--index", str(mini_kg_dir), "-o", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert duckdb.sql(f"SELECT count(*) FROM '{out}' WHERE verdict IS NOT NULL").fetchall()[0][0] == 3
