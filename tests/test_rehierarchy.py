"""`kgcheck recheck` follows edits along a located-in chain of the values a verdict compared (rehierarchy.py):
the subject's own statements and the cited ones stay the same, the verdict moves all the same."""
from __future__ import annotations

import orjson
import pytest

from diff_builds import MINI, build, entities_of, recheck_beside_full

BORN_IN = {"subject": "Douglas Adams", "predicate": "place of birth", "subject_id": "Q42", "property_id": "P19"}
ENGLAND = {**BORN_IN, "id": "england", "object": "England", "object_id": "Q21"}
ENGLAND_BY_NAME = {"id": "england-by-name", "subject": "Douglas Adams", "predicate": "place of birth",
                   "object": "England"}
UK = {**BORN_IN, "id": "uk", "object": "United Kingdom", "object_id": "Q145"}


def _graph(*edits: str) -> list[dict]:
    """The mini fixture (Douglas Adams born in Cambridge, Cambridge in England and the UK, England in the UK) with
    chain edits: Cambridge moved to Belgium, or only its country; England moved to Belgium (Cambridge then in
    the UK only through England); Brussels moved to the UK (a chain no claim here reaches)."""
    ents = {e["id"]: e for e in entities_of(MINI)}

    def point(entity: str, pid: str, qid: str) -> None:
        value = ents[entity]["claims"][pid][0]["mainsnak"]["datavalue"]["value"]
        value.update({"id": qid, "numeric-id": int(qid[1:])})

    if "england only" in edits:
        del ents["Q350"]["claims"]["P17"]  # Cambridge's country comes through England alone
    if "cambridge" in edits:
        point("Q350", "P131", "Q31")
    if "england" in edits:
        point("Q21", "P131", "Q31")
        point("Q21", "P17", "Q31")
    if "cambridge's country" in edits:
        point("Q350", "P17", "Q31")
    if "brussels" in edits:
        point("Q239", "P17", "Q145")
    return list(ents.values())


def _lines(path) -> dict[str, dict]:
    return {r["id"]: r for r in map(orjson.loads, path.read_bytes().splitlines())}


@pytest.mark.parametrize("base, edit, claims", [
    ((), "cambridge", [ENGLAND, ENGLAND_BY_NAME]),  # the value's own container
    (("england only",), "england", [UK]),  # a container of its container
])
def test_an_edit_up_the_chain_of_a_held_value_rechecks_the_verdict_that_leaned_on_it(tmp_path, base, edit, claims):
    """Born in Cambridge supports "born in England" (Cambridge lies in England) until Cambridge, or England,
    moves elsewhere: the claim is re-checked and comes out as a full check on the new build says."""
    old = build(_graph(*base), tmp_path / "old")
    new = build(_graph(*base, edit), tmp_path / "new")
    summary, before, out, full = recheck_beside_full(old, new, claims, tmp_path)
    assert {r["verdict"] for r in _lines(before).values()} == {"SUPPORTED"}
    assert "SUPPORTED" not in {r["verdict"] for r in _lines(full).values()}
    assert summary.rechecked == len(claims)
    assert out.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("edit, claims", [
    ("brussels", [ENGLAND, ENGLAND_BY_NAME, UK]),  # a chain no verdict compared
    ("cambridge's country", [ENGLAND]),  # the held value's chain moved, but England is still above it
])
def test_an_edit_that_leaves_the_compared_relation_as_it_was_rechecks_nothing(tmp_path, edit, claims):
    old = build(_graph(), tmp_path / "old")
    new = build(_graph(edit), tmp_path / "new")
    summary, before, out, full = recheck_beside_full(old, new, claims, tmp_path)
    assert summary.rechecked == 0
    assert out.read_bytes() == before.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("claim", [ENGLAND, {**ENGLAND, "object_id": None}])
def test_a_claimed_entity_whose_chain_moved_is_rechecked(tmp_path, claim):
    """The claim's side of the relation: "born in England" against a graph saying born in the UK is more
    specific (England lies in the UK) until England moves; the subject's statements never change. Named by
    text, the claim's candidates are linked again to test them."""
    ents = _graph()
    ents_new = _graph("england")
    for graph in (ents, ents_new):
        adams = next(e for e in graph if e["id"] == "Q42")
        point = adams["claims"]["P19"][0]["mainsnak"]["datavalue"]["value"]
        point.update({"id": "Q145", "numeric-id": 145})  # born in the United Kingdom
    old, new = build(ents, tmp_path / "old"), build(ents_new, tmp_path / "new")
    summary, before, out, full = recheck_beside_full(old, new, [claim], tmp_path)
    assert _lines(before)["england"]["verdict"] != _lines(full)["england"]["verdict"]
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_namesake_whose_value_moved_rechecks_a_subject_named_by_text(tmp_path):
    """"Douglas Adams, born in the United Kingdom" by name is tried on both entities of that name; when the
    other one's birthplace (Brussels) moves into the UK the namesakes agree, which the verdict reads."""
    from diff_builds import item_statement

    def graph(*edits):
        ents = _graph(*edits)
        namesake = {"type": "item", "id": "Q9003", "labels": {"en": {"language": "en", "value": "Douglas Adams"}},
                    "descriptions": {}, "aliases": {},
                    "claims": {"P19": [item_statement("Q9003", "P19", "Q239", "born")]}}
        return ents + [namesake]

    old, new = build(graph(), tmp_path / "old"), build(graph("brussels"), tmp_path / "new")
    claim = {"id": "uk-by-name", "subject": "Douglas Adams", "predicate": "place of birth", "object": "United Kingdom"}
    summary, before, out, full = recheck_beside_full(old, new, [claim], tmp_path)
    assert before.read_bytes() != full.read_bytes()
    assert summary.rechecked == 1 and out.read_bytes() == full.read_bytes()


def test_a_build_without_the_edge_table_gives_the_same_edges_from_its_statements(tmp_path):
    """An index built before hierarchy_edges: the chain edges are read off its statements, the same rows."""
    import duckdb

    from kgcheck.verifier.claims.rehierarchy import edges_sql

    index = build(_graph(), tmp_path / "index")
    older = tmp_path / "older"
    older.mkdir()
    (older / "statements.parquet").symlink_to(index / "statements.parquet")
    with duckdb.connect() as con:
        table, fallback = (sorted(con.execute(edges_sql(str(d))).fetchall()) for d in (index, older))
    assert table and table == fallback


def test_the_key_pass_keeps_only_the_chain_keys_a_moved_entity_can_meet(tmp_path, monkeypatch):
    """The key pass leaves out the chain keys (claimed value per subject and property) that no chain test can meet
    — neither the claimed entity (or name) moved, nor a value the subject holds for the property — and the chain
    test finds the same lines as with every key (REACHABLE_MAX -1: nothing left out)."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims import keypass, savedkeys
    from kgcheck.verifier.claims.rehierarchy import hierarchy_hits
    from kgcheck.verifier.claims.rekeys import saved_rows

    old = build(_graph(), tmp_path / "old")
    new = build(_graph("cambridge"), tmp_path / "new")  # Cambridge (where he was born) moved to Belgium
    country = {"id": "country", "subject": "England", "predicate": "country", "object": "United Kingdom",
               "subject_id": "Q21", "property_id": "P17", "object_id": "Q145"}  # nothing on its chains moved
    _, before, _, _ = recheck_beside_full(old, new, [ENGLAND, ENGLAND_BY_NAME, country], tmp_path)
    saved = before.with_name("saved.jsonl")
    saved.write_bytes(before.read_bytes())
    savedkeys.discard(str(before))  # the key pass parses the file (saved keys are every key: `saved` below)

    def chain_keys_and_hits(limit: int, results=before) -> tuple[set[int], set[int]]:
        monkeypatch.setattr(keypass, "REACHABLE_MAX", limit)
        with IndexDiff(str(old), str(new)) as diff, KG.open(str(new), embedder=FakeEmbedder()) as kg:
            keyed = keypass.key_results(diff, str(results), keypass.linker(kg))
            lines = {r[0] for r in diff.con.execute("SELECT claim FROM keys WHERE kind IN ('obj', 'objt')").fetchall()}
            return lines, hierarchy_hits(diff.con, diff.old, diff.new, keyed.moved, keyed.link)

    kept, hits = chain_keys_and_hits(keypass.REACHABLE_MAX)
    every, hits_with_every = chain_keys_and_hits(-1)
    assert (kept, every) == ({1, 2}, {1, 2, 3})
    assert hits == hits_with_every == {1, 2}
    assert savedkeys.load(str(saved)) is None  # a copy: its own keys were never saved
    recorded = savedkeys.KeyRecorder()
    for line in saved.read_bytes().splitlines(keepends=True):
        recorded.add(line, *saved_rows(orjson.loads(line)))
    assert recorded.save(str(saved))
    assert chain_keys_and_hits(keypass.REACHABLE_MAX, saved) == ({1, 2, 3}, {1, 2})
