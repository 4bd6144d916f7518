"""`kgcheck mcp`: the SDK's own client talks to the server over stdio (a subprocess on the mini index)."""
from __future__ import annotations

import sys

import anyio
import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

# The server process gets the FakeEmbedder the mini index was built with (no model to load).
LAUNCH = ("import sys; from kgcheck.index.embed import FakeEmbedder; "
          "from kgcheck.verifier.serve.mcp import create_server; "
          "create_server(sys.argv[1], embedder=FakeEmbedder()).run('stdio')")


def _params(index_dir) -> StdioServerParameters:
    import os

    import kgcheck

    root = os.path.dirname(os.path.dirname(kgcheck.__file__))  # the parent of the package directory
    return StdioServerParameters(command=sys.executable, args=["-c", LAUNCH, str(index_dir)],
                                 env={"PYTHONPATH": root, "HF_HUB_OFFLINE": "1"})


async def _session(index_dir):
    out = {}
    async with Client(_params(index_dir), read_timeout_seconds=120) as client:
        out["tools"] = (await client.list_tools()).tools
        out["check"] = await client.call_tool("check_claims", {"claims": [
            {"subject": "Douglas Adams", "predicate": "date of birth", "object": "11 March 1952",
             "subject_id": "Q42", "property_id": "P569"},
            {"subject": "Douglas Adams", "predicate": "date of birth", "object": "1960",
             "subject_id": "Q42", "property_id": "P569"}]})
        out["verify"] = await client.call_tool("verify_text", {"text": "Douglas Adams was born in 1962.",
                                                                "fix": True})
        out["about"] = await client.call_tool("verify_text", {"text": "He was born in 1962.", "about": "Q42"})
        out["about_unknown"] = await client.call_tool("verify_text", {"text": "He was born in 1962.",
                                                                      "about": "Zzyzx Qwerty"})
        out["lookup"] = await client.call_tool("lookup_entity", {"query": "Douglas Adams", "k": 3})
        out["show"] = await client.call_tool("show_entity", {"entity_id": "Q42", "property": "P569"})
        out["unknown"] = await client.call_tool("show_entity", {"entity_id": "Q123456789"})
        out["bad_arg"] = await client.call_tool("lookup_entity", {"query": "x", "k": "many"})
        out["missing"] = await client.call_tool("check_claims", {})
        out["after"] = await client.call_tool("lookup_entity", {"query": "Cambridge"})  # still serving
    return out


@pytest.fixture(scope="module")
def session(mini_kg_dir):
    return anyio.run(_session, mini_kg_dir)


def test_tools_are_listed_with_input_and_output_schemas(session):
    tools = {t.name: t for t in session["tools"]}
    assert set(tools) == {"verify_text", "check_claims", "lookup_entity", "show_entity"}
    assert tools["check_claims"].input_schema["required"] == ["claims"]
    assert "verdict" in str(tools["check_claims"].output_schema)
    assert "factuality_degree" in tools["verify_text"].output_schema["properties"]


def test_check_claims_returns_verdicts_with_evidence_statement_ids(session):
    res = session["check"]
    assert not res.is_error
    results = res.structured_content["results"]
    assert results[0]["verdict"] == "SUPPORTED"
    assert results[0]["evidence"][0]["statement_id"] == "Q42$fixture-1"
    assert results[1]["verdict"] == "REFUTED" and results[1]["corrections"]
    assert res.structured_content["counts"]["SUPPORTED"] == 1


def test_verify_text_lookup_and_show(session):
    verify = session["verify"].structured_content
    assert not session["verify"].is_error and verify["factuality_degree"] == 0.0
    claim = verify["claims"][0]
    assert (claim["span"], claim["verdict"]) == ("1962", "REFUTED") and claim["corrections"] == ["11 March 1952"]
    assert claim["evidence"][0]["statement_id"] == "Q42$fixture-1" and "1952" in verify["fixed_text"]
    assert session["lookup"].structured_content["candidates"][0]["id"] == "Q42"
    show = session["show"].structured_content
    assert show["id"] == "Q42" and [s["statement_id"] for s in show["statements"]] == ["Q42$fixture-1"]


def test_verify_text_about_a_topic(session):
    about = session["about"].structured_content
    assert not session["about"].is_error
    assert [(c["span"], c["verdict"]) for c in about["claims"]] == [("1962", "REFUTED")]
    assert session["about_unknown"].is_error and "no entity named 'Zzyzx Qwerty'" in str(session["about_unknown"].content)


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(session):
    for name in ("unknown", "bad_arg", "missing"):
        assert session[name].is_error, name
    assert "unknown id Q123456789" in str(session["unknown"].content)
    assert not session["after"].is_error and session["after"].structured_content["candidates"]


def test_cli_mcp_reports_a_missing_index(tmp_path):
    from click.testing import CliRunner

    from kgcheck.cli import main

    res = CliRunner().invoke(main, ["mcp", "--index", str(tmp_path / "none")])
    assert res.exit_code == 1 and "no index" in res.output
