"""`kgcheck verify`, `faithfulness`: free text and chains of thought.
"""
from __future__ import annotations

import re
import sys

import click

from kgcheck.verifier.serve.console import (faithfulness_lines, text_report_lines)
from kgcheck.commands.common import (check_options, closed_world_option, current_embedder, embedder_option, emit_json, handle_errors, index_option, json_option, open_kg)


def _utf8(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})")


@click.command()
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
@click.option("--about", default=None, help="What the text is about (an entity id or name: the question it answers); "
              "its pronouns, unplaced descriptions ('The journal ...') and sentences without a subject stand for it.")
@closed_world_option
@embedder_option
@json_option
@handle_errors
def verify(text, index_dir, file_, fix, rounds, enrich, html_out, use_llm, model, llm_backend, llm_url, properties,
           about, closed_world, as_json):
    """Verify free TEXT (or --file, or - for stdin): claims, verdicts, evidence, corrections."""
    from kgcheck.verifier.formats.writers import refuse_foreign_output, refuse_output_as_input
    from kgcheck.verifier.text.verify import report_to_dict, verify_text

    if html_out:  # the text read from stdin or --file must not be where the report goes
        from_stdin = text == "-" or (text is None and (file_ is None or file_.name == "<stdin>"))
        refuse_output_as_input("-" if from_stdin else file_.name if text is None else None, html_out, "the input text")
        refuse_foreign_output(html_out, "report")
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

    with open_kg(index_dir) as kg, ProgressBars() as bars, \
            watching(Control(on_progress=bars if len(text) >= LONG_TEXT_CHARS else None)):
        from kgcheck.verifier.claims.check import Checker

        checker = Checker(kg, options=check_options(3, 0.01, closed_world))
        report = verify_text(kg, text, llm=llm, fix=fix, rounds=rounds, enrich=enrich, properties=wanted,
                             checker=checker, about=about)
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


@click.command()
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
    report = score_reasoning(reasoning.read(), graph, get_embedder(current_embedder()),
                             threshold=DEFAULT_THRESHOLD if threshold is None else threshold)
    if as_json:
        emit_json(report_to_dict(report))
        return
    for line in faithfulness_lines(report):
        click.echo(line)
