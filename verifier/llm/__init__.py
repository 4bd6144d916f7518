"""Local LLM backends (schema-constrained JSON) and the prompts that use them.

Owns the LLM protocol, its backends and the steps that ask a model (triples, candidate choice,
smoothing). A model proposes; it never judges. May import ``verifier.model`` and ``verifier.errors``.
"""
