"""The open-world measures built into the index (index/measures.py) equal the same counts taken in Python from
the dump's own entities: ranks, time-qualified series, deprecated and unknown values, classes and a subclass
chain deeper than the hand-over depth."""
from __future__ import annotations

import random

import pytest

from kgcheck.index.constraints import TIME_SEPARATORS
from kgcheck.index.measures import MAX_DEPTH
from kgcheck.verifier.claims.byclass import ClassShare, nearest_measured, profile_measured
from kgcheck.verifier.claims.cooccur import held_alone

PROPS = ("P1", "P2", "P3")
CLASSES = [f"Q9{i}" for i in range(7)]
# Q90 -> Q91 -> Q92 -> Q93 -> Q94 -> Q95: five steps; Q96 -> Q91.
SUPER = {"Q90": "Q91", "Q91": "Q92", "Q92": "Q93", "Q93": "Q94", "Q94": "Q95", "Q96": "Q91"}


def random_graph(seed: int):
    from conftest import fixture_builders

    fx = fixture_builders()
    rng = random.Random(seed)
    entities, raw = [], {}
    for i in range(90):
        qid = f"Q{1000 + i}"
        claims = [("P31", fx.item(c, None), {"rank": rng.choice(["normal"] * 5 + ["deprecated"])})
                  for c in rng.sample(CLASSES, rng.choice([0, 1, 1, 2]))]
        for pid in rng.sample(PROPS, rng.randint(0, 3)):
            for _ in range(rng.choice([1, 1, 2, 3])):
                kw = {"rank": rng.choice(["normal"] * 4 + ["preferred", "deprecated"])}
                if rng.random() < 0.3:
                    kw["qualifiers"] = [("P585", fx.time(f"+{rng.choice([2001, 2002])}-00-00T00:00:00Z", 9))]
                if rng.random() < 0.1:
                    claims.append((pid, None, {**kw, "snaktype": "somevalue"}))
                else:
                    claims.append((pid, fx.item(f"Q{500 + rng.randint(0, 6)}", None), kw))
        entity = fx.entity(qid, f"Thing {i}", claims=claims)
        entities.append(entity)
        raw[qid] = entity
    entities += [fx.entity(c, f"Class {c}", claims=[("P279", fx.item(SUPER[c], None))] if c in SUPER else [])
                 for c in CLASSES + ["Q95"]]
    entities += [fx.entity(f"Q{500 + i}", f"Value {i}") for i in range(7)]
    entities += [fx.prop(p, f"property {p}", "wikibase-item") for p in PROPS + ("P31", "P279", "P585")]
    return entities


def oracle(entities):
    """Every measure, counted from the entity dicts."""
    best, values, props, classes = {}, {}, {}, {}
    for e in entities:
        sid = e["id"]
        for pid, sts in e.get("claims", {}).items():
            props.setdefault(sid, set()).add(pid)
            usable = [s for s in sts if s["rank"] != "deprecated" and s["mainsnak"]["snaktype"] == "value"]
            for s in usable:
                if "datavalue" in s["mainsnak"] and s["mainsnak"]["datavalue"]["type"] == "wikibase-entityid":
                    values.setdefault((pid, s["mainsnak"]["datavalue"]["value"]["id"]), set()).add(sid)
            if not usable:
                continue
            if any(s["rank"] == "preferred" for s in usable):
                usable = [s for s in usable if s["rank"] == "preferred"]
            by_stamp = {}
            for s in usable:
                stamp = tuple(sorted((q, repr(snak["datavalue"]["value"])) for q, snaks in s.get("qualifiers", {}).items()
                                     if q in TIME_SEPARATORS for snak in snaks))
                by_stamp.setdefault(stamp, set()).add(repr(s["mainsnak"]["datavalue"]["value"]))
            best[(pid, sid)] = max(len(v) for v in by_stamp.values())
            if pid == "P31":
                classes[sid] = {s["mainsnak"]["datavalue"]["value"]["id"] for s in sts if s["rank"] != "deprecated"}
    parents = {}
    for e in entities:
        for s in e.get("claims", {}).get("P279", []):
            parents.setdefault(e["id"], set()).add(s["mainsnak"]["datavalue"]["value"]["id"])

    def closure(own):
        out, frontier = set(own), set(own)
        for _ in range(MAX_DEPTH):
            frontier = {p for c in frontier for p in parents.get(c, ())} - out
            out |= frontier
        return out

    direct, pooled, by_value, profile = {}, {}, {}, {}
    for (pid, sid), n in best.items():
        for table, keys in ((direct, classes.get(sid, ())), (pooled, closure(classes.get(sid, ()))),
                            (profile, props[sid] - {pid})):
            for k in keys:
                c = table.setdefault((pid, k), [0, 0])
                c[0] += 1
                c[1] += n > 1
    for (pid, value), holders in values.items():
        by_value[(pid, value)] = [len(holders), sum(best[(pid, s)] > 1 for s in holders)]
    return best, direct, pooled, by_value, profile


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stored_measures_equal_the_counts_taken_from_the_dump(kg_of, seed):
    entities = random_graph(seed)
    kg = kg_of(entities)
    best, direct, pooled, by_value, profile = oracle(entities)
    assert {(p, s): n for s, p, n in kg.sql("SELECT subject, property, n_best FROM subject_best")} == best
    stored = kg.sql("SELECT property, class, subjects, several, pooled_subjects, pooled_several FROM measure_class")
    assert {(p, c): [n, k] for p, c, n, k, _, _ in stored if n} == direct
    assert {(p, c): [n, k] for p, c, _, _, n, k in stored} == pooled
    assert {(p, v): [n, k] for p, v, n, k in kg.sql("SELECT * FROM measure_value")} == by_value
    assert {(p, q): [n, k] for p, q, n, k in kg.sql("SELECT * FROM measure_profile")} == profile
    assert any(n > 1 for n in best.values()) and any(c[1] for c in pooled.values())  # the graph is not trivial


def test_tables_are_sorted_by_their_lookup_key(kg_of):
    kg = kg_of(random_graph(4))
    for table, key in (("measure_class", "property, class"), ("measure_value", "property, value"),
                       ("measure_profile", "property, other"), ("subject_best", "subject, property")):
        rows = kg.sql(f"SELECT {key} FROM {table}")
        assert rows == sorted(rows), table


def test_a_class_too_small_to_measure_hands_over_to_its_superclass():
    direct = {"A": ClassShare("A", 3, 0), "B": ClassShare("B", 30, 0), "C": ClassShare("C", 1, 1)}
    pooled = {"Club": ClassShare("Club", 33, 0), **direct}
    parents = {"A": frozenset({"Club"}), "B": frozenset({"Club"})}

    def measured(own, with_parents=parents):
        return nearest_measured(own, lambda cs: {c: direct[c] for c in cs if c in direct},
                                lambda cs: {c: pooled[c] for c in cs if c in pooled},
                                lambda cs: {c: with_parents.get(c, frozenset()) for c in cs}, 20)

    assert [s.cls for s in measured({"B"})] == ["B"]  # its own class is measured: no pooling
    assert [(s.cls, s.subjects) for s in measured({"A"})] == [("Club", 33)]  # A has 3 subjects: Club counts 33
    assert measured({"C"}) == [] and measured({"A"}, {}) == []


def test_profile_and_value_leave_the_subject_out():
    shares = {"P641": ClassShare("P641", 21, 1)}
    assert profile_measured(["P641"], shares, True, 20) == [ClassShare("P641", 20, 0)]
    assert profile_measured(["P641"], shares, False, 20) == [ClassShare("P641", 20, 1)]
    assert profile_measured(["P641"], shares, False, 21) == []
    alone = held_alone({"Q1": (30, 2), "Q2": (5, 1)}, True, ["Q1", "Q2", "Q1"])
    assert [(h.value, h.subjects, h.several) for h in alone] == [("Q1", 29, 1), ("Q2", 4, 0)]


def test_batched_cooccurrence_counts_equal_the_single_queries(kg_of):
    """The counts prefetched for a whole batch (one query) are those a lone judge call reads (one query each)."""
    from kgcheck.verifier.claims.measures import StoredMeasures

    kg = kg_of(random_graph(5))
    asked = []
    for subject, pid in kg.sql("SELECT DISTINCT subject, property FROM statements WHERE property IN ('P1', 'P2')"):
        held = frozenset(v for (v,) in kg.sql("SELECT entity_id FROM statements WHERE subject = ? AND property = ? "
                                              "AND rank <> 'deprecated' AND entity_id IS NOT NULL", [subject, pid]))
        if held:
            asked.append((subject, pid, held, frozenset(f"Q{500 + i}" for i in range(7)) - held))
    batched = StoredMeasures(kg)
    batched.prefetch(asked, 20, lambda pid, subject: (30, 1.0))  # N and share that make expectations decide
    assert batched._observed  # the batch counted them
    for subject, pid, held, claimed in asked:
        one, alone = batched.cooccurrence(pid, subject, sorted(held), sorted(claimed), 30, 1.0), \
            StoredMeasures(kg).cooccurrence(pid, subject, sorted(held), sorted(claimed), 30, 1.0)
        assert one == alone
    assert len(set(batched._observed.values())) > 3  # real, varied counts


def test_a_second_claim_on_a_subjects_property_reads_only_its_own_values_counts(kg_of):
    """The held values' counts are kept per (property, subject, held values): the judge, the expectation's prefetch
    and every other claim on them reuse them; the answers are those of a fresh reader."""
    from kgcheck.verifier.claims.measures import StoredMeasures

    kg = kg_of(random_graph(5))
    subject, pid, count = kg.sql("SELECT subject, property, count(*) FROM statements WHERE property = 'P1' "
                                 "AND entity_id IS NOT NULL GROUP BY ALL ORDER BY 3 DESC, 1 LIMIT 1")[0]
    held = sorted(v for (v,) in kg.sql("SELECT entity_id FROM statements WHERE subject = ? AND property = ?",
                                       [subject, pid]))
    assert count >= 2
    measures, read = StoredMeasures(kg), []
    counts = measures._value_counts
    measures._value_counts = lambda p, values: read.append(sorted(values)) or counts(p, values)
    for z in ("Q501", "Q502"):
        assert measures.cooccurrence(pid, subject, held, [z], 30, 1.0) == \
            StoredMeasures(kg).cooccurrence(pid, subject, held, [z], 30, 1.0)
    assert read == [sorted(held + ["Q501"]), ["Q502"]]
