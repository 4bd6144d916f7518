"""The HTTP API over the fixture index: every endpoint, size and time caps, errors, concurrency."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

fastapi = pytest.importorskip("fastapi", reason="fastapi is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from kgcheck.index.embed import FakeEmbedder  # noqa: E402
from kgcheck.verifier.serve.server import create_app  # noqa: E402

JSON = {"content-type": "application/json"}
DEMO = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara."


@pytest.fixture(scope="module")
def client(mini_kg_dir):
    return TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder(), max_body_bytes=100_000,
                                 max_check_claims=50))


def test_page_and_assets_are_local(client):
    page = client.get("/")
    assert page.status_code == 200 and "<textarea" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http://" not in page.text and "https://" not in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../server.py").status_code == 404
    assert client.get("/docs").status_code == 404  # FastAPI's CDN-backed docs are off
    assert "/verify" in client.get("/openapi.json").json()["paths"]


def test_health(client):
    data = client.get("/health").json()
    assert data["status"] == "ok" and data["index"]["counts"]["statements"] == 51


def test_verify(client):
    data = client.post("/verify", json={"text": DEMO, "fix": True}).json()
    assert [(c["span"], c["verdict"]) for c in data["claims"]] == [
        ("Cambridge", "SUPPORTED"), ("1962", "REFUTED"), ("Santa Barbara", "SUPPORTED")]
    assert data["claims"][1]["corrections"] == ["11 March 1952"]
    assert data["fixed_text"] == DEMO.replace("1962", "1952") and data["factuality_degree"] is not None
    assert client.post("/verify", json={"nope": 1}).status_code == 422
    assert client.post("/verify", content=b"{not json", headers=JSON).status_code == 400


def test_verify_about_a_topic(client):
    data = client.post("/verify", json={"text": "He was born in 1962.", "about": "Q42"}).json()
    assert [(c["span"], c["verdict"], c["claim"]["subject_id"]) for c in data["claims"]] == [("1962", "REFUTED", "Q42")]
    res = client.post("/verify", json={"text": "He was born in 1962.", "about": "Zzyzx Qwerty"})
    assert res.status_code == 422 and "no entity named 'Zzyzx Qwerty'" in res.text


def test_check_with_per_item_errors_and_cap(client):
    res = client.post("/check", json=[{"subject": "Belgium", "predicate": "capital", "object": "Brussels"},
                                      {"subject": ""}, "not an object"])
    data = res.json()
    assert res.status_code == 200 and data[0]["verdict"] == "SUPPORTED"
    assert data[1]["error"] and data[2]["error"]
    res = client.post("/check", json=[{"subject": "a", "predicate": "b", "object": "c"}] * 51)
    assert res.status_code == 413 and "at most 50" in res.json()["error"]
    assert client.post("/check", json={"subject": "x"}).status_code == 422


def test_lookup_and_entity(client):
    assert client.get("/lookup", params={"q": "Douglas Adams"}).json()[0]["id"] == "Q42"
    assert client.get("/lookup", params={"q": " "}).status_code == 422
    data = client.get("/entity/Q42").json()
    assert data["label"] == "Douglas Adams" and any(s["property"] == "P569" for s in data["statements"])
    res = client.get("/entity/Q123456789")
    assert res.status_code == 404 and "unknown id" in res.json()["error"]


def test_body_over_the_cap_is_413(client):
    res = client.post("/verify", json={"text": "x" * 200_000})
    assert res.status_code == 413 and "error" in res.json()


def test_slow_request_is_504(mini_kg_dir, monkeypatch):
    import kgcheck.verifier.text.verify as verifier_text

    app = create_app(str(mini_kg_dir), embedder=FakeEmbedder(), request_timeout_s=0.2)
    monkeypatch.setattr(verifier_text, "verify_text", lambda *a, **k: time.sleep(1))
    res = TestClient(app).post("/verify", json={"text": DEMO})
    assert res.status_code == 504 and "longer than" in res.json()["error"]


def test_concurrent_requests(client):
    def one(i):
        if i % 2:
            return client.post("/check", json=[{"subject": "Douglas Adams", "predicate": "date of birth",
                                                 "object": "1952"}]).json()[0]["verdict"]
        return client.post("/verify", json={"text": DEMO}).json()["claims"][1]["verdict"]

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(one, range(48)))
    assert results == ["REFUTED", "SUPPORTED"] * 24


def test_framework_errors_and_crashes_are_json(mini_kg_dir, client, monkeypatch):
    assert client.get("/no-such-route").json() == {"error": "Not Found"}
    res = client.get("/verify")
    assert res.status_code == 405 and res.json() == {"error": "Method Not Allowed"}
    res = client.get("/lookup", params={"q": "Adams", "k": "many"})
    assert res.status_code == 422 and "query.k" in res.json()["error"]

    import kgcheck.verifier.text.verify as verifier_text

    monkeypatch.setattr(verifier_text, "verify_text", lambda *a, **k: 1 / 0)
    crashing = TestClient(create_app(str(mini_kg_dir), embedder=FakeEmbedder()), raise_server_exceptions=False)
    res = crashing.post("/verify", json={"text": DEMO})
    assert res.status_code == 500 and res.json() == {"error": "internal error (ZeroDivisionError)"}


def test_chunked_body_over_the_cap_is_413(client):
    chunks = (b"x" * 10_000 for _ in range(20))  # no Content-Length: the streamed body is counted
    res = client.post("/verify", content=chunks, headers=JSON)
    assert res.request.headers.get("content-length") is None
    assert res.status_code == 413 and "error" in res.json()
