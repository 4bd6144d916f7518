"""End to end: the real server on loopback, the page driven in headless Debian Chromium via Playwright."""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(mini_kg_dir):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian chromium is not installed (apt-get install chromium); .ci/run installs it")
    uvicorn = pytest.importorskip("uvicorn")
    from kgcheck.index.embed import FakeEmbedder
    from kgcheck.verifier.serve.server import create_app

    port = _free_port()
    config = uvicorn.Config(create_app(str(mini_kg_dir), embedder=FakeEmbedder()), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(5)


def test_verify_page_highlights_verdicts(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            outside = []
            page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server) else None)
            page.goto(server)
            page.fill("#text", "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. "
                               "Charles Michel was born in Brussels.")
            page.check("#fix")
            page.click("#verify")
            page.wait_for_selector(".claim.refuted", timeout=20_000)
            assert page.locator(".claim.supported").count() == 2
            assert page.locator(".claim.refuted").inner_text() == "1962"
            assert page.locator(".claim.nei").count() == 1
            assert "Cambridge Q350" in page.inner_text("#evidence")  # the first claim's panel with its ids
            page.click(".claim.refuted")
            assert "Correct value: 11 March 1952" in page.inner_text("#evidence")
            assert "born in Cambridge in 1952" in page.inner_text("#fixed")
            assert "Factuality Degree" in page.inner_text("#scores")
            page.screenshot(path=str(ARTIFACTS / "verify.png"), full_page=True)
            assert outside == []  # nothing fetched from anywhere but the local server
        finally:
            browser.close()


def test_highlight_after_an_emoji_is_the_claimed_span(server):
    """The API counts code points, JavaScript UTF-16 units: an emoji before a claim must not shift it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(server)
            page.fill("#text", "🙂🙂 Douglas Adams was born in Cambridge in 1962.")
            page.click("#verify")
            page.wait_for_selector(".claim.refuted", timeout=20_000)
            assert page.locator(".claim.refuted").inner_text() == "1962"
            assert page.locator(".claim.supported").first.inner_text() == "Cambridge"
        finally:
            browser.close()
