"""`kgcheck check`, `eval`, `diff`, `recheck`: structured claims in bulk, scored, and re-checked after a rebuild.
"""
from __future__ import annotations

import os
import re

import click

from kgcheck.verifier.serve.console import (check_summary_lines, eval_lines)
from kgcheck.commands.common import (check_options, closed_world_option, embedder_option, emit_json, handle_errors, index_option, json_option, open_kg)


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


@click.command()
@click.argument("claims_file")
@index_option
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Results: .jsonl (full verdicts), .csv or .parquet (flat rows, by the extension); "
                   "re-running with the same file skips ids already written. Default or -: standard output.")
@click.option("--format", "fmt", type=_FormatChoice(), default=None,
              help="Input format (default: from the extension, then the content).")
@click.option("--top-k", default=3, show_default=True, type=click.IntRange(1, 50), help="Evidence per claim.")
@click.option("--tolerance", default=0.01, show_default=True, type=click.FloatRange(0, 1),
              help="Relative tolerance for quantities.")
@click.option("--no-resume", is_flag=True, help="Overwrite OUTPUT instead of resuming it.")
@click.option("--no-recheck-keys", is_flag=True,
              help="Do not save OUTPUT.rekeys.parquet beside a .jsonl OUTPUT (what a later `kgcheck recheck` reads "
                   "instead of parsing every result: a few % of this run's time).")
@click.option("--quiet", is_flag=True, help="No progress bar or summary.")
@click.option("--ray", "ray_address", default=None, is_flag=False, flag_value="auto", metavar="[ADDRESS]",
              help="Check on a Ray cluster whose nodes see the index at the same path.")
@closed_world_option
@embedder_option
@json_option
@handle_errors
def check(claims_file, index_dir, output, fmt, top_k, tolerance, no_resume, no_recheck_keys, quiet, ray_address,
          closed_world, as_json):
    """Verify structured claims (JSONL, CSV, TSV, N-Triples; - for stdin): one JSON result per claim."""
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.formats.writers import refuse_output_as_input
    from kgcheck.verifier.formats.readers import read_claims

    output = None if output == "-" else output  # standard output, as "-" is standard input
    refuse_output_as_input(claims_file, output)  # before reading a byte or touching the output
    items = read_claims(claims_file, fmt)
    with open_kg(index_dir) as kg:
        stream = None
        if ray_address:
            from functools import partial

            from kgcheck.verifier.claims.distributed import ray_check_stream

            stream = partial(ray_check_stream, kg.directory, options=check_options(top_k, tolerance, closed_world),
                             address=ray_address)
        summary = run_bulk(kg, items, output, check_options(top_k, tolerance, closed_world), quiet=quiet or not output,
                           resume=not no_resume, stream=stream, source=claims_file, save_keys=not no_recheck_keys)
    if summary.checked == 0 and summary.bad_lines == 0 and summary.skipped_done == 0:
        raise click.ClickException(f"{claims_file} holds no claims")
    if as_json and output:
        emit_json(summary.to_dict())
    elif not quiet:
        for line in check_summary_lines(summary.to_dict()):
            click.echo(line, err=True)

@click.command("eval")
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
    from kgcheck.verifier.formats.writers import refuse_foreign_output, refuse_output_as_input

    for out, kind in ((errors_out, "misjudged"), (html_out, "report")):
        refuse_output_as_input(labelled_file, out, "the labelled file")
        refuse_foreign_output(out, kind)
    if errors_out and html_out and os.path.abspath(errors_out) == os.path.abspath(html_out):
        raise click.UsageError("--errors and --html name the same file")

    with open_kg(index_dir) as kg:
        report, pairs = evaluate(kg, labelled_file, check_options(3, tolerance, closed_world))
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


@click.command("diff")
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


@click.command()
@click.argument("results", type=click.Path(dir_okay=False, exists=True))
@index_option
@click.option("--old", "old_dir", default=None, type=click.Path(file_okay=False),
              help="The index RESULTS were checked against (default: INDEX.previous, kept by --keep-previous).")
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Updated results (default: RESULTS with .recheck.jsonl).")
@click.option("--top-k", default=3, show_default=True, type=click.IntRange(1, 50))
@click.option("--tolerance", default=0.01, show_default=True, type=click.FloatRange(0, 1))
@closed_world_option
@embedder_option
@json_option
@handle_errors
def recheck(results, index_dir, old_dir, output, top_k, tolerance, closed_world, as_json):
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
    with IndexDiff(old_dir, index_dir) as diff, open_kg(index_dir) as kg:
        summary = run_recheck(kg, diff, results, output, check_options(top_k, tolerance, closed_world))
    if as_json:
        emit_json({**summary.to_dict(), "output": output})
        return
    for line in recheck_lines(summary.to_dict(max_flips=20), output):
        click.echo(line)
