"""`kgcheck eval`: score the verifier on a labelled claims file (the claims-dev format).

Metrics: accuracy; per-verdict precision, recall and F1; C1 (gold SUPPORTED → SUPPORTED,
GPToLODS's "correct and validated"); C3 (gold REFUTED → REFUTED with the correct value
among the corrections, "erroneous and validated"); false-support rate (gold REFUTED or
NOT_ENOUGH_INFO → SUPPORTED); subject-linking accuracy; breakdowns by kind and corruption.
"""
from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from typing import Iterable

import orjson

from kgcheck.index.text import normalise

from kgcheck.verifier.claims.bulk import BATCH
from kgcheck.verifier.claims.check import Checker, CheckOptions
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED, VERDICTS, Claim, Verdict
from kgcheck.verifier.values import DateMatch, compare_dates, parse_date, parse_quantity


MAX_REPORTED = 10  # bad lines named in the error; the rest are counted


def read_labelled(path: str) -> list[tuple[Claim, dict]]:
    """The labelled claims of PATH. A line that is not one (not JSON, not an object, no valid label, not a
    claim) refuses the whole file — a score over what is left would not be the file's — naming every such
    line (the first MAX_REPORTED, and how many)."""
    from kgcheck.verifier.formats.readers import parse_claim_dict

    rows, bad = [], []
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise VerifierError(f"cannot read {path}: {exc.strerror}") from exc
    with fh:
        for n, line in enumerate(fh, 1):
            if n == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]  # a byte-order mark an editor put first
            if not line.strip():
                continue
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                bad.append(f"line {n}: not JSON ({exc})")
                continue
            if not isinstance(obj, dict):
                bad.append(f"line {n}: not a JSON object")
                continue
            if obj.get("label") not in VERDICTS:
                bad.append(f"line {n}: 'label' must be one of {', '.join(VERDICTS)}")
                continue
            try:
                claim = parse_claim_dict(obj, n)
            except VerifierError as exc:
                bad.append(f"line {n}: {exc}")
                continue
            # Gold ids are for scoring only: the verifier must link the text itself.
            rows.append((Claim(id=claim.id, subject=claim.subject, predicate=claim.predicate, object=claim.object,
                               qualifiers=claim.qualifiers, source_line=n), obj))
    if bad:
        more = f"; and {len(bad) - MAX_REPORTED} more" if len(bad) > MAX_REPORTED else ""
        what = "1 line is not a labelled claim" if len(bad) == 1 else f"{len(bad)} lines are not labelled claims"
        raise VerifierError(f"{path}: {what}, nothing scored: " + "; ".join(bad[:MAX_REPORTED]) + more)
    if not rows:
        raise VerifierError(f"{path} holds no labelled claims")
    return rows


def correction_matches(gold: dict, verdict: Verdict) -> bool:
    """Is the gold correct value among the verdict's corrections (by id, date, number or name)?"""
    if gold.get("correct_id") and gold["correct_id"] in verdict.correction_ids:
        return True
    correct = gold.get("correct")
    if not correct:
        return False
    for offered in verdict.corrections:
        if normalise(offered) == normalise(correct):
            return True
        want, got = parse_date(correct), parse_date(offered)
        if want and got and gold.get("kind") == "date":
            if compare_dates(want, got.to_time(), got.precision) in (DateMatch.EQUAL, DateMatch.CLAIM_LESS_PRECISE,
                                                                     DateMatch.CLAIM_MORE_PRECISE):
                return True
        want_q, got_q = parse_quantity(correct), parse_quantity(offered)
        if want_q and got_q and abs(want_q.amount - got_q.amount) <= _stated_precision(correct, want_q.amount):
            return True
    return False


def _stated_precision(text: str, amount: float) -> float:
    """Half a unit of the last decimal the gold value states: "53.42" is 53.419789 written to 2 places."""
    digits = re.search(r"\d[\d,]*(?:\.(\d+))?", text)
    decimals = len(digits.group(1)) if digits and digits.group(1) else 0
    return max(0.5 * 10 ** -decimals, 1e-6 * max(1.0, abs(amount)))


def _prf(confusion: Counter, label: str) -> dict:
    tp = confusion[(label, label)]
    predicted = sum(n for (g, p), n in confusion.items() if p == label)
    actual = sum(n for (g, p), n in confusion.items() if g == label)
    precision = tp / predicted if predicted else 0.0
    recall = tp / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4), "support": actual}


def score(pairs: Iterable[tuple[dict, Verdict]]) -> dict:
    confusion: Counter = Counter()
    by_kind: dict[str, Counter] = defaultdict(Counter)
    by_corruption: dict[str, Counter] = defaultdict(Counter)
    c1 = c3 = refuted = supported = not_supported = false_support = linked = with_gold_subject = 0
    for gold, verdict in pairs:
        label, got = gold["label"], verdict.verdict
        confusion[(label, got)] += 1
        by_kind[gold.get("kind") or "?"]["correct" if got == label else "wrong"] += 1
        if gold.get("corruption"):
            by_corruption[gold["corruption"]]["correct" if got == label else "wrong"] += 1
        if gold.get("subject_id"):
            with_gold_subject += 1
            linked += verdict.subject_id == gold["subject_id"]
        if label == SUPPORTED:
            supported += 1
            c1 += got == SUPPORTED
        else:
            not_supported += 1
            false_support += got == SUPPORTED
        if label == REFUTED:
            refuted += 1
            c3 += got == REFUTED and correction_matches(gold, verdict)
    total = sum(confusion.values())
    return {
        "claims": total,
        "accuracy": round(sum(confusion[(v, v)] for v in VERDICTS) / total, 4) if total else 0.0,
        "per_verdict": {v: _prf(confusion, v) for v in VERDICTS},
        "C1": round(c1 / supported, 4) if supported else None,
        "C3": round(c3 / refuted, 4) if refuted else None,
        "false_support": round(false_support / not_supported, 4) if not_supported else None,
        "subject_linking": round(linked / with_gold_subject, 4) if with_gold_subject else None,
        "confusion": {f"{g}->{p}": n for (g, p), n in sorted(confusion.items())},
        "by_kind": {k: round(c["correct"] / (c["correct"] + c["wrong"]), 4) for k, c in sorted(by_kind.items())},
        "by_corruption": {k: round(c["correct"] / (c["correct"] + c["wrong"]), 4)
                          for k, c in sorted(by_corruption.items())},
    }


def evaluate(kg, path: str, options: CheckOptions = CheckOptions(), batch: int = BATCH) -> tuple[dict, list]:
    rows = read_labelled(path)
    checker = Checker(kg, options=options)
    checker.facts.prefetch_predicates({c.predicate for c, _ in rows})  # loads the model before timing
    started = time.monotonic()
    verdicts: list[Verdict] = []
    for i in range(0, len(rows), batch):
        verdicts.extend(checker.check([c for c, _ in rows[i:i + batch]]))
    seconds = time.monotonic() - started
    report = score(zip((g for _, g in rows), verdicts))
    report["seconds"] = round(seconds, 3)
    report["claims_per_second"] = round(len(rows) / seconds, 1) if seconds else None
    return report, list(zip((g for _, g in rows), verdicts))


def write_misjudged(path: str, pairs: list[tuple[dict, Verdict]]) -> None:
    """The claims whose verdict differs from the label, as JSONL {gold, got}."""
    from kgcheck.verifier.formats.serialize import verdict_to_dict

    with open(path, "wb") as fh:
        for gold, verdict in pairs:
            if gold["label"] != verdict.verdict:
                fh.write(orjson.dumps({"gold": gold, "got": verdict_to_dict(verdict)}) + b"\n")


__all__ = ["evaluate", "write_misjudged", "score", "correction_matches", "read_labelled", "NOT_ENOUGH_INFO"]
