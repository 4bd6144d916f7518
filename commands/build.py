"""`kgcheck ingest`, `index`, `build`: from a dump to a published index directory.
"""
from __future__ import annotations

import os

import click

from kgcheck.verifier.serve.console import (index_summary_lines,
                              ingest_summary_lines)
from kgcheck.commands.common import (current_embedder, embedder_option, emit_json, handle_errors, json_option)


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


@click.command()
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


def _save_changes(current: str, staging: str, quiet: bool) -> None:
    """What changed since the build about to become OUT.previous, saved in the new build (index/diff.py), so that
    `kgcheck diff` and `kgcheck recheck` of the pair read it instead of comparing both builds again."""
    from kgcheck.index.diff import save_changes
    from kgcheck.index.manifest import IndexError_
    from kgcheck.verifier.claims.remeasure import save_measure_changes

    if not os.path.isfile(os.path.join(current, "manifest.json")):
        return  # nothing replaced
    try:
        summary = save_changes(current, staging, extra=save_measure_changes)
    except (IndexError_, OSError) as exc:  # an older build, a full disk: recheck compares the two when asked
        if not quiet:
            click.echo(f"changes since the previous build not saved: {exc}", err=True)
        return
    if not quiet:
        st = summary["statements"]
        click.echo(f"changes since the previous build saved: statements +{st['added']:,} -{st['removed']:,} "
                   f"~{st['changed']:,}", err=True)


def _index_embedder(opts: dict):
    """The --embedder (default minilm) on --device with --processes, where the embedder takes them."""
    from kgcheck.index.embed import EMBEDDERS, default_embedder_name
    from kgcheck.index.plugins import PluginError

    name = current_embedder() or default_embedder_name()
    try:
        return EMBEDDERS.create(name, device=opts["device"], processes=opts["processes"])
    except PluginError as err:
        if "does not take" not in str(err):
            raise
        return EMBEDDERS.create(name)  # a plug-in without device/processes settings


@click.command("index")
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


@click.command()
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
    from kgcheck.ingest.writer import build_staging_dir, check_publishable, publish

    out = os.path.abspath(out)
    check_publishable(out, keep_previous)  # before an hour of work, not after
    staging = build_staging_dir(out)  # also removes those a killed build left behind
    try:
        run_ingest(dump, staging, _ingest_opts(workers, limit, languages, quiet, False))
        embedder = _index_embedder(opts)
        try:
            manifest = build_index(staging, embedder=embedder, reuse=[out], quiet=quiet, settings=_build_settings(opts))
        finally:
            embedder.close()
        if keep_previous:
            _save_changes(out, staging, quiet)
        publish(staging, out, keep_previous)
    finally:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)
    if as_json:
        emit_json(manifest)
    else:
        print_ingest_summary(manifest, out)
        _print_index_summary(manifest, False)
