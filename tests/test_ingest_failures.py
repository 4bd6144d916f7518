"""Bad input, Ctrl-C, kill -9 and replacement: OUT is always either the old complete index or the new one."""
from __future__ import annotations

import glob
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import orjson
import psutil
import pytest

from kgcheck.ingest.pipeline import IngestError, IngestOptions, ingest
from kgcheck.ingest import writer
from kgcheck.ingest.writer import open_database, publish, remove_stale_builds

REPO = Path(__file__).resolve().parents[1]


def kgcheck(*args, timeout=180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kgcheck.cli", *args], cwd=REPO, capture_output=True,
                          timeout=timeout)


def fingerprint(index_dir: Path) -> dict:
    """File name -> sha256 of every file: any change to a published index shows here."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(index_dir.iterdir())}


def usable(index_dir: Path) -> int:
    con = open_database(index_dir)
    try:
        return con.execute("SELECT count(*) FROM statements").fetchone()[0]
    finally:
        con.close()


@pytest.fixture
def good_index(mini_dump, tmp_path) -> Path:
    out = tmp_path / "index"
    ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
    return out


def assert_one_line_error(done: subprocess.CompletedProcess, words: str) -> None:
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.count("\n") == 1 and err.startswith("kgcheck: error: ") and words in err, err
    assert "Traceback" not in err


def no_builds_left(out: Path) -> bool:
    return not glob.glob(f"{out}.building-*")


@pytest.mark.parametrize("compression", ["gz", "bz2"])
def test_truncated_compressed_dump_fails_and_keeps_the_old_index(make_dump, good_index, compression):
    dump = make_dump(3000, compression=compression)
    data = dump.read_bytes()
    dump.write_bytes(data[: len(data) * 2 // 3])
    before = fingerprint(good_index)
    done = kgcheck("ingest", str(dump), "--out", str(good_index))
    assert_one_line_error(done, "truncated")
    assert fingerprint(good_index) == before and usable(good_index) == 51
    assert no_builds_left(good_index)


@pytest.mark.parametrize("compression", ["gz", "bz2"])
def test_corrupt_block_in_compressed_dump_fails(make_dump, good_index, compression):
    dump = make_dump(3000, compression=compression)
    data = bytearray(dump.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dump.write_bytes(bytes(data))
    before = fingerprint(good_index)
    done = kgcheck("ingest", str(dump), "--out", str(good_index))
    assert_one_line_error(done, "corrupt")
    assert fingerprint(good_index) == before and no_builds_left(good_index)


def test_dump_without_closing_bracket_is_truncated(make_dump, tmp_path):
    dump = make_dump(50, closed=False)
    with pytest.raises(IngestError, match="truncated"):
        ingest(str(dump), str(tmp_path / "x"), IngestOptions(workers=1, quiet=True))
    assert not (tmp_path / "x").exists() and no_builds_left(tmp_path / "x")


def test_missing_and_non_dump_inputs_exit_1_with_one_line(tmp_path):
    assert_one_line_error(kgcheck("ingest", str(tmp_path / "nope.json.bz2"), "--out", str(tmp_path / "o")),
                          "no such dump file")
    text = tmp_path / "notes.txt"
    text.write_text("hello\nthis is not a dump\n")
    assert_one_line_error(kgcheck("ingest", str(text), "--out", str(tmp_path / "o")), "no items or properties")
    assert not (tmp_path / "o").exists()


def test_refuses_to_replace_a_directory_that_is_not_an_index(mini_dump, tmp_path):
    precious = tmp_path / "home"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    assert_one_line_error(kgcheck("ingest", str(mini_dump), "--out", str(precious)), "not a kgcheck index")
    assert (precious / "thesis.tex").read_text() == "years of work"


def test_keep_previous_refuses_to_replace_a_previous_that_is_not_an_index(mini_dump, good_index):
    """--keep-previous removes OUT.previous to keep the replaced build there: only when it is an index (it deleted
    a user's directory of that name), refused before any work, OUT untouched."""
    previous = Path(f"{good_index}.previous")
    previous.mkdir()
    (previous / "thesis.tex").write_text("years of work")
    before = fingerprint(good_index)
    for command in ("ingest", "build"):
        assert_one_line_error(kgcheck(command, str(mini_dump), "--out", str(good_index), "--keep-previous"),
                              "not a kgcheck index")
        assert (previous / "thesis.tex").read_text() == "years of work" and fingerprint(good_index) == before
    with pytest.raises(IngestError, match="not a kgcheck index"):
        publish(str(good_index), str(good_index), keep_previous=True)  # the last guard, at the swap
    assert no_builds_left(good_index)


def test_replace_keeps_previous_only_when_asked(mini_dump, good_index, make_dump):
    old = fingerprint(good_index)
    bigger = make_dump(30)
    ingest(str(bigger), str(good_index), IngestOptions(workers=1, quiet=True, keep_previous=True))
    previous = Path(f"{good_index}.previous")
    assert fingerprint(previous) == old and usable(good_index) == 30 * 4
    ingest(str(mini_dump), str(good_index), IngestOptions(workers=1, quiet=True))
    assert usable(good_index) == 51
    assert json.loads((previous / "manifest.json").read_text())["source"]["path"] == str(mini_dump.resolve())
    assert no_builds_left(good_index) and not glob.glob(f"{good_index}.building-*.old")


def test_publish_is_atomic_for_a_concurrent_reader(tmp_path):
    """A reader polling OUT/manifest.json during 200 replacements never finds it missing."""
    out = tmp_path / "idx"
    out.mkdir()
    (out / "manifest.json").write_text('{"kind": "kgcheck-index", "n": -1}')
    missing, stop = [], threading.Event()

    def reader():
        while not stop.is_set():
            try:
                json.loads((out / "manifest.json").read_text())
            except FileNotFoundError:
                missing.append(1)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for n in range(200):
            build = tmp_path / f"idx.building-{os.getpid()}-{n}"
            build.mkdir()
            (build / "manifest.json").write_text(json.dumps({"kind": "kgcheck-index", "n": n}))
            publish(str(build), str(out), keep_previous=n % 2 == 0)
    finally:
        stop.set()
        thread.join()
    assert json.loads((out / "manifest.json").read_text())["n"] == 199
    assert not missing


def test_stale_builds_of_dead_processes_are_removed(mini_dump, tmp_path):
    out = tmp_path / "idx"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = Path(f"{out}.building-{dead.pid}-1")
    live = Path(f"{out}.building-{os.getppid()}-1")  # our parent is alive: a concurrent build, not stale
    stale.mkdir(parents=True)
    live.mkdir()
    mine = Path(f"{out}.building-{dead.pid}-notes")  # the user's, though it starts like a staging name
    (mine / "thesis.tex").parent.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    ingest(str(mini_dump), str(out), IngestOptions(workers=1, quiet=True))
    assert not stale.exists() and live.exists()
    assert (mine / "thesis.tex").read_text() == "years of work"
    live.rmdir()
    remove_stale_builds(str(out))


# -- signals: a real `kgcheck ingest` subprocess on a bigger input ---------------------------------

@pytest.fixture(scope="module")
def big_dump(tmp_path_factory, entity_maker) -> Path:
    """About 160 MB of small entities: several seconds of reading, long enough to interrupt in the middle."""
    path = tmp_path_factory.mktemp("big") / "big.json"
    n = 120_000
    with open(path, "wb") as fh:
        fh.write(b"[\n")
        for i in range(1, n + 1):
            fh.write(orjson.dumps(entity_maker(i)) + (b",\n" if i < n else b"\n"))
        fh.write(b"]\n")
    return path


def start_ingest(dump: Path, out: Path) -> tuple[subprocess.Popen, list[int]]:
    """A `kgcheck ingest` subprocess caught while its two workers are converting."""
    # A shell starts background jobs with SIGINT ignored and children inherit that (then Python installs no
    # KeyboardInterrupt handler): give the child the default a user's terminal gives it.
    proc = subprocess.Popen([sys.executable, "-m", "kgcheck.cli", "ingest", str(dump), "--out", str(out),
                             "--workers", "2"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while not glob.glob(f"{out}.building-{proc.pid}-*/parts/errors-001.jsonl"):  # both workers are up
        assert proc.poll() is None and time.time() < deadline, "ingest ended before it could be interrupted"
        time.sleep(0.02)
    children = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
    time.sleep(0.5)
    assert len(children) == 2 and all(psutil.pid_exists(c) for c in children) and proc.poll() is None, \
        "input too small: the workers finished before the signal"
    return proc, children


def wait_gone(pids: list[int], seconds: float = 15) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        alive = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
        if not alive:
            return []
        time.sleep(0.1)
    return alive


def test_ctrl_c_exits_130_publishes_nothing_and_keeps_the_old_index(big_dump, good_index):
    before = fingerprint(good_index)
    proc, children = start_ingest(big_dump, good_index)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == "kgcheck: interrupted; nothing was published"
    assert fingerprint(good_index) == before and usable(good_index) == 51
    assert no_builds_left(good_index)
    assert wait_gone(children) == []


def test_kill_9_leaves_the_old_index_and_the_next_run_cleans_up(big_dump, good_index, mini_dump):
    before = fingerprint(good_index)
    proc, children = start_ingest(big_dump, good_index)
    proc.kill()
    proc.wait(timeout=30)
    assert fingerprint(good_index) == before and usable(good_index) == 51
    assert glob.glob(f"{good_index}.building-{proc.pid}-*"), "the killed build should still be on disk"
    assert wait_gone(children) == [], "workers must exit when their parent is killed"
    ingest(str(mini_dump), str(good_index), IngestOptions(workers=1, quiet=True))
    assert no_builds_left(good_index)


def test_a_worker_killed_mid_run_fails_the_ingest_cleanly(big_dump, good_index):
    before = fingerprint(good_index)
    proc, children = start_ingest(big_dump, good_index)
    os.kill(children[-1], signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "died" in err.decode() and err.decode().startswith("kgcheck: error: "), err
    assert fingerprint(good_index) == before and no_builds_left(good_index)
    assert wait_gone(children) == []


def test_ctrl_c_inside_duckdb_is_still_a_keyboard_interrupt(monkeypatch, tmp_path):
    """DuckDB reports Ctrl-C during the sort as its own InterruptException: the CLI must still exit 130."""
    def interrupted(*args):
        raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")

    monkeypatch.setattr(writer, "_assemble", interrupted)
    with pytest.raises(KeyboardInterrupt):
        writer.assemble_tables(str(tmp_path), str(tmp_path), 1)


def test_junk_without_line_breaks_is_refused_not_buffered(monkeypatch, tmp_path):
    from kgcheck.ingest import dump as dump_module

    junk = tmp_path / "junk.json"
    junk.write_bytes(b"x" * 100_000)
    monkeypatch.setattr(dump_module, "MAX_LINE_BYTES", 10_000)
    with dump_module.DumpReader(str(junk)) as reader, pytest.raises(dump_module.DumpError, match="no line break"):
        list(reader.chunks(chunk_bytes=4096))
