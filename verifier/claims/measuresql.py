"""What the measure tests share in SQL: the order in which the judge asks them, the measured test as DuckDB macros,
and where a build's tables are (remeasure.py, reclass.py, relisting.py)."""
from __future__ import annotations

import os

from .thresholds import MAX_MULTI_SHARE, MAX_MULTI_UPPER, MIN_SUBJECTS, Z95

# How far down judge.py's order of measured tests (0 overall, 1 by class, 2 by value, 3 by profile, 4
# co-occurrence, 5 trace) a verdict read, by the test that decided it: the tests after that one were never asked, so
# their rows cannot move it unless the deciding test's own outcome changes (keyed by that test's rows). "none" read
# them all and none decided: 6, past the last, so that `reached = TEST` says TEST refuted (`recorded_flips_sql`).
TESTS_READ = {"measured": 0, "class": 1, "value": 2, "profile": 3, "co-occurrence": 4, "trace": 5, "none": 6}
MEASURED = frozenset(TESTS_READ)  # `exclusivity` of a result that came from measuring the graph (not a constraint)
BY_CLASS, BY_VALUE, BY_PROFILE, COOCCURRENCE, TRACE = (TESTS_READ[e] for e in ("class", "value", "profile",
                                                                                "co-occurrence", "trace"))


def parquet_path(directory: str, name: str) -> str | None:
    """DIR/NAME.parquet quoted for a SQL string, or None when the build has no such table."""
    path = os.path.join(directory, f"{name}.parquet")
    return path.replace("'", "''") if os.path.isfile(path) else None


def flipped_sql(on_old: str, on_new: str, keys: str, outcome: str) -> str:
    """SQL of the KEYS (a column list) whose OUTCOME differs between the two builds' outcome queries ON_OLD and
    ON_NEW — a key one build leaves out counting as a false outcome there. The indirect tests compare builds so in
    DuckDB: only what flipped comes back to Python, which runs beside recheck's checking thread."""
    return f"""SELECT {keys} FROM ({on_old}) o FULL OUTER JOIN ({on_new}) n USING ({keys})
               WHERE coalesce(o.{outcome}, false) <> coalesce(n.{outcome}, false)"""


def decides_sql() -> str:
    """DuckDB macros: the one-sided 95 % Wilson upper bound (thresholds.wilson_upper, for n > 0) and the measured test
    of facts.py (MIN_SUBJECTS, MAX_MULTI_SHARE, MAX_MULTI_UPPER) on n subjects of which k hold several values, as
    (measurable, exclusive)."""
    z2 = Z95 * Z95
    return (f"CREATE OR REPLACE MACRO wilson_upper(k, n) AS (k / n + {z2} / (2 * n) "
            f"+ {Z95} * sqrt(greatest(k / n * (1 - k / n) / n + {z2} / (4 * n * n), 0))) / (1 + {z2} / n); "
            f"CREATE OR REPLACE MACRO exclusive(n, k) AS coalesce(n >= {MIN_SUBJECTS} AND k / n <= {MAX_MULTI_SHARE} "
            f"AND wilson_upper(k, n) <= {MAX_MULTI_UPPER}, false); "
            f"CREATE OR REPLACE MACRO decision(n, k) AS [coalesce(n >= {MIN_SUBJECTS}, false), exclusive(n, k)]; "
            # profile and value rows are read with the subject left out, who may or may not hold several
            "CREATE OR REPLACE MACRO others(n, k) AS [decision(n - 1, k), decision(n - 1, k - 1)]")


def decided_alone_sql(test: int) -> str:
    """SQL of (claim, property) for the claims of measured_keys whose verdict TEST decided (reached = TEST: it
    refuted) and that asked it of one property — the judge asks it of the primary reading only, so with several
    properties the line does not say which."""
    return (f"SELECT claim, any_value(property) AS property FROM measured_keys WHERE reached = {test} "
            "GROUP BY claim HAVING count(DISTINCT property) = 1")


def old_pairs_sql(pairs: str, on_new: str, test: int) -> str:
    """SQL of the rows of PAIRS (claim, property, ...: a test's keys) whose outcome on OLD must be evaluated to tell
    whether TEST flipped (`recorded_flips_sql`), given its outcomes ON_NEW (claim, property, refutes). A verdict TEST
    decided alone says its outcome on OLD (it refuted); any other verdict that asked TEST says it did not refute,
    so only a pair that refutes on NEW can have flipped — or one the judge never asked on OLD (another property of
    the claim, a verdict decided before TEST was reached), which cannot change the verdict while nothing it read
    before TEST moved (keyed by those tests' rows). Both builds are evaluated only for the claims TEST decided with
    several properties."""
    return f"""SELECT p.* FROM {pairs} p
        WHERE p.claim NOT IN (SELECT claim FROM ({decided_alone_sql(test)}))
          AND (p.claim IN (SELECT claim FROM measured_keys WHERE reached = {test})
               OR EXISTS (SELECT 1 FROM {on_new} n WHERE n.claim = p.claim AND n.property = p.property
                          AND n.refutes))"""


def recorded_flips_sql(on_old: str, on_new: str, old_pairs: str, test: int) -> str:
    """SQL of the claims whose TEST comes out otherwise on OLD than on NEW: a verdict TEST decided alone whose pair no
    longer refutes ON_NEW, and the pairs of OLD_PAIRS (`old_pairs_sql`, evaluated ON_OLD) whose outcomes differ."""
    new_of_old_pairs = (f"FROM {on_new} n WHERE EXISTS (SELECT 1 FROM {old_pairs} p WHERE p.claim = n.claim "
                        "AND p.property = n.property)")
    return f"""SELECT d.claim FROM ({decided_alone_sql(test)}) d
               WHERE NOT EXISTS (SELECT 1 FROM {on_new} n WHERE n.claim = d.claim AND n.property = d.property
                                 AND n.refutes)
               UNION SELECT claim FROM ({flipped_sql(f"FROM {on_old}", new_of_old_pairs, "claim, property", "refutes")})"""
