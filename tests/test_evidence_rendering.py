"""How evidence and listings are rendered: the judge's labels, kept per statement, and the old results file freed
after its replacement is in place."""
from __future__ import annotations

import threading

from kgcheck.index.model import ENTITY, Reference, Snak, Statement, Value
from kgcheck.verifier.claims.compare import GraphFacts
from kgcheck.verifier.claims.judge import _listing, evidence_of, rendered_statement


class Labels(GraphFacts):
    def __init__(self, labels: dict[str, str]):
        self.labels, self.asked = labels, 0

    def names(self, eid):
        return set()

    def ancestors(self, eid):
        return set()

    def label(self, eid):
        self.asked += 1
        return self.labels.get(eid)


def statement(n: int, value_id: str, rank: str = "normal", references=()) -> Statement:
    return Statement(statement_id=f"S{n}", subject="Q1", property="P527", rank=rank,
                     value=Value(ENTITY, text=value_id, entity_id=value_id), references=tuple(references))


def test_a_listing_names_five_labels_and_counts_the_values_it_does_not_render():
    facts = Labels({f"Q{i}": f"part {i}" for i in range(10, 40)})
    listed = [statement(i, f"Q{10 + i}") for i in range(30)]
    assert _listing(listed, facts) == "part 10, part 11, part 12, part 13, part 14 and 25 more"
    assert facts.asked == 5  # the 25 values it only counts are not rendered


def test_a_listing_of_namesakes_names_each_label_once_and_deprecated_values_not_at_all():
    facts = Labels({"Q10": "Franklin County", "Q11": "Franklin County", "Q12": "Franklin Parish", "Q13": "Gone"})
    listed = [statement(1, "Q10"), statement(2, "Q11"), statement(3, "Q10"), statement(4, "Q12"),
              statement(5, "Q13", rank="deprecated")]
    assert _listing(listed, facts) == "Franklin County, Franklin Parish"
    assert _listing(listed, facts, limit=1) == "Franklin County and 2 more"  # three values, one label shown


def test_kept_renderings_are_the_fresh_ones_and_told_apart_by_references(mini_kg):
    from kgcheck.verifier.claims.facts import KGFacts

    facts = KGFacts(mini_kg)
    cited = Reference("h1", (Snak("P248", Value(ENTITY, text="Q36578", entity_id="Q36578")),))
    bare, referenced = statement(1, "Q42"), statement(1, "Q42", references=[cited])
    first = evidence_of(bare, "match", 0.9, facts)
    assert evidence_of(bare, "conflict", 0.5, facts) == first.__class__(**{**first.__dict__, "relation": "conflict",
                                                                          "score": 0.5})
    assert facts.rendered(referenced) == rendered_statement(referenced, facts) != facts.rendered(bare)
    assert facts.rendered(referenced)[4] and not facts.rendered(bare)[4]


def test_the_replaced_results_file_is_freed_after_the_new_one_is_in_place(tmp_path):
    from kgcheck.verifier.claims.recheck import _replace_freeing_later

    out, new = tmp_path / "out.jsonl", tmp_path / "new.tmp"
    for old_exists in (False, True):
        if old_exists:
            out.write_text("old\n")
        new.write_text(f"new {old_exists}\n")
        _replace_freeing_later(str(new), str(out))
        for thread in threading.enumerate():
            if thread.name == "kgcheck-free":
                thread.join()
        assert out.read_text() == f"new {old_exists}\n" and not new.exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
