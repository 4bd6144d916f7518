"""Re-checking a results file after the index was rebuilt: only the claims the changes can reach.

keypass.py finds the lines the changes reach (their keys joined with the diff's change tables) and the tests that
read only DuckDB tables (chain edits, graph-wide measures, open listings); this module checks those lines again on
the new index — the directly hit ones while the other tests run in a second thread, then each test's lines as it
publishes them — and writes the results file back with those lines replaced.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import orjson

from kgcheck.verifier.claims.bulk import batched
from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.claims.gcpause import with_fewer_collections
from kgcheck.verifier.claims import savedkeys
from kgcheck.verifier.claims.keypass import key_results, linker
from kgcheck.verifier.claims.rekeys import result_rows
from kgcheck.verifier.claims.resultsfile import ResultsFile
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.serialize import verdict_to_dict
from kgcheck.verifier.formats.writers import refuse_foreign_output, refuse_output_as_input, table_format
from kgcheck.verifier.model import Claim


@dataclass
class RecheckSummary:
    results: int = 0
    rechecked: int = 0
    flipped: list = field(default_factory=list)  # {id, old, new}
    flips: Counter = field(default_factory=Counter)
    measures_changed: int = 0  # re-checked because a graph-wide measure their verdict read or a chain edit may have moved
    listings_unmoved: int = 0  # open listings hit only by edits of statements they do not cite that cannot move them
    not_results: int = 0  # lines that are not results (error records, other shapes): copied as they were
    seconds_diff: float = 0.0
    seconds_check: float = 0.0

    def to_dict(self, max_flips: int | None = None) -> dict:
        return {"results": self.results, "not_results": self.not_results, "rechecked": self.rechecked,
                "flipped": len(self.flipped),
                "flips": dict(self.flips), "measures_changed": self.measures_changed,
                "listings_unmoved": self.listings_unmoved, "seconds_diff": round(self.seconds_diff, 3),
                "seconds_check": round(self.seconds_check, 3),
                "flipped_claims": self.flipped[:max_flips] if max_flips is not None else self.flipped}


def _refuse_tables(results_path: str, out_path: str) -> None:
    """A recheck reads and writes the JSON lines `kgcheck check` writes: a CSV or Parquet table of results holds
    only the best evidence statement, not what a recheck follows (every cited statement, the measures read)."""
    try:
        with open(results_path, "rb") as fh:
            parquet = fh.read(4) == b"PAR1"
    except OSError as exc:
        raise VerifierError(f"cannot read {results_path}: {exc.strerror}") from exc
    found = table_format(results_path) or ("parquet" if parquet else None)
    if found:
        raise VerifierError(f"{results_path} is a {found.upper()} table of results: its flat columns lack the evidence "
                            "and measures a recheck follows; check to a .jsonl output to re-check it after a rebuild")
    if table_format(out_path):
        raise VerifierError(f"recheck writes JSON lines: give an output ending in .jsonl, not {out_path}")


def claim_of(record: dict) -> Claim:
    """The claim as it was given, rebuilt from its result line (verdict_to_dict's `claim`)."""
    c = record.get("claim") or {}
    return Claim(id=str(record["id"]), subject=c.get("subject") or "", predicate=c.get("predicate") or "",
                 object=c.get("object") or "", subject_id=c.get("subject_id"), property_id=c.get("property_id"),
                 object_id=c.get("object_id"),
                 qualifiers=tuple((str(p), str(v)) for p, v in c.get("qualifiers") or ()), kind=c.get("kind"))


def checked_records(checker: Checker, lines: dict[int, bytes], batch_size: int) -> dict[int, tuple[dict, dict]]:
    """line number -> (the old line's id, verdict and claim; the new result record) for these raw LINES, checked again.
    The lines are gathered first and checked together: they are few and scattered over the file, and one call
    per window of records would pay the checker's per-call costs (statement fetches by subject chunks,
    exclusivity measures) once per window instead of once. Only their lines are parsed again."""
    if not lines:
        return {}
    mine: dict[int, Claim] = {}
    old: dict[int, dict] = {}
    for line_number, line in lines.items():
        rec = orjson.loads(line)
        mine[line_number] = claim_of(rec)
        old[line_number] = {k: rec.get(k) for k in ("id", "verdict", "claim")}
    # One batch for every predicate the claims use (as `eval` does), not one encode per claim.
    checker.facts.prefetch_predicates({claim.predicate for claim in mine.values() if claim.predicate})
    out: dict[int, tuple[dict, dict]] = {}
    for group in batched(list(mine), batch_size):
        for line_number, verdict in zip(group, checker.check([mine[n] for n in group])):
            out[line_number] = old[line_number], verdict_to_dict(verdict)
    return out


def _check_beside_tests(checker: Checker, keyed, batch_size: int) -> tuple[dict[int, tuple[dict, dict]], set[int]]:
    """One process: the directly hit lines checked while the indirect tests run on a second thread, then each
    test's lines as it publishes them (the last test's lines are all that is left to check when the thread ends).
    Those tests are DuckDB queries on the diff's connection; sharing the GIL with the checking, they run at about half
    their speed alone, yet checking in a second process did not finish the recheck sooner — it is two cores' work
    either way (bench/HISTORY.md, 2026-12-01). Returns (checked_records of every line checked, the tests' lines)."""
    checked: dict[int, tuple[dict, dict]] = {}
    published: queue.SimpleQueue = queue.SimpleQueue()

    def indirect_hits() -> set[int]:
        try:
            return keyed.indirect_hits(published.put)
        finally:
            published.put(None)  # the end, also of a failed test (its error is raised by `result`)

    with ThreadPoolExecutor(1, thread_name_prefix="kgcheck-indirect") as pool:
        indirect = pool.submit(indirect_hits)
        checked.update(checked_records(checker, keyed.file.lines(keyed.hits), batch_size))
        done = set(keyed.hits)
        for lines in _arrivals(published):
            checked.update(checked_records(checker, keyed.file.lines(lines - done), batch_size))
            done |= lines
        return checked, indirect.result()  # every line of it was published, so checked above


def _arrivals(published: queue.SimpleQueue):
    """The sets put on PUBLISHED until None, each time all that has arrived since the last (waiting for one)."""
    while True:
        lines = published.get()
        if lines is None:
            return
        while not published.empty():
            more = published.get()
            if more is None:
                yield lines
                return
            lines = lines | more
        yield lines


def _rewrite(results: ResultsFile, path: str, replaced: dict[int, bytes]) -> None:
    with open(path, "wb") as out:
        results.rewrite(out, replaced)


def _replace_freeing_later(tmp: str, out_path: str) -> None:
    """os.replace, leaving the old file's blocks to be freed on a second thread: replacing a results file of
    145 MB took 0.1 s of a 4.5 s recheck. A second name keeps the old file alive through the rename."""
    doomed = f"{out_path}.replaced-{os.getpid()}"
    try:
        os.link(out_path, doomed)
    except OSError:  # no old file, or a file system without hard links: the plain replace
        doomed = None
    try:
        os.replace(tmp, out_path)
    finally:
        if doomed:
            threading.Thread(target=_unlink_quietly, args=(doomed,), name="kgcheck-free").start()


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


@with_fewer_collections
def recheck(kg, diff, results_path: str, out_path: str, options: CheckOptions = CheckOptions(),
            batch_size: int = 20000) -> RecheckSummary:
    """Write `out_path`: RESULTS with the reachable claims checked again on `kg` (the new index)."""
    refuse_output_as_input(results_path, out_path, "the results file")
    _refuse_tables(results_path, out_path)
    refuse_foreign_output(out_path, "results")
    summary = RecheckSummary()
    started = time.monotonic()
    keyed = key_results(diff, results_path, linker(kg), options)
    summary.results, summary.not_results = keyed.results, keyed.others
    summary.seconds_diff = time.monotonic() - started
    checker = Checker(kg, options=options)
    started = time.monotonic()
    # Verdicts read off graph-wide measures or chain edits can flip without a change to their own statements: the
    # tests that find them read only DuckDB tables, so they run while the directly hit lines are checked.
    checked, found = _check_beside_tests(checker, keyed, batch_size)  # line -> (old line's fields, new record)
    moved = found - keyed.hits
    summary.listings_unmoved = len(keyed.held_back - moved)
    summary.measures_changed = len(moved - keyed.held_back)
    replaced: dict[int, bytes] = {}
    records: dict[int, dict] = {}
    for line_number in sorted(checked):
        old, records[line_number] = checked[line_number]
        new = records[line_number]["verdict"]
        summary.rechecked += 1
        if new != old["verdict"]:
            summary.flips[f"{old['verdict']}->{new}"] += 1
            summary.flipped.append({"id": old["id"], "old": old["verdict"], "new": new, "claim": old.get("claim")})
        replaced[line_number] = orjson.dumps(records[line_number]) + b"\n"
    tmp = f"{out_path}.tmp-{os.getpid()}"
    savedkeys.discard(out_path)  # they would describe the file being replaced
    try:
        # The copy is written on a second thread (file I/O: the GIL released) while this one gathers the keys the
        # next recheck of it will read (the saved keys of the unchanged lines, the re-checked lines' own).
        with ThreadPoolExecutor(1, thread_name_prefix="kgcheck-rewrite") as pool:
            written = pool.submit(_rewrite, keyed.file, tmp, replaced)
            save_keys = None if keyed.saved is None else savedkeys.carry(
                keyed.saved, replaced, lambda recorder, number: recorder.add_rows(number, *result_rows(records[number])))
            written.result()
        _replace_freeing_later(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    if save_keys is not None:
        save_keys(out_path)
    summary.seconds_check = time.monotonic() - started
    return summary
