"""The documented Python API: `from kgcheck import KG, Checker, verify_text, check_claims`."""
from __future__ import annotations

import pytest

API = ("KG", "Checker", "verify_text", "check_claims")


def test_the_four_api_names_import_and_carry_docstrings():
    import kgcheck
    from kgcheck import KG, Checker, check_claims, verify_text  # noqa: F401 - the import is the test

    for name in API:
        obj = getattr(kgcheck, name)
        assert name in kgcheck.__all__
        doc = (obj.__doc__ or "").strip()
        assert len(doc.split()) >= 15, f"{name} has no real docstring: {doc!r}"
    for method in (KG.open, Checker.check):
        assert (method.__doc__ or "").strip(), f"{method.__qualname__} has no docstring"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kgcheck.nope  # noqa: B018


def test_check_claims_takes_claims_and_dicts_and_keeps_their_order(mini_kg_dir):
    from kgcheck import KG, Checker, check_claims
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.verifier.model import Claim

    claims = [
        {"subject": "Douglas Adams", "predicate": "date of birth", "object": "1962"},
        Claim(id="c2", subject="Douglas Adams", predicate="place of birth", object="Cambridge"),
        {"s": "Douglas Adams", "p": "place of birth", "o": "London", "id": "mine"},
        {"subject_id": "Q999999", "predicate": "date of birth", "object": "1952"},
    ]
    with KG.open(str(mini_kg_dir), embedder=FakeEmbedder()) as kg:
        verdicts = check_claims(kg, claims)
        assert [v.claim.id for v in verdicts] == ["line-1", "c2", "mine", "line-4"]
        assert [v.verdict for v in verdicts] == ["REFUTED", "SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]
        assert verdicts[0].corrections == ("11 March 1952",)
        # The same verdicts as the Checker itself on the parsed claims.
        direct = Checker(kg).check([v.claim for v in verdicts])
        assert [(v.verdict, v.confidence, v.reason) for v in direct] == \
            [(v.verdict, v.confidence, v.reason) for v in verdicts]
        assert check_claims(kg, []) == []


def test_check_claims_with_repeated_ids_judges_each_claim(mini_kg):
    from kgcheck import check_claims
    from kgcheck.verifier.model import Claim

    # The Checker keys a batch by claim id: given these three as they are, it judged the second
    # (Belgium's area) with Douglas Adams's candidates and said NOT_ENOUGH_INFO.
    same = [Claim(id="x", subject="Douglas Adams", predicate="place of birth", object="Cambridge"),
            Claim(id="x", subject="Belgium", predicate="area", object="30689 square kilometre"),
            Claim(id="x", subject="Douglas Adams", predicate="place of birth", object="London")]
    verdicts = check_claims(mini_kg, same)
    assert [(v.verdict, v.subject_id) for v in verdicts] == [("SUPPORTED", "Q42"), ("SUPPORTED", "Q31"),
                                                             ("REFUTED", "Q42")]
    assert [v.claim for v in verdicts] == same  # the caller's claims, ids untouched


def test_check_claims_names_the_bad_item_and_checks_nothing(mini_kg):
    from kgcheck import check_claims
    from kgcheck.verifier.errors import VerifierError

    good = {"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"}
    with pytest.raises(VerifierError, match=r"^claim 2: missing or empty object \(keys found: predicate, "
                                            r"subject\); give subject/predicate/object$"):
        check_claims(mini_kg, [good, {"subject": "Douglas Adams", "predicate": "date of birth"}])
    with pytest.raises(VerifierError, match="^claim 1: expected a Claim or a dict, got str$"):
        check_claims(mini_kg, ["Douglas Adams was born in 1952"])
