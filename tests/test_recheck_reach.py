"""The key pass drops keys no change can meet (keypass._reachable): the lines it finds hit are those the full join of
every key finds, whatever the results cite and whatever changed."""
from __future__ import annotations

import json
from types import SimpleNamespace

import duckdb
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kgcheck.verifier.claims import keypass

SUBJECTS, PROPERTIES, STATEMENTS = ["Q1", "Q2", "Q3"], ["P1", "P2", "P3"], ["Q1$a", "Q1$b", "Q2$a", "Q3$a"]
VALUES = [None, "Q7", "Q8"]

evidence = st.fixed_dictionaries({"statement_id": st.sampled_from(STATEMENTS), "subject": st.sampled_from(SUBJECTS),
                                  "property": st.sampled_from(PROPERTIES), "value_id": st.sampled_from(VALUES),
                                  "relation": st.sampled_from(["match", "same-object", "related", "conflict"]),
                                  "rank": st.sampled_from(["normal", "deprecated"])})
results = st.lists(st.fixed_dictionaries({
    "verdict": st.sampled_from(["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]),
    "rule": st.sampled_from(["A", "B", "C"]),
    "subject_id": st.sampled_from(SUBJECTS), "exclusivity": st.sampled_from([None, "constraint"]),
    "property_ids": st.lists(st.sampled_from(PROPERTIES), min_size=1, max_size=1),
    "evidence": st.lists(evidence, max_size=3),
    "claim": st.fixed_dictionaries({
        "subject": st.sampled_from(["Ann", "Bob"]), "predicate": st.sampled_from(["knows", "P1"]),
        "object": st.sampled_from(["Q7", "Carl", "1999"]), "subject_id": st.sampled_from([None, "Q1", "Q2"]),
        "property_id": st.sampled_from([None, "P1"]), "object_id": st.sampled_from(VALUES)})}), max_size=6)
statement_changes = st.lists(st.tuples(st.sampled_from(STATEMENTS), st.sampled_from(SUBJECTS + PROPERTIES),
                                       st.sampled_from(PROPERTIES), st.sampled_from(VALUES), st.sampled_from(VALUES),
                                       st.sampled_from(["added", "removed", "value", "rank", "references"])),
                             max_size=4)
entity_changes = st.lists(st.tuples(st.sampled_from(SUBJECTS + PROPERTIES), st.sampled_from(["label", "aliases"])),
                          max_size=2)
texts = st.lists(st.sampled_from(["Ann", "Carl", "knows", "Bob"]), max_size=2)


def _hits(tmp_path, records, changed, entities, names, reachable: bool, keyed: bool = False, rewrite: bool = True):
    """The lines the key pass finds hit (with `keyed` its whole KeyedResults); `rewrite` False keeps the results
    file as an earlier call wrote it (with the keys saved beside it)."""
    con = duckdb.connect()
    con.execute("CREATE TABLE changed_statements (statement_id VARCHAR, subject VARCHAR, property VARCHAR, "
                "old_entity VARCHAR, new_entity VARCHAR, change VARCHAR)")
    for row in changed:
        con.execute("INSERT INTO changed_statements VALUES (?, ?, ?, ?, ?, ?)", row)
    con.execute("CREATE TABLE changed_entities (id VARCHAR, change VARCHAR)")
    for row in entities:
        con.execute("INSERT INTO changed_entities VALUES (?, ?)", row)
    con.execute("CREATE TABLE changed_label_texts (text VARCHAR)")
    for text in names:
        con.execute("INSERT INTO changed_label_texts VALUES (?)", [text])
    path = tmp_path / "results.jsonl"
    if rewrite:
        path.write_text("".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(records)))
    diff = SimpleNamespace(con=con, old=str(tmp_path / "old"), new=str(tmp_path / "new"), saved_extra={})
    limit = keypass.REACHABLE_MAX
    keypass.REACHABLE_MAX = limit if reachable else -1  # -1: every key joined
    try:
        found = keypass.key_results(diff, str(path))
        return found if keyed else found.hits
    finally:
        keypass.REACHABLE_MAX = limit


RULE_C = {"verdict": "NOT_ENOUGH_INFO", "rule": "C", "subject_id": "Q1", "exclusivity": None, "property_ids": ["P1"],
          "evidence": [], "claim": {"subject": "Ann", "predicate": "knows", "object": "Q7", "subject_id": "Q1",
                                    "property_id": None, "object_id": "Q7"}}


@settings(max_examples=150, deadline=None)
@given(results, statement_changes, entity_changes, texts)
@example([RULE_C], [("Q2$a", "Q1", "P2", None, None, "added")], [], [])  # met by its `any` key alone
def test_dropping_unreachable_keys_finds_the_same_lines(tmp_path_factory, records, changed, entities, names):
    tmp_path = tmp_path_factory.mktemp("reach")
    found = _hits(tmp_path, records, changed, entities, names, True)
    assert found == _hits(tmp_path, records, changed, entities, names, False)
