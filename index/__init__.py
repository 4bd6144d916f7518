"""The index: build (label index, property facts, vectors) over an ingested directory, and read it.

Owns ``KG.open(dir)`` — entities, statements, label/alias and vector search, rendering — and
``kgcheck index``. May import ``kgcheck.ingest`` (the table layout it reads); never the verifier.
"""
