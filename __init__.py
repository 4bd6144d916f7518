"""kgcheck: an air-gapped fact checker over a local Wikidata index.

The repository root is this package (``package-dir = {kgcheck = "."}`` in pyproject.toml), so the
folders you see — ``ingest/``, ``index/``, ``verifier/``, ``cli.py`` — are ``kgcheck.ingest``,
``kgcheck.index``, ``kgcheck.verifier`` and ``kgcheck.cli``. Data flows one way:
ingest → index → verifier → cli / serve.

The Python API (names are imported lazily, so ``import kgcheck`` stays cheap)::

    from kgcheck import KG, Checker, verify_text, check_claims

    with KG.open("data/index") as kg:
        verdicts = check_claims(kg, [{"subject": "Douglas Adams", "predicate": "date of birth",
                                      "object": "1962"}])
        report = verify_text(kg, "Douglas Adams was born in 1962.")
"""
from __future__ import annotations

_API = {
    "KG": "kgcheck.index.store",
    "Checker": "kgcheck.verifier.claims.check",
    "CheckOptions": "kgcheck.verifier.claims.check",
    "check_claims": "kgcheck.verifier.claims.bulk",
    "verify_text": "kgcheck.verifier.text.verify",
    "Claim": "kgcheck.verifier.model",
    "Verdict": "kgcheck.verifier.model",
    "Evidence": "kgcheck.verifier.model",
}
__all__ = sorted(_API)


def __getattr__(name: str):
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'kgcheck' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
