"""Results as tables: one flat row per claim in CSV or Parquet, chosen by the output's extension.

Columns (TABLE_COLUMNS) are made for joining in DuckDB: the claim's id and text, the verdict, the
ids the checker linked, the best evidence statement (id, value, relation) and the first correction.
JSONL output (the full verdict objects) stays in claims/bulk.py.

Resuming (the default, as for JSONL): the ids already in the output are skipped. Both tables are
written to a temporary file beside the output: a resumed run first copies the output's verdict rows
(not its error rows, nor a row torn by a killed run: those claims come round again), the new rows
follow, and the temporary file replaces the output when the run ends, also when it is interrupted,
so what was checked is kept. Neither writer ever replaces a file that is not a kgcheck results
table (same columns): that is an error, and the file is left alone.
"""
from __future__ import annotations

import csv
import os
import sys

import orjson

from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.model import VERDICTS, BadClaim, Verdict

TABLE_COLUMNS = ("claim_id", "subject", "predicate", "object", "verdict", "confidence", "rule", "subject_id",
                 "property_ids", "evidence_statement_id", "evidence_value", "evidence_relation", "correction",
                 "correction_id", "reason", "error", "line")
TABLE_EXTENSIONS = (".csv", ".parquet")
ROW_GROUP = 10_000


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def refuse_output_as_input(source: str | None, out: str | None, what: str = "the claims file") -> None:
    """Never write over an input: results written into the claims file being read would grow it forever (resume
    reads its own output) or truncate it; a report written over a labelled file or a text destroys the user's
    data. Refuse when both name the same file (also via a symlink, a hard link or stdin)."""
    if not source or not out or not os.path.exists(out):
        return
    try:
        out_stat = os.stat(out)
        src_stat = os.fstat(sys.stdin.fileno()) if source == "-" else os.stat(source)
    except (OSError, ValueError, AttributeError):  # no such input (the reader says so) or no real stdin
        return
    if _same_file(src_stat, out_stat):
        name = "stdin" if source == "-" else source
        raise VerifierError(f"the output {out} is {what} {name}: give another output file")


def _first_line(fh) -> bytes:
    return next((line for line in fh if line.strip()), b"")


def _record_with(first: bytes, *keys: str) -> bool:
    try:
        obj = orjson.loads(first)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and all(k in obj for k in keys)


def _our_results(fh) -> bool:
    """A results file: its first line a result or bad-line record, or the torn start of one (a killed run)."""
    first = _first_line(fh)
    if not first:
        return True  # blank lines only: nothing to lose
    if not first.endswith(b"\n"):
        return first.startswith(b'{"id":')
    return _record_with(first, "id", "verdict")


def _our_report(fh) -> bool:
    head = fh.read(512).lower()
    return head.startswith(b"<!doctype html") and b"<title>kgcheck" in head


_OURS = {"results": (_our_results, "a kgcheck results file"),
         "report": (_our_report, "a kgcheck HTML report"),
         "misjudged": (lambda fh: _record_with(_first_line(fh), "gold", "got"), "a kgcheck list of misjudged claims")}


def refuse_foreign_output(path: str | None, kind: str) -> None:
    """An existing output is replaced or extended only when kgcheck wrote it (`kind`: results, report,
    misjudged): anything else is the user's and stays untouched. An empty file is free to use."""
    if not path or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    ours, name = _OURS[kind]
    with open(path, "rb") as fh:
        if not ours(fh):
            raise VerifierError(f"{path} exists and is not {name}: choose another output")


def table_format(path: str) -> str | None:
    """'csv' or 'parquet' when the output's extension asks for a table, else None (JSONL)."""
    ext = os.path.splitext(path)[1].lower()
    return ext[1:] if ext in TABLE_EXTENSIONS else None


def verdict_row(v: Verdict) -> dict:
    c = v.claim
    best = v.evidence[0] if v.evidence else None
    return {"claim_id": c.id, "subject": c.subject, "predicate": c.predicate, "object": c.object,
            "verdict": v.verdict, "confidence": v.confidence, "rule": v.rule, "subject_id": v.subject_id,
            "property_ids": list(v.property_ids), "evidence_statement_id": best.statement_id if best else None,
            "evidence_value": best.value if best else None, "evidence_relation": best.relation if best else None,
            "correction": v.corrections[0] if v.corrections else None,
            "correction_id": next((i for i in v.correction_ids if i), None), "reason": v.reason,
            "error": v.error, "line": c.source_line}


def bad_row(b: BadClaim) -> dict:
    row = dict.fromkeys(TABLE_COLUMNS)
    row.update(claim_id=b.id, error=b.error, line=b.line, property_ids=[])
    return row


class CsvWriter:
    def __init__(self, path: str, resume: bool):
        self.path = path
        self.done_ids: set[str] = set()
        exists = os.path.isfile(path) and os.path.getsize(path) > 0
        if exists:
            self._check_header()
        self._tmp = f"{path}.tmp-{os.getpid()}"
        self._fh = open(self._tmp, "w", newline="", encoding="utf-8")
        self._csv = csv.DictWriter(self._fh, TABLE_COLUMNS)
        self._csv.writeheader()
        if exists and resume:
            with open(path, newline="", encoding="utf-8") as fh:
                for row in csv.DictReader(fh):
                    # A row torn by a killed run lacks its last fields (None): it is checked again.
                    if row.get("verdict") in VERDICTS and row.get("line") is not None:
                        self.done_ids.add(row["claim_id"])
                        self._csv.writerow(row)

    def _check_header(self) -> None:
        with open(self.path, newline="", encoding="utf-8", errors="replace") as fh:
            header = next(csv.reader(fh), None)
        if tuple(header or ()) != TABLE_COLUMNS:
            raise VerifierError(f"{self.path} exists and is not a kgcheck results table: choose another output")

    def write(self, item: Verdict | BadClaim) -> None:
        row = verdict_row(item) if isinstance(item, Verdict) else bad_row(item)
        row["property_ids"] = ";".join(row["property_ids"])
        self._csv.writerow(row)

    def close(self) -> None:
        try:
            self._fh.close()
            os.replace(self._tmp, self.path)
        finally:
            if os.path.exists(self._tmp):
                os.unlink(self._tmp)


class ParquetWriter:
    def __init__(self, path: str, resume: bool):
        import pyarrow as pa
        import pyarrow.compute  # noqa: F401 - pa.compute
        import pyarrow.parquet as pq

        self._pa, self._pq = pa, pq
        self.path = path
        self.schema = pa.schema([(name, pa.list_(pa.string()) if name == "property_ids" else
                                  pa.float64() if name == "confidence" else
                                  pa.int64() if name == "line" else pa.string()) for name in TABLE_COLUMNS])
        self.done_ids: set[str] = set()
        old = None
        if os.path.isfile(path):
            try:
                old = pq.ParquetFile(path)
            except (pa.ArrowInvalid, OSError) as exc:
                raise VerifierError(f"{path} exists and is not a Parquet file: choose another output") from exc
            if tuple(old.schema_arrow.names) != TABLE_COLUMNS:
                raise VerifierError(f"{path} exists and is not a kgcheck results table: choose another output")
        self._tmp = f"{path}.tmp-{os.getpid()}"
        self._writer = pq.ParquetWriter(self._tmp, self.schema, compression="zstd")
        self._rows: list[dict] = []
        if old is not None and resume:
            for batch in old.iter_batches(batch_size=ROW_GROUP):
                # Error rows are not carried: the input's bad lines come round again and are re-reported.
                table = pa.Table.from_batches([batch]).cast(self.schema)
                table = table.filter(pa.compute.is_valid(table.column("verdict")))
                self._writer.write_table(table)
                self.done_ids.update(table.column("claim_id").to_pylist())

    def write(self, item: Verdict | BadClaim) -> None:
        self._rows.append(verdict_row(item) if isinstance(item, Verdict) else bad_row(item))
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._writer.write_table(self._pa.Table.from_pylist(self._rows, schema=self.schema))
            self._rows = []

    def close(self) -> None:
        try:
            self._flush()
            self._writer.close()
            os.replace(self._tmp, self.path)
        finally:
            if os.path.exists(self._tmp):
                os.unlink(self._tmp)


def open_table_writer(path: str, resume: bool = True):
    """A CSV or Parquet writer for `path` by its extension, or None when the output is JSONL."""
    fmt = table_format(path)
    if fmt is None:
        return None
    return CsvWriter(path, resume) if fmt == "csv" else ParquetWriter(path, resume)
