"""What `kgcheck recheck` re-checks: each way a change reaches a verdict (and none that cannot), on small builds."""
from __future__ import annotations

import json

import orjson
import pytest
from click.testing import CliRunner

from diff_builds import (CLAIMS, MINI, build, builds, checked_on, entities_of,  # noqa: F401 (builds: a fixture)
                         item_statement, recheck_beside_full)

HELD = [{"id": "writer", "subject": "Douglas Adams", "predicate": "occupation", "object": "writer",
         "subject_id": "Q42", "property_id": "P106", "object_id": "Q36180"},
        {"id": "painter", "subject": "Douglas Adams", "predicate": "occupation", "object": "painter",
         "subject_id": "Q42", "property_id": "P106", "object_id": "Q1028181"}]


def _occupations(edit: str | None = None) -> list[dict]:
    """The mini fixture with two more occupations of Q42, the last one edited: past the few other values a
    SUPPORTED result lists as evidence (an edit of a listed one is an evidence change)."""
    ents = {e["id"]: e for e in entities_of(MINI)}
    occupations = ents["Q42"]["claims"]["P106"]
    occupations += [item_statement("Q42", "P106", qid, f"extra-{n}") for n, qid in enumerate(("Q21", "Q31"), 1)]
    last = occupations[-1]
    if edit == "rank":
        last["rank"] = "preferred"
    elif edit:
        value = last["mainsnak"]["datavalue"]["value"]
        value["id"] = {"another value": "Q145", "the claimed value": "Q36180"}[edit]
        value["numeric-id"] = int(value["id"][1:])
    return list(ents.values())


@pytest.fixture(scope="module")
def more_occupations(tmp_path_factory):
    return build(_occupations(), tmp_path_factory.mktemp("occupations") / "old")


@pytest.mark.parametrize("edit, rechecked", [("another value", {"painter"}),
                                             ("the claimed value", {"painter", "writer"}),
                                             ("rank", {"painter", "writer"})])
def test_a_value_the_graph_holds_is_rechecked_only_when_its_property_may_hold_it_otherwise(more_occupations, tmp_path,
                                                                                           edit, rechecked):
    """SUPPORTED by a statement holding the claimed value: another statement of the property changing to a third
    value cannot move it (not re-checked); one coming to hold the claimed value, or a rank change, can. A claim
    the graph does not hold reads every value of the property: re-checked on any of these edits."""
    new = build(_occupations(edit), tmp_path / "new")
    summary, before, out, full = recheck_beside_full(more_occupations, new, HELD, tmp_path)
    assert [r["verdict"] for r in map(orjson.loads, before.read_bytes().splitlines())][0] == "SUPPORTED"
    untouched = before.read_bytes().splitlines()
    re_lines, full_lines = out.read_bytes().splitlines(), full.read_bytes().splitlines()
    assert summary.rechecked == len(rechecked)
    assert {orjson.loads(line)["id"] for line, was in zip(re_lines, untouched) if line != was} <= rechecked
    assert [orjson.loads(x)["verdict"] for x in re_lines] == [orjson.loads(x)["verdict"] for x in full_lines]


def test_a_claim_on_a_property_the_subject_lacks_follows_the_subjects_other_statements(builds, tmp_path):
    """Rules B and C read every statement of the subject: a statement added under another property that links
    the subject to the claimed object turns "no statement of located in" into "linked through country"."""
    ents = {e["id"]: e for e in entities_of(MINI)}
    ents["Q42"]["claims"]["P17"] = [item_statement("Q42", "P17", "Q84", "added-1")]
    claim = {"id": "lacks", "subject": "Douglas Adams", "predicate": "located in", "object": "London",
             "subject_id": "Q42", "property_id": "P131", "object_id": "Q84"}
    summary, before, out, full = recheck_beside_full(builds[0], build(list(ents.values()), tmp_path / "new"),
                                                     [claim], tmp_path)
    assert orjson.loads(before.read_bytes())["rule"] == "C"
    assert "country" in orjson.loads(full.read_bytes())["reason"]
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_byte_order_mark_before_the_first_result_is_kept_and_read_past(builds, tmp_path):
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    old, new = builds
    _, results = checked_on(old, tmp_path)
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + results.read_bytes())
    assert orjson.loads(results.read_bytes().splitlines()[0])["id"] == "born"  # the first line flips
    with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
        plain = recheck(kg, diff, str(results), str(tmp_path / "plain.jsonl"))
        bom = recheck(kg, diff, str(marked), str(tmp_path / "bom.jsonl"))
    assert (bom.results, bom.rechecked, bom.not_results) == (plain.results, plain.rechecked, 0)
    assert (tmp_path / "bom.jsonl").read_bytes() == b"\xef\xbb\xbf" + (tmp_path / "plain.jsonl").read_bytes()


def test_closed_world_results_are_rechecked_closed_world_only(builds, tmp_path, monkeypatch):
    """Results of `check --closed-world` re-checked with the default open-world reading would mix two readings in
    one file: refused unless --closed-world is given again."""
    from kgcheck.cli import main
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.claims.check import CheckOptions
    from kgcheck.verifier.formats.readers import read_claims

    monkeypatch.setenv("KGCHECK_EMBEDDER", "fake-trigram")
    old, new = builds
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in CLAIMS + HELD[1:]) + "\n")
    results = tmp_path / "closed.jsonl"
    with KG.open(str(old), embedder=FakeEmbedder()) as kg:
        run_bulk(kg, read_claims(str(claims)), str(results), CheckOptions(closed_world=True), quiet=True)
    lines = results.read_bytes().splitlines()
    painter = [n for n, line in enumerate(lines, 1) if orjson.loads(line)["id"] == "painter"][0]
    assert orjson.loads(lines[painter - 1])["exclusivity"] == "closed-world"
    args = ["recheck", str(results), "--index", str(new), "--old", str(old), "-o", str(tmp_path / "re.jsonl")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and f"closed.jsonl:{painter}: a verdict of `check --closed-world`" in res.output
    assert not (tmp_path / "re.jsonl").exists()
    res = CliRunner().invoke(main, [*args, "--closed-world", "--json"])
    assert res.exit_code == 0, res.output
    rechecked = {r["id"]: r for r in map(orjson.loads, (tmp_path / "re.jsonl").read_bytes().splitlines())}
    assert rechecked["born"]["verdict"] == "REFUTED" and rechecked["painter"]["exclusivity"] == "closed-world"


def _county(qid: str, inception: str | None) -> dict:
    entity = {"type": "item", "id": qid, "labels": {"en": {"language": "en", "value": "Washington County"}},
              "descriptions": {}, "aliases": {}, "claims": {}}
    if inception:
        entity["claims"]["P571"] = [{"mainsnak": {"snaktype": "value", "property": "P571", "datatype": "time",
                                                  "datavalue": {"type": "time", "value": {
                                                      "time": f"+{inception}-00-00T00:00:00Z", "timezone": 0,
                                                      "before": 0, "after": 0, "precision": 9,
                                                      "calendarmodel": "http://www.wikidata.org/entity/Q1985727"}}},
                                     "type": "statement", "id": f"{qid}$inception", "rank": "normal"}]
    return entity


def test_a_claim_named_by_text_follows_every_namesake(tmp_path):
    """A subject given by name is tried on every entity of that name: a statement added to another namesake
    than the one the old verdict chose flips it, so the namesakes' statements are keys too."""
    base = entities_of(MINI)
    old = build(base + [_county("Q9001", "1799"), _county("Q9002", None)], tmp_path / "old")
    new = build(base + [_county("Q9001", "1799"), _county("Q9002", "1800")], tmp_path / "new")
    claim = {"id": "county", "subject": "Washington County", "predicate": "inception", "object": "1800"}
    summary, before, out, full = recheck_beside_full(old, new, [claim], tmp_path)
    was = orjson.loads(before.read_bytes())
    assert was["verdict"] != "SUPPORTED" and was["subject_id"] == "Q9001"
    assert orjson.loads(full.read_bytes())["verdict"] == "SUPPORTED"
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_predicate_named_by_text_follows_the_labels_and_aliases_of_properties(builds, tmp_path):
    """An alias added to a property that equals a claim's predicate changes the property it is read as."""
    ents = {e["id"]: e for e in entities_of(MINI)}
    ents["P19"].setdefault("aliases", {}).setdefault("en", []).append({"language": "en",
                                                                       "value": "came into the world at"})
    claim = {"id": "born", "subject": "Douglas Adams", "subject_id": "Q42", "predicate": "came into the world at",
             "object": "Cambridge"}
    summary, before, out, full = recheck_beside_full(builds[0], build(list(ents.values()), tmp_path / "new"),
                                                     [claim], tmp_path)
    assert orjson.loads(full.read_bytes())["property_ids"][0] == "P19"
    assert orjson.loads(before.read_bytes())["property_ids"][:1] != ["P19"]
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("linked_value, rechecked", [("Q145", 0), ("Q84", 1)])
def test_a_claim_whose_object_is_named_by_text_follows_only_edits_that_link_it(builds, tmp_path, linked_value,
                                                                                 rechecked):
    """Rule C by name ("located in London", no statement of the property): another statement of the subject
    taking another value cannot move it; one coming to hold what the text links to (rule B's candidate) can."""
    ents = {e["id"]: e for e in entities_of(MINI)}
    statements = ents["Q42"]["claims"]["P106"]
    value = statements[1]["mainsnak"]["datavalue"]["value"]  # a normal-rank occupation
    value["id"], value["numeric-id"] = linked_value, int(linked_value[1:])
    claim = {"id": "lacks", "subject": "Douglas Adams", "predicate": "located in", "object": "London",
             "subject_id": "Q42", "property_id": "P131"}
    summary, before, out, full = recheck_beside_full(builds[0], build(list(ents.values()), tmp_path / "new"),
                                                     [claim], tmp_path)
    assert orjson.loads(before.read_bytes())["rule"] == "C"
    assert summary.rechecked == rechecked and out.read_bytes() == full.read_bytes()
    assert ("occupation" in orjson.loads(full.read_bytes())["reason"]) == bool(rechecked)
