"""`kgcheck`: a thin click layer over ingest/, index/ and verifier/; commands by concern in commands/.

Conventions: `--index DIR` (default $KGCHECK_INDEX, else ./data/index); `--json` puts
machine-readable output on stdout, messages go to stderr; exit 0 done, 1 domain error
(one line, no traceback), 2 usage error.
"""
from __future__ import annotations

import os
import re

import click

from kgcheck.commands.common import (embedder_option, emit_json, handle_errors, index_option, json_option, open_kg)
from kgcheck.commands import build as build_commands, claims as claim_commands, serve as serve_commands, text as text_commands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kgcheck")
def main() -> None:
    """Air-gapped fact checking against a local Wikidata index."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no weight-loading bars on stderr
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


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
    with open_kg(index_dir) as kg:
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
    if not re.fullmatch(r"[A-Z]\d+(-[A-Z]\d+)?", entity_id):  # Q42, P19, L7, L7-S1: an id, not a name
        raise click.UsageError(f"give an entity or property id such as Q42 or P19 (not {entity_id[:40]!r}); "
                               "`kgcheck lookup TEXT` finds one by name")
    with open_kg(index_dir) as kg:
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


for _command in (build_commands.ingest, build_commands.index_cmd, build_commands.build, claim_commands.check,
                 claim_commands.eval_cmd, claim_commands.diff_cmd, claim_commands.recheck, text_commands.verify,
                 text_commands.faithfulness, serve_commands.serve, serve_commands.mcp):
    main.add_command(_command)


if __name__ == "__main__":
    main()
