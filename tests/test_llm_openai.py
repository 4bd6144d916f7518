"""The openai-local LLM backend against a tiny fake OpenAI-compatible server on 127.0.0.1: the request it
sends, the answers it parses, the errors it gives, and the loopback-only rule (checked before connecting)."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from netguard import no_network

from kgcheck.verifier.llm.backends import LLMError, load_llm
from kgcheck.verifier.llm.openai_local import OpenAILocalLLM, loopback_url

# ---------------------------------------------------------------- openai-local: loopback only


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/v1/", "http://localhost:8080/v1", "http://[::1]:8080/v1",
                                 "https://127.0.0.2/v1"])
def test_loopback_urls_are_accepted(url):
    assert loopback_url(url) == url.rstrip("/")


@pytest.mark.parametrize("url, message", [
    ("http://10.0.0.5:8080/v1", "refusing LLM endpoint http://10.0.0.5:8080/v1: host 10.0.0.5 is not loopback "
                                "(127.0.0.1, ::1 or localhost); kgcheck never sends text off this machine"),
    ("http://api.openai.com/v1", "refusing LLM endpoint http://api.openai.com/v1: host api.openai.com is not "
                                 "loopback (127.0.0.1, ::1 or localhost); kgcheck never sends text off this machine"),
    ("http://localhost.example.com/v1", "host localhost.example.com is not loopback"),
    ("ftp://127.0.0.1/v1", "--llm-url must be an http:// URL of a local server, like http://127.0.0.1:8080/v1; "
                           "got 'ftp://127.0.0.1/v1'"),
    ("127.0.0.1:8080", "--llm-url must be an http:// URL"),
])
def test_non_loopback_urls_are_refused_before_any_connection(url, message):
    with no_network(), pytest.raises(LLMError) as caught:
        load_llm(url=url)
    assert message in str(caught.value)


class _FakeOpenAI(BaseHTTPRequestHandler):
    """A tiny OpenAI-compatible /v1/chat/completions: records requests, answers from `reply`."""

    requests: list[dict] = []
    reply: object = None
    status = 200

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body})
        data = self.reply if isinstance(self.reply, bytes) else json.dumps(self.reply).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_server(monkeypatch):
    handler = type("Handler", (_FakeOpenAI,), {"requests": [], "reply": None, "status": 200})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    # A proxy from the environment must not carry a loopback request elsewhere.
    monkeypatch.setenv("http_proxy", "http://192.0.2.1:3128")
    monkeypatch.setenv("HTTP_PROXY", "http://192.0.2.1:3128")
    yield handler, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _chat(content: str, finish: str = "stop") -> dict:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}]}


def test_openai_local_sends_a_json_schema_request_and_parses_the_answer(fake_server):
    handler, url = fake_server
    handler.reply = _chat('[{"subject": "A", "predicate": "p", "object": "B"}]')
    schema = {"type": "array", "items": {"type": "object"}}
    llm = load_llm(model="big-model", url=url + "/")
    assert llm.complete_json("sys", "user", schema, 64) == [{"subject": "A", "predicate": "p", "object": "B"}]
    [request] = handler.requests
    assert request["path"] == "/v1/chat/completions"
    body = request["body"]
    assert body["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": "user"}]
    assert body["response_format"] == {"type": "json_schema",
                                       "json_schema": {"name": "answer", "strict": True, "schema": schema}}
    assert (body["model"], body["max_tokens"], body["temperature"], body["stream"]) == ("big-model", 64, 0.0, False)


def test_openai_local_errors_keep_the_raw_answer_and_say_why(fake_server):
    handler, url = fake_server
    llm = OpenAILocalLLM(url)
    handler.reply = _chat('[{"subject": "A", "pred', finish="length")
    with pytest.raises(LLMError, match=r"not valid JSON \(hit max_tokens\)") as caught:
        llm.complete_json("s", "u", {}, 5)
    assert caught.value.raw == '[{"subject": "A", "pred'
    handler.reply = {"error": "no"}
    with pytest.raises(LLMError, match=r"answered without choices\[0\]\.message: \{\"error\": \"no\"\}"):
        llm.complete_json("s", "u", {}, 5)
    handler.reply, handler.status = b'{"error": {"message": "model not loaded"}}', 503
    with pytest.raises(LLMError, match=f"^the LLM endpoint {url} answered HTTP 503: .*model not loaded"):
        llm.complete_json("s", "u", {}, 5)
    handler.reply, handler.status = b"<html>", 200
    with pytest.raises(LLMError, match="did not answer JSON: '<html>'"):
        llm.complete_json("s", "u", {}, 5)
    with pytest.raises(LLMError, match="contains a quote or backslash"):
        llm.complete_json("s", "u", {"enum": ['a"b']}, 5)  # the same schemas as the in-process backend


def test_openai_local_with_no_server_is_a_clear_error():
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(LLMError, match=rf"^cannot reach the LLM endpoint http://127.0.0.1:{port}/v1 .*"
                                       r"is llama-server running there\?$"):
        OpenAILocalLLM(f"http://127.0.0.1:{port}/v1", timeout=5).complete_json("s", "u", {}, 5)


def test_openai_local_refuses_redirects(fake_server):
    handler, url = fake_server

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.send_response(307)
            self.send_header("Location", "http://192.0.2.1/v1/chat/completions")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(LLMError, match="redirected to http://192.0.2.1/v1/chat/completions: refused"):
            OpenAILocalLLM(f"http://127.0.0.1:{server.server_address[1]}/v1", timeout=5).complete_json("s", "u", {}, 5)
    finally:
        server.shutdown()
        server.server_close()


def test_the_environment_chooses_the_backend_when_no_option_does(monkeypatch):
    monkeypatch.delenv("KGCHECK_LLM_BACKEND", raising=False)
    monkeypatch.setenv("KGCHECK_LLM_URL", "http://127.0.0.1:9/v1")
    llm = load_llm()
    assert isinstance(llm, OpenAILocalLLM) and llm.url == "http://127.0.0.1:9/v1"
    monkeypatch.setenv("KGCHECK_LLM_URL", "http://192.0.2.7/v1")
    with pytest.raises(LLMError, match="host 192.0.2.7 is not loopback"):
        load_llm()
