"""A results file as recheck reads and rewrites it: by line number, in one pass over every line.

The key pass (keypass.key_results) reads every line once and notes where each starts; the few lines to check
again are then read back by offset, and the rewritten file is the old one copied in large blocks with those lines
replaced — not two more passes line by line over a file of millions of results.
"""
from __future__ import annotations

import os
from array import array
from typing import Iterator

import orjson

from kgcheck.verifier.errors import VerifierError

BOM = b"\xef\xbb\xbf"  # a byte-order mark an editor may put first: not part of the first result
_BLOCK = 1 << 22


class ResultsFile:
    def __init__(self, path: str, starts: array | None = None, bom: bytes = b""):
        """STARTS (and BOM): where the lines of a file without blank lines start, as saved keys noted them (`records`
        is then not needed before `lines` and `rewrite`)."""
        self.path = path
        self.bom = bom
        self._starts = starts if starts is not None else array("q")  # where each line starts, then the file's end
        self._blank = 0  # blank lines: dropped when the file is rewritten

    def _open(self):
        try:
            return open(self.path, "rb")
        except OSError as exc:
            raise VerifierError(f"cannot read {self.path}: {exc.strerror}") from exc

    def records(self) -> Iterator[tuple[int, bytes, dict | None]]:
        """(line number, raw line, parsed object or None for a line that is not a JSON object) of every non-blank
        line; notes where each line starts."""
        self._starts, self._blank = array("q"), 0
        with self._open() as fh:
            self.bom = BOM if fh.read(len(BOM)) == BOM else b""
            at = fh.seek(len(self.bom))
            for number, line in enumerate(fh, 1):
                self._starts.append(at)
                at += len(line)
                if not line.strip():
                    self._blank += 1
                    continue
                try:
                    obj = orjson.loads(line)
                except orjson.JSONDecodeError:
                    obj = None
                yield number, line, obj if isinstance(obj, dict) else None
        self._starts.append(at)

    def lines(self, numbers) -> dict[int, bytes]:
        """The raw lines of these line numbers (read by `records` before)."""
        found = {}
        with self._open() as fh:
            for number in sorted(numbers):
                start = self._starts[number - 1]
                fh.seek(start)
                found[number] = fh.read(self._starts[number] - start)
        return found

    def rewrite(self, out, replaced: dict[int, bytes]) -> None:
        """Write the file to OUT (a binary file) as `records` read it: the byte-order mark as it had it, every
        non-blank line, each ending in a newline, with the REPLACED line numbers' lines (newline-ended) instead."""
        out.write(self.bom)
        with self._open() as fh:
            if self._blank:  # rare: line by line, leaving the blank ones out
                fh.seek(len(self.bom))
                for number, line in enumerate(fh, 1):
                    if line.strip():
                        out.write(replaced.get(number) or (line if line.endswith(b"\n") else line + b"\n"))
                return
            at = self._starts[0]
            fh.seek(at)
            for number in sorted(replaced):
                _copy(fh, out, self._starts[number - 1] - at)
                out.write(replaced[number])
                at = self._starts[number]
                fh.seek(at)
            _copy(fh, out, self._starts[-1] - at)
            last = len(self._starts) - 1  # the last line's number
            if last and last not in replaced and self._starts[-1] > self._starts[-2]:
                fh.seek(self._starts[-1] - 1)
                if fh.read(1) != b"\n":
                    out.write(b"\n")


def _copy(src, dst, size: int) -> None:
    while size > 0:
        block = src.read(min(size, _BLOCK))
        if not block:
            raise VerifierError(f"{getattr(src, 'name', 'the results file')} changed while it was re-checked")
        dst.write(block)
        size -= len(block)
