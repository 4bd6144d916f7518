"""Every domain error of every command, by its exact message (the sqlite-utils habit): one line on stderr,
`kgcheck: error: ...`, exit code 1, no traceback; usage errors exit 2. The fixture index is built with
the FakeEmbedder, so commands run with `--embedder fake-trigram` and load no model."""
from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from kgcheck.cli import main

FAKE = ["--embedder", "fake-trigram"]


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def fails(result, message: str) -> None:
    """Exit 1 with exactly this one line on stderr and nothing on stdout."""
    assert (result.exit_code, result.stderr, result.stdout) == (1, f"kgcheck: error: {message}\n", ""), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def usage(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.rstrip("\n").endswith(f"Error: {message}"), result.stderr


@pytest.fixture
def nowhere(tmp_path) -> str:
    return str(tmp_path / "absent")


@pytest.fixture
def plain_dir(tmp_path) -> str:
    path = tmp_path / "plain"
    path.mkdir()
    (path / "notes.txt").write_text("not an index")
    return str(path)


# ---------------------------------------------------------------- ingest / build

def test_ingest_errors(tmp_path, nowhere, plain_dir, make_dump):
    fails(run("ingest", nowhere, "--out", str(tmp_path / "o")), f"no such dump file: {nowhere}")
    fails(run("ingest", str(tmp_path), "--out", str(tmp_path / "o")), f"not a regular file: {tmp_path}")
    dump = make_dump(2)
    fails(run("ingest", str(dump), "--out", plain_dir, "--quiet"),
          f"{plain_dir} exists and is not a kgcheck index (no manifest.json); refusing to replace it: choose "
          "another --out or remove it")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    usage(run("ingest", str(dump), "--out", str(a_file), "--quiet"),
          f"Invalid value for '--out': Directory '{a_file}' is a file.")
    truncated = make_dump(2, name="cut.json", closed=False)
    fails(run("ingest", str(truncated), "--out", str(tmp_path / "o"), "--quiet", "--workers", "1"),
          f"{truncated} is truncated: the dump's closing ']' never came (2 entities read); nothing was published")
    junk = tmp_path / "junk.json"
    junk.write_text("[\n{\"not\": \"an entity\"},\n]\n")
    fails(run("ingest", str(junk), "--out", str(tmp_path / "o"), "--quiet", "--workers", "1"),
          f"{junk} holds no items or properties (0 unreadable lines, 1 skipped): is it a Wikidata JSON dump?")
    assert not os.path.exists(tmp_path / "o")  # nothing published by any failure
    usage(run("ingest", str(dump), "--out", str(tmp_path / "o"), "--languages", " , "),
          "Invalid value for --languages: give at least one language")


def test_build_errors(tmp_path, nowhere, plain_dir):
    fails(run("build", nowhere, "--out", str(tmp_path / "o"), *FAKE), f"no such dump file: {nowhere}")
    assert not os.path.exists(tmp_path / "o")


# ---------------------------------------------------------------- index

def test_index_errors(nowhere, plain_dir, mini_index):
    fails(run("index", plain_dir, *FAKE, "--quiet"),
          f"{plain_dir} is not a kgcheck index (no manifest.json); build one with `kgcheck build`")
    fails(run("index", nowhere, *FAKE, "--quiet"),
          f"{nowhere} is not a kgcheck index (no manifest.json); build one with `kgcheck build`")
    fails(run("index", str(mini_index), "--embedder", "nope", "--quiet"),
          "unknown embedder 'nope': expected one of minilm, minilm-static, fake-trigram (plug-ins register in the entry-point "
          "group 'kgcheck.embedders')")


def test_index_out_of_duckdb_memory_is_one_line_naming_the_setting(mini_index, monkeypatch):
    import duckdb

    from kgcheck.index import build

    def out_of_memory(*args, **kwargs):  # what a non-spilling operator raises at the limit (seen at 5M entities)
        raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block of size 256.0 KiB\nmore")

    monkeypatch.setattr(build, "build_index", out_of_memory)
    fails(run("index", str(mini_index), *FAKE, "--quiet"),
          "DuckDB ran out of memory at its limit (index and build: `--memory`): raise it, or give --temp-dir a disk "
          "with room (Out of Memory Error: could not allocate block of size 256.0 KiB)")


def test_index_out_of_memory_names_the_step_it_stopped_in(mini_index, monkeypatch, tmp_path):
    import shutil

    import duckdb

    from kgcheck.index import build

    def out_of_memory(*args, **kwargs):
        raise duckdb.OutOfMemoryException("Out of Memory Error: failed to pin block of size 256.0 KiB")

    monkeypatch.setattr(build, "build_measures", out_of_memory)
    copy = tmp_path / "index"
    shutil.copytree(mini_index, copy)
    fails(run("index", str(copy), *FAKE, "--quiet"),
          "DuckDB ran out of memory at its limit (index and build: `--memory`): raise it, or give --temp-dir a disk "
          "with room (Out of Memory Error: failed to pin block of size 256.0 KiB; while building the measure tables)")


# ---------------------------------------------------------------- lookup / show (reading an index)

def test_lookup_errors(nowhere, plain_dir, mini_index, mini_kg_dir, monkeypatch):
    from kgcheck.index import embed

    fails(run("lookup", "Douglas Adams", "--index", nowhere, *FAKE),
          f"no index at {nowhere}; build one with `kgcheck build DUMP --out {nowhere}`")
    fails(run("lookup", "Douglas Adams", "--index", plain_dir, *FAKE),
          f"{plain_dir} is not a kgcheck index (no manifest.json); build one with `kgcheck build`")
    fails(run("lookup", "Douglas Adams", "--index", str(mini_index), *FAKE),
          "this directory has tables but no search index: run `kgcheck index DIR`")
    monkeypatch.setitem(embed._shared_embedders, "other", embed.FakeEmbedder(32))  # another model
    # (a text with no label match: the search goes on to the vectors, so to the embedder)
    fails(run("lookup", "Dglas Adms", "--index", str(mini_kg_dir), "--embedder", "other"),
          "index was built with model 'fake-trigram-64', not 'fake-trigram-32': run `kgcheck index DIR` with the "
          "same model")
    usage(run("lookup", "  ", "--index", str(mini_kg_dir), *FAKE), "give a non-empty text to look up")


def test_show_errors(mini_kg_dir, nowhere):
    fails(run("show", "Q999999", "--index", str(mini_kg_dir)), "unknown id Q999999: not in this index")
    fails(run("show", "Q42", "--index", nowhere), f"no index at {nowhere}; build one with `kgcheck build DUMP "
                                                  f"--out {nowhere}`")
    for text in ("", "   ", "Douglas Adams"):  # a name or nothing is a usage error, not an unknown id
        usage(run("show", text, "--index", str(mini_kg_dir)), "give an entity or property id such as Q42 or P19 "
              f"(not {text.strip().upper()!r}); `kgcheck lookup TEXT` finds one by name")
    assert run("show", " q42 ", "--index", str(mini_kg_dir)).exit_code == 0


# ---------------------------------------------------------------- check

def test_check_errors(tmp_path, nowhere, mini_kg_dir):
    kg = ["--index", str(mini_kg_dir), *FAKE]
    fails(run("check", nowhere, *kg), f"no such claims file: {nowhere}")
    odd = tmp_path / "claims.txt"
    odd.write_text("Douglas Adams was born in 1952\n")
    fails(run("check", str(odd), *kg), f"cannot tell the format of {odd}: name it .jsonl/.csv/.tsv/.nt or give "
                                       "the format (jsonl, csv, tsv, nt)")
    csv = tmp_path / "claims.csv"
    csv.write_text("who,what,when\nDouglas Adams,born,1952\n")
    fails(run("check", str(csv), *kg), f"wrong columns in {csv}: found who, what, when; need subject, predicate, "
                                       "object (or s, p, o); missing subject, predicate, object")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing\n\n")
    result = run("check", str(empty), *kg)
    assert (result.exit_code, result.stderr) == (1, f"Error: {empty} holds no claims\n")
    good = tmp_path / "good.jsonl"
    good.write_text('{"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"}\n')
    fails(run("check", str(good), "--index", nowhere), f"no index at {nowhere}; build one with `kgcheck build DUMP "
                                                      f"--out {nowhere}`")
    usage(run("check", str(good), *kg, "--format", "xml"),
          "Invalid value for '--format': 'xml' is not one of 'jsonl', 'csv', 'tsv', 'nt'.")


def test_a_bad_claim_line_is_reported_not_fatal(tmp_path, mini_kg_dir):
    claims = tmp_path / "c.jsonl"
    claims.write_text('{"subject": "Douglas Adams", "predicate": "date of birth"}\n')
    out = tmp_path / "out.jsonl"
    result = run("check", str(claims), "--index", str(mini_kg_dir), *FAKE, "-o", str(out), "--quiet")
    assert result.exit_code == 0
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["error"] == "missing or empty object (keys found: predicate, subject); give subject/predicate/object"


# ---------------------------------------------------------------- eval

def test_eval_errors(tmp_path, nowhere, mini_kg_dir):
    kg = ["--index", str(mini_kg_dir), *FAKE]
    fails(run("eval", nowhere, *kg), f"cannot read {nowhere}: No such file or directory")
    labelled = tmp_path / "dev.jsonl"
    labelled.write_text("{oops\n")
    fails(run("eval", str(labelled), *kg), f"{labelled}: 1 line is not a labelled claim, nothing scored: line 1: "
                                           "not JSON (unexpected character, expected a string key: line 1 column 2 "
                                           "(char 1))")
    labelled.write_text('{"subject": "a", "predicate": "b", "object": "c", "label": "TRUE"}\n')
    fails(run("eval", str(labelled), *kg), f"{labelled}: 1 line is not a labelled claim, nothing scored: line 1: "
                                           "'label' must be one of SUPPORTED, REFUTED, NOT_ENOUGH_INFO")
    labelled.write_text("\n")
    fails(run("eval", str(labelled), *kg), f"{labelled} holds no labelled claims")
    # Every bad line is named (a JSON array was a traceback), the good ones scored only when all are good.
    good = '{"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952", "label": "SUPPORTED"}'
    labelled.write_text("\n".join([good, "[1, 2]", '{"predicate": "p", "object": "o", "label": "REFUTED"}'] +
                                   ["{oops"] * 11) + "\n")
    res = run("eval", str(labelled), *kg)
    assert res.exit_code == 1 and "14 lines" not in res.output
    assert (f"{labelled}: 13 lines are not labelled claims, nothing scored: line 2: not a JSON object; line 3: "
            in res.output)
    assert res.output.rstrip().endswith("; and 3 more") and "Traceback" not in res.output
    # A byte-order mark an editor put first is not part of the first claim.
    labelled.write_bytes(b"\xef\xbb\xbf" + good.encode() + b"\n")
    assert run("eval", str(labelled), *kg, "--json").exit_code == 0
    # A report or the misjudged claims written over the labelled file would destroy it (also through a link).
    before = labelled.read_bytes()
    link = tmp_path / "link.html"
    link.symlink_to(labelled)
    for option, out in (("--html", labelled), ("--errors", labelled), ("--html", link)):
        fails(run("eval", str(labelled), *kg, option, str(out)),
              f"the output {out} is the labelled file {labelled}: give another output file")
    assert labelled.read_bytes() == before
    same = run("eval", str(labelled), *kg, "--html", str(tmp_path / "x"), "--errors", str(tmp_path / "x"))
    usage(same, "--errors and --html name the same file")
    assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------- verify

def test_verify_errors(tmp_path, nowhere, mini_kg_dir, monkeypatch):
    kg = ["--index", str(mini_kg_dir), *FAKE]
    fails(run("verify", "Douglas Adams was born in 1952.", "--index", nowhere),
          f"no index at {nowhere}; build one with `kgcheck build DUMP --out {nowhere}`")
    missing = tmp_path / "absent.gguf"
    monkeypatch.setenv("KGCHECK_MODEL", str(missing))
    fails(run("verify", "Douglas Adams was born in 1952.", *kg, "--llm"),
          f"$KGCHECK_MODEL points to a missing file: {missing}")
    fails(run("verify", "Douglas Adams was born in 1952.", *kg, "--llm-url", "http://10.1.2.3:8080/v1", "--llm"),
          "refusing LLM endpoint http://10.1.2.3:8080/v1: host 10.1.2.3 is not loopback (127.0.0.1, ::1 or "
          "localhost); kgcheck never sends text off this machine")
    result = run("verify", "Douglas Adams was born in 1952.", *kg, "--llm-backend", "gpt", "--llm")
    fails(result, "unknown LLM backend 'gpt': expected one of llama-cpp, openai-local (plug-ins register in the "
                  "entry-point group 'kgcheck.llms')")
    usage(run("verify", "   ", *kg), "give a text to verify (an argument, --file F, or - for stdin)")
    fails(run("verify", "He was born in 1962.", *kg, "--about", "Zzyzx Qwerty"),
          "no entity named 'Zzyzx Qwerty' in this index (give its id, e.g. Q42)")
    fails(run("verify", "He was born in 1962.", *kg, "--about", "Q424242"), "the topic Q424242 is not in this index")
    usage(run("verify", "x", *kg, "--properties", "P57,birth"), "Invalid value for --properties: property ids "
                                                               "like P57,P58")
    # The report must not go over the text it reads (--file, a link to it), which stays as it was.
    text = tmp_path / "answer.txt"
    text.write_text("Douglas Adams was born in 1953.")
    link = tmp_path / "report.html"
    link.symlink_to(text)
    for out in (text, link):
        fails(run("verify", "--file", str(text), *kg, "--html", str(out)),
              f"the output {out} is the input text {text}: give another output file")
    assert text.read_text() == "Douglas Adams was born in 1953."


def test_verify_notes_a_model_it_was_not_asked_for(tmp_path, mini_kg_dir):
    """--model alone implies the LLM: a missing one is a note on stderr and KG-first results, not an error."""
    missing = tmp_path / "absent.gguf"
    result = run("verify", "Douglas Adams was born in 1952.", "--index", str(mini_kg_dir), *FAKE, "--model",
                 str(missing))
    assert result.exit_code == 0
    assert result.stderr.startswith("note: no LLM (")


# ---------------------------------------------------------------- faithfulness

def test_faithfulness_errors(tmp_path):
    reasoning = tmp_path / "cot.txt"
    reasoning.write_text("Paris is the capital of France.")
    graph = tmp_path / "graph.txt"
    graph.write_text("")
    fails(run("faithfulness", "--reasoning", str(reasoning), "--graph", str(graph), *FAKE),
          "the graph file holds no edges")
    graph.write_text('{"edges": 3}')
    result = run("faithfulness", "--reasoning", str(reasoning), "--graph", str(graph), *FAKE)
    assert result.exit_code == 1 and result.stderr.startswith("kgcheck: error: cannot read the graph: ")
    graph.write_text("Paris | capital of | France\n")
    fails(run("faithfulness", "--reasoning", str(reasoning), "--graph", str(graph), "--embedder", "nope"),
          "unknown embedder 'nope': expected one of minilm, minilm-static, fake-trigram (plug-ins register in the entry-point "
          "group 'kgcheck.embedders')")


# ---------------------------------------------------------------- serve

def test_serve_errors(nowhere, plain_dir):
    fails(run("serve", "--index", nowhere), f"no index at {nowhere}; build one with `kgcheck build DUMP --out "
                                            f"{nowhere}`")
    fails(run("serve", "--index", plain_dir),
          f"{plain_dir} is not a kgcheck index (no manifest.json); build one with `kgcheck build`")
