"""The co-occurrence test as recheck evaluates it in SQL on a build (recooccur.cooccurrence_outcomes_sql): a claimed
value z is excluded when E reaches MIN_EXPECTED and no subject other than the claim's own holds z beside one of its
held values x."""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kgcheck.verifier.claims.recooccur import cooccurrence_outcomes_sql


def _build(directory, both_held_by: list[str]) -> dict[str, str]:
    """A build of property P1: 40 subjects, 20 of them with several values; X held by 30 subjects, Z by 10, so
    E = (30 - 1) * 10 * 20 / 40 / 40 = 3.6 >= 3 for the claim "Qs P1 Z" of a subject holding X. BOTH_HELD_BY: the
    subjects holding X and Z."""
    directory.mkdir()
    subjects = [f"Q{i}" for i in range(40)]
    pq.write_table(pa.table({"subject": subjects, "property": ["P1"] * 40, "n_best": [2] * 20 + [1] * 20}),
                   directory / "subject_best.parquet")
    pq.write_table(pa.table({"property": ["P1", "P1"], "value": ["X", "Z"], "subjects": [30, 10],
                             "several": [15, 5]}), directory / "measure_value.parquet")
    holders = [("X", "Qs")] + [("X", s) for s in both_held_by] + [("Z", s) for s in both_held_by] + \
        [("Z", f"Qz{i}") for i in range(3)]
    pq.write_table(pa.table({"entity_id": [v for v, _ in holders], "subject": [s for _, s in holders],
                             "statement_order": list(range(len(holders))), "property": ["P1"] * len(holders),
                             "rank": ["normal"] * len(holders)}), directory / "statements_by_object.parquet")
    return {n: str(directory / f"{n}.parquet") for n in ("subject_best", "measure_value", "statements_by_object")}


@pytest.mark.parametrize("both_held_by, refutes", [
    ([], True),  # nobody holds X and Z together: the graph's silence where 3.6 were expected excludes Z
    (["Qo"], False),  # another subject does: X and Z go together
    (["Qs"], True),  # only the claim's own subject (as OLD held it, say): that proves nothing about the claim
    (["Qs", "Qo"], False),  # another beside it, sorting before it (the first holder is not the subject) ...
    (["Qs", "Qt"], False),  # ... or after it (the last is not)
])
def test_a_co_holder_other_than_the_claims_own_subject_keeps_the_claimed_value(tmp_path, both_held_by, refutes):
    paths = _build(tmp_path / "build", both_held_by)
    con = duckdb.connect()
    con.execute("CREATE TABLE open_pairs AS SELECT 1::BIGINT AS claim, 'Qs' AS subject, 'P1' AS property, "
                "'Z' AS z, 'X' AS x")
    assert con.execute(cooccurrence_outcomes_sql(paths, "open_pairs")).fetchall() == [(1, "P1", refutes)]


# -- counts computed from a whole build: two blocs of subjects that keep their values apart (A/B versus C/D) ----------

BASE = {(f"Q{i}", v) for i in range(30) for v in ("A", "B") if (i + (v == "B")) % 5} | \
       {(f"Q{i}", v) for i in range(30, 60) for v in ("C", "D") if (i + (v == "D")) % 5} | {("Q5", "C")}
# Q5 holds B and C: the one subject bridging the blocs.
CLAIMS = [(1, "Q0", "C"), (2, "Q1", "D"), (3, "Q31", "A"), (4, "Q32", "B"), (5, "Q2", "B"), (6, "Q40", "A")]


def _write(directory, held: set) -> str:
    directory.mkdir()
    subjects = sorted({s for s, _ in held})
    per_subject = {s: sum(1 for t, _ in held if t == s) for s in subjects}
    pq.write_table(pa.table({"subject": subjects, "property": ["P1"] * len(subjects),
                             "n_best": [per_subject[s] for s in subjects]}), directory / "subject_best.parquet")
    values = sorted({v for _, v in held})
    holders = {v: [s for s, w in held if w == v] for v in values}
    pq.write_table(pa.table({"property": ["P1"] * len(values), "value": values,
                             "subjects": [len(holders[v]) for v in values],
                             "several": [sum(per_subject[s] > 1 for s in holders[v]) for v in values]}),
                   directory / "measure_value.parquet")
    rows = sorted(held)
    pq.write_table(pa.table({"entity_id": [v for _, v in rows], "subject": [s for s, _ in rows],
                             "statement_order": list(range(len(rows))), "property": ["P1"] * len(rows),
                             "rank": ["normal"] * len(rows)}), directory / "statements_by_object.parquet")
    return str(directory)


def test_a_claim_across_the_blocs_refutes_unless_another_subject_bridges_them(tmp_path):
    """A claim across the blocs refutes (claim 2: Q1 holds A and B, claims D; E = 23 * 24 * 37 / 60^2 = 5.7), unless
    another subject holds both values (claim 1: Q0 holds B, claims C, which Q5 holds beside B); an edit taking C from
    Q5 makes claim 1 refute — the flip a recheck must find from the other subject's statements alone."""
    def outcomes(held, name):
        paths = {n: str(tmp_path / name / f"{n}.parquet") for n in ("subject_best", "measure_value", "statements_by_object")}
        _write(tmp_path / name, held)
        con = duckdb.connect()
        con.execute("CREATE TABLE open_pairs (claim BIGINT, subject VARCHAR, property VARCHAR, z VARCHAR, x VARCHAR)")
        con.executemany("INSERT INTO open_pairs VALUES (?, ?, 'P1', ?, ?)",
                        [(c, s, z, x) for c, s, z in CLAIMS for t, x in sorted(held) if t == s])
        return {c: r for c, _, r in con.execute(cooccurrence_outcomes_sql(paths, "open_pairs")).fetchall()}

    base = outcomes(BASE, "base")
    assert (base[1], base[2]) == (False, True)
    assert outcomes(BASE - {("Q5", "C")}, "edited")[1] is True
