"""Claim files in and results out: JSONL / CSV / TSV / N-Triples readers, JSON forms of verdicts.

Owns turning bytes a user hands over into Claims (or per-line BadClaims) and verdicts into records.
May import ``kgcheck.index.text``, ``verifier.model`` and ``verifier.errors`` only.
"""
