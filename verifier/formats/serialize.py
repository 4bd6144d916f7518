"""JSON forms of verdicts: one object per claim with id, verdict, confidence, evidence, corrections."""
from __future__ import annotations

from dataclasses import fields

from kgcheck.verifier.model import BadClaim, Evidence, Verdict

# Every field but the nested ones is a str, float or None: read them as they are (dataclasses.asdict copies
# each value recursively, a tenth of a millisecond per verdict, as long as checking a claim).
_FLAT_EVIDENCE = tuple(f.name for f in fields(Evidence) if f.name not in ("qualifiers", "references"))


def evidence_to_dict(ev: Evidence) -> dict:
    d = {name: getattr(ev, name) for name in _FLAT_EVIDENCE}
    d["qualifiers"] = [{"property": p, "value": v} for p, v in ev.qualifiers]
    d["references"] = [[{"property": p, "value": v} for p, v in ref] for ref in ev.references]
    return d


def verdict_to_dict(v: Verdict) -> dict:
    c = v.claim
    return {
        "id": c.id,
        "verdict": v.verdict,
        "confidence": v.confidence,
        "rule": v.rule,
        "reason": v.reason,
        "claim": {"subject": c.subject, "predicate": c.predicate, "object": c.object,
                  "subject_id": c.subject_id, "property_id": c.property_id, "object_id": c.object_id,
                  "qualifiers": [list(q) for q in c.qualifiers], "kind": c.kind},
        "subject_id": v.subject_id,
        "property_ids": list(v.property_ids),
        "evidence": [evidence_to_dict(e) for e in v.evidence],
        "corrections": list(v.corrections),
        "correction_ids": [i for i in v.correction_ids if i],
        "error": v.error,
        "exclusivity": v.exclusivity,
    }


def bad_claim_to_dict(b: BadClaim) -> dict:
    return {"id": b.id, "verdict": None, "error": b.error, "line": b.line, "raw": b.raw}
