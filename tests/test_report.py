"""The HTML report: highlights by verdict, evidence with ids, corrected text, escaping, no external assets."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, SUPPORTED
from kgcheck.verifier.serve.report import render_html
from kgcheck.verifier.text.verify import verify_text

DEMO = ("Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. "
        "Belgium's capital is Brussels and its head of state is a king.")


class Spans(HTMLParser):
    """(class, data-verdict, text) of every highlighted claim span."""

    def __init__(self):
        super().__init__()
        self.found, self._open = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "span" and "claim" in (attrs.get("class") or "").split():
            self._open = [attrs["class"], attrs.get("data-verdict"), ""]

    def handle_data(self, data):
        if self._open is not None and not self._open[2]:
            self._open[2] = data

    def handle_endtag(self, tag):
        if tag == "span" and self._open is not None:
            self.found.append(tuple(self._open))
            self._open = None


@pytest.fixture
def demo_html(mini_kg):
    return render_html(verify_text(mini_kg, DEMO, fix=True, enrich=True))


def test_each_claim_is_highlighted_by_verdict(demo_html):
    parser = Spans()
    parser.feed(demo_html)
    got = {text: (cls, verdict) for cls, verdict, text in parser.found}
    assert got["Cambridge"] == ("claim supported", SUPPORTED)
    assert got["1962"] == ("claim refuted", REFUTED)
    assert got["king"] == ("claim nei", NOT_ENOUGH_INFO)
    # The highlighted text, with its markup removed, is the checked text.
    body = re.search(r"<div class='text'>(.*?)</div>", demo_html, re.S).group(1)
    assert re.sub(r"<sup>\d+</sup>", "", re.sub(r"</?span[^>]*>", "", body)).replace("&#x27;", "'") == DEMO


def test_evidence_labels_ids_correction_and_fixed_text(demo_html):
    assert "Douglas Adams <span class=\"id\">Q42</span>" in demo_html
    assert "place of birth <span class=\"id\">P19</span>" in demo_html and "Q350" in demo_html
    assert "<b>correction:</b> 11 March 1952" in demo_html
    assert "<h2>Corrected text</h2><div class='fixed'>Douglas Adams was born in Cambridge in 1952." in demo_html
    assert "Factuality Degree: <b>0." in demo_html
    assert "Related facts from the graph" in demo_html and "Douglas Adams — " in demo_html


def test_self_contained(demo_html):
    assert demo_html.startswith("<!doctype html>") and "<style>" in demo_html
    assert not re.search(r"\b(?:src|href)\s*=|@import|url\(|<script|<link", demo_html, re.I)


def test_untrusted_text_is_escaped(mini_kg):
    text = ('Douglas Adams was born in 1962. <img src=x onerror="alert(1)"> & <script>alert(2)</script> '
            '"quoted" \'single\'')
    html = render_html(verify_text(mini_kg, text, fix=True))
    assert "<img" not in html and "<script" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &lt;script&gt;" in html
    assert '<span class="claim refuted" data-verdict="REFUTED"' in html


def test_no_claims_still_renders(mini_kg):
    html = render_html(verify_text(mini_kg, "Nothing to check here."))
    assert "Factuality Degree: <b>n/a</b>" in html and "Corrected text" not in html
