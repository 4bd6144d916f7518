"""The open-world measures the judge reads, looked up in the index's measure tables (index/measures.py).

Per claim this costs keyed reads — the subject's own statements, the rows of the property for the
subject's classes, other properties and values — whatever the size of the graph, where counting the
measures at query time scanned every statement of the property. A bulk check prefetches them for a whole
batch (`prefetch`) in a few queries; single lookups are cached per key.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

import pyarrow as pa

from kgcheck.index.measures import INSTANCE_OF, SUBCLASS_OF
from kgcheck.index.store import IN_CHUNK

from .byclass import ClassShare, nearest_measured, profile_measured
from .cooccur import CoOccurrence, HeldAlone, cooccurrence, held_alone

_NONE = (ClassShare("", 0, 0), ClassShare("", 0, 0))
_OBJECTS = "statements_by_object"


@dataclass(frozen=True)
class SubjectFacts:
    """What the measures need to know of one subject."""

    best: dict[str, int]  # per property with a usable value: the number of best values at one time
    properties: frozenset[str]  # every property the subject has a statement of
    values: frozenset[tuple[str, str]]  # (property, entity value), not deprecated
    classes: frozenset[str]  # its `instance of` values among them (asked by every by-class test)


class StoredMeasures:
    def __init__(self, kg):
        self.kg = kg
        self._subjects: dict[str, SubjectFacts] = {}
        self._parents: dict[str, frozenset[str]] = {}
        self._class: dict[tuple[str, str], tuple[ClassShare, ClassShare] | None] = {}
        self._profile: dict[tuple[str, str], ClassShare | None] = {}
        self._value: dict[tuple[str, str], tuple[int, int] | None] = {}
        self._observed: dict[tuple[str, str, frozenset, str], int] = {}
        self._held_others: dict[tuple[str, str, tuple], dict[str, int]] = {}

    # -- bulk -----------------------------------------------------------------------------------
    def prefetch(self, asked, min_subjects: int, overall=None, held_values: Collection[tuple] | None = None) -> None:
        """asked: (subject, property, held values, claimed values) the judge may measure; reads their subjects
        and measure rows in a few queries (chunks of subjects, one query per measure table), and the
        co-occurrence counts that could decide in one more. overall(property, subject): the property's
        (subjects, share holding several) when measured, else None."""
        asked = list(asked)
        self.prefetch_subjects({s for s, _, _, _ in asked}, held_values)
        classes, profiles, values = set(), set(), set()
        for subject, pid, held, claimed in asked:
            mine = self._subjects[subject]
            classes |= {(pid, c) for c in mine.classes}
            profiles |= {(pid, q) for q in mine.properties if q != pid}
            values |= {(pid, v) for v in held.union(claimed)}
        self._fetch("measure_class", "class", "subjects, several, pooled_subjects, pooled_several", classes,
                    self._class, _class_row)
        # A subject none of whose classes is measured hands over to their superclasses: read those edges, and the
        # superclasses' rows (the judge would read them one query a property).
        unmeasured = {(p, c) for p, c in classes if (self._class[(p, c)] or _NONE)[0].subjects < min_subjects}
        parents = self._superclasses({c for _, c in unmeasured})
        self._fetch("measure_class", "class", "subjects, several, pooled_subjects, pooled_several",
                    {(p, up) for p, c in unmeasured for up in parents[c]}, self._class, _class_row)
        self._fetch("measure_profile", "other", "subjects, several", profiles, self._profile, _share_row)
        self._fetch("measure_value", "value", "subjects, several", values, self._value, _count_row)
        needed: list[tuple[str, str, frozenset, str]] = []
        for subject, pid, held, claimed in asked:
            measured = overall(pid, subject) if overall and held else None
            if measured:
                # The expectations the judge will compute; the counts they would ask for are noted, not read.
                key = (pid, subject, frozenset(held))
                cooccurrence(*self._others(pid, subject, sorted(held), sorted(claimed)), *measured,
                             lambda z, key=key: needed.append((*key, z)) or 0)
        self._observe_all([k for k in dict.fromkeys(needed) if k not in self._observed])

    def _observe_all(self, needed: list[tuple[str, str, frozenset, str]]) -> None:
        """Per (property, subject, held values, claimed value): the other subjects holding the claimed value
        beside a held one, counted per held value — for all of them in one query over statements_by_object."""
        if not needed:
            return
        rows: dict[str, list] = {"id": [], "subject": [], "property": [], "x": [], "z": []}
        for i, (pid, subject, held, z) in enumerate(needed):
            for x in held:
                for column, v in zip(rows, (i, subject, pid, x, z)):
                    rows[column].append(v)
        cursor = self.kg.cursor()
        cursor.register("observe_asked", pa.table(rows))
        try:
            found = dict(cursor.execute(f"""
                WITH vals AS (SELECT DISTINCT property, entity_id, subject FROM {_OBJECTS}
                              WHERE entity_id IN (SELECT x FROM observe_asked UNION SELECT z FROM observe_asked)
                              AND rank <> 'deprecated')
                SELECT q.id, count(*) FROM observe_asked q
                JOIN vals a ON a.property = q.property AND a.entity_id = q.x AND a.subject <> q.subject
                JOIN vals b ON b.property = q.property AND b.entity_id = q.z AND b.subject = a.subject
                GROUP BY q.id""").fetchall())
        finally:
            cursor.unregister("observe_asked")
        for i, key in enumerate(needed):
            self._observed[key] = int(found.get(i, 0))

    def prefetch_subjects(self, subjects, held_values: Collection[tuple] | None = None) -> None:
        """held_values: (subject, property, value) of every statement of these subjects (store.held_values), when the
        caller has read them already; else they are read here."""
        missing = sorted({s for s in subjects if s and s not in self._subjects})
        for start in range(0, len(missing), IN_CHUNK):
            chunk = missing[start:start + IN_CHUNK]
            best: dict[str, dict[str, int]] = {s: {} for s in chunk}
            for subject, pid, n in self.kg.subject_rows("subject, property, n_best", chunk, table="subject_best"):
                best[subject][pid] = int(n)
            props: dict[str, set[str]] = {s: set() for s in chunk}
            values: dict[str, set[tuple[str, str]]] = {s: set() for s in chunk}
            classes: dict[str, set[str]] = {s: set() for s in chunk}
            held = held_values if held_values is not None else self.kg.subject_rows(
                "DISTINCT subject, property, CASE WHEN rank <> 'deprecated' THEN entity_id END", chunk)
            for subject, pid, value in held:
                mine = props.get(subject)
                if mine is None:
                    continue  # a subject of another chunk
                mine.add(pid)
                if value is not None:
                    values[subject].add((pid, value))
                    if pid == INSTANCE_OF:
                        classes[subject].add(value)
            for s in chunk:
                self._subjects[s] = SubjectFacts(best[s], frozenset(props[s]), frozenset(values[s]),
                                                 frozenset(classes[s]))

    def subject(self, subject: str) -> SubjectFacts:
        if subject not in self._subjects:
            self.prefetch_subjects([subject])
        return self._subjects[subject]

    def _superclasses(self, classes) -> dict[str, frozenset[str]]:
        missing = sorted({c for c in classes if c not in self._parents})
        if missing:
            found: dict[str, set[str]] = {c: set() for c in missing}
            for cls, parent in self.kg.parent_rows(missing, (SUBCLASS_OF,)):
                found[cls].add(parent)
            self._parents.update({c: frozenset(ps) for c, ps in found.items()})
        return {c: self._parents[c] for c in classes}

    # -- measure rows ---------------------------------------------------------------------------
    def _fetch(self, table: str, key: str, columns: str, pairs, cache: dict, convert) -> None:
        """Rows of (property, key) pairs not cached yet: one query over the properties and keys asked (the
        tables are sorted by property, so it reads their row groups only); pairs without a row cache None."""
        missing = {p for p in pairs if p not in cache}
        if not missing:
            return
        rows = self.kg.sql(f"SELECT property, {key}, {columns} FROM {table} WHERE property IN (SELECT unnest(?)) "
                           f"AND {key} IN (SELECT unnest(?))",
                           [sorted({p for p, _ in missing}), sorted({k for _, k in missing})])
        for row in rows:
            if (row[0], row[1]) in missing:
                cache[(row[0], row[1])] = convert(row[1:])
        for pair in missing:
            cache.setdefault(pair, None)

    def _rows(self, table: str, key: str, columns: str, pid: str, keys, cache: dict, convert) -> dict:
        found = {k: cache.get((pid, k), cache) for k in keys}  # `cache` itself marks a pair not fetched yet
        if any(row is cache for row in found.values()):
            self._fetch(table, key, columns, {(pid, k) for k in keys}, cache, convert)
            found = {k: cache[(pid, k)] for k in keys}
        return {k: row for k, row in found.items() if row is not None}

    def _class_rows(self, pid: str, classes) -> dict[str, tuple[ClassShare, ClassShare]]:
        return self._rows("measure_class", "class", "subjects, several, pooled_subjects, pooled_several", pid,
                          classes, self._class, _class_row)

    def _value_counts(self, pid: str, values) -> dict[str, tuple[int, int]]:
        return self._rows("measure_value", "value", "subjects, several", pid, values, self._value, _count_row)

    # -- the measures the judge asks for --------------------------------------------------------
    def by_class(self, pid: str, subject: str, min_subjects: int) -> list[ClassShare]:
        """byclass.nearest_measured over the stored counts; [] when the subject holds no usable value of pid."""
        mine = self.subject(subject)
        if pid not in mine.best:
            return []
        return nearest_measured(mine.classes, lambda cs: {c: d for c, (d, _) in self._class_rows(pid, cs).items()},
                                lambda cs: {c: p for c, (_, p) in self._class_rows(pid, cs).items()},
                                self._superclasses, min_subjects)

    def by_profile(self, pid: str, subject: str, min_subjects: int) -> list[ClassShare]:
        mine = self.subject(subject)
        if pid not in mine.best:
            return []
        others = sorted(mine.properties - {pid})
        shares = self._rows("measure_profile", "other", "subjects, several", pid, others, self._profile, _share_row)
        return profile_measured(others, shares, mine.best[pid] > 1, min_subjects)

    def by_value(self, pid: str, subject: str, held: list[str]) -> list[HeldAlone]:
        return held_alone(self._value_counts(pid, held), self.subject(subject).best.get(pid, 1) > 1, held)

    def cooccurrence(self, pid: str, subject: str, held: list[str], claimed: list[str], subjects: int,
                     multi_share: float) -> CoOccurrence | None:
        """cooccur.cooccurrence from the stored value counts; the subjects holding a claimed value beside a
        held one are counted (in the value-sorted statements_by_object) only when that could decide."""
        held = list(dict.fromkeys(held))
        key = (pid, subject, frozenset(held))

        def observe(z: str) -> int:
            if (*key, z) not in self._observed:
                self._observe_all([(*key, z)])
            return self._observed[(*key, z)]

        return cooccurrence(*self._others(pid, subject, held, claimed), subjects, multi_share, observe)

    def _others(self, pid: str, subject: str, held: list[str], claimed) -> tuple[dict[str, int], dict[str, int]]:
        """Per held and per claimed value, the subjects holding it with this one left out (from measure_value).
        The held values' counts are kept: the expectation's prefetch and the judge ask for them, and so does every
        other claim on the subject's property (a subject's values can run to hundreds)."""
        mine = self.subject(subject)
        key = (pid, subject, tuple(held))
        known = self._held_others.get(key)
        counts = self._value_counts(pid, list(claimed) if known is not None else held + list(claimed))

        def others(value: str) -> int:
            return counts.get(value, (0, 0))[0] - ((pid, value) in mine.values)

        if known is None:
            known = self._held_others[key] = {x: others(x) for x in held}
        return known, {z: others(z) for z in dict.fromkeys(claimed)}


def _class_row(r) -> tuple[ClassShare, ClassShare]:
    return ClassShare(r[0], int(r[1]), int(r[2])), ClassShare(r[0], int(r[3]), int(r[4]))


def _share_row(r) -> ClassShare:
    return ClassShare(r[0], int(r[1]), int(r[2]))


def _count_row(r) -> tuple[int, int]:
    return int(r[1]), int(r[2])
