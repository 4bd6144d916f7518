"""Bulk checking: `check_claims` for Python callers; claim files in batches, with progress, resumable
JSONL output and a summary.

Memory stays bounded for files of millions of claims: claims are read lazily and
checked batch by batch; only the ids already written (for resuming) are kept.
"""
from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, TextIO

import orjson

from kgcheck.verifier.claims import savedkeys
from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.claims.rekeys import result_rows
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.readers import parse_claim_dict
from kgcheck.verifier.formats.serialize import bad_claim_to_dict, verdict_to_dict
from kgcheck.verifier.formats.writers import open_table_writer, refuse_foreign_output, refuse_output_as_input
from kgcheck.verifier.claims.gcpause import with_fewer_collections
from kgcheck.verifier.model import VERDICTS, BadClaim, Claim, Verdict

# Claims per batch. Each batch reads its subjects' statements in a few queries whose cost grows with the row
# groups they touch, not with the keys: bigger batches touch each row group for more claims. Measured on claims-dev
# (12,530 claims, `kgcheck check`): 5M entities 13.5 s at 2,000 vs 9.3 s at 8,000, peak RSS 552 vs 628 MB, same
# output; wd50k 1,660 vs 2,040 claims/s. The batch's statement rows are held while it is judged: memory grows with
# the statements of 8,000 subjects.
BATCH = 8000


@dataclass
class BulkSummary:
    verdicts: Counter = field(default_factory=Counter)
    bad_lines: int = 0
    skipped_done: int = 0
    seconds: float = 0.0

    @property
    def checked(self) -> int:
        return sum(self.verdicts.values())

    def to_dict(self) -> dict:
        return {"checked": self.checked, "verdicts": {v: self.verdicts.get(v, 0) for v in VERDICTS},
                "bad_lines": self.bad_lines, "skipped_already_done": self.skipped_done,
                "seconds": round(self.seconds, 3),
                "claims_per_second": round(self.checked / self.seconds, 1) if self.seconds else None}


def done_ids(path: str) -> set[str]:
    """Ids already in an output file; a torn last line (killed run) is ignored and rewritten."""
    ids: set[str] = set()
    if not os.path.isfile(path):
        return ids
    with open(path, "rb") as fh:
        for line in fh:
            try:
                ids.add(orjson.loads(line)["id"])
            except (orjson.JSONDecodeError, KeyError, TypeError):
                continue
    return ids


def _truncate_torn_tail(path: str) -> None:
    """A run killed mid-write leaves a partial last line: cut it so appends stay valid JSONL."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        data = fh.seek(0) or fh.read()
        fh.truncate(data.rfind(b"\n") + 1)


def batched(items: Iterable, size: int) -> Iterator[list]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def check_stream(checker: Checker, items: Iterable[Claim | BadClaim], skip: set[str] = frozenset(),
                 batch_size: int = BATCH) -> Iterator[Verdict | BadClaim]:
    """Verdicts (and BadClaims, in place) for a stream of claims, in input order."""
    for batch in batched(items, batch_size):
        claims = [c for c in batch if isinstance(c, Claim) and c.id not in skip]
        verdicts = iter(checker.check(claims)) if claims else iter(())
        for item in batch:
            if item.id in skip:  # already in the output: a verdict or a bad-line record (ids are stable per file)
                continue
            yield item if isinstance(item, BadClaim) else next(verdicts)


def check_claims(kg, claims: Iterable[Claim | dict], options: CheckOptions | None = None) -> list[Verdict]:
    """Check structured claims against an open `KG`; one `Verdict` per claim, in the order given.

    A claim is a `Claim` or a dict as a claims file line holds it: ``{"subject": "Douglas Adams",
    "predicate": "date of birth", "object": "1952"}`` (also s/p/o, ids such as ``subject_id: "Q42"``,
    ``qualifiers`` and ``kind``: see `kgcheck.verifier.formats.readers.parse_claim_dict`); a dict without
    an ``id`` is named ``line-<n>`` by its position (from 1). `verdict.verdict` is SUPPORTED, REFUTED or
    NOT_ENOUGH_INFO, with a confidence, a reason and graph evidence.

    Raises VerifierError, before checking anything, for an item that is not a claim (saying which one).
    Claims are checked in batches (a handful of queries a batch, not a query a claim), so pass many at once.
    """
    parsed: list[Claim] = []
    for n, item in enumerate(claims, 1):
        if isinstance(item, Claim):
            parsed.append(item)
        elif isinstance(item, dict):
            try:
                parsed.append(parse_claim_dict(item, n))
            except VerifierError as exc:
                raise VerifierError(f"claim {n}: {exc}") from None
        else:
            raise VerifierError(f"claim {n}: expected a Claim or a dict, got {type(item).__name__}")
    checker = Checker(kg, options=options or CheckOptions())
    if len({c.id for c in parsed}) == len(parsed):
        return list(check_stream(checker, parsed))
    # The checker keys its work by claim id: repeated ids are checked under stand-in ids, then given back.
    stand_ins = [replace(c, id=f"#{n}") for n, c in enumerate(parsed)]
    return [replace(v, claim=c) for v, c in zip(check_stream(checker, stand_ins), parsed)]


@with_fewer_collections
def run_bulk(kg, items: Iterable[Claim | BadClaim], out: TextIO | str | None, options: CheckOptions = CheckOptions(),
             quiet: bool = False, resume: bool = True, stream=None, source: str | None = None,
             save_keys: bool = True) -> BulkSummary:
    """Check every claim, writing one JSON object per line to `out` (a path enables resuming; a .csv or
    .parquet path gets flat table rows, formats/writers.py).

    `save_keys`: beside a JSONL path written whole, save what a later recheck reads of each line (savedkeys.py).
    `stream(items, skip)`: another check_stream (e.g. distributed.ray_check_stream), same order and output.
    `source` names the claims file ('-' = stdin) so that an output that is the input is refused untouched.
    """
    summary = BulkSummary()
    skip: set[str] = set()
    fh = recorder = None
    if isinstance(out, str):
        refuse_output_as_input(source, out)
    table = open_table_writer(out, resume) if isinstance(out, str) else None  # .csv / .parquet
    if table is not None:
        skip = table.done_ids
    elif isinstance(out, str):
        refuse_foreign_output(out, "results")
        if resume:
            _truncate_torn_tail(out)
            skip = done_ids(out)
        # The recheck keys of each line, saved beside a file this run writes whole (savedkeys.py); keys saved for
        # a file about to change no longer describe it.
        savedkeys.discard(out)
        if save_keys and not (resume and os.path.isfile(out) and os.path.getsize(out)):
            recorder = savedkeys.KeyRecorder()
        fh = open(out, "ab" if resume else "wb")
        write = fh.write
    else:
        sink = out or sys.stdout
        write = (lambda b: sink.write(b.decode())) if not hasattr(sink, "buffer") else sink.buffer.write
    if stream is None:
        checker = Checker(kg, options=options)

        def stream(items, skip):
            return check_stream(checker, items, skip)
    bar = None
    if not quiet and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(unit=" claims", desc="check", file=sys.stderr)
    started = time.monotonic()
    try:
        for item in stream(_count_skips(items, skip, summary), skip):
            if isinstance(item, BadClaim):
                summary.bad_lines += 1
            else:
                summary.verdicts[item.verdict] += 1
            if table is not None:
                table.write(item)
            else:
                bad = isinstance(item, BadClaim)
                record = bad_claim_to_dict(item) if bad else verdict_to_dict(item)
                line = orjson.dumps(record) + b"\n"
                write(line)
                if recorder is not None and bad:
                    recorder.add(line, None)
                elif recorder is not None:  # a result written here has the shape of one: no shape test
                    recorder.add(line, *result_rows(record))
            if bar is not None:
                bar.update(1)
    finally:
        summary.seconds = time.monotonic() - started
        if bar is not None:
            bar.close()
        if fh is not None:
            fh.close()
        if table is not None:
            table.close()
    if recorder is not None:
        recorder.save(out)
    return summary


def _count_skips(items, skip, summary):
    for item in items:
        if item.id in skip:
            summary.skipped_done += 1
        yield item
