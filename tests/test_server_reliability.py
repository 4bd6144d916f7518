"""Issue 17, server half: bodies that used to give 500, work that outlived its time cap, the text cap,
content types, and the request/response models in /openapi.json."""
from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("fastapi", reason="fastapi is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from kgcheck.index.embed import FakeEmbedder  # noqa: E402
from kgcheck.verifier.control import checkpoint  # noqa: E402
from kgcheck.verifier.serve.server import create_app  # noqa: E402

JSON = {"content-type": "application/json"}
DEMO = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara."


@pytest.fixture(scope="module")
def client(mini_kg_dir):
    return TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder(), max_body_bytes=100_000,
                                 max_text_chars=2_000), raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/verify", "/check"])
@pytest.mark.parametrize("body", [b"[" * 10_000 + b"]" * 10_000, b'{"text": ' * 5_000 + b'"x"' + b"}" * 5_000,
                                  b'{"text": "\\ud83d Douglas Adams"}', b'[{"subject": "\\udc00", "predicate": "p", '
                                                                         b'"object": "o"}]',
                                  b'{"text": "\xed\xa0\xbd"}', b"\xff\xfe", b""])
def test_deep_nesting_and_lone_surrogates_are_400_not_500(client, path, body):
    res = client.post(path, content=body, headers=JSON)
    assert res.status_code == 400, res.text
    assert "not valid JSON" in res.json()["error"]


@pytest.mark.parametrize("headers", [{"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"},
                                     {"content-type": "multipart/form-data; boundary=x"}, {}])
def test_only_json_bodies_are_accepted(client, headers):
    res = client.post("/verify", content=b'{"text": "Douglas Adams was born in 1952."}', headers=headers)
    assert res.status_code == 415 and "application/json" in res.json()["error"]
    assert client.post("/verify", content=b'{"text": "Douglas Adams was born in 1952."}',
                       headers={"content-type": "application/json; charset=utf-8"}).status_code == 200


def test_text_cap_is_in_characters(client):
    res = client.post("/verify", json={"text": "é" * 2_001})  # 4 KB of UTF-8, under the byte cap
    assert res.status_code == 413 and "over 2000 characters" in res.json()["error"]
    assert client.get("/health").json()["limits"]["max_text_chars"] == 2_000


def test_bad_fields_are_422(client):
    for body in ({"text": 5}, {"text": "x", "fix": "maybe"}, {"text": ""}, {"text": "   "}, ["text"], "text"):
        res = client.post("/verify", json=body)
        assert res.status_code == 422 and "send" in res.json()["error"], body


def test_check_items_with_odd_ids_are_per_item_errors(client):
    res = client.post("/check", json=[{"id": ["x"], "subject": ""}, 5, None])
    assert res.status_code == 200 and all(r["error"] for r in res.json())


def test_a_request_over_its_cap_stops_its_work_and_frees_the_llm(mini_kg_dir, monkeypatch):
    """The work is abandoned (it stops at its next checkpoint), not merely its answer: the LLM lock is free
    for the next request at once."""
    import kgcheck.verifier.llm.backends as backends
    import kgcheck.verifier.text.verify as verifier_text
    from kgcheck.verifier.llm.backends import FakeLLM

    monkeypatch.setattr(backends, "load_llm", lambda model: FakeLLM(lambda call: {"triples": []}))
    stopped = threading.Event()
    calls = []

    def endless(kg, text, *, llm=None, **kw):
        if "forever" not in text:  # the next request: it only needs the model (the lock) to be free
            llm.complete_json("s", "u", {}, 1)
            return verifier_text.TextReport(text, (), (), None, {}, None)
        try:
            while True:  # a pipeline that never ends on its own, checking in between sentences
                checkpoint()
                llm.complete_json("s", "u", {}, 1)
                calls.append(1)
                time.sleep(0.01)
        finally:
            stopped.set()

    monkeypatch.setattr(verifier_text, "verify_text", endless)
    app = create_app(str(mini_kg_dir), embedder=FakeEmbedder(), use_llm=True, request_timeout_s=1.0)
    client = TestClient(app)
    started = time.monotonic()
    res = client.post("/verify", json={"text": "forever " + DEMO})
    assert res.status_code == 504 and "longer than 1 s" in res.json()["error"]
    assert stopped.wait(2), "the abandoned work kept running"
    n = len(calls)
    time.sleep(0.1)
    assert len(calls) == n  # no LLM call after the cap
    res = client.post("/verify", json={"text": DEMO})
    assert res.status_code == 200, res.text  # the LLM lock was released
    assert time.monotonic() - started < 10


def test_a_check_over_its_cap_stops_between_batches(mini_kg_dir, monkeypatch):
    from kgcheck.verifier.claims.check import Checker

    seen = []

    def slow(self, claims):
        seen.append(len(claims))
        time.sleep(0.3)
        return real(self, claims)

    real = Checker.check
    monkeypatch.setattr(Checker, "check", slow)
    client = TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder(), request_timeout_s=0.5))
    claims = [{"subject": "Belgium", "predicate": "capital", "object": "Brussels"}] * 500
    assert client.post("/check", json=claims).status_code == 504
    time.sleep(0.8)
    assert len(seen) <= 3  # 10 batches of 50 were due; the rest were never started


def test_health_answers_while_every_worker_is_busy(mini_kg_dir, monkeypatch):
    import kgcheck.verifier.text.verify as verifier_text

    release = threading.Event()
    monkeypatch.setattr(verifier_text, "verify_text", lambda *a, **k: release.wait(5))
    client = TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder(), workers=2, request_timeout_s=10),
                        raise_server_exceptions=False)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        busy = [pool.submit(client.post, "/verify", json={"text": DEMO}) for _ in range(4)]
        time.sleep(0.3)
        t = time.monotonic()
        assert client.get("/health").status_code == 200
        assert time.monotonic() - t < 1
        release.set()
        [f.result() for f in busy]


def test_openapi_shows_the_models(client):
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in ("VerifyRequest", "VerifyResponse", "TextClaimOut", "VerdictOut", "EvidenceOut", "ClaimIn",
                 "ErrorResponse", "HealthResponse", "EntityOut", "CandidateOut"):
        assert name in schemas, name
    verify = spec["paths"]["/verify"]["post"]
    assert verify["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/VerifyRequest"}
    assert verify["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/VerifyResponse")
    assert set(verify["responses"]) >= {"200", "400", "413", "415", "422", "504"}
    assert spec["paths"]["/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]["type"] == "array"
    assert set(schemas["VerifyRequest"]["properties"]) == {"text", "fix", "enrich", "about"}


def test_responses_keep_every_field(client):
    """The response models pass through what the verifier returns (nothing dropped by the models)."""
    from kgcheck.index.store import KG
    from kgcheck.verifier.text.verify import report_to_dict, verify_text

    data = client.post("/verify", json={"text": DEMO, "fix": True, "enrich": True}).json()
    import orjson

    with KG.open(_dir(client), embedder=FakeEmbedder()) as kg:
        direct = report_to_dict(verify_text(kg, DEMO, fix=True, enrich=True))
    assert data == orjson.loads(orjson.dumps(direct)) and data["claims"] and data["enrichment"]


def _dir(client) -> str:
    return client.get("/health").json()["index"]["directory"]


def test_domain_errors_are_not_500(mini_kg_dir, monkeypatch):
    from kgcheck.index.manifest import IndexError_
    from kgcheck.index.store import KG
    from kgcheck.verifier.errors import VerifierError

    client = TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder()), raise_server_exceptions=False)

    def model_mismatch(self, *a, **k):
        raise IndexError_("index was built with model 'x', not 'y'")

    monkeypatch.setattr(KG, "search_entities", model_mismatch)
    res = client.get("/lookup", params={"q": "Adams"})
    assert res.status_code == 503 and res.json()["error"].startswith("index: index was built")

    def refused(self, *a, **k):
        raise VerifierError("no such thing")

    monkeypatch.setattr(KG, "entity", refused)
    res = client.get("/entity/Q42")
    assert res.status_code == 422 and res.json() == {"error": "no such thing"}
