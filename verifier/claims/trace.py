"""The trace test: a claimed value nothing near the subject leads to, where a true value rarely looks so.

For a property the graph holds with several values, a claimed value beside the graph's may be a true value the
graph lacks. It is refuted only when two figures the graph measures of itself (index/trace.py) make that story
unlikely:
- m: how often subjects as richly described as this one (same log2 bucket of distinct properties, the subject
  left out) hold the property with several values (measure_degree) — the chance there is another value at all.
  A bucket of fewer than MIN_SUBJECTS other subjects (the few richest or thinnest of a graph) is pooled with its
  nearest buckets, one step each way at a time, until it holds that many (`pooled_degree`); the bucket's own share
  still bounds m from below, so a pool never makes a bucket whose few subjects mostly hold several values look
  single-valued;
- u: how often a true value of the property is untraced (measure_trace, leave-one-out) — the chance a missing
  true value would look like the claim; the claimed value's own rate where the build sampled enough of it
  (measure_trace_value): a country or a language many things point at is rarely untraced when true.
The claim refutes when every reading of its value is untraced and the product of the two one-sided 95 % Wilson
upper bounds is at most TRACE_RISK (u of the reading the text names best: the linker's first, the one rule B
compares with — a name's further readings are weaker lexical matches, "Coventry" for "United Kingdom"), the share
of false refutations the measured test tolerates (facts.py MAX_MULTI_SHARE): at most that share of true claims of
this kind would be refuted. m needs MIN_SUBJECTS; a rate measured on fewer samples (a property few subjects hold
with several values: few true values to set aside) counts as 1, every missing true value untraced, so the risk is
m's bound alone.
Measured on openworld-dev and claims-dev over the wd50k-openworld graph (README): the swapped countries and
places of sparsely described subjects are refuted; languages spoken and citizenships, whose true values are
untraced about a quarter of the time, mostly are not.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import pyarrow as pa

from kgcheck.index.trace import TRACE_TABLES, TRACE_VALUE_TABLE, traced_sql

from .thresholds import MAX_MULTI_SHARE, MIN_SUBJECTS, wilson_upper
from .measuresql import TRACE, decides_sql, old_pairs_sql, parquet_path, recorded_flips_sql

TRACE_RISK = MAX_MULTI_SHARE


def degree_bucket(properties: int) -> int:
    """The bucket of a subject with this many distinct properties (index/trace.py measure_degree)."""
    return int(math.floor(math.log2(properties))) if properties > 0 else 0


def pooled_degree(rows: dict[int, tuple[int, int]], bucket: int) -> tuple[int, int] | None:
    """The (subjects, several) m is measured on for a subject of BUCKET: ROWS (bucket -> (subjects, several), one
    property's measure_degree) within the narrowest width around BUCKET that holds MIN_SUBJECTS subjects besides
    the subject; every row when none does (too few: trace_risk says so). None when ROWS lack the bucket."""
    if bucket not in rows:
        return None
    width, widest = 0, max(abs(b - bucket) for b in rows)
    while True:
        inside = [rows[b] for b in rows if abs(b - bucket) <= width]
        subjects, several = sum(r[0] for r in inside), sum(r[1] for r in inside)
        if subjects - 1 >= MIN_SUBJECTS or width == widest:
            return subjects, several
        width += 1


def trace_risk(subjects: int, several: int, mine_several: bool, samples: int, untraced: int,
               own: tuple[int, int] | None = None) -> float | None:
    """The bound on a true claim's chance to be refuted (module text); None when m has too few subjects (u on
    too few samples counts as 1). subjects / several: the (pooled) degree row, the subject among them (left out
    here); own: the subject's own bucket's row when the pool is wider, whose share m never falls below."""
    n, k = subjects - 1, several - int(mine_several)
    if n < MIN_SUBJECTS:
        return None
    m = wilson_upper(k, n)
    if own is not None and own[0] > 1:
        m = max(m, (own[1] - int(mine_several)) / (own[0] - 1))
    return m * (wilson_upper(untraced, samples) if samples >= MIN_SUBJECTS else 1.0)


@dataclass(frozen=True)
class TraceOutcome:
    exclusive: bool  # every reading of the claimed value untraced, at a risk within TRACE_RISK
    risk: float | None
    share: float  # the degree bucket's share holding several values (the subject left out)
    subjects: int
    rate: float  # the untraced rate of the reading the text names best: its value's own, else the property's
    by_value: bool = False  # the rate is the value's own (measure_trace_value)
    rate_measured: bool = True  # else too few samples: taken as 1

    @property
    def detail(self) -> str:
        if self.risk is None:
            return "too few subjects to measure how a missing value would look"
        untraced = (f"{self.rate:.0%} of true values {'like this one ' if self.by_value else ''}leave no trace"
                    if self.rate_measured else "too few true values are measured to tell how often one leaves no "
                                               "trace (taken as always)")
        return (f"{self.share:.1%} of {self.subjects:,} subjects described as richly hold several values and "
                f"{untraced}: a true claim looks so at most {self.risk:.1%} of the time")


class TraceMeasures:
    """Reads the trace tables of an index (None from every test when it has none) and decides claims in bulk."""

    def __init__(self, kg):
        self.kg = kg
        self._available: bool | None = None
        self._buckets: dict[str, dict[int, tuple[int, int]]] = {}  # property -> bucket -> (subjects, several)
        self._rate: dict[str, tuple[int, int] | None] = {}
        self._value_rate: dict[tuple[str, str], tuple[int, int] | None] = {}
        self._by_value: bool | None = None
        self._traced: dict[tuple[str, str, str], bool] = {}

    @property
    def available(self) -> bool:
        if self._available is None:  # asked on first use: a facts object may never need it
            self._available = all(self.kg.has_table(t) for t in TRACE_TABLES)
        return self._available

    def _fetch_rows(self, pids) -> None:
        """The degree buckets and untraced rate of each property of PIDS not read yet."""
        unread = sorted(set(pids) - set(self._buckets))
        if unread:  # every bucket of the property: a thin bucket is pooled with its neighbours
            for pid in unread:
                self._buckets[pid] = {}
            for pid, bucket, subjects, several in self.kg.sql(
                    "SELECT property, bucket, subjects, several FROM measure_degree WHERE property IN "
                    "(SELECT unnest(?))", [unread]):
                self._buckets[pid][int(bucket)] = (int(subjects), int(several))
        pids = set(pids) - set(self._rate)
        if pids:
            for pid, samples, untraced in self.kg.sql("SELECT property, samples, untraced FROM measure_trace "
                                                      "WHERE property IN (SELECT unnest(?))", [sorted(pids)]):
                self._rate[pid] = (int(samples), int(untraced))
            for pid in pids:
                self._rate.setdefault(pid, None)

    def _fetch_values(self, keys) -> None:
        """The values' own untraced rates (an index built before measure_trace_value has none)."""
        keys = {k for k in keys if k not in self._value_rate}
        if not keys:
            return
        if self._by_value is None:
            self._by_value = self.kg.has_table(TRACE_VALUE_TABLE)
        if self._by_value:
            rows = self.kg.sql(f"SELECT property, value, samples, untraced FROM {TRACE_VALUE_TABLE} "
                               "WHERE property IN (SELECT unnest(?)) AND value IN (SELECT unnest(?))",
                               [sorted({p for p, _ in keys}), sorted({v for _, v in keys})])
            for pid, value, samples, untraced in rows:
                if (pid, value) in keys and samples >= MIN_SUBJECTS:
                    self._value_rate[(pid, value)] = (int(samples), int(untraced))
        for key in keys:
            self._value_rate.setdefault(key, None)

    def _risk(self, pid: str, mine, value: str | None = None) -> tuple[float | None, tuple, tuple, bool] | None:
        """(risk, degree row, rate, by value) for a reading of the claimed value (its own rate if measured, else
        the property's); None without the property's rows."""
        bucket = degree_bucket(len(mine.properties))
        row = pooled_degree(self._buckets.get(pid, {}), bucket)
        rate = self._rate.get(pid) or (0, 0)  # no samples: unmeasured, taken as 1 (trace_risk)
        if row is None or pid not in mine.best:
            return None
        own = self._value_rate.get((pid, value)) if value is not None else None
        risk = trace_risk(*row, mine.best[pid] > 1, *(own or rate), own=self._buckets[pid][bucket])
        return risk, row, own or rate, own is not None

    def prefetch(self, asked, subject_facts) -> None:
        """asked: (subject, property, held, claimed); subject_facts(subject) -> measures.SubjectFacts. Reads the
        rows, then traces in one query every claimed value whose risk could let it refute."""
        if not self.available:
            return
        asked = [(s, p, h, c) for s, p, h, c in asked if h and c]
        self._fetch_rows({p for _, p, _, _ in asked})
        readings = [(s, p, h, [z for z in c if z not in h]) for s, p, h, c in asked]
        self._fetch_values({(p, values[0]) for _, p, _, values in readings if values})  # the risk reads the first
        needed = []
        for subject, pid, held, values in readings:
            found = self._risk(pid, subject_facts(subject), values[0]) if values else None
            if found and found[0] is not None and found[0] <= TRACE_RISK:
                needed += [(subject, pid, z) for z in values if (subject, pid, z) not in self._traced]
        self._trace_all(list(dict.fromkeys(needed)))

    def _trace_all(self, needed: list[tuple[str, str, str]]) -> None:
        if not needed:
            return
        cursor = self.kg.cursor()
        cursor.register("trace_asked", pa.table({"id": list(range(len(needed))), "subject": [n[0] for n in needed],
                                                 "property": [n[1] for n in needed], "value": [n[2] for n in needed]}))
        try:
            traced = {r[0] for r in cursor.execute(traced_sql("trace_asked", "statements",
                                                              "statements_by_object")).fetchall()}
        finally:
            cursor.unregister("trace_asked")
        for i, key in enumerate(needed):
            self._traced[key] = i in traced

    def outcome(self, pid: str, subject: str, held: list[str], claimed: list[str], mine) -> TraceOutcome | None:
        """The test for a claim (module text); None when the index has no trace tables or the property no rows."""
        if not self.available or not held or not claimed:
            return None
        self._fetch_rows({pid})
        claimed = [z for z in dict.fromkeys(claimed) if z not in held]
        self._fetch_values({(pid, z) for z in claimed[:1]})
        found = self._risk(pid, mine, claimed[0] if claimed else None)  # the reading the text names best
        if found is None:
            return None
        risk, (subjects, several), (samples, untraced), by_value = found
        share = (several - (mine.best[pid] > 1)) / max(1, subjects - 1)
        outcome = TraceOutcome(False, risk, share, subjects - 1, untraced / samples if samples else 1.0, by_value,
                               samples >= MIN_SUBJECTS)
        if risk is None or risk > TRACE_RISK:
            return outcome
        missing = [(subject, pid, z) for z in claimed if (subject, pid, z) not in self._traced]
        self._trace_all(missing)
        alone = bool(claimed) and not any(self._traced[(subject, pid, z)] for z in claimed)
        return dataclasses.replace(outcome, exclusive=alone)


def trace_flips(con, old_dir: str, new_dir: str) -> set[int]:
    """Recheck: claims of measured_keys that asked the trace test (reached >= TRACE, a claimed value id; a name's
    linked candidates are rows of their own) whose test comes out otherwise on OLD than on NEW, each build read
    whole — its statements (the subject's description, its neighbours, the claimed value's), its trace tables; OLD
    only for the pairs whose recorded verdict does not say the outcome (measuresql.old_pairs_sql)."""
    names = ("statements", "statements_by_object", "subject_best") + TRACE_TABLES
    paths = {b: {n: parquet_path(d, n) for n in names} for b, d in (("old", old_dir), ("new", new_dir))}
    asked = con.execute(f"SELECT count(*) FROM measured_keys WHERE reached >= {TRACE} AND value IS NOT NULL")
    if not asked.fetchone()[0]:
        return set()
    if all(None in p.values() for p in paths.values()):  # one build without the tables: its outcome is "no"
        return set()
    con.execute(f"""CREATE OR REPLACE TEMP TABLE trace_keys AS
        SELECT claim, subject, property, value, reading FROM measured_keys
        WHERE reached >= {TRACE} AND value IS NOT NULL""")
    _trace_outcomes(con, paths["new"], parquet_path(new_dir, TRACE_VALUE_TABLE), "trace_on_new", "trace_keys")
    # OLD's outcome is mostly the recorded verdict's (old_pairs_sql): evaluated only where it does not say it.
    con.execute(f"CREATE OR REPLACE TEMP TABLE trace_old_keys AS {old_pairs_sql('trace_keys', 'trace_on_new', TRACE)}")
    _trace_outcomes(con, paths["old"], parquet_path(old_dir, TRACE_VALUE_TABLE), "trace_on_old", "trace_old_keys")
    flipped = recorded_flips_sql("trace_on_old", "trace_on_new", "trace_old_keys", TRACE)
    return {r[0] for r in con.execute(f"SELECT DISTINCT claim FROM ({flipped})").fetchall()}


def _trace_outcomes(con, paths: dict[str, str | None], value_path: str | None, name: str, keys: str) -> None:
    """TEMP NAME(claim, property, refutes): the trace test of TraceMeasures.outcome on one build for the KEYS
    (claim, subject, property, value, reading), in SQL: within TRACE_RISK by the rate of the first reading not held
    (its own in VALUE_PATH, if any, else the property's), and every reading not held untraced."""
    if None in paths.values():
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} (claim BIGINT, property VARCHAR, refutes BOOLEAN)")
        return
    con.execute(decides_sql())  # wilson_upper (n > 0 where it is asked: a count under MIN_SUBJECTS is never read)
    p = {n: f"read_parquet('{v}')" for n, v in paths.items()}
    own = (f"read_parquet('{value_path}')" if value_path else
           "(SELECT NULL::VARCHAR AS property, NULL::VARCHAR AS value, 0 AS samples, 0 AS untraced WHERE false)")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE trace_pairs AS
        WITH k AS (SELECT claim, subject, property, value AS z, min(reading) AS reading FROM {keys} GROUP BY ALL),
        st AS (SELECT subject, property, entity_id, rank FROM {p['statements']}
               WHERE subject IN (SELECT subject FROM k)),
        held AS (SELECT DISTINCT subject, property, entity_id FROM st
                 WHERE rank <> 'deprecated' AND entity_id IS NOT NULL),
        described AS (SELECT subject, floor(log2(count(DISTINCT property)))::INTEGER AS bucket FROM st
                      GROUP BY subject),
        best AS (SELECT subject, property, n_best FROM {p['subject_best']} WHERE subject IN (SELECT subject FROM k)),
        buckets AS MATERIALIZED (SELECT property, bucket, subjects, several FROM {p['measure_degree']}
                    WHERE property IN (SELECT property FROM k)),
        -- pooled_degree of every bucket: the narrowest width around it holding MIN_SUBJECTS others
        grown AS (SELECT w.property, w.bucket, r.width, sum(d.subjects) AS subjects, sum(d.several) AS several
                  FROM buckets w CROSS JOIN range(0, 64) r(width)
                  JOIN buckets d ON d.property = w.property AND abs(d.bucket - w.bucket) <= r.width GROUP BY ALL),
        pooled AS (SELECT property, bucket, arg_min(subjects, width) AS subjects, arg_min(several, width) AS several
                   FROM grown WHERE subjects - 1 >= {MIN_SUBJECTS} GROUP BY ALL),
        base AS (SELECT DISTINCT k.claim, k.subject, k.property,
                        greatest(wilson_upper(d.several - (b.n_best > 1)::INTEGER, d.subjects - 1),
                                 CASE WHEN o.subjects > 1
                                      THEN (o.several - (b.n_best > 1)::INTEGER) / (o.subjects - 1) ELSE 0 END) AS m,
                        coalesce(t.samples, 0) AS samples, coalesce(t.untraced, 0) AS untraced
                 FROM (SELECT DISTINCT claim, subject, property FROM k) k JOIN described s USING (subject)
                 JOIN best b USING (subject, property)
                 JOIN buckets o ON o.property = k.property AND o.bucket = s.bucket
                 JOIN pooled d ON d.property = k.property AND d.bucket = s.bucket
                 LEFT JOIN {p['measure_trace']} t ON t.property = k.property
                 WHERE EXISTS (SELECT 1 FROM held h WHERE h.subject = k.subject AND h.property = k.property)),
        unheld AS (SELECT k.* FROM k WHERE NOT EXISTS (SELECT 1 FROM held h WHERE h.subject = k.subject
                                                     AND h.property = k.property AND h.entity_id = k.z)),
        named AS (SELECT claim, subject, property, arg_min(z, reading) AS z FROM unheld GROUP BY ALL),
        risk AS (SELECT claim, subject, property,
                        base.m * CASE WHEN v.samples >= {MIN_SUBJECTS} THEN wilson_upper(v.untraced, v.samples)
                                      WHEN base.samples >= {MIN_SUBJECTS}
                                      THEN wilson_upper(base.untraced, base.samples) ELSE 1.0 END AS r
                 FROM named JOIN base USING (claim, subject, property)
                 LEFT JOIN {own} v ON v.property = named.property AND v.value = named.z)
        SELECT row_number() OVER () AS id, unheld.claim, unheld.subject, unheld.property, unheld.z AS value
        FROM unheld JOIN risk USING (claim, subject, property) WHERE risk.r <= {TRACE_RISK}""")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE {name} AS
        WITH traced AS ({traced_sql('trace_pairs', p['statements'], p['statements_by_object'])})
        SELECT claim, property, bool_and(id NOT IN (SELECT id FROM traced)) AS refutes
        FROM trace_pairs GROUP BY 1, 2""")
