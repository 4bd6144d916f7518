"""recheck checks the lines each indirect test finds as soon as that test has them (KeyedResults.indirect_hits
publishes them): every line of the result is published, the co-occurrence test's first."""
from __future__ import annotations

import json


def test_every_indirect_line_is_published_as_its_test_finishes(kg_of, tmp_path):
    from conftest import fixture_builders
    from test_remeasure import _films

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.keypass import key_results, linker
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_films(fx)), kg_of(_films(fx, ussr_with_us=1))  # a film is now American and Soviet
    claims = [Claim(id="film", subject="Film X", predicate="country of origin", object="Soviet Union"),
              Claim(id="other", subject="Film 3", predicate="country of origin", object="Soviet Union")]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in Checker(old).check(claims)))
    with IndexDiff(old.directory, new.directory) as diff:
        keyed = key_results(diff, str(results), linker(new))
        published: list[set[int]] = []
        found = keyed.indirect_hits(published.append)
    assert found and set().union(*published) == found
    assert published[0] == found  # here only the co-occurrence test moves anything, and it is asked first


def test_a_failing_indirect_test_fails_the_recheck_after_what_it_published(kg_of, tmp_path, monkeypatch):
    """The worker ends the stream of lines even when a test raises: the recheck stops with that error (it does not
    wait for lines that will never come) and writes nothing."""
    import pytest
    from conftest import fixture_builders
    from test_remeasure import _films

    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims import keypass
    from kgcheck.verifier.claims.check import Checker
    from kgcheck.verifier.claims.recheck import recheck
    from kgcheck.verifier.formats.serialize import verdict_to_dict
    from kgcheck.verifier.model import Claim

    fx = fixture_builders()
    old, new = kg_of(_films(fx)), kg_of(_films(fx, ussr_with_us=1))
    claims = [Claim(id="film", subject="Film X", predicate="country of origin", object="Soviet Union")]
    results, out = tmp_path / "results.jsonl", tmp_path / "out.jsonl"
    results.write_text("".join(json.dumps(verdict_to_dict(v)) + "\n" for v in Checker(old).check(claims)))

    def failing(self, publish=None):
        publish({1})
        raise RuntimeError("a test failed")

    monkeypatch.setattr(keypass.KeyedResults, "indirect_hits", failing)
    with IndexDiff(old.directory, new.directory) as diff, pytest.raises(RuntimeError, match="a test failed"):
        recheck(new, diff, str(results), str(out))
    assert not out.exists()
