"""`kgcheck serve`: a local HTTP API and web page. The index and model are server settings, never
request parameters; every asset is local; errors are JSON `{"error": ...}` with the right status."""
from __future__ import annotations

import asyncio
import threading
from dataclasses import asdict
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from starlette.exceptions import HTTPException
from starlette.middleware.base import BaseHTTPMiddleware

from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.formats.readers import parse_claim_dict
from kgcheck.verifier.errors import VerifierError

STATIC = Path(__file__).with_name("static")
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BodyLimit(BaseHTTPMiddleware):
    """413 for bodies over the cap, by Content-Length and by what actually arrives."""

    def __init__(self, app, max_bytes: int):
        super().__init__(app)
        self.max_bytes = max_bytes

    async def dispatch(self, request: Request, call_next):
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_bytes:
            return _error(413, f"request body over {self.max_bytes} bytes")
        if request.method in ("POST", "PUT"):
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > self.max_bytes:
                    return _error(413, f"request body over {self.max_bytes} bytes")
            request._body = body  # starlette reuses it for .json()
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        return response


def _json_errors(app: FastAPI) -> None:
    """FastAPI's own errors (unknown route, wrong method, bad query) and crashes in the same {"error"} shape."""

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _error(422, "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        return _error(500, f"internal error ({type(exc).__name__})")


def create_app(index_dir: str, *, model: str | None = None, use_llm: bool = False, embedder=None,
               max_body_bytes: int = 1_000_000, request_timeout_s: float = 30.0, max_check_claims: int = 1000) -> FastAPI:
    from kgcheck.index.store import KG

    kg = KG.open(index_dir, embedder=embedder)
    llm = None
    if use_llm:
        from kgcheck.verifier.llm.backends import load_llm

        llm = load_llm(model)
    llm_lock = threading.Lock()  # llama.cpp is not thread-safe
    checker_local = threading.local()

    def checker() -> Checker:
        # One Checker (with its caches) per worker thread: caches are not shared across threads.
        c = getattr(checker_local, "checker", None)
        if c is None:
            c = checker_local.checker = Checker(kg)
        return c

    app = FastAPI(title="kgcheck", version=kg.manifest.get("kgcheck_version", "?"), docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    _json_errors(app)

    async def run(fn, *args):
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), timeout=request_timeout_s)
        except asyncio.TimeoutError:
            return _error(504, f"request took longer than {request_timeout_s:g} s")

    async def json_body(request: Request):
        try:
            return await request.json()
        except ValueError:
            return None

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str):
        path = (STATIC / name).resolve()
        if path.parent != STATIC.resolve() or not path.is_file():
            return _error(404, "no such file")
        return FileResponse(path)

    @app.get("/health")
    def health():
        m = kg.manifest
        return {"status": "ok", "kgcheck_version": m.get("kgcheck_version"), "schema_version": m.get("schema_version"),
                "index": {"directory": kg.directory, "counts": m.get("counts"), "source": m.get("source", {}).get("path"),
                          "model": m.get("index", {}).get("model"), "faiss": m.get("index", {}).get("faiss_index_type")},
                "llm": {"enabled": llm is not None, "model": str(getattr(llm, "model_path", None) or model or "") or None}}

    @app.post("/verify")
    async def verify(request: Request):
        body = await json_body(request)
        if not isinstance(body, dict) or not isinstance(body.get("text"), str) or not body["text"].strip():
            return _error(422, 'send {"text": "...", "fix": false, "enrich": false}')
        from kgcheck.verifier.text.verify import report_to_dict, verify_text

        def work():
            if llm is not None:
                with llm_lock:
                    report = verify_text(kg, body["text"], llm=llm, fix=bool(body.get("fix")),
                                         enrich=bool(body.get("enrich")), checker=checker())
            else:
                report = verify_text(kg, body["text"], fix=bool(body.get("fix")),
                                     enrich=bool(body.get("enrich")), checker=checker())
            return report_to_dict(report)

        return await run(work)

    @app.post("/check")
    async def check(request: Request):
        from kgcheck.verifier.formats.serialize import verdict_to_dict

        body = await json_body(request)
        if not isinstance(body, list):
            return _error(422, "send a JSON array of claims ({subject, predicate, object, ...})")
        if len(body) > max_check_claims:
            return _error(413, f"at most {max_check_claims} claims per request")

        def work():
            claims, results = [], [None] * len(body)
            for i, item in enumerate(body):
                try:
                    if not isinstance(item, dict):
                        raise VerifierError("a claim must be a JSON object")
                    claims.append((i, parse_claim_dict(item, i + 1)))
                except VerifierError as exc:
                    results[i] = {"id": item.get("id") if isinstance(item, dict) else None, "verdict": None,
                                  "error": str(exc)}
            for (i, _), verdict in zip(claims, checker().check([c for _, c in claims])):
                results[i] = verdict_to_dict(verdict)
            return results

        return await run(work)

    @app.get("/lookup")
    async def lookup(q: str = "", k: int = 5):
        if not q.strip():
            return _error(422, "give a query: /lookup?q=Douglas+Adams")
        found = await run(kg.search_entities, q, max(1, min(k, 50)))
        return found if isinstance(found, JSONResponse) else [asdict(c) for c in found]

    @app.get("/entity/{eid}")
    async def entity(eid: str):
        from kgcheck.index.render import statement_dict, statement_entity_ids

        def work():
            e = kg.entity(eid.upper())
            statements = kg.statements(eid.upper())
            if e is None and not statements:
                return _error(404, f"unknown id {eid}")
            labels = kg.labels(statement_entity_ids(statements))
            return {"id": eid.upper(), "label": e.label if e else None, "description": e.description if e else None,
                    "aliases": list(e.aliases) if e else [], "statements": [statement_dict(s, labels) for s in statements]}

        return await run(work)

    return app
