"""Open-world verdicts: exclusivity from Wikidata's constraints (P2302) first, measured second, else none."""
from __future__ import annotations

import json
from collections import Counter

import duckdb
from click.testing import CliRunner

from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.claims.facts import KGFacts, wilson_upper
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, Claim


def verdict(kg, subject, predicate, obj, closed_world=False):
    checker = Checker(kg, options=CheckOptions(closed_world=closed_world))
    return checker.check([Claim(id="c", subject=subject, predicate=predicate, object=obj)])[0]


def test_constraints_are_read_from_property_entities(mini_kg_dir):
    con = duckdb.connect(str(mini_kg_dir / "kg.duckdb"), read_only=True)
    rows = {r[0]: r[1:] for r in con.execute(
        "SELECT property, \"constraint\", kind, status, separators, exceptions, statement_id "
        "FROM property_constraints").fetchall()}
    con.close()
    # Only single-value kinds are kept (P19's type constraint is not), with their provenance.
    assert set(rows) == {"P19", "P20", "P36", "P569", "P570", "P1082", "P2046"}
    assert rows["P19"] == ("Q52060874", "single best value", "Q21502408", [], [], "P19$constraint-0")
    assert rows["P1082"][3] == ["P459", "P518", "P585"]  # separators (P4155)
    assert rows["P36"][3:5] == (["P580", "P582"], ["Q145"])  # separators and exceptions (P2303)
    assert rows["P2046"][:3] == ("Q19474404", "single value", "Q62026391")  # a suggestion-status constraint
    manifest = json.loads((mini_kg_dir / "manifest.json").read_text())
    assert manifest["index"]["counts"]["property_constraints"] == 7


def test_exclusivity_sources(mini_kg):
    facts = KGFacts(mini_kg)
    e = facts.exclusivity("P19")
    assert (e.source, e.exclusive) == ("constraint", True) and "P19$constraint-0" in e.detail
    assert facts.exclusivity("P1082").separators == ("P459", "P518", "P585")
    assert not facts.exclusivity("P36", "Q145").exclusive  # an exception to the constraint
    assert facts.exclusivity("P36", "Q31").exclusive
    assert facts.exclusivity("P106").source == "none"  # no constraint, too few subjects to measure


class _StatsKG:
    """Just enough of KG for the measured fallback: a property_stats table and no constraints."""

    def __init__(self, rows):
        self.rows = rows

    def has_table(self, name):
        return name == "property_stats"

    def sql(self, query, params=None):
        if "information_schema" in query:
            return [("property",), ("subjects",), ("best_multi_subjects",)]
        return self.rows


def test_measured_fallback_needs_subjects_and_a_low_share():
    facts = KGFacts(_StatsKG([("P1", 2000, 8), ("P2", 2000, 300), ("P3", 10, 0), ("P4", 40, 2)]))
    assert facts.exclusivity("P1").source == "measured" and facts.exclusivity("P1").exclusive
    assert facts.exclusivity("P2").source == "none" and not facts.exclusivity("P2").exclusive
    assert not facts.exclusivity("P3").exclusive  # under MIN_SUBJECTS: unmeasured
    assert not facts.exclusivity("P4").exclusive  # 5% of 40: the upper bound is too high
    assert wilson_upper(8, 2000) < 0.01 and wilson_upper(2, 40) > 0.1


def test_multi_valued_property_never_refutes_by_default(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "occupation", "Belgian politician")
    assert v.verdict == NOT_ENOUGH_INFO and v.exclusivity == "none" and not v.corrections
    assert "the graph lists writer, screenwriter, not Belgian politician" in v.reason
    assert {e.value for e in v.evidence} >= {"writer", "screenwriter"}


def test_single_value_constraint_refutes_with_the_correct_value(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "place of birth", "London")
    assert v.verdict == REFUTED and v.exclusivity == "constraint" and v.correction_ids == ("Q350",)
    assert "single best value constraint" in v.reason
    v = verdict(mini_kg, "Douglas Adams", "date of birth", "13 March 1952")  # a day off, single-valued
    assert v.verdict == REFUTED and v.exclusivity == "constraint"


def test_date_far_from_all_release_dates_refutes(mini_kg):
    v = verdict(mini_kg, "Inception", "release date", "2013")
    assert v.verdict == REFUTED and v.exclusivity == "none" and "far from every" in v.reason
    assert v.corrections  # the graph's dates
    near = verdict(mini_kg, "Inception", "release date", "20 July 2010")  # another country's, maybe
    assert near.verdict == NOT_ENOUGH_INFO and "8 July 2010" in near.reason
    assert verdict(mini_kg, "Inception", "release date", "16 July 2010").verdict == SUPPORTED
    assert verdict(mini_kg, "Inception", "release date", "20 July 2010", closed_world=True).verdict == REFUTED


def test_closed_world_refutes_any_other_value(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "occupation", "Belgian politician", closed_world=True)
    assert v.verdict == REFUTED and v.exclusivity == "closed-world" and "writer" in v.corrections


def test_closed_world_flag_on_check_and_eval(mini_kg_dir, tmp_path, monkeypatch):
    import kgcheck.index.embed as index_embed
    from kgcheck.cli import main
    from kgcheck.index.embed import FakeEmbedder

    monkeypatch.setattr(index_embed, "get_embedder", lambda *a, **k: FakeEmbedder())
    claims = tmp_path / "c.jsonl"
    claims.write_text(json.dumps({"id": "1", "subject": "Douglas Adams", "predicate": "occupation",
                                  "object": "Belgian politician", "label": "NOT_ENOUGH_INFO"}) + "\n")
    runner = CliRunner()
    for flag, expected in (([], NOT_ENOUGH_INFO), (["--closed-world"], REFUTED)):
        out = tmp_path / f"out{len(flag)}.jsonl"
        result = runner.invoke(main, ["check", str(claims), "--index", str(mini_kg_dir), "-o", str(out), "--quiet",
                                      *flag])
        assert result.exit_code == 0, result.output
        assert json.loads(out.read_text())["verdict"] == expected
        result = runner.invoke(main, ["eval", str(claims), "--index", str(mini_kg_dir), "--json", *flag])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["accuracy"] == (1.0 if expected == NOT_ENOUGH_INFO else 0.0)
    result = runner.invoke(main, ["verify", "--help"])
    assert "--closed-world" in result.output


def test_quantity_outside_every_value_refutes_even_without_exclusivity(mini_kg):
    v = verdict(mini_kg, "Douglas Adams", "height", "2.5 metre")  # height: no constraint, too few subjects
    assert v.verdict == REFUTED and v.exclusivity == "none" and "far from every height" in v.reason
    assert verdict(mini_kg, "Douglas Adams", "height", "1.96 metre").verdict == SUPPORTED


def test_namesakes_are_named_and_their_disagreement_lowers_confidence(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    kg = kg_of([
        fx.entity("Q100", "Monroe County", "county of New York", sitelinks=12,
                  claims=[("P2046", fx.quantity("+3537", "Q712226"))]),
        fx.entity("Q200", "Monroe County", "county of Indiana", sitelinks=3,
                  claims=[("P2046", fx.quantity("+1030", "Q712226"))]),
        fx.entity("Q300", "Lone County", "the only one", claims=[("P2046", fx.quantity("+1030", "Q712226"))]),
        fx.entity("Q712226", "square kilometre"),
        fx.prop("P2046", "area", "quantity"),
    ])
    shared = verdict(kg, "Monroe County", "area", "1030 square kilometre")
    assert shared.verdict == SUPPORTED and shared.subject_id == "Q200"
    assert "Monroe County (Q200), one of 2 namesakes" in shared.reason and "Q100" in shared.reason
    alone = verdict(kg, "Lone County", "area", "1030 square kilometre")
    assert alone.verdict == SUPPORTED and shared.confidence <= 0.9 < alone.confidence
    assert "namesakes" not in alone.reason


def test_cooccurrence_expectation_decides():
    from kgcheck.verifier.claims.cooccur import MIN_EXPECTED, cooccurrence

    holders = {"US": frozenset({f"f{i}" for i in range(40)}), "UK": frozenset({f"f{i}" for i in range(20)}),
               "SU": frozenset({f"g{i}" for i in range(20)}), "RU": frozenset({"g0"})}
    asked = []

    def check(claimed, share, subject="f39", held=("US",)):
        def others(v):
            return len(holders.get(v, frozenset()) - {subject})

        def observe(z):
            asked.append(z)
            return sum(len((holders[x] - {subject}) & holders[z]) for x in held)

        return cooccurrence({x: others(x) for x in held}, {z: others(z) for z in claimed}, 60, share, observe)

    # E = 39 * 20 * (1/3) / 60 = 4.3 >= 3 other subjects expected, none seen: exclusive in practice.
    never = check(["SU"], 1 / 3)
    assert never.exclusive and never.observed == 0 and never.expected >= MIN_EXPECTED and never.held == "US"
    assert not check(["UK"], 1 / 3).exclusive  # seen together 19 times
    asked.clear()
    rare = check(["RU"], 1 / 3)  # rare: E = 0.2, silence says little — and nothing is counted
    assert not rare.exclusive and rare.observed is None and asked == [] and "too few" in rare.detail
    assert not check(["SU"], 0.05).exclusive  # few many-valued subjects: E < 3
    assert not check(["SU", "UK"], 1 / 3).exclusive  # one reading co-occurs
    assert check(["nowhere"], 1 / 3) is None  # not a value of the property


def test_a_value_never_seen_beside_the_graphs_refutes_on_a_multi_valued_property(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    countries = {"Q30": "United States", "Q145": "United Kingdom", "Q15180": "Soviet Union", "Q999": "Ruritania"}
    films = [fx.entity(f"Q{1000 + i}", f"Film {i}", "film",
                       claims=[("P495", fx.item(c, None)) for c in
                               (("Q30", "Q145") if i < 20 else ("Q30",) if i < 40 else ("Q15180",))])
             for i in range(60)]
    films.append(fx.entity("Q2000", "Lone Film", "film", claims=[("P495", fx.item("Q999", None))]))
    kg = kg_of(films + [fx.entity(q, label) for q, label in countries.items()] +
               [fx.prop("P495", "country of origin", "wikibase-item")])
    # A third of the films hold several countries: the measured fallback cannot call the property exclusive.
    assert not KGFacts(kg).exclusivity("P495").exclusive
    v = verdict(kg, "Film 39", "country of origin", "Soviet Union")
    assert v.verdict == REFUTED and v.exclusivity == "co-occurrence" and v.correction_ids == ("Q30",)
    assert "Soviet Union is not held beside United States" in v.reason
    assert verdict(kg, "Film 39", "country of origin", "United Kingdom").verdict == NOT_ENOUGH_INFO  # co-occurs
    assert verdict(kg, "Film 39", "country of origin", "Ruritania").verdict == NOT_ENOUGH_INFO  # too rare to tell
    assert verdict(kg, "Film 39", "country of origin", "Soviet Union", closed_world=True).exclusivity == "closed-world"


def test_functionality_measured_among_the_subjects_class_and_among_holders_of_its_value(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    clubs = [fx.entity(f"Q{3000 + i}", f"Club {i}", "football club",
                       claims=[("P31", fx.item("Q476028", None)), ("P17", fx.item("Q159" if i < 25 else "Q41", None))])
             for i in range(30)]
    # Cities often list a historical state beside today's: a third of the graph's subjects hold several countries.
    cities = [fx.entity(f"Q{4000 + i}", f"City {i}", "city",
                        claims=[("P31", fx.item("Q515", None)), ("P17", fx.item("Q159", None))] +
                        ([("P17", fx.item("Q15180", None))] if i < 20 else []))
              for i in range(30)]
    teams = [fx.entity(f"Q{5000 + i}", f"Team {i}", "team without a class", claims=[("P17", fx.item("Q145", None))])
             for i in range(30)]
    named = {"Q476028": "association football club", "Q515": "city", "Q159": "Russia", "Q41": "Greece",
             "Q15180": "Soviet Union", "Q145": "United Kingdom", "Q30": "United States of America"}
    kg = kg_of(clubs + cities + teams + [fx.entity(q, label) for q, label in named.items()] +
               [fx.prop("P17", "country", "wikibase-item"), fx.prop("P31", "instance of", "wikibase-item")])
    facts = KGFacts(kg)
    assert not facts.exclusivity("P17").exclusive  # 20 of 90 subjects hold several countries
    v = verdict(kg, "Club 3", "country", "United States of America")
    assert v.verdict == REFUTED and v.exclusivity == "class" and v.correction_ids == ("Q159",)
    assert "of the 30 subjects that are association football club hold several values" in v.reason
    city = verdict(kg, "City 25", "country", "Greece")  # cities hold several countries: open world
    assert city.verdict == NOT_ENOUGH_INFO and "the graph lists Russia, not Greece" in city.reason
    assert not facts.class_exclusivity("P17", "Q4025").exclusive
    # No class, but the 29 other subjects holding United Kingdom hold nothing else.
    assert facts.class_exclusivity("P17", "Q5000") is None
    team = verdict(kg, "Team 0", "country", "Russia")
    assert team.verdict == REFUTED and team.exclusivity == "value" and team.correction_ids == ("Q145",)
    assert "of the 29 other subjects with United Kingdom hold several values" in team.reason
    assert not facts.value_exclusivity("P17", "Q4025", ["Q159"]).exclusive  # Russia often comes with another
    # Claims on one subject and property (a pipeline's true and swapped triples) run each measured test once.
    checker, asked = Checker(kg), Counter()
    for test in ("by_class", "by_profile", "by_value"):
        measure = getattr(checker.facts.measures, test)
        setattr(checker.facts.measures, test, lambda *a, test=test, measure=measure: asked.update([test]) or measure(*a))
    again = checker.check([Claim(id=i, subject="City 25", predicate="country", object=o)
                           for i, o in (("a", "Greece"), ("b", "Soviet Union"))])
    assert [v.reason for v in again] == [city.reason, city.reason.replace("Greece", "Soviet Union")]
    assert asked == Counter(by_class=1, by_profile=1, by_value=1)


def test_functionality_measured_among_subjects_sharing_another_property(kg_of):
    from conftest import fixture_builders

    fx = fixture_builders()
    # Thirty clubs without a class, each in its own country (no value is held often enough to measure),
    # all with a sport; thirty cities with two countries each (the graph-wide share is high).
    clubs = [fx.entity(f"Q{3000 + i}", f"Club {i}", "club", claims=[("P641", fx.item("Q2736", None)),
                                                                    ("P17", fx.item(f"Q{600 + i}", None))])
             for i in range(30)]
    cities = [fx.entity(f"Q{4000 + i}", f"City {i}", "city", claims=[("P17", fx.item("Q159", None)),
                                                                      ("P17", fx.item("Q15180", None))])
              for i in range(30)]
    places = [fx.entity(f"Q{600 + i}", f"Land {i}") for i in range(30)] + \
        [fx.entity("Q159", "Russia"), fx.entity("Q15180", "Soviet Union"), fx.entity("Q2736", "association football")]
    kg = kg_of(clubs + cities + places + [fx.prop("P17", "country", "wikibase-item"),
                                          fx.prop("P641", "sport", "wikibase-item")])
    facts = KGFacts(kg)
    assert not facts.exclusivity("P17").exclusive and facts.class_exclusivity("P17", "Q3000") is None
    assert not facts.value_exclusivity("P17", "Q3000", ["Q600"]).exclusive  # Land 0: no other subject to ask
    v = verdict(kg, "Club 0", "country", "Russia")
    assert v.verdict == REFUTED and v.exclusivity == "profile" and v.correction_ids == ("Q600",)
    assert "of the 29 other subjects that also hold sport hold several values" in v.reason
    assert verdict(kg, "City 0", "country", "Land 3").verdict == NOT_ENOUGH_INFO  # cities: no sport, open world


def test_a_subject_holding_several_values_itself_is_not_refuted_by_the_measured_share(kg_of):
    from conftest import fixture_builders
    from kgcheck.verifier.claims.judge import holds_several

    fx = fixture_builders()
    # 60 countries with one seat of government each (measured: the property takes one value), and one listing
    # three former seats without a date each (as France's capitals in wd50k, Paris missing).
    countries = [fx.entity(f"Q{6000 + i}", f"Land {i}", "country", claims=[("P1", fx.item(f"Q{7000 + i}", None))])
                 for i in range(60)]
    seats = [fx.entity(f"Q{7000 + i}", f"Seat {i}", "city") for i in range(63)]
    # Its largest city leads to the claimed seat (the trace test, trace.py, finds it near: no refutation there).
    several = fx.entity("Q6100", "Francia", "country",
                        claims=[("P1", fx.item(f"Q{7060 + i}", None)) for i in range(3)] + [("P2", fx.item("Q7009", None))])
    dated = fx.entity("Q6101", "Dated", "country", claims=[
        ("P1", fx.item("Q7000", None), {"qualifiers": [("P580", fx.time("+1900-01-01T00:00:00Z", 9))]}),
        ("P1", fx.item("Q7001", None), {"qualifiers": [("P580", fx.time("+1950-01-01T00:00:00Z", 9))]})])
    kg = kg_of(countries + seats + [several, dated, fx.prop("P1", "seat", "wikibase-item"),
                                    fx.prop("P2", "largest city", "wikibase-item")])
    assert KGFacts(kg).exclusivity("P1").exclusive
    one = verdict(kg, "Land 3", "seat", "Seat 9")
    assert one.verdict == REFUTED and one.exclusivity == "measured"
    mine = verdict(kg, "Francia", "seat", "Seat 9")
    assert mine.verdict == NOT_ENOUGH_INFO and "Francia holds several values itself" in mine.reason
    # Values told apart by a time qualifier are a sequence, one at a time: the share still speaks for them.
    assert verdict(kg, "Dated", "seat", "Seat 9").verdict == REFUTED
    statements = kg.statements_for(["Q6100", "Q6101", "Q6003"])
    assert holds_several(statements["Q6100"]) and not holds_several(statements["Q6101"])
    assert not holds_several(statements["Q6003"])
