"""Issue 17: values that break the Wikibase rules are contained. Ingest stores them marked invalid
(statement kept, counted, reported with the statement id) and no reader crashes on them or lets
them support a claim."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgcheck.index.model import INVALID, QUANTITY, Value
from kgcheck.index.render import render_value, statement_dict
from kgcheck.verifier.claims.compare import INCOMPARABLE, ClaimObject, relate
from kgcheck.verifier.model import SUPPORTED, Claim
from kgcheck.verifier.values import QuantityMatch, compare_quantities, parse_quantity

WD = "http://www.wikidata.org/entity/"


def _snak(prop: str, vtype: str, value, datatype: str) -> dict:
    return {"snaktype": "value", "property": prop, "datatype": datatype, "datavalue": {"type": vtype, "value": value}}


def _statement(sid: str, snak: dict) -> dict:
    return {"id": sid, "rank": "normal", "type": "statement", "mainsnak": snak}


def _property(pid: str, label: str, datatype: str) -> dict:
    return {"type": "property", "id": pid, "datatype": datatype, "labels": {"en": {"language": "en", "value": label}},
            "claims": {}}


def _item(qid: str, label: str, population: str, born: dict, coordinate: dict) -> dict:
    return {"type": "item", "id": qid, "labels": {"en": {"language": "en", "value": label}},
            "descriptions": {"en": {"language": "en", "value": "a test town"}},
            "claims": {
                "P1082": [_statement(f"{qid}$pop", _snak("P1082", "quantity", {"amount": population, "unit": "1"},
                                                         "quantity"))],
                "P571": [_statement(f"{qid}$born", _snak("P571", "time", born, "time"))],
                "P625": [_statement(f"{qid}$where", _snak("P625", "globecoordinate", coordinate, "globe-coordinate"))],
            }}


BAD_TIME = {"time": "+1952-13-45T00:00:00Z", "precision": 11, "calendarmodel": WD + "Q1985727"}
GOOD_TIME = {"time": "+1952-03-11T00:00:00Z", "precision": 11, "calendarmodel": WD + "Q1985727"}


@pytest.fixture(scope="module")
def bad_kg_dir(tmp_path_factory):
    from kgcheck.index.build import build_index
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    lines = [_property("P1082", "population", "quantity"), _property("P571", "inception", "time"),
             _property("P625", "coordinate location", "globe-coordinate"),
             _item("Q1", "Badville", "+inf", BAD_TIME, {"latitude": 999, "longitude": 1, "precision": 0.1}),
             _item("Q2", "Overflowton", "+1E+400", dict(GOOD_TIME, precision=99),
                   {"latitude": 1, "longitude": 1, "precision": 0.1}),
             _item("Q3", "Goodtown", "+1234567890123456789.125", GOOD_TIME,
                   {"latitude": 52.2, "longitude": 0.12, "precision": 0.1})]
    dump = tmp_path_factory.mktemp("dump") / "bad.json"
    dump.write_text("[\n" + ",\n".join(json.dumps(x) for x in lines) + "\n]\n")
    out = tmp_path_factory.mktemp("kg") / "kg"
    manifest = ingest(str(dump), str(out), IngestOptions(workers=1, quiet=True))
    build_index(str(out), embedder=FakeEmbedder(), quiet=True)
    return out, manifest


def test_bad_values_are_counted_reported_and_their_statements_kept(bad_kg_dir):
    out, manifest = bad_kg_dir
    assert manifest["entities_seen"] == 6 and manifest["bad_lines"]["total"] == 0
    assert manifest["invalid_values"] == {"total": 5, "by_table": {"statements": 5}, "file": "errors.jsonl"}
    errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert {e["statement_id"] for e in errors} == {"Q1$pop", "Q1$born", "Q1$where", "Q2$pop", "Q2$born"}
    assert all(e["kind"] == "invalid-value" and e["reason"] for e in errors)
    assert manifest["counts"]["statements"] == 9  # nothing lost


def test_show_renders_invalid_values_and_exact_decimals(bad_kg_dir):
    from kgcheck.cli import main
    from kgcheck.index.store import KG

    out, _ = bad_kg_dir
    for qid in ("Q1", "Q2", "Q3"):
        for extra in ([], ["--json"]):
            res = CliRunner().invoke(main, ["show", qid, "--index", str(out)] + extra)
            assert res.exit_code == 0, res.output
    kg = KG.open(str(out))
    values = {st.statement_id: st.value for st in kg.statements("Q1") + kg.statements("Q3")}
    assert values["Q1$born"].kind == INVALID and "+1952-13-45" in render_value(values["Q1$born"], {})
    assert "month 13" in statement_dict(kg.statements("Q1")[1], {})["value_invalid"]
    assert render_value(values["Q3$pop"], {}) == "1234567890123456789.125"  # 22 digits, not 1.2345678901234568e+18


@pytest.mark.parametrize("predicate, obj", [("population", "100"), ("population", "1e400"),
                                            ("inception", "1952"), ("inception", "11 March 1952"),
                                            ("coordinate location", "999, 1")])
def test_invalid_values_never_support_a_claim(bad_kg_dir, predicate, obj):
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.check import Checker

    kg = KG.open(str(bad_kg_dir[0]), embedder=FakeEmbedder())
    for subject in ("Q1", "Q2"):
        v = Checker(kg).check([Claim(id="c", subject_id=subject, predicate=predicate, object=obj)])[0]
        assert v.verdict != SUPPORTED


def test_check_and_verify_commands_run_over_invalid_values(bad_kg_dir, tmp_path, monkeypatch):
    import kgcheck.index.embed as index_embed
    from kgcheck.cli import main
    from kgcheck.index.embed import FakeEmbedder

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())
    out = str(bad_kg_dir[0])
    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps({"id": str(i), "subject": s, "predicate": p, "object": o}) + "\n"
                              for i, (s, p, o) in enumerate([("Badville", "population", "100"),
                                                             ("Badville", "inception", "1952"),
                                                             ("Overflowton", "population", "100")])))
    res = CliRunner().invoke(main, ["check", str(claims), "--index", out, "-o", str(tmp_path / "r.jsonl")])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and SUPPORTED not in [r["verdict"] for r in rows]
    res = CliRunner().invoke(main, ["verify", "Badville was founded on 11 March 1952 and has a population of 100.",
                                    "--index", out, "--json"])
    assert res.exit_code == 0, res.output


def test_compare_never_lets_infinity_or_an_invalid_value_support():
    q = parse_quantity("100")
    assert compare_quantities(q, None, float("inf"), None) == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q, None, 100.0, None, float("-inf"), float("inf")) == QuantityMatch.INCOMPARABLE
    assert compare_quantities(q, None, float("nan"), None) == QuantityMatch.INCOMPARABLE
    invalid = Value(kind=INVALID, text='{"amount":"+inf"}', invalid="amount is not finite")
    assert relate(ClaimObject(invalid.text), invalid, facts=None) == INCOMPARABLE
    inf = Value(kind=QUANTITY, amount=float("inf"), text="inf")
    assert relate(ClaimObject("100"), inf, facts=None) == INCOMPARABLE


def test_date_readers_do_not_crash_on_a_malformed_time():
    from kgcheck.index.render import human_date
    from kgcheck.verifier.values import compare_dates, parse_date

    assert human_date("+1952-13-45T00:00:00Z", 11) == "+1952-13-45T00:00:00Z"
    assert human_date("garbage", 11) == "garbage"
    with pytest.raises(ValueError):
        compare_dates(parse_date("1952"), "+1952-13-45T00:00:00Z", 11)
