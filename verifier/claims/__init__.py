"""Structured checking: link → retrieve (GPToLODS rules A/B/C) → compare → judge; bulk runs; eval.

Owns the Checker, the typed comparison of a claimed value with a statement, property facts
(exclusivity, hierarchy) and the verdict rules. May import ``kgcheck.index``, ``verifier.model``,
``verifier.errors``, ``verifier.values`` and ``verifier.formats``; never ``text``, ``llm`` or ``serve``.
"""
