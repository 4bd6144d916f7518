"""The trace test (verifier/claims/trace.py, index/trace.py): an untraced value beside the graph's refutes only where
a true one would rarely look so; its measures agree with a plain Python reading; a recheck follows a neighbour's edit."""
from __future__ import annotations

import json
from collections import defaultdict

import duckdb
import orjson
import pytest
from hypothesis import given, settings, strategies as st

from diff_builds import build, recheck_beside_full
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.claims.thresholds import wilson_upper
from kgcheck.verifier.claims.trace import TRACE_RISK, degree_bucket, pooled_degree, trace_risk
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, Claim

GREECE, OTTOMAN, FRANCE, ITALY, RURITANIA, EET = "Q41", "Q43", "Q142", "Q38", "Q999", "Q6655"


def _graph(border_country: str = FRANCE, rich_towns: int = 0, cities: int = 12, towns: int = 48) -> list[dict]:
    """48 towns described by two properties, each in Greece (one of them also in the Border Region); 12 cities
    described by four, each in Greece and the Ottoman Empire, in a region holding both (so every value of a
    city or a region is traced); the Border Region in BORDER_COUNTRY. P17 is many-valued overall, by value and
    by profile (no other test refutes), single-valued among subjects described as thinly as the towns.
    RICH_TOWNS: towns in Greece described by eight properties (a degree bucket of their own, too thin to measure);
    the first of them in the Border Region. CITIES / TOWNS: how many (and as many regions as cities)."""
    from conftest import fixture_builders

    fx = fixture_builders()
    ents = [fx.entity(q, name) for q, name in ((GREECE, "Greece"), (OTTOMAN, "Ottoman Empire"), (FRANCE, "France"),
                                               (ITALY, "Italy"), (RURITANIA, "Ruritania"), (EET, "EET"))]
    ents.append(fx.entity("Q7000", "Border Region", claims=[("P17", fx.item(border_country, None))]))
    for i in range(cities):
        ents.append(fx.entity(f"Q60{i:02d}", f"Region {i}", claims=[("P17", fx.item(GREECE, None)),
                                                                   ("P17", fx.item(OTTOMAN, None))]))
        ents.append(fx.entity(f"Q50{i:02d}", f"City {i}", claims=[
            ("P17", fx.item(GREECE, None)), ("P17", fx.item(OTTOMAN, None)), ("P421", fx.item(EET, None)),
            ("P131", fx.item(f"Q60{i:02d}", None)), ("P150", fx.item(f"Q60{i:02d}", None))]))
    for j in range(towns):
        claims = [("P17", fx.item(GREECE, None)), ("P421", fx.item(EET, None))]
        if j == 6:
            claims.append(("P131", fx.item("Q7000", None)))
        ents.append(fx.entity(f"Q3{j:03d}", f"Town {j}", claims=claims))
    for j in range(rich_towns):
        claims = [("P17", fx.item(GREECE, None)), ("P421", fx.item(EET, None))]
        claims += [(f"P90{n}", fx.string(f"note {n}")) for n in range(6)]
        if j == 0:
            claims.append(("P131", fx.item("Q7000", None)))
        ents.append(fx.entity(f"Q4{j:03d}", f"Rich town {j}", claims=claims))
    ents += [fx.prop("P17", "country", "wikibase-item"), fx.prop("P421", "located in time zone", "wikibase-item"),
             fx.prop("P131", "located in the administrative territorial entity", "wikibase-item"),
             fx.prop("P150", "contains the administrative territorial entity", "wikibase-item")]
    return ents


@pytest.fixture(scope="module")
def towns(tmp_path_factory):
    return build(_graph(), tmp_path_factory.mktemp("towns") / "old")


@pytest.fixture(scope="module")
def rich_towns(tmp_path_factory):
    return build(_graph(rich_towns=3), tmp_path_factory.mktemp("rich-towns") / "old")


def _verdict(index, subject_id: str, object_id: str, object_label: str):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG

    with KG.open(str(index), embedder=FakeEmbedder()) as kg:
        return Checker(kg).check([Claim(id="c", subject=subject_id, predicate="country", object=object_label,
                                        subject_id=subject_id, property_id="P17", object_id=object_id)])[0]


def test_an_untraced_value_beside_a_thin_subjects_value_refutes_with_the_graphs(towns):
    v = _verdict(towns, "Q3005", RURITANIA, "Ruritania")
    assert v.verdict == REFUTED and v.exclusivity == "trace" and v.correction_ids == (GREECE,)
    assert "the graph's country is Greece; nothing near Town 5 leads to Ruritania (0.0% of 47 subjects" in v.reason


def test_a_value_a_neighbour_holds_is_traced_and_stays_open(towns):
    v = _verdict(towns, "Q3006", FRANCE, "France")  # the town's region is in France
    assert v.verdict == NOT_ENOUGH_INFO and "the graph lists Greece" in v.reason


def test_a_subject_among_many_with_several_values_is_never_refuted_by_it(towns):
    v = _verdict(towns, "Q7000", ITALY, "Italy")  # regions (one property each) hold two countries
    assert v.verdict == NOT_ENOUGH_INFO


def test_a_subject_of_a_thin_bucket_is_measured_on_its_nearest_buckets(rich_towns):
    """The rich towns are the only subjects of their bucket (3): pooled with the buckets around it (the cities',
    then the towns'), 12 of 62 others hold several countries, and an untraced Ruritania refutes."""
    degree = {b: (n, k) for p, b, n, k in duckdb.sql(f"FROM '{rich_towns}/measure_degree.parquet'").fetchall()
              if p == "P17"}
    assert degree[3] == (3, 0) and pooled_degree(degree, 3) == (63, 12)
    v = _verdict(rich_towns, "Q4001", RURITANIA, "Ruritania")
    assert v.verdict == REFUTED and v.exclusivity == "trace" and "19.4% of 62 subjects" in v.reason
    assert _verdict(rich_towns, "Q4000", FRANCE, "France").verdict == NOT_ENOUGH_INFO  # traced through its region
    # the towns' own bucket is measured alone, as before the pool
    assert "0.0% of 47 subjects" in _verdict(rich_towns, "Q3005", RURITANIA, "Ruritania").reason


def test_a_recheck_reads_the_pooled_buckets_as_the_check_does(rich_towns, tmp_path):
    """Rich town 0's France was traced through its region; the region moves to Italy: the trace test, measured on
    the pooled buckets, now refutes, and the recheck's SQL twin (trace_flips) finds it."""
    new = build(_graph(border_country=ITALY, rich_towns=3), tmp_path / "new")
    claims = [{"id": "rich", "subject": "Rich town 0", "predicate": "country", "object": "France",
               "subject_id": "Q4000", "property_id": "P17", "object_id": FRANCE}]
    summary, before, out, full = recheck_beside_full(rich_towns, new, claims, tmp_path)
    assert orjson.loads(before.read_bytes())["verdict"] == NOT_ENOUGH_INFO
    assert orjson.loads(full.read_bytes())["exclusivity"] == "trace"
    assert out.read_bytes() == full.read_bytes() and summary.rechecked == 1


@given(st.dictionaries(st.integers(0, 9), st.tuples(st.integers(1, 40), st.integers(0, 40)), min_size=1),
       st.integers(0, 9))
def test_the_pool_is_the_narrowest_width_holding_enough_other_subjects(rows, bucket):
    rows = {b: (n, min(k, n)) for b, (n, k) in rows.items()}
    pooled = pooled_degree(rows, bucket)
    if bucket not in rows:
        assert pooled is None
        return
    sums = [(sum(n for b, (n, _) in rows.items() if abs(b - bucket) <= w),
             sum(k for b, (_, k) in rows.items() if abs(b - bucket) <= w)) for w in range(10)]
    enough = [s for s in sums if s[0] - 1 >= 20]
    assert pooled == (enough[0] if enough else sums[-1])


def test_a_pool_never_lowers_the_share_below_the_subjects_own_bucket():
    # 12 of the 12 others in the bucket hold several values: 60 single-valued neighbours do not make it refutable
    alone = trace_risk(73, 12, False, 100, 0)
    assert trace_risk(73, 12, False, 100, 0, own=(13, 12)) == pytest.approx(wilson_upper(0, 100))
    assert alone < trace_risk(73, 12, False, 100, 0, own=(13, 12))
    assert trace_risk(73, 12, False, 100, 0, own=(13, 0)) == pytest.approx(alone)


@pytest.fixture(scope="module")
def few_multi(tmp_path_factory):
    return build(_graph(cities=4, towns=60), tmp_path_factory.mktemp("few-multi") / "old")


def test_an_untraced_rate_measured_on_too_few_values_counts_as_always(few_multi):
    """4 cities and 4 regions hold two countries each: 16 true values to set aside, too few to measure how often a
    true one is untraced; none of the 60 towns holds two (m's bound 4.4 %): an untraced Ruritania refutes on m alone,
    while P17 stays many-valued overall, by value and by profile."""
    assert duckdb.sql(f"SELECT samples FROM '{few_multi}/measure_trace.parquet' WHERE property = 'P17'").fetchall() \
        == [(16,)]
    v = _verdict(few_multi, "Q3005", RURITANIA, "Ruritania")
    assert v.verdict == REFUTED and v.exclusivity == "trace"
    assert "too few true values are measured to tell how often one leaves no trace (taken as always)" in v.reason
    assert _verdict(few_multi, "Q3006", FRANCE, "France").verdict == NOT_ENOUGH_INFO  # traced through its region


def test_a_recheck_reads_an_unmeasured_rate_as_the_check_does(few_multi, tmp_path):
    new = build(_graph(border_country=ITALY, cities=4, towns=60), tmp_path / "new")
    claims = [{"id": "traced", "subject": "Town 6", "predicate": "country", "object": "France",
               "subject_id": "Q3006", "property_id": "P17", "object_id": FRANCE}]
    summary, before, out, full = recheck_beside_full(few_multi, new, claims, tmp_path)
    assert orjson.loads(full.read_bytes())["exclusivity"] == "trace"
    assert out.read_bytes() == full.read_bytes() and summary.rechecked == 1


def _python_trace_rates(index) -> dict[str, tuple[int, int]]:
    """The leave-one-out untraced rate of every property, read plainly from the statements (index/trace.py)."""
    rows = duckdb.sql(f"SELECT DISTINCT subject, property, entity_id FROM '{index}/statements.parquet' "
                      "WHERE entity_id IS NOT NULL AND rank <> 'deprecated'").fetchall()
    out, into = defaultdict(set), defaultdict(set)
    for s, p, v in rows:
        out[s].add((p, v))
        into[v].add(s)
    values = defaultdict(list)
    for s, p, v in rows:
        values[(s, p)].append(v)
    rates: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (s, p), vs in values.items():
        if len(vs) < 2:
            continue
        for y in vs:
            near = {v for q, v in out[s] if q != p} | into[s]
            around_y = {v for _, v in out[y]} | into[y]
            traced = y in near or bool((near - {s}) & around_y)
            rates[p][0] += 1
            rates[p][1] += not traced
    return {p: tuple(r) for p, r in rates.items()}


def test_the_build_measures_the_untraced_rate_and_the_degree_buckets_as_python_reads_them(towns):
    stored = {p: (n, u) for p, n, u in duckdb.sql(f"FROM '{towns}/measure_trace.parquet'").fetchall()}
    assert stored == _python_trace_rates(towns)
    assert stored["P17"] == (48, 0)  # every value of a city or a region is traced
    degree = {(p, b): (n, k) for p, b, n, k in duckdb.sql(f"FROM '{towns}/measure_degree.parquet'").fetchall()}
    assert degree[("P17", 1)] == (48, 0)  # the towns (Town 6, with three properties, too)
    assert degree[("P17", 2)] == (12, 12) and degree[("P17", 0)] == (13, 12)


def test_a_recheck_follows_an_edit_of_a_neighbour_that_was_the_only_trace(towns, tmp_path):
    """Town 6's France was traced through its region; the region moves to Italy: nothing of the town changed, the
    trace test now refutes, and the recheck finds it (trace_flips) as the full check does."""
    new = build(_graph(border_country=ITALY), tmp_path / "new")
    claims = [{"id": "traced", "subject": "Town 6", "predicate": "country", "object": "France", "subject_id": "Q3006",
               "property_id": "P17", "object_id": FRANCE},
              {"id": "untouched", "subject": "Town 7", "predicate": "country", "object": "Ruritania",
               "subject_id": "Q3007", "property_id": "P17", "object_id": RURITANIA}]
    summary, before, out, full = recheck_beside_full(towns, new, claims, tmp_path)
    was = [orjson.loads(x) for x in before.read_bytes().splitlines()]
    now = [orjson.loads(x) for x in full.read_bytes().splitlines()]
    assert [r["verdict"] for r in was] == [NOT_ENOUGH_INFO, REFUTED]
    assert now[0]["verdict"] == REFUTED and now[0]["exclusivity"] == "trace"
    assert out.read_bytes() == full.read_bytes() and summary.rechecked == 1


@given(st.integers(1, 5000))
def test_degree_buckets_are_floor_log2(n):
    assert 2 ** degree_bucket(n) <= n < 2 ** (degree_bucket(n) + 1)


@settings(max_examples=200)
@given(st.integers(1, 300), st.integers(0, 300), st.booleans(), st.integers(0, 300), st.integers(0, 300))
def test_the_risk_leaves_the_subject_out_and_needs_enough_subjects(subjects, several, mine, samples, untraced):
    # the subject is one of the bucket's subjects: among those with several values exactly when `mine`
    several = min(max(several, int(mine)), subjects if mine else subjects - 1)
    untraced = min(untraced, samples)
    risk = trace_risk(subjects, several, mine, samples, untraced)
    if subjects - 1 < 20:
        assert risk is None
        return
    if samples < 20:  # too few true values set aside to measure how often one is untraced: taken as always
        assert risk == pytest.approx(wilson_upper(several - mine, subjects - 1))
        return
    assert risk == pytest.approx(wilson_upper(several - mine, subjects - 1) * wilson_upper(untraced, samples))
    if untraced < samples:  # one more untraced true value never lowers the risk
        assert trace_risk(subjects, several, mine, samples, untraced + 1) >= risk


def _without_trace_tables(index, copy):
    """A copy of INDEX as a build made before the trace test: no measure_degree / measure_trace files nor views."""
    import shutil

    shutil.copytree(index, copy)
    for name in ("measure_degree", "measure_trace"):
        (copy / f"{name}.parquet").unlink()
    con = duckdb.connect(str(copy / "kg.duckdb"))
    con.execute("DROP VIEW IF EXISTS measure_degree; DROP VIEW IF EXISTS measure_trace")
    con.close()
    return copy


def test_an_index_without_the_trace_tables_never_refutes_through_it(towns, tmp_path):
    old = _without_trace_tables(towns, tmp_path / "old-index")
    assert _verdict(old, "Q3005", RURITANIA, "Ruritania").verdict == NOT_ENOUGH_INFO
    assert json.loads((towns / "manifest.json").read_text())["index"]["counts"]["measure_trace"] > 0


def test_a_recheck_from_a_build_without_the_trace_tables_rechecks_what_the_test_now_refutes(towns, tmp_path):
    """An index built before the trace test (no measure_degree / measure_trace) rebuilt with it: its open listings
    that the test now refutes flip although nothing in the graph changed, and the recheck finds them."""
    old = _without_trace_tables(towns, tmp_path / "before-trace")
    claims = [{"id": f"t{j}", "subject": f"Town {j}", "predicate": "country", "object": "Ruritania",
               "subject_id": f"Q3{j:03d}", "property_id": "P17", "object_id": RURITANIA} for j in (1, 2)]
    claims.append({"id": "traced", "subject": "Town 6", "predicate": "country", "object": "France",
                   "subject_id": "Q3006", "property_id": "P17", "object_id": FRANCE})
    # the regions' thin bucket pools with the towns', but its own share (all hold several) keeps it open: the
    # recheck's SQL reads it so too, or it would re-check the line
    claims.append({"id": "region", "subject": "Border Region", "predicate": "country", "object": "Italy",
                   "subject_id": "Q7000", "property_id": "P17", "object_id": ITALY})
    summary, before, out, full = recheck_beside_full(old, towns, claims, tmp_path)
    assert [orjson.loads(x)["verdict"] for x in before.read_bytes().splitlines()] == [NOT_ENOUGH_INFO] * 4
    assert [orjson.loads(x)["verdict"] for x in full.read_bytes().splitlines()] == [REFUTED, REFUTED, NOT_ENOUGH_INFO,
                                                                                    NOT_ENOUGH_INFO]
    assert out.read_bytes() == full.read_bytes() and summary.rechecked == 2
