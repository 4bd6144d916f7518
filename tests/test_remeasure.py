"""Results decided by a graph-wide measure are re-checked when the diff moved what that measure reads."""
from __future__ import annotations

import duckdb

from kgcheck.verifier.claims.remeasure import measure_gate

RESULTS = [
    {"id": "author-measured", "exclusivity": "measured", "property_ids": ["P50"]},
    {"id": "author-by-class", "exclusivity": "class", "property_ids": ["P50"]},
    {"id": "author-constraint", "exclusivity": "constraint", "property_ids": ["P50"]},  # Wikidata's rule: no measure
    {"id": "country-open", "exclusivity": "none", "property_ids": ["P17"]},
    {"id": "supported", "exclusivity": None, "property_ids": ["P17"]},
    None,  # a line that is not a result
]


def _diff(*changes: tuple[str, str]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE TABLE changed_statements (statement_id VARCHAR, subject VARCHAR, property VARCHAR, "
                "old_entity VARCHAR, new_entity VARCHAR, change VARCHAR)")
    for i, (pid, change) in enumerate(changes):
        con.execute("INSERT INTO changed_statements VALUES (?, 'Q1', ?, NULL, NULL, ?)", [f"s{i}", pid, change])
    return con


def claims_whose_measures_may_change(records, con, skip: set[str]) -> set[str]:
    may_move = measure_gate(con)
    return {str(r["id"]) for r in records if r is not None and str(r["id"]) not in skip and may_move(r)}


def test_a_value_changed_elsewhere_moves_only_that_propertys_measures():
    assert claims_whose_measures_may_change(RESULTS, _diff(("P50", "value")), set()) == {
        "author-measured", "author-by-class"}


def test_class_or_held_properties_changed_moves_every_measure():
    expected = {"author-measured", "author-by-class", "country-open"}
    assert claims_whose_measures_may_change(RESULTS, _diff(("P31", "value")), set()) == expected
    assert claims_whose_measures_may_change(RESULTS, _diff(("P279", "rank")), set()) == expected
    assert claims_whose_measures_may_change(RESULTS, _diff(("P9999", "added")), set()) == expected


def test_references_alone_move_no_measure_and_skipped_ids_stay_out():
    assert claims_whose_measures_may_change(RESULTS, _diff(("P50", "references")), set()) == set()
    assert claims_whose_measures_may_change(RESULTS, _diff(("P50", "qualifiers")), {"author-by-class"}) == {
        "author-measured"}
