"""Fuzzing `check` over mutated claim files and the HTTP API over random requests (issue 17), a bounded
number of examples here; `python bench/fuzz_claims.py` runs a longer campaign of the same checks."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz_claims import check_claim_file, check_http, claim_files, http_requests
from kgcheck.index.embed import FakeEmbedder


@pytest.fixture(scope="module")
def kg(mini_kg_dir):
    from kgcheck.index.store import KG

    with KG.open(str(mini_kg_dir), embedder=FakeEmbedder()) as kg:
        yield kg


@pytest.fixture(scope="module")
def client(mini_kg_dir):
    pytest.importorskip("fastapi", reason="fastapi is not installed")
    from fastapi.testclient import TestClient

    from kgcheck.verifier.serve.server import create_app

    return TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder(), max_body_bytes=50_000,
                                 max_text_chars=2_000), raise_server_exceptions=False)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=claim_files())
def test_any_claim_file_is_checked_line_for_line_and_left_untouched(kg, case):
    check_claim_file(kg, case)


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(request=http_requests())
def test_no_request_gets_a_500(client, request):
    check_http(client, request)
