"""Wikidata JSON dump -> Parquet + DuckDB tables of n-ary statements."""
from importlib import metadata

try:
    __version__ = metadata.version("kgcheck")
except metadata.PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
