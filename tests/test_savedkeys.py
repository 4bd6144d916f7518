"""Recheck keys saved beside a results file (verifier/claims/savedkeys.py): read instead of parsing the file only
while they describe it, never written over a file that is not theirs, and finding what parsing finds."""
from __future__ import annotations

import json
import os

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diff_builds import CLAIMS, builds, checked_on  # noqa: F401 (builds: a fixture)
from test_recheck_keys import HELD
from test_recheck_reach import RULE_C, _hits, entity_changes, results, statement_changes, texts

from kgcheck.verifier.claims import keypass, savedkeys
from kgcheck.verifier.claims.rekeys import saved_rows


def _save_keys(path) -> None:
    recorder = savedkeys.KeyRecorder()
    for line in path.read_bytes().splitlines(keepends=True):
        recorder.add(line, *saved_rows(orjson.loads(line)))
    assert recorder.save(str(path))


@settings(max_examples=120, deadline=None)
@given(results, statement_changes, entity_changes, texts)
def test_saved_keys_find_the_lines_parsing_finds(tmp_path_factory, records, changed, entities, names):
    """Whatever the results cite and whatever changed, the key pass over saved keys (every key, those no change can
    meet left out in SQL) finds the lines, held-back listings and measured rows the parsing pass finds."""
    tmp_path = tmp_path_factory.mktemp("saved")
    records = records + [RULE_C, {**RULE_C, "exclusivity": "measured", "verdict": "REFUTED"}]
    with pytest.MonkeyPatch.context() as mp:  # as builds storing their measure tables (the only ones keys are read for)
        mp.setattr(keypass, "has_measures", lambda old, new: True)
        parsed = _hits(tmp_path, records, changed, entities, names, True, keyed=True)
        path = tmp_path / "results.jsonl"
        assert savedkeys.load(str(path)) is None
        _save_keys(path)
        read = _hits(tmp_path, records, changed, entities, names, True, keyed=True, rewrite=False)
    assert read.saved is not None and parsed.saved is None
    assert (read.hits, read.held_back, read.results, read.others) == \
        (parsed.hits, parsed.held_back, parsed.results, parsed.others)
    assert sorted(zip(*read.asked.values())) == sorted(zip(*parsed.asked.values()))


def test_keys_saved_by_check_are_dropped_when_the_file_changes(builds, tmp_path):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.formats.readers import read_claims

    old, _ = builds
    claims, results = checked_on(old, tmp_path)
    saved = savedkeys.load(str(results))
    assert saved is not None and saved.results == len(CLAIMS) and saved.others == 0
    assert list(saved.starts)[-1] == results.stat().st_size
    # An edit that keeps the size (and even the modification time) but not the bytes at the file's edges.
    stat = results.stat()
    data = results.read_bytes()
    results.write_bytes(data.replace(b'"SUPPORTED"', b'"REFUTED!!"', 1))
    os.utime(results, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert results.stat().st_size == stat.st_size and savedkeys.load(str(results)) is None
    results.write_bytes(data)
    os.utime(results, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert savedkeys.load(str(results)) is not None  # the same bytes again
    with open(results, "ab") as fh:
        fh.write(b'{"note": "appended by hand"}\n')
    assert savedkeys.load(str(results)) is None
    # Resuming a run appends to the file: the keys saved for it are removed, none are written for the whole.
    more = tmp_path / "more.jsonl"
    more.write_text(claims.read_text() + json.dumps({**CLAIMS[0], "id": "extra"}) + "\n")
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(more)), str(results), quiet=True, resume=True)
    assert not os.path.exists(savedkeys.keys_path(str(results)))
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(more)), str(results), quiet=True, resume=False)
    assert savedkeys.load(str(results)).results == len(CLAIMS) + 1


def test_a_file_at_the_keys_path_is_never_replaced_unless_it_is_saved_keys(builds, tmp_path):
    old, new = builds
    mine = tmp_path / ("old.jsonl" + savedkeys.SUFFIX)
    mine.write_text("a user's notes\n")
    _, results = checked_on(old, tmp_path)
    assert mine.read_text() == "a user's notes\n" and savedkeys.load(str(results)) is None
    savedkeys.discard(str(results))
    assert mine.read_text() == "a user's notes\n"
    mine.write_bytes(b"PAR1 not really parquet")
    assert savedkeys.load(str(results)) is None  # unreadable: the file is parsed instead


def test_closed_world_results_are_refused_from_saved_keys_and_by_parsing_alike(builds, tmp_path):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.check import CheckOptions
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.errors import VerifierError
    from kgcheck.verifier.formats.readers import read_claims

    old, new = builds
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS + HELD[1:]) + "\n")  # painter: refuted closed-world
    results = tmp_path / "closed.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(results), CheckOptions(closed_world=True), quiet=True)
    lines = [orjson.loads(line) for line in results.read_bytes().splitlines()]
    first = next(n for n, r in enumerate(lines, 1) if r.get("exclusivity") == "closed-world")
    assert savedkeys.load(str(results)).closed_world_line == first
    messages = []
    for keep_keys in (True, False):
        if not keep_keys:
            savedkeys.discard(str(results))
        with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
            with pytest.raises(VerifierError, match="--closed-world") as err:
                recheck(kg, diff, str(results), str(tmp_path / f"out-{keep_keys}.jsonl"))
        messages.append(str(err.value))
    assert messages[0] == messages[1] and f":{first}:" in messages[0]


def test_cli_check_saves_the_keys_unless_told_not_to(builds, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kgcheck.cli import main

    monkeypatch.setenv("KGCHECK_EMBEDDER", "fake-trigram")
    old, _ = builds
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS) + "\n")
    out = tmp_path / "out.jsonl"
    args = ["check", str(claims), "--index", str(old), "-o", str(out), "--quiet"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert savedkeys.load(str(out)).results == len(CLAIMS)
    assert CliRunner().invoke(main, [*args, "--no-resume", "--no-recheck-keys"]).exit_code == 0
    assert not os.path.exists(savedkeys.keys_path(str(out)))  # the old keys went with the file they described


def test_a_failed_save_of_the_keys_never_fails_the_check(builds, tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full_disk)
    old, _ = builds
    _, results = checked_on(old, tmp_path)
    assert len(results.read_bytes().splitlines()) == len(CLAIMS)
    assert not os.path.exists(savedkeys.keys_path(str(results)))
    assert not [p for p in os.listdir(tmp_path) if ".tmp-" in p]


def test_damaged_keys_are_never_trusted_nor_a_crash(builds, tmp_path):
    """Keys cut short, of another shape or with broken metadata: `load` gives None (the file is parsed instead)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    old, _ = builds
    _, results = checked_on(old, tmp_path)
    path = savedkeys.keys_path(str(results))
    good = open(path, "rb").read()
    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[b"kgcheck.rekeys"])

    def write(tbl, new_meta):
        pq.write_table(tbl.replace_schema_metadata({b"kgcheck.rekeys": json.dumps(new_meta).encode()}), path)

    damaged = [lambda: open(path, "wb").write(good[: len(good) // 2]),
               lambda: open(path, "wb").write(b"PAR1" + b"\0" * 64 + b"PAR1"),
               lambda: write(table.drop_columns(["start"]), meta),
               lambda: write(table.set_column(0, "claim", table["claim"].cast(pa.string())), meta),
               lambda: write(table, {**meta, "results": "many"}),
               lambda: write(table, {k: v for k, v in meta.items() if k != "bom"}),
               lambda: write(table, {**meta, "format": 0}),
               lambda: write(table.slice(0, table.num_rows - 1), meta)]  # the end-of-file row gone
    for damage in damaged:
        damage()
        assert savedkeys.load(str(results)) is None
    open(path, "wb").write(good)
    assert savedkeys.load(str(results)) is not None


# Claims no edit of the builds reaches (Santa Barbara's country, Inception's date), so that a recheck replaces few
# lines of the file and layers its keys.
UNREACHED = [{"id": f"{name}-{k}", "subject": subject, "predicate": predicate, "object": value, "subject_id": sid,
              "property_id": pid}
             for name, subject, predicate, value, sid, pid in (
                 ("sb", "Santa Barbara", "country", "United States of America", "Q159288", "P17"),
                 ("inception", "Inception", "publication date", "2010", "Q25188", "P577"))
             for k in range(12)]


def test_a_recheck_layers_its_keys_on_the_inputs_and_a_recheck_of_it_again(builds, tmp_path):
    """A recheck replacing few lines saves their keys and every line's start beside a hard link of its input's keys;
    a recheck of its output layers on the same base. Each file's keys are those its lines give (assert_keys_describe),
    and a recheck through layered keys writes what one parsing the file writes. A base that changed is not trusted,
    and `discard` removes both files."""
    from diff_builds import assert_keys_describe, recheck_beside_full

    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    old, new = builds
    summary, before, out, _ = recheck_beside_full(old, new, CLAIMS + UNREACHED, tmp_path)
    saved = savedkeys.load(str(out))
    assert saved.own is not None and 0 < len(saved.dropped) == summary.rechecked < len(UNREACHED)
    assert os.path.samefile(savedkeys.base_path(str(out)), savedkeys.keys_path(str(before)))
    again, bare, parsed = tmp_path / "again.jsonl", tmp_path / "bare.jsonl", tmp_path / "parsed.jsonl"
    bare.write_bytes(out.read_bytes())
    with IndexDiff(str(new), str(old)) as diff, KG.open(str(old), embedder=FakeEmbedder()) as kg:
        back = recheck(kg, diff, str(out), str(again))
        recheck(kg, diff, str(bare), str(parsed))
    assert back.rechecked and parsed.read_bytes() == again.read_bytes()
    assert_keys_describe(again)
    assert os.path.samefile(savedkeys.base_path(str(again)), savedkeys.keys_path(str(before)))
    assert savedkeys.load(str(again)).dropped >= saved.dropped
    base = savedkeys.base_path(str(again))
    stat = os.stat(base)
    os.utime(base, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert savedkeys.load(str(again)) is None and savedkeys.load(str(out)) is None  # one file, two links
    savedkeys.discard(str(again))
    assert not os.path.exists(base) and not os.path.exists(savedkeys.keys_path(str(again)))


def test_a_file_at_the_base_path_is_never_replaced_the_keys_are_saved_whole(builds, tmp_path):
    from diff_builds import recheck_beside_full

    old, new = builds
    out = tmp_path / "re.jsonl"
    foreign = savedkeys.base_path(str(out))
    open(foreign, "w").write("a user's file")
    recheck_beside_full(old, new, CLAIMS + UNREACHED, tmp_path)  # writes re.jsonl; its keys describe it
    assert open(foreign).read() == "a user's file"
    saved = savedkeys.load(str(out))
    assert saved is not None and saved.own is None and saved.base == savedkeys.keys_path(str(out))


# -- carried keys, fuzzed: a chain of rechecks replacing random lines -------------------------------------------------
_KEY = st.tuples(st.sampled_from(["sp", "st", "any"]), st.sampled_from(["Q1", "Q2", "P3"]),
                 st.one_of(st.none(), st.sampled_from(["P3", "s1"])), st.one_of(st.none(), st.just("Q9")))
_ASKED = st.tuples(st.sampled_from(["Q1", "Q2"]), st.just("P3"), st.one_of(st.none(), st.just("Q9")),
                   st.one_of(st.none(), st.just("Bob")), st.integers(0, 5))
_RESULT = st.fixed_dictionaries({"k": st.lists(_KEY, max_size=3), "q": st.lists(_ASKED, max_size=2),
                                 "cw": st.booleans(), "pad": st.text(max_size=12)})
_LINE = st.one_of(_RESULT, st.sampled_from([b"not json\n", b"[1, 2]\n"]))  # results and lines that are not


def _fake_rows(line: bytes):
    """The rows a line gives (as rekeys.saved_rows does for real results): its own keys, or None for a non-result."""
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        record = None
    if not isinstance(record, dict):
        return (None,)
    return [tuple(k) for k in record["k"]], [tuple(q) for q in record["q"]], record["cw"]


def _encode(result: dict, number: int) -> bytes:
    return orjson.dumps({"id": number, **result}) + b"\n"


def _recorded(path) -> savedkeys.SavedKeys:
    """The keys a KeyRecorder notes writing PATH's lines afresh, saved beside a copy of it."""
    copy = path.with_name("fresh-" + path.name)
    data = path.read_bytes()
    copy.write_bytes(data)
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    recorder = savedkeys.KeyRecorder(bom)
    for line in data[len(bom):].splitlines(keepends=True):
        recorder.add(line, *_fake_rows(line))
    assert recorder.save(str(copy))
    return savedkeys.load(str(copy))


def _same_keys(saved: savedkeys.SavedKeys, fresh: savedkeys.SavedKeys) -> None:
    def rows(table):
        return sorted(map(repr, zip(*table.to_pydict().values())))
    assert (saved.results, saved.others, list(saved.starts), saved.bom, saved.closed_world_line) == \
        (fresh.results, fresh.others, list(fresh.starts), fresh.bom, fresh.closed_world_line)
    assert rows(saved.table.cast(savedkeys.SCHEMA)) == rows(fresh.table.cast(savedkeys.SCHEMA))
    assert rows(saved.asked.cast(fresh.asked.schema)) == rows(fresh.asked)


@settings(max_examples=60, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=24), st.booleans(),
       st.lists(st.tuples(st.sets(st.integers(1, 24), max_size=24), st.lists(_RESULT, min_size=24, max_size=24)),
                min_size=1, max_size=3))
def test_carried_keys_are_those_of_the_file_written_whatever_lines_each_recheck_replaces(
        tmp_path_factory, lines, bom, steps):
    """A chain of rechecks, each replacing a random set of result lines by results of other lengths: the keys each
    saves (layered on the first file's, or whole past MAX_LAYERED_SHARE) load as the keys of the file it wrote."""
    from kgcheck.verifier.claims.resultsfile import ResultsFile

    tmp = tmp_path_factory.mktemp("carried")
    path = tmp / "r0.jsonl"
    head = b"\xef\xbb\xbf" if bom else b""
    body = [line if isinstance(line, bytes) else _encode(line, n) for n, line in enumerate(lines, 1)]
    path.write_bytes(head + b"".join(body))
    recorder = savedkeys.KeyRecorder(head)
    for line in body:
        recorder.add(line, *_fake_rows(line))
    assert recorder.save(str(path))
    for k, (chosen, fresh_results) in enumerate(steps, 1):
        saved = savedkeys.load(str(path))
        _same_keys(saved, _recorded(path))
        results_here = {n for n, line in enumerate(body, 1) if _fake_rows(line)[0] is not None}
        replaced = {n: _encode(fresh_results[n - 1], -n) for n in chosen & results_here}  # recheck replaces results
        out = tmp / f"r{k}.jsonl"
        save = savedkeys.carry(saved, replaced, lambda rec, n: rec.add_rows(n, *_fake_rows(replaced[n])))
        with open(out, "wb") as fh:
            ResultsFile(str(path), saved.starts, saved.bom).rewrite(fh, replaced)
        assert save(str(out))
        body = [replaced.get(n, line) for n, line in enumerate(body, 1)]
        assert out.read_bytes() == head + b"".join(body)
        _same_keys(savedkeys.load(str(out)), _recorded(out))
        path = out
