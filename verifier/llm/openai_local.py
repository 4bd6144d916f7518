"""The `openai-local` LLM backend: an OpenAI-compatible chat endpoint on this host (llama.cpp's llama-server).

For users who serve a bigger model than the in-process default on the same machine:

    llama-server -m big-model.gguf --port 8080
    kgcheck verify --llm-url http://127.0.0.1:8080/v1 "..."

Air-gapped by construction: only loopback hosts are accepted (127.0.0.0/8, ::1, localhost), proxies from
the environment are ignored and redirects are refused, so no request can leave the machine. Answers are
constrained by `response_format` = {"type": "json_schema", ...}, which llama-server turns into a grammar.
Standard library only (urllib): no new dependency.
"""
from __future__ import annotations

import ipaddress
import json
import os
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from kgcheck.verifier.llm.backends import LLM, URL_ENV_VAR, LLMError, check_grammar_safe

DEFAULT_URL = "http://127.0.0.1:8080/v1"
DEFAULT_TIMEOUT_S = 120.0  # a bigger model on a CPU can take a minute for a long answer
ERROR_BODY_CHARS = 200


def loopback_url(url: str) -> str:
    """`url` without a trailing '/', if it is http(s) to a loopback host; LLMError otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LLMError(f"--llm-url must be an http:// URL of a local server, like {DEFAULT_URL}; got {url!r}")
    host = parts.hostname
    try:
        local = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name other than localhost: resolving it could already leave the machine
        local = False
    if not local:
        raise LLMError(f"refusing LLM endpoint {url}: host {host} is not loopback (127.0.0.1, ::1 or "
                       f"localhost); kgcheck never sends text off this machine")
    return url.strip().rstrip("/")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise LLMError(f"the LLM endpoint redirected to {newurl}: refused (kgcheck talks to loopback only)")


# No ProxyHandler({}) would let $http_proxy route a loopback request through another host.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


class OpenAILocalLLM(LLM):
    """POST {url}/chat/completions, greedy (temperature 0), the answer constrained to a JSON schema."""

    def __init__(self, url: str | None = None, model: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                 seed: int = 0):
        self.url = loopback_url(url or os.environ.get(URL_ENV_VAR) or DEFAULT_URL)
        self.model = model or "local"  # llama-server serves the one model it loaded, whatever the name
        self.timeout = timeout
        self.seed = seed

    def _post(self, body: dict) -> dict:
        request = urllib.request.Request(
            f"{self.url}/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
            headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with _OPENER.open(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:ERROR_BODY_CHARS].decode("utf-8", "replace").strip()
            raise LLMError(f"the LLM endpoint {self.url} answered HTTP {exc.code}: {detail or exc.reason}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise LLMError(f"cannot reach the LLM endpoint {self.url} ({reason}): is llama-server running "
                           f"there?") from None
        try:
            return json.loads(payload)
        except ValueError:
            raise LLMError(f"the LLM endpoint {self.url} did not answer JSON: "
                           f"{payload[:ERROR_BODY_CHARS].decode('utf-8', 'replace')!r}") from None

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int) -> object:
        check_grammar_safe(schema)  # the schemas the in-process backend takes: switching backend changes nothing
        answer = self._post({
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "answer", "strict": True, "schema": schema}},
            "max_tokens": max_tokens, "temperature": 0.0, "seed": self.seed, "stream": False,
        })
        try:
            choice = answer["choices"][0]
            raw = choice["message"].get("content") or ""
        except (KeyError, IndexError, TypeError, AttributeError):
            raise LLMError(f"the LLM endpoint {self.url} answered without choices[0].message: "
                           f"{json.dumps(answer)[:ERROR_BODY_CHARS]}") from None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            reason = "hit max_tokens" if choice.get("finish_reason") == "length" else "invalid JSON"
            raise LLMError(f"model output is not valid JSON ({reason}): {exc}", raw=raw) from exc
