"""What every kgcheck command shares: the index and embedder options, --json, and the mapping of
domain errors to one-line messages and exit codes (0 done, 1 domain error, 2 usage, 130 Ctrl-C).
"""
from __future__ import annotations

import functools
import json
import os
import sys

import click


DEFAULT_INDEX = os.path.join("data", "index")


def default_index() -> str:
    return os.environ.get("KGCHECK_INDEX") or DEFAULT_INDEX


def domain_errors() -> tuple[type[Exception], ...]:
    """Every error a user can cause; imported lazily so `kgcheck --help` stays fast."""
    import importlib

    errors: list[type[Exception]] = [FileNotFoundError, PermissionError]
    for module, name in (("kgcheck.index.plugins", "PluginError"), ("kgcheck.ingest.dump", "DumpError"),
                         ("kgcheck.ingest.pipeline", "IngestError"), ("kgcheck.index.store", "IndexError_"),
                         ("kgcheck.index.distributed", "RayUnavailable"), ("kgcheck.verifier.errors", "VerifierError"),
                         ("kgcheck.verifier.llm.backends", "LLMError")):
        try:
            errors.append(getattr(importlib.import_module(module), name))
        except ImportError:  # a part whose optional dependencies are missing raises none of its errors
            pass
    return tuple(errors)


def _out_of_memory(exc: BaseException) -> bool:
    """DuckDB's OutOfMemoryException, recognised without importing duckdb into the CLI layer."""
    return type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb") and "OutOfMemory" in type(exc).__name__


def handle_errors(fn):
    """Map domain errors to a one-line message and exit code 1; Ctrl-C to 130."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("kgcheck: interrupted; nothing was published", err=True)
            sys.exit(130)
        except domain_errors() as exc:
            click.echo(f"kgcheck: error: {exc}", err=True)
            sys.exit(1)
        except OSError as exc:  # an output under a file ('--out afile/sub'), a full disk...: one line, no traceback
            if isinstance(exc, NotADirectoryError):
                message = f"{exc.filename}: part of this path is a file, not a directory"
            elif isinstance(exc, FileExistsError):
                message = f"{exc.filename} exists and is not a directory"
            else:
                message = f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)
            click.echo(f"kgcheck: error: {message}", err=True)
            sys.exit(1)
        except Exception as exc:
            if not _out_of_memory(exc):
                raise
            # DuckDB's operators that cannot spill stop at the memory limit: say which setting moves it.
            where = "".join(f"; {note}" for note in getattr(exc, "__notes__", ()))
            click.echo("kgcheck: error: DuckDB ran out of memory at its limit (index and build: `--memory`): "
                       f"raise it, or give --temp-dir a disk with room ({str(exc).splitlines()[0]}{where})", err=True)
            sys.exit(1)

    return wrapper


def index_option(fn):
    return click.option(
        "--index", "index_dir", default=default_index, show_default="$KGCHECK_INDEX or ./data/index",
        type=click.Path(file_okay=False), help="Index directory.",
    )(fn)


def embedder_option(fn):
    """--embedder NAME (entry-point group kgcheck.embedders), kept in the click context for `current_embedder()`."""
    return click.option("--embedder", default=None, expose_value=False, show_default="$KGCHECK_EMBEDDER or minilm",
                        callback=lambda ctx, _param, value: ctx.meta.__setitem__("kgcheck.embedder", value),
                        help="Embedder by name: the one the index was built with (plug-ins may add more).")(fn)


def current_embedder() -> str | None:
    return click.get_current_context().meta.get("kgcheck.embedder")


def json_option(fn):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON on stdout.")(fn)


def emit_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))



def open_kg(index_dir: str):
    from kgcheck.index.store import KG

    return KG.open(index_dir, embedder=current_embedder())


def check_options(top_k, tolerance, closed_world=False):
    from kgcheck.verifier.claims.check import CheckOptions

    return CheckOptions(top_k=top_k, rel_tol=tolerance, closed_world=closed_world)


closed_world_option = click.option(
    "--closed-world", is_flag=True, help="Strict reading: any value other than the graph's refutes. Risk: the "
    "graph is incomplete, so true facts it lacks are called false.")
