"""Bulk work runs with fewer garbage collections (verifier/claims/gcpause.py), and gives the threshold back."""
import gc
import threading

import pytest

from kgcheck.verifier.claims.gcpause import YOUNG_THRESHOLD, fewer_collections


@pytest.fixture(autouse=True)
def default_threshold():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_raised_inside_restored_after_even_on_error():
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(RuntimeError):
        with fewer_collections():
            raise RuntimeError("boom")
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_and_concurrent_users_restore_only_when_the_last_leaves():
    inside, leave = threading.Event(), threading.Event()

    def other():
        with fewer_collections():
            inside.set()
            leave.wait(5)

    worker = threading.Thread(target=other)
    with fewer_collections():
        worker.start()
        assert inside.wait(5)
        with fewer_collections():
            pass
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD  # the nested exit gave nothing back
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD  # the thread is still working
    leave.set()
    worker.join(5)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_a_caller_set_is_left_alone():
    gc.set_threshold(50_000, 5, 5)
    with fewer_collections():
        assert gc.get_threshold() == (50_000, 5, 5)
    assert gc.get_threshold() == (50_000, 5, 5)


def test_checking_claims_runs_with_the_raised_threshold(mini_kg, monkeypatch):
    from kgcheck import check_claims
    from kgcheck.verifier.claims import check as check_module

    seen = []
    judge = check_module.Checker._judge_one

    def spy(self, *args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return judge(self, *args, **kwargs)

    monkeypatch.setattr(check_module.Checker, "_judge_one", spy)
    check_claims(mini_kg, [{"subject": "Douglas Adams", "predicate": "date of birth", "object": "1952"}])
    assert seen == [YOUNG_THRESHOLD]
    assert gc.get_threshold() == (700, 10, 10)
