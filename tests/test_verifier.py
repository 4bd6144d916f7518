"""Verdict semantics of the structured verifier over the hand-made fixture graph."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim


def verdict(kg, subject, predicate, obj, **kw):
    return Checker(kg).check([Claim(id="c", subject=subject, predicate=predicate, object=obj, **kw)])[0]


@pytest.mark.parametrize("obj", ["11 March 1952", "1952-03-11", "March 11, 1952", "March 1952", "1952"])
def test_dates_honour_precision(mini_kg, obj):
    v = verdict(mini_kg, "Douglas Adams", "date of birth", obj)
    assert v.verdict == SUPPORTED and v.subject_id == "Q42" and v.evidence[0].statement_id == "Q42$fixture-1"


@pytest.mark.parametrize("obj", ["1962", "13 March 1952", "April 1952"])
def test_wrong_dates_are_refuted_with_the_graph_value(mini_kg, obj):
    v = verdict(mini_kg, "Douglas Adams", "born on", obj)
    assert v.verdict == REFUTED and v.corrections == ("11 March 1952",) and v.rule == "B"
    assert v.evidence[0].references  # provenance travels with the evidence


def test_less_specific_place_is_supported_and_said_so(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "place of birth", "England")
    assert v.verdict == SUPPORTED and "less specific" in v.reason
    v = verdict(mini_kg, "Douglas Adams", "birthplace", "United Kingdom")
    assert v.verdict == SUPPORTED


def test_single_valued_conflict_refutes_and_corrects(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "place of birth", "London")
    assert v.verdict == REFUTED and v.corrections == ("Cambridge",) and v.correction_ids == ("Q350",)


def test_multi_valued_property_is_not_refuted(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "occupation", "Belgian politician")
    assert v.verdict == NOT_ENOUGH_INFO and v.corrections == ()
    assert {e.value for e in v.evidence} >= {"writer", "screenwriter"}


def test_deprecated_never_supports_preferred_wins(mini_kg):
    assert verdict(mini_kg, "Douglas Adams", "occupation", "journalist").verdict != SUPPORTED
    assert verdict(mini_kg, "Douglas Adams", "occupation", "screenwriter").verdict == SUPPORTED
    v = verdict(mini_kg, "Belgium", "population", "12,500,000")
    assert v.verdict == REFUTED and v.corrections == ("11000000",)  # the preferred, latest value


def test_ended_values_are_former(mini_kg):
    v = verdict(mini_kg, "Belgium", "head of government", "Charles Michel")
    assert v.verdict == SUPPORTED and "former value (ended 27 October 2019)" in v.reason


def test_time_series_and_claim_qualifiers(mini_kg):
    v = verdict(mini_kg, "Belgium", "population", "10,000,000")
    assert v.verdict == SUPPORTED and "as of 2000" in v.reason
    v = verdict(mini_kg, "Belgium", "population", "10,000,000", qualifiers=(("point in time", "2019"),))
    assert v.verdict == REFUTED


@pytest.mark.parametrize("obj", ["30,689 square kilometre", "30689 km²", "11,849 square miles", "30689"])
def test_quantities_with_units_and_conversion(mini_kg, obj):
    assert verdict(mini_kg, "Belgium", "area", obj).verdict == SUPPORTED


def test_quantity_outside_tolerance_is_refuted(mini_kg):
    v = verdict(mini_kg, "Belgium", "area", "35,000 square kilometre")
    assert v.verdict == REFUTED and v.corrections == ("30689 square kilometre",)


def test_somevalue_novalue_and_strings(mini_kg):
    assert verdict(mini_kg, "Douglas Adams", "child", "Jane Belson").verdict == NOT_ENOUGH_INFO
    v = verdict(mini_kg, "Douglas Adams", "languages spoken, written or signed", "French")
    assert v.verdict == REFUTED and "no languages spoken" in v.reason
    assert verdict(mini_kg, "Douglas Adams", "VIAF ID", "113230702").verdict == SUPPORTED


def test_unknown_subjects_and_properties(mini_kg):
    v = verdict(mini_kg, "Zebulon Nobody", "date of birth", "1952")
    assert v.verdict == NOT_ENOUGH_INFO and "no entity named" in v.reason
    v = Checker(mini_kg).check([Claim(id="x", subject_id="Q999999", predicate="date of birth", object="1952")])[0]
    assert v.verdict == NOT_ENOUGH_INFO and v.error
    v = verdict(mini_kg, "Belgium", "date of death", "1999")  # the subject has no such statement
    assert v.verdict == NOT_ENOUGH_INFO and v.rule == "C"


def test_ids_given_skip_linking(mini_kg):
    v = Checker(mini_kg).check([Claim(id="x", subject_id="Q31", property_id="P36", object="Q239", object_id="Q239")])[0]
    assert v.verdict == SUPPORTED and v.rule == "A"


def test_a_claim_naming_its_property_is_not_supported_by_another_property(mini_kg):
    # The graph holds place of birth = Cambridge; the claim asks located-in = Cambridge by id. Rule B's "same subject
    # and object through a similar relation" supports text claims, not a claim that named its property.
    claim = dict(id="x", subject_id="Q42", predicate="place of birth", object="Cambridge", object_id="Q350")
    v = Checker(mini_kg).check([Claim(property_id="P131", **claim)])[0]
    assert v.verdict == NOT_ENOUGH_INFO and v.rule == "B" and v.evidence[0].property == "P19"
    assert v.reason.startswith("the graph links subject and object through place of birth, not ")
    assert v.confidence == 0.95  # the claimed property is absent, as in rule C (right 22 of 22 on the dev files)
    assert Checker(mini_kg).check([Claim(**claim)])[0].verdict == SUPPORTED
    # A predicate that is the property's label or alias names it as an id does.
    for predicate in ("located in the administrative territorial entity", "Located in"):
        v = verdict(mini_kg, "Douglas Adams", predicate, "Cambridge")
        assert v.verdict == NOT_ENOUGH_INFO and v.rule == "B" and v.evidence[0].property == "P19", predicate
        assert v.reason == "the graph links subject and object through place of birth, not located in the " \
                           "administrative territorial entity"


def test_ntriples_end_to_end(mini_kg_dir, tmp_path, monkeypatch):
    import kgcheck.index.embed as index_embed
    from kgcheck.index.embed import FakeEmbedder

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())
    nt = tmp_path / "facts.nt"
    nt.write_text('dbr:Douglas_Adams dbo:birthPlace dbr:Cambridge .\n'
                  'dbr:Douglas_Adams dbo:birthDate "1962-03-11"^^xsd:date .\n'
                  'this line is not a triple\n'
                  '<http://www.wikidata.org/entity/Q31> <http://www.wikidata.org/prop/direct/P36> '
                  '<http://www.wikidata.org/entity/Q239> .\n')
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(main_cli(), ["check", str(nt), "--index", str(mini_kg_dir), "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["verdict"] for r in rows] == [SUPPORTED, REFUTED, None, SUPPORTED]
    assert rows[1]["corrections"] == ["11 March 1952"] and rows[2]["error"]
    # Re-running resumes: nothing is checked twice, nothing is lost.
    res = CliRunner().invoke(main_cli(), ["check", str(nt), "--index", str(mini_kg_dir), "-o", str(out)])
    assert "already done" in res.output
    assert len(out.read_text().splitlines()) == 4  # nothing redone, the bad line's record not appended again


def test_bad_inputs_are_reported_not_fatal(mini_kg_dir, tmp_path, monkeypatch):
    import kgcheck.index.embed as index_embed
    from kgcheck.index.embed import FakeEmbedder

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())
    runner = CliRunner()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    res = runner.invoke(main_cli(), ["check", str(empty), "--index", str(mini_kg_dir)])
    assert res.exit_code == 1 and "no claims" in res.output
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("a,b\n1,2\n")
    res = runner.invoke(main_cli(), ["check", str(wrong), "--index", str(mini_kg_dir)])
    assert res.exit_code == 1 and "columns" in res.output
    res = runner.invoke(main_cli(), ["check", str(tmp_path / "missing.jsonl"), "--index", str(mini_kg_dir)])
    assert res.exit_code == 1 and "no such claims file" in res.output
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text('{"subject": "Belgium", "predicate": "capital", "object": "Brussels"}\n{broken\n'
                     '{"subject_id": "Q999999", "predicate": "capital", "object": "x"}\n')
    res = runner.invoke(main_cli(), ["check", str(mixed), "--index", str(mini_kg_dir)])
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and rows[0]["verdict"] == SUPPORTED and rows[1]["error"] and rows[2]["error"]


def test_eval_reports_the_metrics(mini_kg_dir, tmp_path, monkeypatch):
    import kgcheck.index.embed as index_embed
    from kgcheck.index.embed import FakeEmbedder

    monkeypatch.setattr(index_embed, "get_embedder", lambda: FakeEmbedder())
    labelled = tmp_path / "dev.jsonl"
    rows = [
        {"id": "1", "subject": "Douglas Adams", "predicate": "date of birth", "object": "1952", "label": SUPPORTED,
         "kind": "date", "subject_id": "Q42"},
        {"id": "2", "subject": "Douglas Adams", "predicate": "date of birth", "object": "1962", "label": REFUTED,
         "kind": "date", "correct": "1952-03-11", "corruption": "year", "subject_id": "Q42"},
        {"id": "3", "subject": "Belgium", "predicate": "date of death", "object": "1999", "label": NOT_ENOUGH_INFO,
         "kind": "date", "subject_id": "Q31"},
        {"id": "4", "subject": "Belgium", "predicate": "capital", "object": "London", "label": SUPPORTED,
         "kind": "entity", "subject_id": "Q31"},
    ]
    labelled.write_text("\n".join(json.dumps(r) for r in rows))
    misjudged = tmp_path / "errors.jsonl"
    res = CliRunner().invoke(main_cli(), ["eval", str(labelled), "--index", str(mini_kg_dir), "--json",
                                          "--errors", str(misjudged)])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["C1"] == 0.5 and report["C3"] == 1.0 and report["false_support"] == 0.0
    assert report["accuracy"] == 0.75 and report["subject_linking"] == 1.0
    wrong = [json.loads(line) for line in misjudged.read_text().splitlines()]
    assert [(w["gold"]["id"], w["got"]["verdict"]) for w in wrong] == [("4", REFUTED)]


def main_cli():
    from kgcheck.cli import main

    return main


@pytest.mark.slow
def test_claims_dev_sample_real_data(shared_bench, tmp_path_factory):
    """The first 600 dev claims over the real wd50k graph (needs ../shared and MiniLM)."""
    from kgcheck.index.build import build_index
    from kgcheck.index.store import KG
    from kgcheck.ingest.pipeline import IngestOptions, ingest
    from kgcheck.verifier.claims.evaluate import read_labelled, score

    dump = shared_bench.parent / "data" / "wikidata-wd50k.json.bz2"
    out = tmp_path_factory.mktemp("wd50k") / "kg"
    ingest(str(dump), str(out), IngestOptions(quiet=True))
    build_index(str(out), quiet=True)
    rows = read_labelled(str(shared_bench / "claims-dev.jsonl"))[:600]
    with KG.open(str(out)) as kg:
        verdicts = Checker(kg).check([c for c, _ in rows])
        strict = Checker(kg, options=CheckOptions(closed_world=True)).check([c for c, _ in rows])
    report = score(zip((g for _, g in rows), verdicts))
    # Open world: entity swaps on properties many subjects hold several values of are NOT_ENOUGH_INFO
    # (measured 0.655 on these 600), the closed-world reading refutes them (0.947).
    assert report["C1"] >= 0.95 and report["false_support"] <= 0.02 and report["C3"] >= 0.6
    assert score(zip((g for _, g in rows), strict))["C3"] >= 0.85


def test_a_dated_succession_without_the_claimed_value_is_open_world(mini_kg):
    # Belgium's heads of government are dated (2014-2019, 2025-); the graph may lack earlier ones.
    v = verdict(mini_kg, "Belgium", "head of government", "Elio Di Rupo")
    assert v.verdict == NOT_ENOUGH_INFO and "Charles Michel" in v.reason and "Bart De Wever" in v.reason
    strict = Checker(mini_kg, options=CheckOptions(closed_world=True)).check(
        [Claim(id="c", subject="Belgium", predicate="head of government", object="Elio Di Rupo")])[0]
    assert strict.verdict == REFUTED and strict.corrections == ("Bart De Wever",)
    assert verdict(mini_kg, "Belgium", "head of government", "Bart De Wever").verdict == SUPPORTED


def test_a_batch_reads_its_candidate_subjects_statements_once(mini_kg, monkeypatch):
    """The first pass, the open-world subject facts and the second pass (rule C) share one read of the
    candidate subjects' statement rows (on a large graph each read costs a row group per subject)."""
    from kgcheck.index.store import KG

    reads = []
    real_table, real_rows = KG.statement_table, KG.subject_rows

    def table(self, subjects):
        reads.append(sorted(set(subjects)))
        return real_table(self, subjects)

    def rows(self, columns, subjects, where="", params=None, table="statements", order=""):
        if table == "statements" and columns.startswith("statement_id"):
            reads.append(sorted(set(subjects)))
        return real_rows(self, columns, subjects, where, params, table, order)

    monkeypatch.setattr(KG, "statement_table", table)
    monkeypatch.setattr(KG, "subject_rows", rows)
    verdicts = Checker(mini_kg).check([Claim(id="c", subject="Belgium", predicate="date of death", object="1999"),
                                       Claim(id="b", subject="Belgium", predicate="capital", object="Paris")])
    assert verdicts[0].rule == "C" and verdicts[1].verdict == REFUTED
    assert len(reads) == 1 and "Q31" in reads[0]


def test_references_are_looked_up_only_for_evidence_that_has_some(mini_kg, monkeypatch):
    from kgcheck.index.store import KG

    asked = []
    real = KG.references_for

    def spied(self, keys):
        keys = list(keys)
        asked.extend(keys)
        return real(self, keys)

    monkeypatch.setattr(KG, "references_for", spied)
    born, capital = Checker(mini_kg).check([
        Claim(id="a", subject="Douglas Adams", predicate="date of birth", object="11 March 1952"),
        Claim(id="b", subject="Belgium", predicate="capital", object="Brussels")])
    assert born.verdict == SUPPORTED and born.evidence[0].references  # provenance still attached
    counts = dict(mini_kg.sql("SELECT statement_id, reference_count FROM statements WHERE statement_id IN "
                              "(SELECT unnest(?))", [[e.statement_id for v in (born, capital) for e in v.evidence]]))
    assert asked and all(counts.get(sid, 1) > 0 for _, sid in asked)
    assert any(n == 0 for n in counts.values())  # some evidence had none: it was not asked for


class _Hierarchy:
    """A kg with only hierarchy edges: (subject, property, parent)."""

    EDGES = [("Q29", "P706", "Q12837"),  # Spain in the Iberian Peninsula
             ("Q12837", "P17", "Q29"), ("Q12837", "P17", "Q45"), ("Q12837", "P17", "Q1410"),  # shared by three
             ("Q1410", "P131", "Q145"),  # Gibraltar in the United Kingdom
             ("Q64", "P17", "Q183"), ("Q64", "P17", "Q43287"),  # Berlin: Germany, and a former state
             ("Q183", "P30", "Q46"),  # Germany in Europe
             ("Q1", "P279", "Q2"), ("Q1", "P279", "Q3"), ("Q2", "P279", "Q4"), ("Q2", "P279", "Q5")]

    def parent_rows(self, subjects, properties, with_property=False):
        rows = [e for e in self.EDGES if e[0] in set(subjects) and e[1] in set(properties)]
        return rows if with_property else [(s, p) for s, _, p in rows]


def test_a_path_does_not_go_on_through_a_thing_listed_under_several_containers():
    from kgcheck.verifier.claims.facts import KGFacts

    facts = KGFacts(_Hierarchy())
    facts.prefetch_ancestors(["Q29", "Q64", "Q1"])
    # Spain lies in the Iberian Peninsula, which three countries share: not in Gibraltar nor in the United Kingdom.
    assert facts.ancestors("Q29") == {"Q12837"}
    # The value's own listed containers all stand (Berlin in Germany), and the path goes on from a single one.
    assert facts.ancestors("Q64") == {"Q183", "Q43287", "Q46"}
    # Every superclass of a class is one, however many it has.
    assert facts.ancestors("Q1") == {"Q2", "Q3", "Q4", "Q5"}
