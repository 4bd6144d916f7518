// kgcheck page: everything is built with textContent — the checked text is untrusted.
"use strict";
const $ = (id) => document.getElementById(id);
const CLASS = {SUPPORTED: "supported", REFUTED: "refuted", NOT_ENOUGH_INFO: "nei"};

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function showEvidence(claim, span) {
  document.querySelectorAll(".claim.selected").forEach((n) => n.classList.remove("selected"));
  if (span) span.classList.add("selected");
  const box = $("evidence");
  box.replaceChildren();
  box.append(el("div", `${claim.verdict} (${claim.confidence.toFixed(2)}, rule ${claim.rule})`, "verdict-" + claim.verdict));
  box.append(el("div", `${claim.claim.subject} [${claim.subject_id || "?"}] — ${claim.claim.predicate} [${(claim.property_ids || []).join(", ")}] — ${claim.span}`));
  box.append(el("div", claim.reason));
  if (claim.corrections && claim.corrections.length) box.append(el("div", "Correct value: " + claim.corrections.join(", "), "verdict-REFUTED"));
  for (const e of claim.evidence || []) {
    const row = el("div", null, "ev");
    row.append(el("span", `${e.subject_label || e.subject} `), el("span", e.subject, "id"),
      el("span", ` · ${e.property_label || e.property} `), el("span", e.property, "id"),
      el("span", ` · ${e.value} `), el("span", e.value_id || "", "id"), el("span", ` [${e.relation}, ${e.rank}]`));
    for (const q of e.qualifiers || []) row.append(el("div", `qualifier ${q.property}: ${q.value}`));
    for (const ref of e.references || []) row.append(el("div", "reference: " + ref.map((s) => `${s.property}: ${s.value}`).join("; ")));
    box.append(row);
  }
}

function render(report) {
  const out = $("result");
  out.replaceChildren();
  let pos = 0;
  // The API's offsets count code points (Python str); a JS string counts UTF-16 units, so an emoji
  // before a claim would shift every highlight: slice an array of code points instead.
  const chars = Array.from(report.text);
  const slice = (a, b) => chars.slice(a, b).join("");
  const claims = [...report.claims].sort((a, b) => a.start - b.start);
  for (const c of claims) {
    if (c.start < pos) continue;
    out.append(document.createTextNode(slice(pos, c.start)));
    const span = el("span", slice(c.start, c.end), "claim " + (CLASS[c.verdict] || "nei"));
    span.dataset.verdict = c.verdict;
    span.title = c.reason;
    span.addEventListener("click", () => showEvidence(c, span));
    out.append(span);
    pos = c.end;
  }
  out.append(document.createTextNode(slice(pos)));
  const fd = report.factuality_degree === null ? "n/a" : report.factuality_degree.toFixed(3);
  const shares = Object.entries(report.shares).map(([k, v]) => `${k}: ${Math.round(v * 100)}%`).join(" · ");
  $("scores").textContent = `Factuality Degree: ${fd} · ${shares} · ${report.claims.length} claims`;
  $("fixed-view").hidden = report.fixed_text === null;
  $("fixed").textContent = report.fixed_text || "";
  const enrich = $("enrichment");
  enrich.replaceChildren();
  for (const f of report.enrichment || []) enrich.append(el("div", f.sentence));
  if (claims.length) showEvidence(claims[0], out.querySelector(".claim"));
}

async function verify() {
  $("status").textContent = "checking…";
  $("verify").disabled = true;
  try {
    const res = await fetch("/verify", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({text: $("text").value, fix: $("fix").checked, enrich: $("enrich").checked})});
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || res.statusText);
    render(data);
    $("status").textContent = "done";
  } catch (err) {
    $("status").textContent = "error: " + err.message;
  } finally {
    $("verify").disabled = false;
  }
}

window.addEventListener("DOMContentLoaded", async () => {
  $("verify").addEventListener("click", verify);
  try {
    const h = await (await fetch("/health")).json();
    $("health").textContent = `index: ${h.index.source || h.index.directory} · ${h.index.counts ? h.index.counts.statements : "?"} statements`;
  } catch (err) { $("health").textContent = ""; }
});
