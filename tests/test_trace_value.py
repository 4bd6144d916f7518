"""The trace test reads the claimed value's own untraced rate where the build sampled enough of it
(index/trace.py measure_trace_value; verifier/claims/trace.py)."""
from __future__ import annotations

import shutil
from collections import defaultdict

import duckdb
import orjson
import pytest

from diff_builds import build, recheck_beside_full
from kgcheck.index.trace import VALUE_MIN_SAMPLES
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.claims.thresholds import MIN_SUBJECTS
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, Claim

USA, UK = "Q30", "Q145"


def _films() -> list[dict]:
    """40 thin films (country of origin USA, a director the graph says nothing of: two properties each, one value);
    24 co-productions (four properties) of USA, UK and two countries of their own, each directed by a UK citizen.
    So a true UK is always traced (through the director) while USA and the own countries never are: the
    property's untraced rate is 72 of 96, UK's own 0 of 24. Every other test sees P495 as many-valued (by value,
    overall, beside the director property)."""
    from conftest import fixture_builders

    fx = fixture_builders()
    ents = [fx.entity(USA, "United States"), fx.entity(UK, "United Kingdom"), fx.entity("Q7", "Drama"),
            fx.entity("Q8", "English"), fx.entity("Q9", "United Kingdom")]  # a namesake no statement uses
    for j in range(40):
        ents.append(fx.entity(f"Q4{j:03d}", f"Director {j}"))
        ents.append(fx.entity(f"Q3{j:03d}", f"Film {j}", claims=[("P495", fx.item(USA, None)),
                                                                 ("P57", fx.item(f"Q4{j:03d}", None))]))
    for i in range(24):
        own = [f"Q6{i:02d}0", f"Q6{i:02d}1"]
        ents += [fx.entity(q, f"Country {i}{k}") for k, q in enumerate(own)]
        ents.append(fx.entity(f"Q7{i:03d}", f"Producer {i}", claims=[("P27", fx.item(UK, None))]))
        ents.append(fx.entity(f"Q5{i:03d}", f"Co-production {i}", claims=[
            ("P495", fx.item(USA, None)), ("P495", fx.item(UK, None)), ("P495", fx.item(own[0], None)),
            ("P495", fx.item(own[1], None)), ("P57", fx.item(f"Q7{i:03d}", None)), ("P136", fx.item("Q7", None)),
            ("P364", fx.item("Q8", None))]))
    ents += [fx.prop("P495", "country of origin", "wikibase-item"), fx.prop("P57", "director", "wikibase-item"),
             fx.prop("P27", "country of citizenship", "wikibase-item"), fx.prop("P136", "genre", "wikibase-item"),
             fx.prop("P364", "original language", "wikibase-item")]
    return ents


@pytest.fixture(scope="module")
def films(tmp_path_factory):
    return build(_films(), tmp_path_factory.mktemp("films") / "index")


def _without_value_rates(index, copy):
    """A copy of INDEX as built before measure_trace_value."""
    shutil.copytree(index, copy)
    (copy / "measure_trace_value.parquet").unlink()
    con = duckdb.connect(str(copy / "kg.duckdb"))
    con.execute("DROP VIEW IF EXISTS measure_trace_value")
    con.close()
    return copy


def _country_of_origin(index, film: str, country: str, label: str):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG

    with KG.open(str(index), embedder=FakeEmbedder()) as kg:
        return Checker(kg).check([Claim(id="c", subject=film, predicate="country of origin", object=label,
                                        subject_id=film, property_id="P495", object_id=country)])[0]


def test_a_value_true_ones_of_which_are_always_traced_refutes_where_the_propertys_rate_would_not(films, tmp_path):
    v = _country_of_origin(films, "Q3005", UK, "United Kingdom")
    assert v.verdict == REFUTED and v.exclusivity == "trace" and v.correction_ids == (USA,)
    assert "0% of true values like this one leave no trace" in v.reason
    before = _without_value_rates(films, tmp_path / "before")
    assert _country_of_origin(before, "Q3005", UK, "United Kingdom").verdict == NOT_ENOUGH_INFO


def test_a_value_sampled_too_rarely_is_judged_by_the_propertys_rate_and_stays_open(films):
    v = _country_of_origin(films, "Q3005", "Q6000", "Country 00")  # one sample: the property's rate, 75 %
    assert v.verdict == NOT_ENOUGH_INFO and "the graph lists United States" in v.reason


def test_the_build_splits_the_samples_by_value_as_python_reads_them(films):
    rows = duckdb.sql(f"SELECT DISTINCT subject, property, entity_id FROM '{films}/statements.parquet' "
                      "WHERE entity_id IS NOT NULL AND rank <> 'deprecated'").fetchall()
    out, into, values = defaultdict(set), defaultdict(set), defaultdict(list)
    for s, p, v in rows:
        out[s].add((p, v))
        into[v].add(s)
        values[(s, p)].append(v)
    rates: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (s, p), vs in values.items():
        for y in vs if len(vs) > 1 else ():
            near = {v for q, v in out[s] if q != p} | into[s]
            traced = y in near or bool((near - {s}) & ({v for _, v in out[y]} | into[y]))
            rates[(p, y)][0] += 1
            rates[(p, y)][1] += not traced
    expected = {k: tuple(r) for k, r in rates.items() if r[0] >= VALUE_MIN_SAMPLES}
    stored = {(p, v): (n, u) for p, v, n, u in duckdb.sql(f"FROM '{films}/measure_trace_value.parquet'").fetchall()}
    assert stored == expected == {("P495", USA): (24, 24), ("P495", UK): (24, 0)}
    assert VALUE_MIN_SAMPLES == MIN_SUBJECTS  # the build keeps exactly the rows the checker may read


def test_a_recheck_onto_a_build_with_value_rates_finds_what_they_now_refute(films, tmp_path):
    old = _without_value_rates(films, tmp_path / "before")
    claims = [{"id": f"f{j}", "subject": f"Film {j}", "predicate": "country of origin", "object": label,
               "subject_id": f"Q3{j:03d}", "property_id": "P495", "object_id": q}
              for j, q, label in ((1, UK, "United Kingdom"), (2, "Q6000", "Country 00"), (3, UK, "United Kingdom"))]
    # by name: two readings, both untraced; the risk is the one the linker puts first
    claims.append({"id": "named", "subject": "Film 4", "predicate": "country of origin", "object": "United Kingdom"})
    summary, before, out, full = recheck_beside_full(old, films, claims, tmp_path)
    assert [orjson.loads(x)["verdict"] for x in before.read_bytes().splitlines()] == [NOT_ENOUGH_INFO] * 4
    now = [orjson.loads(x) for x in full.read_bytes().splitlines()]
    assert [r["verdict"] for r in now] == [REFUTED, NOT_ENOUGH_INFO, REFUTED, REFUTED]
    assert out.read_bytes() == full.read_bytes() and summary.rechecked == 3
