"""`kgcheck`: a thin click layer over ingest/, index/ and verifier/.

Conventions: `--index DIR` (default $KGCHECK_INDEX, else ./data/index); `--json` puts
machine-readable output on stdout, messages go to stderr; exit 0 done, 1 domain error
(one line, no traceback), 2 usage error.
"""
from __future__ import annotations

import functools
import json
import os
import re
import sys

import click

from kgcheck.verifier.serve.console import (check_summary_lines, eval_lines, faithfulness_lines, index_summary_lines,
                              ingest_summary_lines, text_report_lines)

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

    return wrapper


def index_option(fn):
    return click.option(
        "--index", "index_dir", default=default_index, show_default="$KGCHECK_INDEX or ./data/index",
        type=click.Path(file_okay=False), help="Index directory.",
    )(fn)


def embedder_option(fn):
    """--embedder NAME (entry-point group kgcheck.embedders), kept in the click context for `_embedder()`."""
    return click.option("--embedder", default=None, expose_value=False, show_default="$KGCHECK_EMBEDDER or minilm",
                        callback=lambda ctx, _param, value: ctx.meta.__setitem__("kgcheck.embedder", value),
                        help="Embedder by name: the one the index was built with (plug-ins may add more).")(fn)


def _embedder() -> str | None:
    return click.get_current_context().meta.get("kgcheck.embedder")


def json_option(fn):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON on stdout.")(fn)


def emit_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kgcheck")
def main() -> None:
    """Air-gapped fact checking against a local Wikidata index."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no weight-loading bars on stderr
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def _ingest_options(fn):
    fn = click.option("--workers", type=click.IntRange(0, 256), default=0, help="Worker processes (0: all cores).")(fn)
    fn = click.option("--limit", type=click.IntRange(1), default=None, help="Stop after N entities (smoke runs).")(fn)
    fn = click.option("--languages", default="en", show_default=True,
                      help="Comma-separated label languages; 'mul' is always the fallback.")(fn)
    fn = click.option("--quiet", is_flag=True, help="No progress bar.")(fn)
    fn = click.option("--keep-previous", is_flag=True, help="Keep the replaced build as DIR.previous.")(fn)
    return fn


def _ingest_opts(workers, limit, languages, quiet, keep_previous):
    from kgcheck.ingest.pipeline import IngestOptions

    from kgcheck.ingest.languages import LanguageError, parse_languages

    try:
        langs = parse_languages(languages)
    except LanguageError as exc:
        raise click.BadParameter(str(exc), param_hint="--languages") from exc
    return IngestOptions(workers=workers, limit=limit, languages=langs, quiet=quiet, keep_previous=keep_previous)


def print_ingest_summary(manifest: dict, out: str) -> None:
    from kgcheck.ingest.pipeline import summary_notes

    for line in ingest_summary_lines(manifest, out) + summary_notes(manifest, out):
        click.echo(line, err=True)


@main.command()
@click.argument("dump")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Index directory to build.")
@_ingest_options
@json_option
@handle_errors
def ingest(dump, out, workers, limit, languages, quiet, keep_previous, as_json):
    """Stream a Wikidata JSON dump (.json, .json.gz, .json.bz2 or - for stdin) into tables."""
    from kgcheck.ingest.pipeline import ingest as run_ingest

    manifest = run_ingest(dump, out, _ingest_opts(workers, limit, languages, quiet, keep_previous))
    if as_json:
        emit_json(manifest)
    else:
        print_ingest_summary(manifest, out)



def _open_kg(index_dir: str):
    from kgcheck.index.store import KG

    return KG.open(index_dir, embedder=_embedder())


def _index_options(fn):
    """Scale settings of the index stage (shared by `index` and `build`): see README, full-dump scale."""
    for decl, kw in reversed([
        ("--index-type", dict(type=click.Choice(["flat", "ivfsq8", "ivfpq", "hnsw"]), default=None,
                              help="FAISS index type (default: flat up to 1M vectors, else ivfsq8).")),
        ("--embed", dict(type=click.Choice(["labels", "aliases", "none"]), default="aliases", show_default=True,
                         help="Item texts that get vectors (none: exact and normalised matching only).")),
        ("--embed-min-sitelinks", dict(type=click.IntRange(0), default=0, show_default=True,
                                       help="Embed only items with at least N sitelinks.")),
        ("--device", dict(type=click.Choice(["auto", "cpu", "cuda", "mps"]), default="auto", show_default=True)),
        ("--processes", dict(type=click.IntRange(1, 256), default=1, show_default=True,
                             help="CPU encoding processes (sentence-transformers pool).")),
        ("--memory", dict(default="2GB", show_default=True, help="DuckDB memory limit.")),
        ("--temp-dir", dict(default=None, type=click.Path(file_okay=False), help="DuckDB spill directory.")),
        ("--ray", dict(default=None, is_flag=False, flag_value="auto", metavar="[ADDRESS]",
                       help="Encode on a Ray cluster (ADDRESS, default auto; 'local' starts one).")),
    ]):
        fn = click.option(decl, **kw)(fn)
    return fn


def _build_settings(opts: dict):
    from kgcheck.index.build import BuildSettings

    return BuildSettings(memory=opts["memory"], temp_dir=opts["temp_dir"], embed=opts["embed"],
                         embed_min_sitelinks=opts["embed_min_sitelinks"], index_type=opts["index_type"],
                         ray_address=opts["ray"])


def _index_embedder(opts: dict):
    """The --embedder (default minilm) on --device with --processes, where the embedder takes them."""
    from kgcheck.index.embed import EMBEDDERS, default_embedder_name
    from kgcheck.index.plugins import PluginError

    name = _embedder() or default_embedder_name()
    try:
        return EMBEDDERS.create(name, device=opts["device"], processes=opts["processes"])
    except PluginError as err:
        if "does not take" not in str(err):
            raise
        return EMBEDDERS.create(name)  # a plug-in without device/processes settings


@main.command("index")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--reuse", multiple=True, type=click.Path(file_okay=False),
              help="Another index whose embedding cache to reuse (DIR and DIR.previous are always tried).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@embedder_option
@_index_options
@json_option
@handle_errors
def index_cmd(directory, reuse, quiet, as_json, **opts):
    """Embed labels and aliases into FAISS and build the lookup tables of an ingested DIRECTORY."""
    from kgcheck.index.build import build_index

    embedder = _index_embedder(opts)
    try:
        manifest = build_index(directory, embedder=embedder, reuse=list(reuse), quiet=quiet,
                               settings=_build_settings(opts))
    finally:
        embedder.close()
    _print_index_summary(manifest, as_json)


def _print_index_summary(manifest: dict, as_json: bool) -> None:
    if as_json:
        emit_json(manifest)
        return
    for line in index_summary_lines(manifest):
        click.echo(line, err=True)


@main.command()
@click.argument("dump")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Index directory to build.")
@_ingest_options
@embedder_option
@_index_options
@json_option
@handle_errors
def build(dump, out, workers, limit, languages, quiet, keep_previous, as_json, **opts):
    """Ingest DUMP and index it: the whole index directory in one step, published only when complete."""
    from kgcheck.index.build import build_index
    from kgcheck.ingest.pipeline import ingest as run_ingest
    from kgcheck.ingest.writer import build_staging_dir, publish

    out = os.path.abspath(out)
    staging = build_staging_dir(out)  # also removes those a killed build left behind
    try:
        run_ingest(dump, staging, _ingest_opts(workers, limit, languages, quiet, False))
        embedder = _index_embedder(opts)
        try:
            manifest = build_index(staging, embedder=embedder, reuse=[out], quiet=quiet, settings=_build_settings(opts))
        finally:
            embedder.close()
        publish(staging, out, keep_previous)
    finally:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)
    if as_json:
        emit_json(manifest)
    else:
        print_ingest_summary(manifest, out)
        _print_index_summary(manifest, False)


@main.command()
@click.argument("text")
@index_option
@click.option("-k", "k", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--properties", is_flag=True, help="Search properties instead of entities.")
@embedder_option
@json_option
@handle_errors
def lookup(text, index_dir, k, properties, as_json):
    """Ranked entity (or property) candidates for TEXT."""
    if not text.strip():
        raise click.UsageError("give a non-empty text to look up")
    with _open_kg(index_dir) as kg:
        found = kg.search_properties(text, k) if properties else kg.search_entities(text, k)
    if as_json:
        from dataclasses import asdict

        emit_json([asdict(c) for c in found])
        return
    if not found:
        click.echo(f"no match for {text!r}", err=True)
        return
    for c in found:
        desc = f" - {c.description}" if c.description else ""
        click.echo(f"{c.score:6.3f}  {c.id:<12} {c.label or '(no label)'}{desc}  [{c.matched_by}: {c.matched_text}]")


@main.command()
@click.argument("entity_id")
@index_option
@click.option("--property", "prop", default=None, help="Only statements of this property.")
@click.option("--about", is_flag=True, help="Also list statements whose value is this entity.")
@json_option
@handle_errors
def show(entity_id, index_dir, prop, about, as_json):
    """An entity's statements with qualifiers and references, labels resolved."""
    from kgcheck.index.render import statement_entity_ids
    from kgcheck.verifier.serve.console import entity_dict, entity_lines
    from kgcheck.verifier.errors import VerifierError

    entity_id = entity_id.strip().upper()
    with _open_kg(index_dir) as kg:
        entity = kg.entity(entity_id)
        statements = kg.statements(entity_id, prop)
        incoming = kg.statements_about(entity_id) if about else []
        if entity is None and not statements and not incoming:
            raise VerifierError(f"unknown id {entity_id}: not in this index")
        labels = kg.labels(statement_entity_ids(statements + incoming) | {s.subject for s in incoming})
    if as_json:
        emit_json(entity_dict(entity_id, entity, statements, incoming, labels))
        return
    for line in entity_lines(entity_id, entity, statements, incoming, labels):
        click.echo(line)


class _FormatChoice(click.Choice):
    """The registered claims formats (built-ins, then plug-ins), looked up only when `check` parses them."""

    def __init__(self):
        super().__init__(())

    @property
    def choices(self):
        from kgcheck.verifier.formats.readers import formats

        return tuple(formats())

    @choices.setter
    def choices(self, _value):  # click.Choice.__init__ assigns it
        pass


def _check_options(top_k, tolerance, closed_world=False):
    from kgcheck.verifier.claims.check import CheckOptions

    return CheckOptions(top_k=top_k, rel_tol=tolerance, closed_world=closed_world)


closed_world_option = click.option(
    "--closed-world", is_flag=True, help="Strict reading: any value other than the graph's refutes. Risk: the "
    "graph is incomplete, so true facts it lacks are called false.")


@main.command()
@click.argument("claims_file")
@index_option
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Results: .jsonl (full verdicts), .csv or .parquet (flat rows, by the extension); "
                   "re-running with the same file skips ids already written.")
@click.option("--format", "fmt", type=_FormatChoice(), default=None,
              help="Input format (default: from the extension, then the content).")
@click.option("--top-k", default=3, show_default=True, type=click.IntRange(1, 50), help="Evidence per claim.")
@click.option("--tolerance", default=0.01, show_default=True, type=click.FloatRange(0, 1),
              help="Relative tolerance for quantities.")
@click.option("--no-resume", is_flag=True, help="Overwrite OUTPUT instead of resuming it.")
@click.option("--quiet", is_flag=True, help="No progress bar or summary.")
@click.option("--ray", "ray_address", default=None, is_flag=False, flag_value="auto", metavar="[ADDRESS]",
              help="Check on a Ray cluster whose nodes see the index at the same path.")
@closed_world_option
@embedder_option
@json_option
@handle_errors
def check(claims_file, index_dir, output, fmt, top_k, tolerance, no_resume, quiet, ray_address, closed_world, as_json):
    """Verify structured claims (JSONL, CSV, TSV, N-Triples; - for stdin): one JSON result per claim."""
    from kgcheck.verifier.claims.bulk import refuse_output_as_input, run_bulk
    from kgcheck.verifier.formats.readers import read_claims

    refuse_output_as_input(claims_file, output)  # before reading a byte or touching the output
    items = read_claims(claims_file, fmt)
    with _open_kg(index_dir) as kg:
        stream = None
        if ray_address:
            from functools import partial

            from kgcheck.verifier.claims.distributed import ray_check_stream

            stream = partial(ray_check_stream, kg.directory, options=_check_options(top_k, tolerance, closed_world),
                             address=ray_address)
        summary = run_bulk(kg, items, output, _check_options(top_k, tolerance, closed_world), quiet=quiet or not output,
                           resume=not no_resume, stream=stream, source=claims_file)
    if summary.checked == 0 and summary.bad_lines == 0 and summary.skipped_done == 0:
        raise click.ClickException(f"{claims_file} holds no claims")
    if as_json and output:
        emit_json(summary.to_dict())
    elif not quiet:
        for line in check_summary_lines(summary.to_dict()):
            click.echo(line, err=True)

@main.command("eval")
@click.argument("labelled_file")
@index_option
@click.option("--tolerance", default=0.01, show_default=True, type=click.FloatRange(0, 1))
@click.option("--errors", "errors_out", default=None, type=click.Path(dir_okay=False),
              help="Write the misjudged claims with their verdicts to this JSONL file.")
@click.option("--html", "html_out", default=None, type=click.Path(dir_okay=False),
              help="Also write a self-contained HTML report (confusion matrix, per property, reliability).")
@closed_world_option
@embedder_option
@json_option
@handle_errors
def eval_cmd(labelled_file, index_dir, tolerance, errors_out, html_out, closed_world, as_json):
    """Score the verifier on a labelled claims file (claims-dev format)."""
    from kgcheck.verifier.claims.evaluate import evaluate, write_misjudged

    with _open_kg(index_dir) as kg:
        report, pairs = evaluate(kg, labelled_file, _check_options(3, tolerance, closed_world))
        if html_out:
            from kgcheck.verifier.serve.eval_report import figures, render_eval_html

            labels = kg.labels(p for p, _, _ in figures(pairs)["properties"])
            with open(html_out, "w", encoding="utf-8") as fh:
                fh.write(render_eval_html(report, pairs, labels, title=f"kgcheck eval: {labelled_file}"))
    if errors_out:
        write_misjudged(errors_out, pairs)
    if as_json:
        emit_json(report)
        return
    for line in eval_lines(report):
        click.echo(line)


def _utf8(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})")


@main.command()
@click.argument("text", required=False)
@index_option
@click.option("--file", "file_", type=click.File("rb"), help="Read the text from a file (- = stdin), UTF-8.")
@click.option("--fix", is_flag=True, help="Rewrite refuted claims with the graph's values.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 5), help="Retrofitting rounds.")
@click.option("--enrich", is_flag=True, help="Add the most relevant graph facts (Factum, n = m = 5).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), help="Write an HTML report here.")
@click.option("--llm/--no-llm", "use_llm", default=None, help="Also extract claims with the GGUF model "
              "(default: off, on when --model is given).")
@click.option("--model", default=None, help="Path of a GGUF model (default $KGCHECK_MODEL, then SmolLM2-135M).")
@click.option("--llm-backend", default=None, help="LLM backend by name: llama-cpp (default), openai-local, plug-ins.")
@click.option("--llm-url", default=None, help="OpenAI-compatible endpoint on this host (llama-server), e.g. "
              "http://127.0.0.1:8080/v1; implies --llm-backend openai-local.")
@click.option("--properties", default=None, help="Only claims of these properties (comma-separated ids: P57,P58).")
@closed_world_option
@embedder_option
@json_option
@handle_errors
def verify(text, index_dir, file_, fix, rounds, enrich, html_out, use_llm, model, llm_backend, llm_url, properties,
           closed_world, as_json):
    """Verify free TEXT (or --file, or - for stdin): claims, verdicts, evidence, corrections."""
    from kgcheck.verifier.text.verify import report_to_dict, verify_text

    if text == "-" or (text is None and file_ is None):
        text = _utf8(sys.stdin.buffer.read(), "stdin")
    elif text is None:
        text = _utf8(file_.read(), file_.name)
    if not text.strip():
        raise click.UsageError("give a text to verify (an argument, --file F, or - for stdin)")
    wanted = None
    if properties:
        wanted = {p.strip().upper() for p in properties.split(",") if p.strip()}
        if not all(re.fullmatch(r"P\d+", p) for p in wanted):
            raise click.BadParameter("property ids like P57,P58", param_hint="--properties")
    from kgcheck.verifier.llm.backends import optional_llm

    llm = optional_llm(use_llm, model, lambda note: click.echo(f"note: {note}", err=True), llm_backend, llm_url)
    from kgcheck.verifier.control import Control, watching
    from kgcheck.verifier.serve.console import LONG_TEXT_CHARS, ProgressBars

    with _open_kg(index_dir) as kg, ProgressBars() as bars, \
            watching(Control(on_progress=bars if len(text) >= LONG_TEXT_CHARS else None)):
        from kgcheck.verifier.claims.check import Checker

        checker = Checker(kg, options=_check_options(3, 0.01, closed_world))
        report = verify_text(kg, text, llm=llm, fix=fix, rounds=rounds, enrich=enrich, properties=wanted,
                             checker=checker)
    if html_out:
        from kgcheck.verifier.serve.report import render_html

        with open(html_out, "w", encoding="utf-8") as fh:
            fh.write(render_html(report))
    if as_json:
        emit_json(report_to_dict(report))
        return
    for line in text_report_lines(report):
        click.echo(line)
    if html_out:
        click.echo(f"HTML report: {html_out}", err=True)


@main.command()
@click.option("--reasoning", required=True, type=click.File("r", encoding="utf-8"), help="The chain of thought.")
@click.option("--graph", "graph_file", required=True, type=click.File("r", encoding="utf-8"),
              help="The input subgraph (JSON, JSONL, TSV/CSV or 'h | r | t' lines).")
@click.option("--threshold", default=None, type=click.FloatRange(0, 1), help="Link score under which the score is 0.")
@embedder_option
@json_option
@handle_errors
def faithfulness(reasoning, graph_file, threshold, as_json):
    """Reasoning-faithfulness score: CoT links matched to the input subgraph by embedding similarity."""
    from kgcheck.index.embed import get_embedder
    from kgcheck.verifier.errors import VerifierError
    from kgcheck.verifier.faithfulness import DEFAULT_THRESHOLD, parse_graph, report_to_dict, score_reasoning

    try:
        graph = parse_graph(graph_file.read())
    except ValueError as exc:
        raise VerifierError(f"cannot read the graph: {exc}") from exc
    if not graph:
        raise VerifierError("the graph file holds no edges")
    report = score_reasoning(reasoning.read(), graph, get_embedder(_embedder()),
                             threshold=DEFAULT_THRESHOLD if threshold is None else threshold)
    if as_json:
        emit_json(report_to_dict(report))
        return
    for line in faithfulness_lines(report):
        click.echo(line)


@main.command()
@index_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address (localhost by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--llm/--no-llm", "use_llm", default=False, help="Use the GGUF model for claim extraction.")
@click.option("--model", default=None, help="Path of a GGUF model (a server setting, never a request parameter).")
@click.option("--timeout", default=30.0, show_default=True, type=click.FloatRange(1), help="Seconds per request.")
@click.option("--max-text-chars", default=20_000, show_default=True, type=click.IntRange(1),
              help="Longest /verify text, in characters (413 over it).")
@embedder_option
@handle_errors
def serve(index_dir, host, port, use_llm, model, timeout, max_text_chars):
    """A local HTTP API (/verify, /check, /lookup, /entity/{id}, /health) and a web page at /."""
    import uvicorn

    from kgcheck.verifier.serve.server import create_app

    app = create_app(index_dir, model=model, use_llm=use_llm, request_timeout_s=timeout, embedder=_embedder(),
                     max_text_chars=max_text_chars)
    click.echo(f"kgcheck serving {index_dir} on http://{host}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


@main.command("diff")
@click.argument("old", type=click.Path(file_okay=False))
@click.argument("new", type=click.Path(file_okay=False))
@json_option
@handle_errors
def diff_cmd(old, new, as_json):
    """What changed from index OLD to index NEW: entities, labels, statements by property."""
    from kgcheck.index.diff import diff_indexes
    from kgcheck.verifier.serve.console import diff_lines

    summary = diff_indexes(old, new)
    if as_json:
        emit_json(summary)
        return
    for line in diff_lines(summary):
        click.echo(line)


@main.command()
@click.argument("results", type=click.Path(dir_okay=False, exists=True))
@index_option
@click.option("--old", "old_dir", default=None, type=click.Path(file_okay=False),
              help="The index RESULTS were checked against (default: INDEX.previous, kept by --keep-previous).")
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Updated results (default: RESULTS with .recheck.jsonl).")
@click.option("--top-k", default=3, show_default=True, type=click.IntRange(1, 50))
@click.option("--tolerance", default=0.01, show_default=True, type=click.FloatRange(0, 1))
@embedder_option
@json_option
@handle_errors
def recheck(results, index_dir, old_dir, output, top_k, tolerance, as_json):
    """Re-verify only the RESULTS claims that the changes from --old to --index can reach."""
    from kgcheck.index.diff import IndexDiff
    from kgcheck.verifier.claims.recheck import recheck as run_recheck
    from kgcheck.verifier.serve.console import recheck_lines

    output = output or re.sub(r"(\.jsonl)?$", ".recheck.jsonl", results, count=1)
    if old_dir is None:
        old_dir = os.path.abspath(index_dir).rstrip(os.sep) + ".previous"
        if not os.path.isdir(old_dir):
            raise click.UsageError("give --old DIR, the index RESULTS were checked against (a build with "
                                   "--keep-previous keeps it as INDEX.previous)")
    with IndexDiff(old_dir, index_dir) as diff, _open_kg(index_dir) as kg:
        summary = run_recheck(kg, diff, results, output, _check_options(top_k, tolerance))
    if as_json:
        emit_json({**summary.to_dict(), "output": output})
        return
    for line in recheck_lines(summary.to_dict(max_flips=20), output):
        click.echo(line)


@main.command()
@index_option
@embedder_option
@handle_errors
def mcp(index_dir):
    """A Model Context Protocol server on stdio (tools verify_text, check_claims, lookup_entity, show_entity)."""
    try:
        from kgcheck.verifier.serve.mcp import run_stdio
        import mcp as _sdk  # noqa: F401 - the optional extra
    except ImportError:
        raise click.ClickException("the MCP server needs the mcp extra: pip install 'kgcheck[mcp]'")
    run_stdio(index_dir, embedder=_embedder())


if __name__ == "__main__":
    main()
