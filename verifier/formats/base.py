"""What every claim reader shares: the `ClaimReader` interface and the pieces readers build claims with.

A reader turns the numbered lines of one file into Claims and BadClaims. Readers are found by name in
the entry-point group `kgcheck.readers` (the name is the `--format`; `suffixes` pick it by file name),
so a user adds a format without editing kgcheck (verifier/formats/readers.py dispatches).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator

from kgcheck.verifier.model import BadClaim, Claim

RAW_CHARS = 200  # BadClaim.raw keeps this much of the line: enough to find it, not a copy of the file
NumberedLines = Iterable[tuple[int, bytes]]


class ClaimReader(ABC):
    """Reads one claim file format. Subclass it, register the class (or a factory) as an entry point."""

    suffixes: tuple[str, ...] = ()  # file name endings that mean this format ('.jsonl'), lower case

    @abstractmethod
    def read(self, lines: NumberedLines, first: bytes, source: str) -> Iterator[Claim | BadClaim]:
        """One Claim or BadClaim per claim line, in file order.

        `lines` are (line number, raw bytes) pairs of the whole file, blank and `#` lines included (skip
        them with `is_skipped`); `first` is the first claim line; `source` names the file in messages.
        Raise VerifierError (at once, not while iterating) only for the file as a whole, e.g. a bad header.
        """


_FIELDS = ("id", "subject", "predicate", "object", "subject_id", "property_id", "object_id", "qualifiers", "kind",
           "source_line")
_new = object.__new__


def _fast_claim(id, subject, predicate, object_, subject_id, property_id, object_id, qualifiers, kind, line) -> Claim:
    """Claim(...) without the frozen dataclass's per-field __setattr__: twice as fast, an equal object."""
    claim = _new(Claim)
    claim.__dict__.update({"id": id, "subject": subject, "predicate": predicate, "object": object_,
                           "subject_id": subject_id, "property_id": property_id, "object_id": object_id,
                           "qualifiers": qualifiers, "kind": kind, "source_line": line})
    return claim


# The shortcut is only valid while Claim is a plain-__dict__ dataclass with exactly these fields.
_SAFE = tuple(Claim.__dataclass_fields__) == _FIELDS and not hasattr(Claim, "__slots__") \
    and not hasattr(Claim, "__post_init__")
make_claim = _fast_claim if _SAFE else Claim


def bad_claim(line: int, error: str, raw: bytes | str, obj: object = None) -> BadClaim:
    """The BadClaim of one line: its given id (if `obj` has one) or line-<n>, the error, the raw text."""
    raw = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    given = obj.get("id") if isinstance(obj, dict) else None
    given = str(given).strip() if isinstance(given, (str, int)) else ""
    return BadClaim(id=given or f"line-{line}", line=line, error=error, raw=raw.strip()[:RAW_CHARS])


def is_skipped(stripped: bytes) -> bool:
    """Blank lines, `#` comments and Markdown code fences are not claims."""
    return not stripped or stripped[0] == 35 or stripped[:3] == b"```"  # 35 = '#'
