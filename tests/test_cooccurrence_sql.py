"""The co-occurrence test as recheck evaluates it in SQL on a build (remeasure.cooccurrence_outcomes_sql): a claimed
value z is excluded when E reaches MIN_EXPECTED and no subject other than the claim's own holds z beside one of its
held values x."""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kgcheck.verifier.claims.remeasure import cooccurrence_outcomes_sql


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
