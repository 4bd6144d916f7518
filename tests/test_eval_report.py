"""`kgcheck eval --html`: a self-contained page with the confusion matrix, per-property accuracy and a
reliability diagram whose numbers are those of the pairs."""
from __future__ import annotations

import json
import re

from kgcheck.verifier.model import Claim, Verdict
from kgcheck.verifier.serve.eval_report import figures, render_eval_html


def _pair(label, got, confidence, prop="P569"):
    claim = Claim(id=f"{label}-{got}-{confidence}")
    return {"label": label, "property_id": prop}, Verdict(claim, got, confidence, "A", "r", property_ids=(prop,))


PAIRS = [_pair("SUPPORTED", "SUPPORTED", 0.95), _pair("SUPPORTED", "SUPPORTED", 0.91),
         _pair("REFUTED", "SUPPORTED", 0.92), _pair("REFUTED", "REFUTED", 0.55, "P19"),
         _pair("NOT_ENOUGH_INFO", "NOT_ENOUGH_INFO", 0.05, "P19")]


def test_figures_count_the_pairs():
    f = figures(PAIRS)
    assert f["confusion"][("REFUTED", "SUPPORTED")] == 1 and f["total"] == 5
    top = f["reliability"][9]  # confidence 0.9-1.0: three claims, two right
    assert top["n"] == 3 and abs(top["accuracy"] - 2 / 3) < 1e-9
    assert f["properties"] == [("P569", 2, 3), ("P19", 2, 2)]
    # ECE by hand: bin 9 |2/3 - 0.9267| * 3/5 + bin 5 |1 - .55| * 1/5 + bin 0 |1 - .05| * 1/5
    assert abs(f["ece"] - (abs(2 / 3 - (0.95 + 0.91 + 0.92) / 3) * 0.6 + 0.45 * 0.2 + 0.95 * 0.2)) < 1e-9


def test_page_is_self_contained_and_escaped():
    page = render_eval_html({"claims": 5, "accuracy": 0.8}, PAIRS, {"P569": "<script>alert(1)</script>"},
                            title="a <b> title")
    assert "<svg" in page and "<table" in page
    assert "<script" not in page and "&lt;script&gt;" in page and "a &lt;b&gt; title" in page
    # nothing fetched: no src/href attributes, no url() in CSS, no link or import
    assert not re.search(r"\b(src|href)\s*=|url\(|<link|@import", page)


def test_cli_eval_writes_the_html(mini_kg_dir, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kgcheck.cli import main
    from kgcheck.index import embed

    monkeypatch.setattr(embed, "get_embedder", lambda *a, **k: embed.FakeEmbedder())
    labelled = tmp_path / "dev.jsonl"
    labelled.write_text("\n".join(json.dumps(d) for d in [
        {"id": "a", "subject": "Douglas Adams", "predicate": "date of birth", "object": "11 March 1952",
         "label": "SUPPORTED", "subject_id": "Q42", "property_id": "P569"},
        {"id": "b", "subject": "Douglas Adams", "predicate": "date of birth", "object": "1960",
         "label": "REFUTED", "subject_id": "Q42", "property_id": "P569", "correct": "11 March 1952"}]) + "\n")
    out = tmp_path / "report.html"
    res = CliRunner().invoke(main, ["eval", str(labelled), "--index", str(mini_kg_dir), "--html", str(out), "--json"])
    assert res.exit_code == 0, res.output
    page = out.read_text()
    assert "Confusion matrix" in page and "P569" in page and "date of birth" in page
