"""A self-contained HTML report of a verified text: claims highlighted by verdict, evidence beside them.

No external assets (fonts, scripts, styles): it must open on an air-gapped machine. Every piece
of text is escaped: the checked text is untrusted.
"""
from __future__ import annotations

from html import escape

from kgcheck.verifier.model import REFUTED, SUPPORTED
from kgcheck.verifier.text.verify import TextReport

CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
.text{white-space:pre-wrap;border:1px solid #ddd;padding:1em;border-radius:6px}
.claim{padding:0 2px;border-radius:3px}.supported{background:#c8f0c8}.refuted{background:#f6c4c4}
.nei{background:#e2e2e2}table{border-collapse:collapse;width:100%;margin-top:1em}
td,th{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top;font-size:13px}
.ev{color:#555}.id{font-family:monospace;color:#06c}.fixed{white-space:pre-wrap;background:#f7fff7;padding:1em}
"""
CLASS = {SUPPORTED: "supported", REFUTED: "refuted"}


def _highlighted(report: TextReport) -> str:
    parts, pos = [], 0
    for n, tc in sorted(enumerate(report.claims), key=lambda t: t[1].start):
        if tc.start < pos:
            continue  # overlapping claims: the first one is highlighted, all are listed below
        parts.append(escape(report.text[pos:tc.start]))
        cls = CLASS.get(tc.verdict.verdict, "nei")
        parts.append(f'<span class="claim {cls}" data-verdict="{tc.verdict.verdict}" title="{escape(tc.verdict.reason)}">'
                     f'{escape(report.text[tc.start:tc.end])}<sup>{n + 1}</sup></span>')
        pos = tc.end
    parts.append(escape(report.text[pos:]))
    return "".join(parts)


def _evidence(tc) -> str:
    rows = []
    for e in tc.verdict.evidence:
        quals = "; ".join(f"{escape(p)}: {escape(v)}" for p, v in e.qualifiers)
        refs = " | ".join("; ".join(f"{escape(p)}: {escape(v)}" for p, v in ref) for ref in e.references)
        rows.append(f'<div class="ev">{escape(e.subject_label or e.subject)} <span class="id">{escape(e.subject)}</span> · '
                    f'{escape(e.property_label or e.property)} <span class="id">{escape(e.property)}</span> · '
                    f'{escape(e.value)}{f" <span class=id>{escape(e.value_id)}</span>" if e.value_id else ""} '
                    f'[{escape(e.relation)}, {escape(e.rank)}]{f"<br>qualifiers: {quals}" if quals else ""}'
                    f'{f"<br>references: {refs}" if refs else ""}</div>')
    return "".join(rows)


def render_html(report: TextReport) -> str:
    fd = "n/a" if report.factuality_degree is None else f"{report.factuality_degree:.3f}"
    rows = []
    for n, tc in enumerate(report.claims, 1):
        v = tc.verdict
        rows.append(f"<tr><td>{n}</td><td>{escape(tc.claim.subject)} <span class=id>{escape(tc.claim.subject_id or '')}"
                    f"</span><br>{escape(tc.claim.predicate)} <span class=id>{escape(tc.claim.property_id or '')}</span>"
                    f"<br>{escape(tc.span)}</td><td class='{CLASS.get(v.verdict, 'nei')}'>{v.verdict}<br>"
                    f"{v.confidence:.2f} · rule {escape(v.rule)}</td><td>{escape(v.reason)}"
                    f"{'<br><b>correction:</b> ' + escape(', '.join(v.corrections)) if v.corrections else ''}</td>"
                    f"<td>{_evidence(tc)}</td></tr>")
    shares = " · ".join(f"{k}: {v:.0%}" for k, v in report.shares.items())
    fixed = (f"<h2>Corrected text</h2><div class='fixed'>{escape(report.fixed_text)}</div>"
             if report.fixed_text is not None else "")
    enrichment = ("<h2>Related facts from the graph</h2><ul>" + "".join(
        f"<li>{escape(e['sentence'])} <span class=id>{escape(e['statement_id'])}</span></li>"
        for e in report.enrichment) + "</ul>") if report.enrichment else ""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>kgcheck report</title><style>{CSS}</style>"
            f"</head><body><h1>kgcheck report</h1><p>Factuality Degree: <b>{fd}</b> · {shares}</p>"
            f"<div class='text'>{_highlighted(report)}</div><table><tr><th>#</th><th>claim</th><th>verdict</th>"
            f"<th>why</th><th>evidence</th></tr>{''.join(rows)}</table>{fixed}{enrichment}</body></html>")
