"""`kgcheck eval --html`: one self-contained page (inline CSS and SVG, no scripts, no external assets)
with the confusion matrix, accuracy per property and a reliability diagram of the confidence.

The figures come from the (gold, verdict) pairs of claims/evaluate.py; every text is escaped.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from html import escape

from kgcheck.verifier.model import VERDICTS

BINS = 10  # reliability diagram: confidence in tenths
TOP_PROPERTIES = 40  # the properties with most claims; the rest are summed in one row
SHORT = {"SUPPORTED": "SUPPORTED", "REFUTED": "REFUTED", "NOT_ENOUGH_INFO": "NEI"}

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#222;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}table{border-collapse:collapse}
td,th{padding:4px 8px;border:1px solid #ddd;text-align:right;font-variant-numeric:tabular-nums}
th{background:#f4f4f4}.l{text-align:left}.k{display:inline-block;margin-right:2em}
.k b{display:block;font-size:1.5em}.bar{background:#4a8;height:12px}.barbox{width:240px;background:#eee}
.note{color:#666;font-size:12px}svg text{font:11px system-ui,sans-serif}
"""


def property_of(gold: dict, verdict) -> str:
    """The gold property when the file gives it (claims-dev does), else the one the checker tried first."""
    return gold.get("property_id") or (verdict.property_ids[0] if verdict.property_ids else "?")


def figures(pairs) -> dict:
    confusion: Counter = Counter()
    per_property: dict[str, Counter] = defaultdict(Counter)
    bins = [Counter() for _ in range(BINS)]
    for gold, v in pairs:
        right = v.verdict == gold["label"]
        confusion[(gold["label"], v.verdict)] += 1
        per_property[property_of(gold, v)]["right" if right else "wrong"] += 1
        b = bins[min(BINS - 1, max(0, int(float(v.confidence) * BINS)))]
        b["n"] += 1
        b["right"] += right
        b["confidence"] += float(v.confidence)
    total = sum(confusion.values())
    reliability = [{"low": i / BINS, "high": (i + 1) / BINS, "n": b["n"],
                    "accuracy": b["right"] / b["n"] if b["n"] else None,
                    "mean_confidence": b["confidence"] / b["n"] if b["n"] else None} for i, b in enumerate(bins)]
    ece = sum(r["n"] / total * abs(r["accuracy"] - r["mean_confidence"]) for r in reliability if r["n"]) if total else 0
    props = sorted(per_property.items(), key=lambda kv: (-(kv[1]["right"] + kv[1]["wrong"]), kv[0]))
    return {"confusion": confusion, "total": total, "reliability": reliability, "ece": ece,
            "properties": [(p, c["right"], c["right"] + c["wrong"]) for p, c in props]}


def _confusion_table(confusion: Counter) -> str:
    rows = []
    for g in VERDICTS:
        row_total = sum(confusion[(g, p)] for p in VERDICTS) or 1
        cells = []
        for p in VERDICTS:
            n = confusion[(g, p)]
            share = n / row_total
            hue = 140 if g == p else 0  # green on the diagonal, red off it
            cells.append(f'<td style="background:hsl({hue},60%,{100 - 45 * share:.0f}%)">{n:,}'
                         f'<br><span class="note">{share:.1%}</span></td>')
        rows.append(f'<tr><th class="l">{SHORT[g]}</th>{"".join(cells)}</tr>')
    head = "".join(f"<th>{SHORT[p]}</th>" for p in VERDICTS)
    return (f'<table><tr><th class="l">gold \\ verdict</th>{head}</tr>{"".join(rows)}</table>'
            '<p class="note">Rows: the gold label; cells: claims and the share of the row.</p>')


def _property_table(properties: list, labels: dict) -> str:
    rows = []
    shown, rest = properties[:TOP_PROPERTIES], properties[TOP_PROPERTIES:]
    if rest:
        shown = shown + [(f"{len(rest)} other properties", sum(r for _, r, _ in rest), sum(n for _, _, n in rest))]
    for pid, right, n in shown:
        acc = right / n if n else 0.0
        name = labels.get(pid)
        rows.append(f'<tr><td class="l">{escape(pid)}{f" <span class=note>{escape(name)}</span>" if name else ""}'
                    f'</td><td>{n:,}</td><td>{acc:.1%}</td><td class="l"><div class="barbox">'
                    f'<div class="bar" style="width:{acc * 100:.1f}%"></div></div></td></tr>')
    return ('<table><tr><th class="l">property</th><th>claims</th><th>accuracy</th><th class="l"></th></tr>'
            + "".join(rows) + "</table>")


def _reliability_svg(reliability: list, size: int = 320, pad: int = 40) -> str:
    """Accuracy per confidence bin against the diagonal of perfect calibration; bar width = bin, the
    number above a bar is its claim count."""
    w = size - 2 * pad
    x = lambda v: pad + v * w  # noqa: E731
    y = lambda v: size - pad - v * w  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
             'role="img" aria-label="reliability diagram">',
             f'<rect x="{pad}" y="{pad}" width="{w}" height="{w}" fill="#fafafa" stroke="#ccc"/>',
             f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#999" stroke-dasharray="4 3"/>']
    for r in reliability:
        if not r["n"]:
            continue
        x0, x1 = x(r["low"]), x(r["high"])
        parts.append(f'<rect x="{x0 + 1:.1f}" y="{y(r["accuracy"]):.1f}" width="{x1 - x0 - 2:.1f}" '
                     f'height="{y(0) - y(r["accuracy"]):.1f}" fill="#4a8" fill-opacity="0.8">'
                     f'<title>confidence {r["low"]:.1f}-{r["high"]:.1f}: {r["n"]} claims, accuracy '
                     f'{r["accuracy"]:.1%}, mean confidence {r["mean_confidence"]:.2f}</title></rect>')
        parts.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{y(r["accuracy"]) - 3:.1f}" '
                     f'text-anchor="middle">{r["n"]}</text>')
    for t in range(0, 11, 2):
        v = t / 10
        parts.append(f'<text x="{x(v):.1f}" y="{size - pad + 14}" text-anchor="middle">{v:.1f}</text>')
        parts.append(f'<text x="{pad - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    parts.append(f'<text x="{size / 2}" y="{size - 6}" text-anchor="middle">confidence</text>')
    parts.append(f'<text x="12" y="{size / 2}" text-anchor="middle" transform="rotate(-90 12 {size / 2})">'
                 'accuracy</text></svg>')
    return "".join(parts)


def render_eval_html(report: dict, pairs, labels: dict | None = None, title: str = "kgcheck eval") -> str:
    """The page for `report` (claims/evaluate.score) and its (gold, verdict) pairs."""
    f = figures(pairs)
    labels = labels or {}
    keys = [("claims", f"{report.get('claims', f['total']):,}"), ("accuracy", _pct(report.get("accuracy"))),
            ("C1", _pct(report.get("C1"))), ("C3", _pct(report.get("C3"))),
            ("false support", _pct(report.get("false_support"))),
            ("subject linking", _pct(report.get("subject_linking"))), ("ECE", f"{f['ece']:.3f}")]
    head = "".join(f'<span class="k">{escape(k)}<b>{escape(v)}</b></span>' for k, v in keys)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1><div>{head}</div>"
            f"<h2>Confusion matrix</h2>{_confusion_table(f['confusion'])}"
            f"<h2>Reliability of the confidence</h2>{_reliability_svg(f['reliability'])}"
            '<p class="note">Bars: the share of right verdicts among the claims whose confidence falls in each '
            "tenth; dashed: perfect calibration. ECE: the claim-weighted mean gap between the two.</p>"
            f"<h2>Accuracy per property</h2>{_property_table(f['properties'], labels)}"
            "</body></html>\n")


def _pct(v) -> str:
    return "-" if v is None else f"{v:.1%}"
