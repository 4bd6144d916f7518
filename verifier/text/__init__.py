"""Free text: sentences → mentions → readers → one claim per span and property → verdicts.

Owns reading claims out of prose, resolving who "the film" is, the Factuality Degree and the
corrected text. May import ``kgcheck.index``, ``verifier.values``, ``verifier.claims`` and
``verifier.llm`` (the optional second reader); never ``serve``.
"""
