"""The recheck keys of a results file, saved beside it as `<results>.rekeys.parquet`.

A recheck after a rebuild starts by keying every line of the results file (keypass.py): which statements,
subjects, names and measures each verdict read. That pass parses every line: a quarter to a third of a recheck
of a pipeline's file. The keys depend only on the line, so `kgcheck check` records them as it writes each
result and `kgcheck recheck` for the file it writes: the next recheck reads them instead of parsing the file.

They are a cache, never the truth: read only when they were made by this key format for exactly this file —
same size, modification time, and first and last bytes — and only for builds that store their measure tables.
Anything else (a file edited, appended to, written by an older kgcheck or to stdout) is keyed by parsing it,
as without them. One Parquet file of rows (claim = the line number):
- kind `sp`, `st`, `any`, ... : the line's keys (rekeys.result_keys, unfiltered: the join meets the same changes);
- kind `ask`: a measured result's (subject, property, value, text, reached) row (rekeys.measured_rows);
- kind `cw`: the line holds a `check --closed-world` verdict;
- kind `line`: where line `claim` starts (`start`); one more row holds the end of the file.
A recheck's keys are *layered*: its own rows (the re-checked lines' keys, every line's start) and kind `drop` rows
naming the lines whose rows the base — a hard link of the full keys it carried the rest from, beside it as
`<results>.rekeys.base.parquet` — no longer describes; writing the unchanged lines' rows again was half of a
recheck's tail. A layered file whose own lines would pass MAX_LAYERED_SHARE is written whole instead.
"""
from __future__ import annotations

import hashlib
import json
import os
from array import array
from dataclasses import dataclass

import pyarrow as pa

SUFFIX = ".rekeys.parquet"
BASE_SUFFIX = ".rekeys.base.parquet"  # a layered file's base: a hard link of the full keys it was carried from
FORMAT = 4  # raise when the keys a line gives change: saved keys of another format are not read (4: layers)
_META = b"kgcheck.rekeys"
_EDGE = 1 << 16  # bytes of the file's start and end that its fingerprint hashes
SCHEMA = pa.schema([("claim", pa.int64()), ("kind", pa.string()), ("a", pa.string()), ("b", pa.string()),
                    ("held", pa.string()), ("text", pa.string()), ("reached", pa.int8()), ("start", pa.int64())])
ASK, CLOSED_WORLD, LINE, DROPPED = "ask", "cw", "line", "drop"
NOT_KEYS = (ASK, CLOSED_WORLD, LINE, DROPPED)
# A layered file is dropped (its base's rows kept) once more than this share of the lines are its own.
MAX_LAYERED_SHARE = 0.5


def keys_path(results_path: str) -> str:
    return results_path + SUFFIX


def base_path(results_path: str) -> str:
    return results_path + BASE_SUFFIX


def fingerprint(path: str) -> dict:
    """What must be unchanged for saved keys to describe the file: size, modification time, its edges' hash."""
    st = os.stat(path)
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        digest.update(fh.read(_EDGE))
        if st.st_size > _EDGE:
            fh.seek(max(_EDGE, st.st_size - _EDGE))
            digest.update(fh.read())
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "edges": digest.hexdigest()}


@dataclass
class SavedKeys:
    """The keys of a results file as read back: the key rows and measured rows (Arrow), where lines start."""
    table: pa.Table  # every saved row (SCHEMA): the key rows are those whose kind is not in NOT_KEYS
    asked: pa.Table  # claim, subject, property, value, text, reached
    starts: array  # where each line starts, then where the file ends
    bom: bytes
    results: int
    others: int
    closed_world_line: int | None  # the first line holding a `check --closed-world` verdict
    base: str = ""  # the full keys file the rows of unchanged lines come from (the keys file itself, or its base)
    own: pa.Table | None = None  # a layered file's own rows (not its `drop` rows); None for a full one
    dropped: frozenset = frozenset()  # the lines whose base rows a layered file replaces


def _part(kind, claims, columns: dict) -> pa.Table:
    """Rows (SCHEMA) of one kind (or a list of kinds) for CLAIMS, with COLUMNS given (the others null)."""
    import numpy as np

    n = len(claims)
    kinds = pa.array(kind) if isinstance(kind, list) else pa.repeat(pa.scalar(kind), n)
    claims = np.frombuffer(claims, np.int64) if isinstance(claims, array) else np.asarray(claims, np.int64)
    return pa.table([pa.array(claims, pa.int64()), kinds] +
                    [pa.array(columns[f.name], f.type) if f.name in columns else pa.nulls(n, f.type)
                     for f in SCHEMA][2:], schema=SCHEMA)


class KeyRecorder:
    """Collects the keys of a results file's lines in the order they are written (no blank lines), then saves them."""

    def __init__(self, bom: bytes = b""):
        self.bom = bom
        self.keys: tuple = (array("q"), [], [], [], [])  # claim, kind, a, b, held
        self.asked: tuple[list, ...] = ([], [], [], [], [], [])  # claim, a (subject), b, held, text, reached
        self.closed_world: list[int] = []
        self.starts = array("q")
        self.at = len(bom)
        self.results = self.others = 0

    def add(self, line: bytes, keys: list | None, asked: list = (), closed_world: bool = False) -> None:
        """The next written line: its keys (None for a line that is not a result), its measured rows
        (subject, property, value, text, reached), whether its verdict was closed-world."""
        self.starts.append(self.at)
        self.at += len(line)
        self.add_rows(len(self.starts), keys, asked, closed_world)

    def add_rows(self, number: int, keys: list | None, asked: list = (), closed_world: bool = False) -> None:
        """The rows of line NUMBER (`add` without noting where the line starts)."""
        if keys is None:
            self.others += 1
            return
        self.results += 1
        if closed_world:
            self.closed_world.append(number)
        claims, kinds, firsts, seconds, helds = self.keys
        for kind, a, b, held in keys:  # bound appends: this runs for every key of millions of results
            claims.append(number)
            kinds.append(kind)
            firsts.append(a)
            seconds.append(b)
            helds.append(held)
        for row in asked:
            for column, value in zip(self.asked, (number, *row)):
                column.append(value)

    def table(self) -> pa.Table:
        """Every row (SCHEMA), the lines' starts and the file's end last."""
        import numpy as np

        starts = self.starts + array("q", [self.at])
        claims, kinds, firsts, seconds, helds = self.keys
        asked = dict(zip(("a", "b", "held", "text", "reached"), self.asked[1:]))
        return pa.concat_tables([
            _part(kinds, claims, {"a": firsts, "b": seconds, "held": helds}),
            _part(ASK, self.asked[0], asked), _part(CLOSED_WORLD, self.closed_world, {}),
            _part(LINE, np.arange(1, len(starts) + 1), {"start": np.frombuffer(starts, np.int64)})])

    def save(self, results_path: str, carried: pa.Table | None = None) -> bool:
        """Write the keys beside RESULTS_PATH (atomically), with CARRIED rows of other lines (`carry`); False,
        writing nothing, when a file that is not saved keys already has that name (a user's file is never replaced)
        or the lines noted do not end where the file does."""
        path = keys_path(results_path)
        if not self._may_write(results_path, path):
            return False
        try:
            _write(path, self.table() if carried is None else pa.concat_tables([carried, self.table()]),
                   self._meta(results_path))
        except OSError:
            return False  # a cache not written (a full disk, say) costs the next recheck a parse, not this run
        return True

    def save_layered(self, results_path: str, base: str, own: pa.Table, dropped: frozenset) -> bool:
        """Write the keys beside RESULTS_PATH layered: this recorder's rows, OWN rows carried from a layered input,
        and `drop` rows for the lines DROPPED from BASE (a full keys file), hard-linked beside them. False, writing
        no keys, where `save` would refuse or the link cannot be made (another file system, say)."""
        path, link = keys_path(results_path), base_path(results_path)
        if not self._may_write(results_path, path, link):
            return False
        tmp_link = f"{link}.tmp-{os.getpid()}"
        try:
            os.link(base, tmp_link)
            os.replace(tmp_link, link)
            linked = os.stat(link)
            _write(path, pa.concat_tables([own, self.table(), _part(DROPPED, sorted(dropped), {})]),
                   self._meta(results_path, base={"size": linked.st_size, "mtime_ns": linked.st_mtime_ns}))
        except OSError:
            for leftover in (tmp_link, link):  # a base without its layer describes nothing
                if os.path.exists(leftover):
                    os.unlink(leftover)
            return False
        return True

    def _may_write(self, results_path: str, *paths: str) -> bool:
        """No user's file at PATHS (only saved keys are replaced), and the lines noted end where the file does."""
        return not any(os.path.lexists(p) and not _is_saved_keys(p) for p in paths) and \
            os.path.getsize(results_path) == self.at

    def _meta(self, results_path: str, **more) -> dict:
        return {"format": FORMAT, "results": self.results, "others": self.others, "bom": self.bom.hex(),
                "file": fingerprint(results_path), **more}


def _write(path: str, table: pa.Table, meta: dict) -> None:
    """TABLE with META written to PATH through a temporary file (OSError when it cannot be)."""
    import pyarrow.parquet as pq

    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        pq.write_table(table.replace_schema_metadata({_META: json.dumps(meta).encode()}), tmp, compression="zstd",
                       use_dictionary=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _other_lines(table: pa.Table, lines) -> pa.Table:
    """The rows of TABLE (SCHEMA) of the lines not in LINES, without their `line` rows (a copy's starts are its own)."""
    import pyarrow.compute as pc

    lines = lines if isinstance(lines, pa.Array) else pa.array(sorted(lines), pa.int64())
    return table.filter(pc.invert(pc.or_(pc.is_in(table["claim"], lines), pc.equal(table["kind"], LINE))))


def carry(saved: SavedKeys, replaced: dict[int, bytes], note):
    """The keys of a copy of the file SAVED describes with the REPLACED lines (line number -> the new line): the saved
    rows of the other lines, and note(recorder, number) for each replaced one. Returns save(copy_path) -> bool,
    to call once the copy is written (the keys name the file as it is then): layered on SAVED's base where it can,
    else whole."""
    import numpy as np

    fresh = KeyRecorder(saved.bom)
    fresh.results, fresh.others = saved.results - len(replaced), saved.others
    lengths = np.diff(np.frombuffer(saved.starts, np.int64))  # each line's, then the new ones where replaced
    for number in sorted(replaced):
        lengths[number - 1] = len(replaced[number])
        note(fresh, number)
    fresh.starts = array("q", (np.cumsum(lengths) - lengths + len(saved.bom)).tobytes())
    fresh.at = len(saved.bom) + int(lengths.sum())
    dropped = saved.dropped | frozenset(replaced)
    # a layered input's own rows of the lines not replaced now
    own = SCHEMA.empty_table() if saved.own is None else _other_lines(saved.own, replaced).cast(SCHEMA)

    def save(out_path: str) -> bool:
        if len(dropped) <= MAX_LAYERED_SHARE * len(saved.starts) and \
                fresh.save_layered(out_path, saved.base, own, dropped):
            return True
        return fresh.save(out_path, carried=_other_lines(saved.table, replaced).cast(SCHEMA))
    return save


def _is_saved_keys(path: str) -> bool:
    try:
        import pyarrow.parquet as pq

        return _META in (pq.read_schema(path).metadata or {})
    except (OSError, pa.ArrowException):
        return False


def discard(results_path: str) -> None:
    """Remove saved keys that no longer describe RESULTS_PATH (about to be appended to or replaced)."""
    for path in (keys_path(results_path), base_path(results_path)):
        if os.path.isfile(path) and _is_saved_keys(path):
            os.unlink(path)


def load(results_path: str) -> SavedKeys | None:
    """The saved keys of RESULTS_PATH, or None when there are none this kgcheck may trust for the file as it is."""
    path = keys_path(results_path)
    if not os.path.isfile(path):
        return None
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    try:
        meta = json.loads((pq.read_schema(path).metadata or {}).get(_META, b"null"))
        if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("file") != fingerprint(results_path):
            return None
        table = pq.read_table(path, read_dictionary=["kind"])
        base, own, dropped = path, None, frozenset()
        if meta.get("base") is not None:  # layered: the base's rows of the lines not dropped, then its own
            base = base_path(results_path)
            linked = os.stat(base)
            base_meta = json.loads((pq.read_schema(base).metadata or {}).get(_META, b"null"))
            if meta["base"] != {"size": linked.st_size, "mtime_ns": linked.st_mtime_ns} or \
                    not isinstance(base_meta, dict) or base_meta.get("format") != FORMAT or \
                    base_meta.get("base") is not None:
                return None
            is_dropped = pc.equal(table["kind"], DROPPED)
            dropped_lines = table.filter(is_dropped)["claim"]
            own = table.filter(pc.invert(is_dropped))
            dropped = frozenset(dropped_lines.to_pylist())
            below = _other_lines(pq.read_table(base, read_dictionary=["kind"]), dropped_lines.combine_chunks())
            table = pa.concat_tables([below, own], promote_options="permissive")
        kinds = table["kind"]
        lines = table.filter(pc.equal(kinds, LINE))
        asked = table.filter(pc.equal(kinds, ASK)).select(["claim", "a", "b", "held", "text", "reached"]).rename_columns(
            ["claim", "subject", "property", "value", "text", "reached"])
        closed_world = table.filter(pc.equal(kinds, CLOSED_WORLD))["claim"]
        starts = array("q", lines.sort_by("claim")["start"].to_pylist())
        counts = int(meta["results"]), int(meta["others"])
        bom = bytes.fromhex(meta["bom"])
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
        return None  # unreadable keys are only a missed shortcut: the file is keyed by parsing it
    columns = {f.name: f.type.value_type if pa.types.is_dictionary(f.type) else f.type for f in table.schema}
    if columns != {f.name: f.type for f in SCHEMA} or len(starts) != sum(counts) + 1:
        return None  # keys of another shape, or not a line each
    return SavedKeys(table, asked, starts, bom, *counts, pc.min(closed_world).as_py() if len(closed_world) else None,
                     base, own, dropped)
