"""Issue 17, CLI half: an output that is the input, resumes that re-append errors, bad paths and bytes."""
from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from kgcheck.cli import main
from kgcheck.index.embed import FakeEmbedder

CLAIMS = [{"id": "a", "subject": "Belgium", "predicate": "capital", "object": "Brussels"},
          {"id": "b", "subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"}]


@pytest.fixture(autouse=True)
def fake_embedder(monkeypatch):
    import kgcheck.index.embed as index_embed

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())


def _claims_file(tmp_path, ids=True, bad=False):
    lines = [json.dumps(c if ids else {k: v for k, v in c.items() if k != "id"}) for c in CLAIMS]
    if bad:
        lines.insert(1, "{not json")
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(args, kg, **kw):
    return CliRunner().invoke(main, [*args, "--index", str(kg)], catch_exceptions=False, **kw)


@pytest.mark.parametrize("ids", [True, False])
@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("how", ["same", "symlink", "hardlink", "relative"])
def test_output_that_is_the_input_is_refused_and_the_input_untouched(mini_kg_dir, tmp_path, monkeypatch, ids,
                                                                        resume, how):
    src = _claims_file(tmp_path, ids=ids)
    before = src.read_bytes()
    out = src
    if how == "symlink":
        out = tmp_path / "link.jsonl"
        out.symlink_to(src)
    elif how == "hardlink":
        out = tmp_path / "hard.jsonl"
        os.link(src, out)
    elif how == "relative":
        monkeypatch.chdir(tmp_path)
        out = "./sub/../claims.jsonl"
        (tmp_path / "sub").mkdir()
    res = _run(["check", str(src), "-o", str(out), *([] if resume else ["--no-resume"])], mini_kg_dir)
    assert res.exit_code == 1
    assert "is the claims file" in res.output and "Traceback" not in res.output
    assert src.read_bytes() == before


def test_output_that_is_stdin_is_refused(mini_kg_dir, tmp_path):
    src = _claims_file(tmp_path)
    before = src.read_bytes()
    with open(src, "rb") as fh:
        import subprocess
        import sys

        env = {**os.environ, "PYTHONPATH": str(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))),
               "KGCHECK_INDEX": str(mini_kg_dir)}
        # A real process: CliRunner's stdin is not a file descriptor.
        proc = subprocess.run([sys.executable, "-c", "from kgcheck.cli import main; main()", "check", "-", "-o",
                               str(src), "--no-resume"], stdin=fh, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1 and "is the claims file stdin" in proc.stderr, proc.stderr
    assert src.read_bytes() == before


def test_resume_does_not_re_append_bad_line_records(mini_kg_dir, tmp_path):
    src = _claims_file(tmp_path, bad=True)
    out = tmp_path / "out.jsonl"
    for _ in range(3):
        res = _run(["check", str(src), "-o", str(out), "--quiet"], mini_kg_dir)
        assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == ["a", "b", "line-2"]  # each line once, the bad one included


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("content", [b"my notes\nimportant last line", b'{"hello": 1}\n', b"[1, 2]\n"])
def test_an_output_that_is_not_a_results_file_is_left_untouched(mini_kg_dir, tmp_path, resume, content):
    """A resume cut the last line of any file without a final newline (as a run's torn result) and appended
    results after the rest; --no-resume replaced it: both are refused, the file stays byte for byte."""
    src = _claims_file(tmp_path)
    out = tmp_path / "notes.md"
    out.write_bytes(content)
    res = CliRunner().invoke(main, ["check", str(src), "-o", str(out), "--quiet", "--index", str(mini_kg_dir),
                                    *([] if resume else ["--no-resume"])])
    assert res.exit_code == 1 and res.stderr == (f"kgcheck: error: {out} exists and is not a kgcheck results file: "
                                                 "choose another output\n")
    assert out.read_bytes() == content


def test_reports_replace_only_what_kgcheck_wrote(mini_kg_dir, tmp_path):
    """verify --html, eval --html and --errors replace an earlier report of theirs, never the user's file."""
    labelled = tmp_path / "dev.jsonl"
    labelled.write_text(json.dumps({**CLAIMS[1], "label": "REFUTED"}) + "\n")  # misjudged: one error line
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my notes</p>")
    runs = {"verify": ["verify", "Douglas Adams was born in 1952.", "--no-llm", "--html"],
            "eval html": ["eval", str(labelled), "--html"], "eval errors": ["eval", str(labelled), "--errors"]}
    names = {"verify": "a kgcheck HTML report", "eval html": "a kgcheck HTML report",
             "eval errors": "a kgcheck list of misjudged claims"}
    for what, args in runs.items():
        res = CliRunner().invoke(main, [*args, str(notes), "--index", str(mini_kg_dir)])
        assert res.exit_code == 1, what
        assert res.stderr == f"kgcheck: error: {notes} exists and is not {names[what]}: choose another output\n"
        assert notes.read_text() == "<p>my notes</p>"
        own = tmp_path / f"{what}.out"
        for _ in range(2):  # written, then replaced by the next run
            assert _run([*args, str(own)], mini_kg_dir).exit_code == 0, what
        assert own.stat().st_size > 0


def test_an_output_of_blank_lines_is_free_to_use(mini_kg_dir, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("\n  \n")
    assert _run(["check", str(_claims_file(tmp_path)), "-o", str(out), "--quiet"], mini_kg_dir).exit_code == 0
    assert sorted(json.loads(line)["id"] for line in out.read_text().split("\n") if line.strip()) == ["a", "b"]


def test_a_run_killed_in_its_first_line_resumes(mini_kg_dir, tmp_path):
    src = _claims_file(tmp_path)
    out = tmp_path / "out.jsonl"
    assert _run(["check", str(src), "-o", str(out), "--quiet"], mini_kg_dir).exit_code == 0
    whole = out.read_bytes()
    out.write_bytes(whole[:40])  # killed while writing its first result
    assert _run(["check", str(src), "-o", str(out), "--quiet"], mini_kg_dir).exit_code == 0
    assert sorted(json.loads(line)["id"] for line in out.read_text().splitlines()) == ["a", "b"]


def test_output_under_a_file_is_one_line_error(mini_kg_dir, tmp_path):
    src = _claims_file(tmp_path)
    (tmp_path / "afile").write_text("x")
    res = _run(["check", str(src), "-o", str(tmp_path / "afile" / "sub")], mini_kg_dir)
    assert res.exit_code == 1 and "not a directory" in res.output and "Traceback" not in res.output
    res = _run(["verify", "Douglas Adams was born in 1952.", "--no-llm", "--html", str(tmp_path / "afile" / "r.html")],
               mini_kg_dir)
    assert res.exit_code == 1 and "not a directory" in res.output


def test_ingest_out_under_a_file_is_one_line_error(mini_dump, tmp_path):
    (tmp_path / "afile").write_text("x")
    res = CliRunner().invoke(main, ["ingest", str(mini_dump), "--out", str(tmp_path / "afile" / "sub")],
                             catch_exceptions=False)
    assert res.exit_code == 1 and "not a directory" in res.output and "Traceback" not in res.output
    assert (tmp_path / "afile").read_text() == "x"


def test_verify_file_with_invalid_utf8_is_one_line_error(mini_kg_dir, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Douglas \xff\xfe Adams was born in 1952.")
    res = _run(["verify", "--file", str(bad), "--no-llm"], mini_kg_dir)
    assert res.exit_code == 1
    assert res.output.strip() == f"Error: {bad} is not UTF-8 text (byte 0xff at offset 8)"
    res = _run(["verify", "--no-llm", "-"], mini_kg_dir, input=b"\xc3(")
    assert res.exit_code == 1 and "stdin is not UTF-8 text" in res.output


def test_long_texts_show_progress_on_stderr(mini_kg_dir, monkeypatch):
    import kgcheck.verifier.serve.console as console

    monkeypatch.setattr(console, "LONG_TEXT_CHARS", 100)  # the real threshold is 20,000 characters
    text = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. " * 3
    res = _run(["verify", text, "--no-llm", "--json"], mini_kg_dir)
    assert res.exit_code == 0
    assert "verify: sentences" in res.stderr and json.loads(res.stdout)["claims"]
    monkeypatch.setattr(console, "LONG_TEXT_CHARS", 10_000)
    res = _run(["verify", text, "--no-llm", "--json"], mini_kg_dir)
    assert "verify:" not in res.stderr


def test_output_dash_is_standard_output(mini_kg_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = _run(["check", str(_claims_file(tmp_path)), "-o", "-"], mini_kg_dir)
    assert res.exit_code == 0 and sorted(json.loads(line)["id"] for line in res.stdout.splitlines()) == ["a", "b"]
    assert not (tmp_path / "-").exists()
