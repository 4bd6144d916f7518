"""What an index directory says about itself: its manifest, schema versions, and whether it can be read.

Both the build side (index/build.py) and the read side (store.py, search.py, the verifier) import this,
so neither imports the other.
"""
from __future__ import annotations

import json
import os

from kgcheck.ingest.writer import MANIFEST, SCHEMA_VERSION

INDEX_SCHEMA_VERSION = 3  # 2: tables read in place, lookup.sqlite, sharded vectors, texts.sqlite; 3: measure tables


class IndexError_(Exception):
    """The index directory is missing, incomplete, or from another schema or model."""


VECTORS_DIR = "vectors"


def read_manifest(directory: str) -> dict:
    path = os.path.join(directory, MANIFEST)
    if not os.path.isfile(path):
        raise IndexError_(f"{directory} is not a kgcheck index (no {MANIFEST}); build one with `kgcheck build`")
    with open(path, encoding="utf-8") as fh:
        manifest = json.load(fh)
    if manifest.get("schema_version") != SCHEMA_VERSION:
        raise IndexError_(
            f"{directory} was built with table schema {manifest.get('schema_version')}, this kgcheck reads "
            f"schema {SCHEMA_VERSION}: rebuild it with `kgcheck build`"
        )
    return manifest


def check_index_compatible(manifest: dict, embedder_name: str | None) -> None:
    info = manifest.get("index")
    if info is None:
        raise IndexError_("this directory has tables but no search index: run `kgcheck index DIR`")
    if info.get("index_schema_version") != INDEX_SCHEMA_VERSION:
        raise IndexError_(f"index schema {info.get('index_schema_version')} is not {INDEX_SCHEMA_VERSION}: "
                          "run `kgcheck index DIR` again")
    if embedder_name and info.get("model") != embedder_name:
        raise IndexError_(f"index was built with model {info.get('model')!r}, not {embedder_name!r}: "
                          "run `kgcheck index DIR` with the same model")
