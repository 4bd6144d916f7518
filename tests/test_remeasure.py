"""Results decided by a graph-wide measure are re-checked when the diff moved what that measure reads."""
from __future__ import annotations

import json
import os

import duckdb
import pytest

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


def _clubs(fx, clubs_with_two: bool, cities: int = 30):
    """30 clubs of one class and 30 cities without one, all in Russia; ten cities (or ten clubs) also in the
    Soviet Union — the same overall counts either way; 30 films that are neither."""
    def two(i):
        return [("P17", fx.item("Q15180", None))] if 10 <= i < 20 else []

    clubs = [fx.entity(f"Q{3000 + i}", f"Club {i}", "football club",
                       claims=[("P31", fx.item("Q476028", None)), ("P17", fx.item("Q159", None))] +
                       (two(i) if clubs_with_two else [])) for i in range(30)]
    clubs += [fx.entity(f"Q{4000 + i}", f"City {i}", "city", claims=[("P17", fx.item("Q159", None))] +
                        ([] if clubs_with_two else two(i))) for i in range(cities)]
    films = [fx.entity(f"Q{5000 + i}", f"Film {i}", "film", claims=[("P31", fx.item("Q11424", None)),
                                                                    ("P57", fx.item(f"Q{6000 + i % 3}", None))])
             for i in range(30)]
    named = {"Q476028": "association football club", "Q159": "Russia", "Q15180": "Soviet Union",
             "Q30": "United States of America", "Q11424": "film", "Q6000": "Ann", "Q6001": "Bob", "Q6002": "Cy"}
    return clubs + films + [fx.entity(q, label) for q, label in named.items()] + \
        [fx.prop("P17", "country", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item"),
         fx.prop("P57", "director", "wikibase-item")]


def test_stored_measures_recheck_exactly_the_results_whose_measure_rows_moved(kg_of, tmp_path):
    """Ten other clubs gain a second country (ten cities lose theirs): the club's by-class measure moves and its
    verdict flips, though its own statements and the property's overall counts did not change; a film's
    verdict read no measure that moved and is not checked again."""
    from conftest import fixture_builders

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_clubs(fx, False)), kg_of(_clubs(fx, True))
    claims = [Claim(id="club", subject="Club 0", predicate="country", object="United States of America"),
              Claim(id="film", subject="Film 0", predicate="director", object="Bob")]
    before = Checker(old).check(claims)
    assert before[0].verdict == "REFUTED" and before[0].exclusivity == "class"
    assert before[1].verdict == "REFUTED" and before[1].exclusivity == "measured"
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in before))
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
        assert not diff.con.execute("SELECT * FROM changed_measures WHERE kind = 'property'").fetchall()
    assert summary.rechecked == 1 and summary.measures_changed == 1
    assert [f["id"] for f in summary.flipped] == ["club"] and summary.flips == {"REFUTED->NOT_ENOUGH_INFO": 1}


def test_counts_that_move_without_crossing_a_threshold_recheck_nothing(kg_of, tmp_path):
    """One more city in Russia: the overall and the value counts of country move, but no test changes its
    outcome, and the club's verdict (by class) quotes no count that moved."""
    from conftest import fixture_builders

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_clubs(fx, False)), kg_of(_clubs(fx, False, cities=31))
    claims = [Claim(id="club", subject="Club 0", predicate="country", object="United States of America")]
    before = Checker(old).check(claims)
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in before))
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
        moved = diff.con.execute("SELECT kind, bool_or(decides) FROM changed_measures GROUP BY 1 ORDER BY 1").fetchall()
    assert ("property", False) in moved and ("measure_value", False) in moved
    assert summary.rechecked == 0
    assert Checker(new).check(claims)[0].reason == before[0].reason  # nothing stale either


def _films(fx, ussr: int = 12, ussr_with_us: int = 0, uk_only: int = 0):
    """Films' countries of origin: 20 American-British, 20 American (one of them "Film X"), `ussr` Soviet (the
    first `ussr_with_us` of them American too), `uk_only` British. Half the films hold several countries, so
    neither the property, nor the class, nor a value, nor a co-held property makes it single-valued: only
    co-occurrence can tell that no film is both American and Soviet."""
    us, uk, su = (fx.item(q, None) for q in ("Q30", "Q145", "Q15180"))
    film = ("P31", fx.item("Q11424", None))
    countries = [[us, uk]] * 20 + [[us]] * 20 + [[su, us]] * ussr_with_us + [[su]] * (ussr - ussr_with_us) + \
        [[uk]] * uk_only
    films = [fx.entity(f"Q{7000 + i}", "Film X" if i == 20 else f"Film {i}", "film",
                       claims=[film] + [("P495", c) for c in held]) for i, held in enumerate(countries)]
    named = {"Q30": "United States of America", "Q145": "United Kingdom", "Q15180": "Soviet Union",
             "Q11424": "film"}
    return films + [fx.entity(q, label) for q, label in named.items()] + \
        [fx.prop("P495", "country of origin", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item")]


@pytest.mark.parametrize("edit, flips", [
    ({"ussr_with_us": 1}, True),  # another film is now American and Soviet: observed 0 -> 1
    ({"ussr": 9}, True),  # fewer Soviet films: the expectation falls below 3, the graph's silence proves nothing
    ({"uk_only": 1}, False),  # the overall and value counts move, the expectation stays above 3
])
def test_an_open_verdict_is_rechecked_when_its_cooccurrence_test_comes_out_otherwise(kg_of, tmp_path, edit, flips):
    from conftest import fixture_builders

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_films(fx)), kg_of(_films(fx, **edit))
    claims = [Claim(id="film", subject="Film X", predicate="country of origin", object="Soviet Union")]
    before = Checker(old).check(claims)
    assert before[0].verdict == "REFUTED" and before[0].exclusivity == "co-occurrence", before[0].reason
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in before))
    with IndexDiff(old.directory, new.directory) as diff:
        summary = recheck(new, diff, str(results), str(out))
    after = Checker(new).check(claims)[0]
    assert (after.verdict != before[0].verdict) is flips
    assert summary.rechecked == int(flips) and len(summary.flipped) == int(flips)


def test_measure_changes_saved_at_build_are_read_by_a_recheck_unless_made_under_another_test(kg_of, tmp_path):
    """`build --keep-previous` saves changed_measures of every property beside the change tables: a recheck of
    the pair reads them instead of comparing the measure tables again; saved under another measured test (its
    tag), they are compared again. Seen through a saved table emptied by hand: read, it says nothing moved."""
    import duckdb as db
    from conftest import fixture_builders

    from kgcheck.index.diff import CHANGES_DIR, IndexDiff, save_changes
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.claims.remeasure import measure_tag, save_measure_changes
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_clubs(fx, False)), kg_of(_clubs(fx, True))
    claims = [Claim(id="club", subject="Club 0", predicate="country", object="United States of America")]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in Checker(old).check(claims)))

    def rechecked_by_measures() -> int:
        with IndexDiff(old.directory, new.directory) as diff:
            assert diff.saved
            return recheck(new, diff, str(results), str(tmp_path / "out.jsonl")).measures_changed

    save_changes(old.directory, new.directory, extra=save_measure_changes)
    saved = tmp_path.joinpath(new.directory, CHANGES_DIR)
    assert json.loads((saved / "changes.json").read_text())["extra"] == {"changed_measures": measure_tag()}
    assert rechecked_by_measures() == 1  # the club's class measure moved, as when compared at recheck time
    table = str(saved / "changed_measures.parquet")
    db.sql(f"COPY (FROM read_parquet('{table}') LIMIT 0) TO '{table}.empty' (FORMAT parquet)")
    os.replace(table + ".empty", table)
    assert rechecked_by_measures() == 0  # read from the saved table
    tag = json.loads((saved / "changes.json").read_text())
    (saved / "changes.json").write_text(json.dumps({**tag, "extra": {"changed_measures": "another test"}}))
    assert rechecked_by_measures() == 1  # compared again


@pytest.mark.parametrize("extra", [["changed_measures"], {"changed_measures": "x", "no such file": "y"}, "broken"])
def test_a_hand_edited_or_broken_saved_measure_table_is_compared_again(kg_of, tmp_path, extra):
    """The saved tables beside the change tables are optional: a tag of the wrong shape, a name that is no table,
    an unreadable file — the recheck compares the measure tables itself and finds the same flips."""
    from conftest import fixture_builders

    from kgcheck.index.diff import CHANGES_DIR, IndexDiff, save_changes
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.claims.remeasure import save_measure_changes
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_clubs(fx, False)), kg_of(_clubs(fx, True))
    claims = [Claim(id="club", subject="Club 0", predicate="country", object="United States of America")]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in Checker(old).check(claims)))
    save_changes(old.directory, new.directory, extra=save_measure_changes)
    saved = tmp_path.joinpath(new.directory, CHANGES_DIR)
    tag = json.loads((saved / "changes.json").read_text())
    (saved / "changes.json").write_text(json.dumps({**tag, "extra": extra}))
    if extra == "broken":
        (saved / "changes.json").write_text(json.dumps(tag))
        (saved / "changed_measures.parquet").write_bytes(b"not parquet")
    with IndexDiff(old.directory, new.directory) as diff:
        assert diff.saved  # the change tables themselves are read as saved
        if extra == "broken":
            assert "changed_measures" not in diff.saved_extra
        summary = recheck(new, diff, str(results), str(tmp_path / "out.jsonl"))
    assert summary.measures_changed == 1 and [f["id"] for f in summary.flipped] == ["club"]


def _measure_build(directory, rows, edges):
    """A build directory holding only measure_class.parquet (property, class, subjects, several, pooled_subjects,
    pooled_several) and hierarchy_edges.parquet (subject, property, parent)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    names = ("property", "class", "subjects", "several", "pooled_subjects", "pooled_several")
    pq.write_table(pa.table({n: [r[i] for r in rows] for i, n in enumerate(names)}),
                   os.path.join(directory, "measure_class.parquet"))
    pq.write_table(pa.table({"subject": [e[0] for e in edges], "property": ["P279"] * len(edges),
                             "parent": [e[1] for e in edges]}), os.path.join(directory, "hierarchy_edges.parquet"))
    return str(directory)


def _python_loosest(rows, own, edges):
    """The by-class test as the checker runs it (byclass.nearest_measured + facts._measured) on the same rows."""
    from kgcheck.verifier.claims.byclass import ClassShare, nearest_measured
    from kgcheck.verifier.claims.facts import MIN_SUBJECTS, _measured

    by_class = {r[1]: r for r in rows}
    direct = lambda cs: {c: ClassShare(c, by_class[c][2], by_class[c][3]) for c in cs if c in by_class}
    pooled = lambda cs: {c: ClassShare(c, by_class[c][4], by_class[c][5]) for c in cs if c in by_class}
    parents = lambda cs: {c: [p for s, p in edges if s == c] for c in cs}
    found = nearest_measured(own, direct, pooled, parents, MIN_SUBJECTS)
    return bool(found) and _measured("class", found[0].several, found[0].subjects, "").exclusive


@pytest.mark.parametrize("case", ["loosest switches", "both move, same loosest", "hand-over to a superclass"])
def test_the_loosest_class_is_compared_on_both_builds(tmp_path, case):
    """A row whose counts moved without its own outcome changing can become the loosest class and so change the
    by-class test: the claim is re-checked exactly when the checker's own test (nearest_measured) differs."""
    from kgcheck.verifier.claims.remeasure import loosest_class_flips

    own, edges = ["Qsovereign", "Qcountry"], []
    old_rows = [("P1", "Qsovereign", 50, 2.0, 50, 2.0), ("P1", "Qcountry", 118, 4.0, 118, 4.0)]
    new_rows = {"loosest switches": [("P1", "Qsovereign", 49, 2.0, 49, 2.0), ("P1", "Qcountry", 121, 5.0, 121, 5.0)],
                "both move, same loosest": [("P1", "Qsovereign", 52, 3.0, 52, 3.0),
                                            ("P1", "Qcountry", 121, 4.0, 121, 4.0)]}.get(case)
    if case == "hand-over to a superclass":  # own classes too small: the superclass's pooled counts decide
        own, edges = ["Qisland"], [("Qisland", "Qland")]
        old_rows = [("P1", "Qisland", 5, 0.0, 5, 0.0), ("P1", "Qland", 10, 0.0, 40, 2.0)]
        new_rows = [("P1", "Qisland", 5, 0.0, 5, 0.0), ("P1", "Qland", 10, 0.0, 80, 2.0)]
    old = _measure_build(tmp_path / "old", old_rows, edges)
    new = _measure_build(tmp_path / "new", new_rows, edges)
    con = duckdb.connect()
    con.execute("CREATE TABLE measured_keys AS SELECT 7 AS claim, 'Qs' AS subject, 'P1' AS property, "
                "NULL::VARCHAR AS value, 4 AS reached, true AS by_text")
    con.execute("CREATE TABLE subject_statements (subject VARCHAR, property VARCHAR, entity_id VARCHAR, rank VARCHAR)")
    con.executemany("INSERT INTO subject_statements VALUES ('Qs', 'P31', ?, 'normal')", [[c] for c in own])
    con.execute("CREATE TABLE changed_measures (kind VARCHAR, property VARCHAR, key VARCHAR, decides BOOLEAN)")
    moved = [r[1] for r in new_rows if r not in old_rows]  # rows whose counts moved
    con.executemany("INSERT INTO changed_measures VALUES ('measure_class', 'P1', ?, false)", [[c] for c in moved])
    expected = _python_loosest(old_rows, own, edges) != _python_loosest(new_rows, own, edges)
    assert expected == (case != "both move, same loosest")  # the cases are what they say
    assert loosest_class_flips(con, old, new) == ({7} if expected else set())


@pytest.mark.parametrize("row, expected", [
    (("measure_class", "Qclass"), {"class", "value", "profile", "none"}),
    (("measure_value", "Qx"), {"value", "profile", "none"}),
    (("measure_profile", "P2"), {"profile", "none"}),
    (("property", None), {"measured", "class", "value", "profile", "none"}),
    (("P31", "value"), {"class", "value", "profile", "none"}),  # the subject's class changed: read from the class test
    (("P3", "added"), {"profile", "none"}),  # another property held: read by the profile test only
    (("P2", "removed"), {"profile", "none"}),
])
def test_a_measure_row_rechecks_only_the_verdicts_that_asked_its_test(tmp_path, row, expected):
    """judge.py asks overall, by class, by value, by profile, co-occurrence, trace in turn and stops at the first
    exclusive one: a row of a test after the deciding one was never read, so its change moves nothing; the
    subject's classes are read from the class test on, the other properties it holds by the profile test."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from kgcheck.verifier.claims.remeasure import TESTS_READ, measured_hits

    build = tmp_path / "new"
    build.mkdir()
    statements = [("Qs", "P31", "Qclass"), ("Qs", "P1", "Qx"), ("Qs", "P2", "Qy")]
    pq.write_table(pa.table({"subject": [s for s, _, _ in statements], "property": [p for _, p, _ in statements],
                             "statement_id": [f"Qs${i}" for i in range(len(statements))],
                             "entity_id": [e for _, _, e in statements], "rank": ["normal"] * 3}),
                   build / "statements.parquet")
    con = duckdb.connect()
    names = sorted(TESTS_READ)
    con.execute("CREATE TABLE measured_keys (claim BIGINT, subject VARCHAR, property VARCHAR, value VARCHAR, "
                "reached TINYINT, by_text BOOLEAN)")
    con.executemany("INSERT INTO measured_keys VALUES (?, 'Qs', 'P1', 'Qz', ?, false)",
                    [[i, TESTS_READ[name]] for i, name in enumerate(names)])
    con.execute("CREATE TABLE changed_statements (statement_id VARCHAR, subject VARCHAR, property VARCHAR, "
                "old_entity VARCHAR, new_entity VARCHAR, change VARCHAR)")
    con.execute("CREATE TABLE changed_measures (kind VARCHAR, property VARCHAR, key VARCHAR, decides BOOLEAN)")
    if row[0].startswith("P"):  # a change to one of the subject's own statements of another property
        con.execute("INSERT INTO changed_statements VALUES ('Qs$1', 'Qs', ?, NULL, NULL, ?)", list(row))
    else:
        con.execute("INSERT INTO changed_measures VALUES (?, 'P1', ?, true)", list(row))
    hits = {names[i] for i in measured_hits(con, str(tmp_path / "old"), str(build))}
    # co-occurrence and trace decide after every other test, as an open verdict ("none") does
    assert hits == expected | ({"co-occurrence", "trace"} if "none" in expected else set())


def _value_build(directory, counts, n_best):
    """A build directory holding measure_value.parquet (property, value, subjects, several) and
    subject_best.parquet (subject, property, n_best) for subject Qs."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    pq.write_table(pa.table({"property": ["P1"] * len(counts), "value": list(counts),
                             "subjects": [c[0] for c in counts.values()], "several": [c[1] for c in counts.values()]}),
                   os.path.join(directory, "measure_value.parquet"))
    pq.write_table(pa.table({"subject": ["Qs"], "property": ["P1"], "n_best": [n_best]}),
                   os.path.join(directory, "subject_best.parquet"))
    return str(directory)


def _python_by_value(counts, mine, held):
    """facts.value_exclusivity as the checker runs it: held_alone's loosest value through facts._measured."""
    from kgcheck.verifier.claims.cooccur import held_alone
    from kgcheck.verifier.claims.facts import _measured

    loosest = held_alone(counts, mine, held)[0]
    return _measured("value", loosest.several, loosest.subjects, "").exclusive


@pytest.mark.parametrize("case", ["loosest switches", "rows move, same loosest", "a deprecated value", "by name"])
def test_the_loosest_held_value_is_compared_on_both_builds(tmp_path, case):
    """The by-value test reads the loosest held value: a row whose counts moved without its own outcome changing
    (decides false) can still switch it (a tie at share 0 falls to the smaller id), and rows that moved under the
    same loosest value change nothing. Evaluated exactly only where the held set is known (every value of the
    property a non-deprecated entity, the claim given by id); other pairs are left to the rows' own outcomes."""
    from kgcheck.verifier.claims.remeasure import loosest_value_flips

    old_counts = {"Qz": (101, 5), "Qa": (10, 1)}  # Qz: 4 of 100 others hold several (exclusive); Qa: too few
    new_counts = {"Qz": (102, 5) if case == "rows move, same loosest" else (101, 1), "Qa": (10, 1)}
    old = _value_build(tmp_path / "old", old_counts, 2)
    new = _value_build(tmp_path / "new", new_counts, 2)
    con = duckdb.connect()
    con.execute("CREATE TABLE measured_keys AS SELECT 7 AS claim, 'Qs' AS subject, 'P1' AS property, "
                f"'Qc' AS value, 4 AS reached, {case == 'by name'} AS by_text")
    con.execute("CREATE TABLE subject_statements (subject VARCHAR, property VARCHAR, entity_id VARCHAR, rank VARCHAR)")
    con.executemany("INSERT INTO subject_statements VALUES ('Qs', 'P1', ?, ?)",
                    [["Qz", "normal"], ["Qa", "normal"]] + ([["Qd", "deprecated"]] if case == "a deprecated value" else []))
    con.execute("CREATE TABLE changed_measures (kind VARCHAR, property VARCHAR, key VARCHAR, decides BOOLEAN)")
    con.execute("INSERT INTO changed_measures VALUES ('measure_value', 'P1', 'Qz', false)")
    flips = _python_by_value(old_counts, True, ["Qz", "Qa"]) != _python_by_value(new_counts, True, ["Qz", "Qa"])
    assert flips == (case != "rows move, same loosest")  # the cases are what they say
    flipped = loosest_value_flips(con, old, new)
    evaluated = {r[0] for r in con.execute("SELECT claim FROM value_test_exact").fetchall()}
    if case in ("a deprecated value", "by name"):  # held is not known here: left to the rows' own outcomes
        assert flipped == set() and evaluated == set()
    else:
        assert flipped == ({7} if flips else set()) and evaluated == {7}
