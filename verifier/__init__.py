"""The verifier: claims and free text checked against an index.

Sub-packages by concern; each may import ``kgcheck.index`` (read side), ``kgcheck.verifier.model``,
``kgcheck.verifier.errors`` and the sub-packages listed before it here, never one listed after it:
``values`` → ``formats`` → ``claims`` → ``llm`` → ``text`` → ``faithfulness`` → ``serve``.
"""
