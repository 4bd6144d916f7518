"""`kgcheck serve`: a local HTTP API and web page. The index and model are server settings, never
request parameters; every asset is local; errors are JSON `{"error": ...}` with the right status.

Staying responsive: the work of a request runs in a worker thread under a Control (verifier/control.py)
whose deadline is the request's time cap; the pipelines check it between sentences, claim batches and
LLM calls, so a request past its cap stops within one unit of work and frees its worker and the LLM
lock (not merely its HTTP answer). Long texts (over a tenth of the text cap) run one at a time, so a
burst of them cannot take every worker from short requests; /health needs no worker at all.
"""
from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.base import BaseHTTPMiddleware

from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.control import Control, DeadlineExceeded, active, checkpoint, watching
from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.formats.readers import parse_claim_dict
from kgcheck.verifier.serve import models

STATIC = Path(__file__).with_name("static")
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"
LONG_TEXT_NICE = 10  # niceness of the thread that runs long texts
CHECK_CHUNK = 50  # claims of a /check request checked between two deadline checkpoints
ERRORS = {status: {"model": models.ErrorResponse} for status in (400, 404, 413, 415, 422, 503, 504)}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BodyLimit(BaseHTTPMiddleware):
    """415 for a POST that is not `application/json` (a form on another origin cannot send JSON without a
    CORS preflight, which this server never grants); 413 for bodies over the cap, by Content-Length and by
    what actually arrives."""

    def __init__(self, app, max_bytes: int):
        super().__init__(app)
        self.max_bytes = max_bytes

    async def dispatch(self, request: Request, call_next):
        if request.method in ("POST", "PUT"):
            media = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return _error(415, "send the body as application/json")
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_bytes:
            return _error(413, f"request body over {self.max_bytes} bytes")
        if request.method in ("POST", "PUT"):
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > self.max_bytes:
                    return _error(413, f"request body over {self.max_bytes} bytes")
            request._body = body  # starlette reuses it downstream
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
        return _error(422, _messages(exc.errors()))

    @app.exception_handler(VerifierError)
    async def domain_error(request: Request, exc: VerifierError):  # a request the verifier cannot take
        return _error(422, str(exc))

    from kgcheck.index.manifest import IndexError_

    @app.exception_handler(IndexError_)
    async def index_error(request: Request, exc: IndexError_):  # the server's index, not the request
        return _error(503, f"index: {exc}")

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        return _error(500, f"internal error ({type(exc).__name__})")


def _messages(errors) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)


async def _json_body(request: Request):
    """The parsed body, or a 400: orjson refuses lone surrogates ("\\ud83d") and nesting over 1024 levels,
    which the json module would pass on (a str that cannot be encoded) or die on (RecursionError)."""
    try:
        return orjson.loads(await request.body())
    except orjson.JSONDecodeError as exc:
        return _error(400, f"the body is not valid JSON: {exc}")


def _lower_priority() -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LONG_TEXT_NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the lane still runs one at a time
        pass


class _DeadlineLLM:
    """The server's LLM as one request sees it: every call is a checkpoint, so a request past its time cap
    makes no further calls and leaves the model to the next request."""

    def __init__(self, llm):
        self._llm = llm

    def complete_json(self, *args, **kwargs):
        checkpoint()
        return self._llm.complete_json(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._llm, name)


def create_app(index_dir: str, *, model: str | None = None, use_llm: bool = False, embedder=None,
               max_body_bytes: int = 1_000_000, request_timeout_s: float = 30.0, max_check_claims: int = 1000,
               max_text_chars: int = 20_000, workers: int = 8) -> FastAPI:
    from kgcheck.index.store import KG

    kg = KG.open(index_dir, embedder=embedder)
    kg.load_embedder_in_background()  # the first request should not wait for the model
    llm = None
    if use_llm:
        from kgcheck.verifier.llm.backends import load_llm

        llm = load_llm(model)
    llm_lock = threading.Lock()  # llama.cpp is not thread-safe
    checker_local = threading.local()
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kgcheck-serve")
    # Long texts run on their own thread at a lower CPU priority (Linux nices threads one by one): they
    # take what short requests leave, instead of half of it.
    long_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgcheck-long", initializer=_lower_priority)
    lanes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per event loop (tests run several)
    long_text = max(1, max_text_chars // 10)

    def checker() -> Checker:
        # One Checker (with its caches) per worker thread: caches are not shared across threads.
        c = getattr(checker_local, "checker", None)
        if c is None:
            c = checker_local.checker = Checker(kg)
        return c

    app = FastAPI(title="kgcheck", version=kg.manifest.get("kgcheck_version", "?"), docs_url=None, redoc_url=None,
                  description=f"Fact checking against a local Wikidata index. Bodies are application/json, at most "
                              f"{max_body_bytes} bytes; /verify texts at most {max_text_chars} characters; "
                              f"/check at most {max_check_claims} claims; {request_timeout_s:g} s per request.")
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    _json_errors(app)
    _document_requests(app)

    def long_lane() -> asyncio.Semaphore:  # texts over a tenth of the cap: one at a time
        return lanes.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(1))

    async def run(fn, *args, lane: asyncio.Semaphore | None = None):
        control = Control(request_timeout_s)

        def call():
            with watching(control):
                return fn(*args)

        async def go():
            if lane is None:
                return await asyncio.get_running_loop().run_in_executor(pool, contextvars.copy_context().run, call)
            async with lane:  # waiting for the lane counts against the time cap
                return await asyncio.get_running_loop().run_in_executor(long_pool, contextvars.copy_context().run,
                                                                        call)

        try:
            return await asyncio.wait_for(go(), timeout=request_timeout_s)
        except (asyncio.TimeoutError, DeadlineExceeded):
            control.cancel()  # the worker stops at its next checkpoint
            return _error(504, f"request took longer than {request_timeout_s:g} s")

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str):
        path = (STATIC / name).resolve()
        if path.parent != STATIC.resolve() or not path.is_file():
            return _error(404, "no such file")
        return FileResponse(path)

    @app.get("/health", response_model=models.HealthResponse)
    async def health():  # no worker thread: it answers while every worker is busy
        m = kg.manifest
        return {"status": "ok", "kgcheck_version": m.get("kgcheck_version"), "schema_version": m.get("schema_version"),
                "index": {"directory": kg.directory, "counts": m.get("counts"), "source": m.get("source", {}).get("path"),
                          "model": m.get("index", {}).get("model"), "faiss": m.get("index", {}).get("faiss_index_type")},
                "llm": {"enabled": llm is not None, "model": str(getattr(llm, "model_path", None) or model or "") or None},
                "limits": {"max_body_bytes": max_body_bytes, "max_text_chars": max_text_chars,
                           "max_check_claims": max_check_claims, "request_timeout_s": request_timeout_s}}

    @app.post("/verify", response_model=models.VerifyResponse, responses=ERRORS)
    async def verify(request: Request):
        body = await _json_body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            req = models.VerifyRequest.model_validate(body)
        except ValidationError as exc:
            return _error(422, f'send {{"text": "...", "fix": false, "enrich": false}} ({_messages(exc.errors())})')
        if not req.text.strip():
            return _error(422, 'send {"text": "...", "fix": false, "enrich": false} (the text is blank)')
        if len(req.text) > max_text_chars:
            return _error(413, f"text over {max_text_chars} characters ({len(req.text)}): split it")
        from kgcheck.verifier.text.verify import report_to_dict, verify_text

        def work():
            if llm is None:
                report = verify_text(kg, req.text, fix=req.fix, enrich=req.enrich, checker=checker(), about=req.about)
                return report_to_dict(report)
            remaining = active().remaining()
            if not llm_lock.acquire(timeout=remaining if remaining is not None else -1):
                raise DeadlineExceeded("the model stayed busy")
            try:
                report = verify_text(kg, req.text, llm=_DeadlineLLM(llm), fix=req.fix, enrich=req.enrich,
                                     checker=checker(), about=req.about)
            finally:
                llm_lock.release()
            return report_to_dict(report)

        return await run(work, lane=long_lane() if len(req.text) > long_text else None)

    @app.post("/check", response_model=models.CheckResponse, responses=ERRORS)
    async def check(request: Request):
        from kgcheck.verifier.formats.serialize import verdict_to_dict

        body = await _json_body(request)
        if isinstance(body, JSONResponse):
            return body
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
                    given = item.get("id") if isinstance(item, dict) else None
                    results[i] = {"id": given if isinstance(given, str) else None, "verdict": None,
                                  "error": str(exc)}
            for at in range(0, len(claims), CHECK_CHUNK):
                checkpoint()
                chunk = claims[at:at + CHECK_CHUNK]
                for (i, _), verdict in zip(chunk, checker().check([c for _, c in chunk])):
                    results[i] = verdict_to_dict(verdict)
            return results

        return await run(work)

    @app.get("/lookup", response_model=list[models.CandidateOut], responses=ERRORS)
    async def lookup(q: str = "", k: int = 5):
        if not q.strip():
            return _error(422, "give a query: /lookup?q=Douglas+Adams")
        found = await run(kg.search_entities, q, max(1, min(k, 50)))
        return found if isinstance(found, JSONResponse) else [asdict(c) for c in found]

    @app.get("/entity/{eid}", response_model=models.EntityOut, responses=ERRORS)
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


def _document_requests(app: FastAPI) -> None:
    """Bodies are parsed by hand (orjson, caps, per-item errors); their models still go into /openapi.json."""
    from fastapi.openapi.utils import get_openapi
    from pydantic import TypeAdapter

    bodies = {"/verify": models.VerifyRequest, "/check": list[models.ClaimIn]}

    def openapi():
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for path, model in bodies.items():
            body = TypeAdapter(model).json_schema(ref_template="#/components/schemas/{model}")
            components.update(body.pop("$defs", {}))
            if isinstance(model, type):
                components[model.__name__] = body
                body = {"$ref": f"#/components/schemas/{model.__name__}"}
            schema["paths"][path]["post"]["requestBody"] = {
                "required": True, "content": {"application/json": {"schema": body}}}
        app.openapi_schema = schema
        return schema

    app.openapi = openapi
