"""`kgcheck serve`, `mcp`: the HTTP API and page, and the Model Context Protocol server for local agents.
"""
from __future__ import annotations


import click

from kgcheck.commands.common import (current_embedder, embedder_option, handle_errors, index_option)


@click.command()
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

    app = create_app(index_dir, model=model, use_llm=use_llm, request_timeout_s=timeout, embedder=current_embedder(),
                     max_text_chars=max_text_chars)
    click.echo(f"kgcheck serving {index_dir} on http://{host}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


@click.command()
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
    run_stdio(index_dir, embedder=current_embedder())
