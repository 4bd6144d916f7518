"""Human-readable terminal output of verifier results (the CLI only echoes these lines)."""
from __future__ import annotations

import sys


def text_report_lines(report) -> list[str]:
    lines = [f"note: {note}" for note in report.notes]
    if not report.claims:
        lines.append("no checkable claims found in the text")
    for n, tc in enumerate(report.claims, 1):
        v = tc.verdict
        lines.append(f"[{n}] {v.verdict:<15} {tc.claim.subject} — {tc.claim.predicate} — {tc.span!r}  "
                     f"({v.confidence:.2f}, rule {v.rule}, {tc.source})")
        lines.append(f"     {v.reason}")
        if v.corrections:
            lines.append(f"     correct value: {', '.join(v.corrections)}")
        for e in v.evidence[:2]:
            lines.append(f"     evidence: {e.subject_label or e.subject} ({e.subject}) {e.property_label or e.property} "
                         f"({e.property}) {e.value}{f' ({e.value_id})' if e.value_id else ''} [{e.statement_id}]")
    fd = "n/a" if report.factuality_degree is None else f"{report.factuality_degree:.3f}"
    lines.append(f"Factuality Degree: {fd}  " + "  ".join(f"{k}: {v:.0%}" for k, v in report.shares.items()))
    if report.fixed_text is not None:
        lines.append(f"corrected text: {report.fixed_text}")
    lines.extend(f"related fact: {fact['sentence']}" for fact in report.enrichment)
    return lines


def faithfulness_lines(report) -> list[str]:
    lines = [f"faithfulness: {report.score:.3f} (threshold {report.threshold})"
             + (f" — {report.reason}" if report.reason else "")]
    for ls in report.links:
        match = f"({ls.best_match.head}, {ls.best_match.relation}, {ls.best_match.tail})" if ls.best_match else "none"
        lines.append(f"  {'ok ' if ls.passed else 'LOW'} {ls.score:.3f}  ({ls.link.head}, {ls.link.relation}, "
                     f"{ls.link.tail})  ~ {match}")
    return lines


def eval_lines(report: dict) -> list[str]:
    lines = [f"{report['claims']:,} claims, {report['claims_per_second']:,.0f} claims/s",
             f"accuracy        {report['accuracy']:.4f}",
             f"C1 (supported)  {report['C1']}",
             f"C3 (refuted + correct value) {report['C3']}",
             f"false support   {report['false_support']}",
             f"subject linking {report['subject_linking']}"]
    for verdict, m in report["per_verdict"].items():
        lines.append(f"  {verdict:<16} P {m['precision']:.4f}  R {m['recall']:.4f}  F1 {m['f1']:.4f}  n={m['support']}")
    lines.append(f"by kind:       {report['by_kind']}")
    lines.append(f"by corruption: {report['by_corruption']}")
    return lines


def ingest_summary_lines(manifest: dict, out: str) -> list[str]:
    lines = [f"ingested {manifest['source']['path']} -> {out} in {manifest['wall_seconds']:.1f} s"]
    lines += [f"  {name:<11} {n:>12,}" for name, n in manifest["counts"].items()]
    skipped = sum(manifest["skipped_entities"].values())
    bad = manifest["bad_lines"]["total"]
    if skipped:
        lines.append(f"  skipped     {skipped:>12,}  {manifest['skipped_entities']}")
    if bad:
        lines.append(f"  bad lines   {bad:>12,}  (see {out}/errors.jsonl)")
    return lines


def index_summary_lines(manifest: dict) -> list[str]:
    info = manifest["index"]
    lines = [f"indexed with {info['model']} ({info['faiss_index_type']}) in {info['wall_seconds']:.1f} s"]
    lines += [f"  {name:<21} {n:>12,}" for name, n in info["counts"].items()]
    emb = info["embeddings"]
    lines.append(f"  embeddings: {emb['encoded']:,} encoded, {emb['reused']:,} reused from the cache")
    return lines


def check_summary_lines(data: dict) -> list[str]:
    lines = [f"checked {data['checked']:,} claims in {data['seconds']:.1f} s ({data['claims_per_second'] or 0:,.0f}/s)"]
    lines += [f"  {verdict:<16} {n:>10,}" for verdict, n in data["verdicts"].items()]
    if data["bad_lines"]:
        lines.append(f"  {'bad lines':<16} {data['bad_lines']:>10,}  (error records in the output)")
    if data["skipped_already_done"]:
        lines.append(f"  {'already done':<16} {data['skipped_already_done']:>10,}")
    return lines


def entity_dict(entity_id: str, entity, statements, incoming, labels: dict) -> dict:
    from kgcheck.index.render import statement_dict

    return {"id": entity_id, "label": entity.label if entity else None,
            "description": entity.description if entity else None,
            "aliases": list(entity.aliases) if entity else [],
            "statements": [statement_dict(s, labels) for s in statements],
            "statements_about": [statement_dict(s, labels) for s in incoming]}


def entity_lines(entity_id: str, entity, statements, incoming, labels: dict) -> list[str]:
    """`kgcheck show`: the entity, its statements sorted by property label, then those about it."""
    from kgcheck.index.render import statement_lines

    lines = [f"{entity.label or '(no label)'} ({entity_id})" if entity else f"{entity_id} (no entity record)"]
    if entity and entity.description:
        lines.append(f"  {entity.description}")
    if entity and entity.aliases:
        lines.append(f"  also known as: {', '.join(entity.aliases)}")
    for st in sorted(statements, key=lambda s: (labels.get(s.property, s.property).lower(), s.statement_id)):
        lines += ["  " + line for line in statement_lines(st, labels)]
    if incoming:
        lines.append("statements about it:")
        lines += [f"  {labels.get(st.subject, st.subject)} ({st.subject}) {labels.get(st.property, st.property)} "
                  f"({st.property})" for st in incoming]
    return lines


def diff_lines(summary: dict, top: int = 20) -> list[str]:
    e, lab, st = summary["entities"], summary["labels"], summary["statements"]
    lines = [f"{summary['old']} -> {summary['new']}"
             + ("  (the changes the build saved)" if summary.get("from_saved_changes") else ""),
             f"entities:   +{e['added']:,} -{e['removed']:,}; label changed {e['label']:,}, description "
             f"{e['description']:,}, aliases only {e['aliases']:,}",
             f"labels:     +{lab['added']:,} -{lab['removed']:,}; aliases +{lab['aliases_added']:,} "
             f"-{lab['aliases_removed']:,}",
             f"statements: +{st['added']:,} -{st['removed']:,} ~{st['changed']:,} "
             f"({', '.join(f'{k} {v:,}' for k, v in st['changed_by_part'].items())}) "
             f"on {st['subjects_touched']:,} subjects"]
    props = list(summary["by_property"].items())
    if props:
        lines.append(f"by property (top {min(top, len(props))} of {len(props)}):")
        lines.append(f"  {'property':<12} {'added':>12} {'removed':>8} {'changed':>8}")
        lines += [f"  {p:<12} {c['added']:>12,} {c['removed']:>8,} {c['changed']:>8,}" for p, c in props[:top]]
    return lines


def recheck_lines(data: dict, output: str) -> list[str]:
    lines = [f"{data['results']:,} results, {data['rechecked']:,} re-checked "
             f"({data['seconds_diff']:.1f} s finding them, {data['seconds_check']:.1f} s checking); "
             f"{data['flipped']:,} verdicts flipped" + (f": {data['flips']}" if data["flips"] else "")]
    if data.get("not_results"):
        lines.append(f"{data['not_results']:,} lines are not results (error records or other shapes): copied unchanged")
    for f in data["flipped_claims"]:
        c = f.get("claim") or {}
        lines.append(f"  {f['id']}: {f['old']} -> {f['new']}  ({c.get('subject')} | {c.get('predicate')} | "
                     f"{c.get('object')})")
    lines.append(f"updated results: {output}")
    return lines


LONG_TEXT_CHARS = 20_000  # texts from here on take tens of seconds: show progress


class ProgressBars:
    """Control.on_progress as tqdm bars on stderr, one per stage (sentences, claims); closed on exit."""

    def __init__(self) -> None:
        self.bars: dict = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        from tqdm import tqdm

        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=f"verify: {stage}", unit="", file=sys.stderr,
                                          mininterval=1.0, leave=False)
        bar.update(done + 1 - bar.n)

    def __enter__(self) -> "ProgressBars":
        return self

    def __exit__(self, *exc) -> None:
        for bar in self.bars.values():
            bar.close()
