/**
 * history.html, from history.json: a section per target, each row's runs as a strip of
 * stretches (a segment a stretch, as wide as its runs, coloured by its verdict), when it first
 * failed and what fixed it with their evidence, the intermittent rows with their share; the
 * interop cells the same way; each limits case's cost at its largest size by label, as a chart
 * whose rises are marked. One file, no script, its style inline. Pure.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { cssClass } from "../evidence/presentation.ts";
import type { HistoryDocument, TargetHistory } from "./history.ts";
import { runName, stretchLine } from "./history-text.ts";
import { brokenness, type RowHistory, type RunRef } from "./stretches.ts";
import type { CaseTrend } from "./trend.ts";

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 75rem; padding: 0 1rem; color: #1a1a1a; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { font-weight: 600; background: #f4f4f4; } th[scope="row"], td.when { white-space: nowrap; }
pre { white-space: pre-wrap; margin: .25rem 0; }
.strip { display: flex; min-width: 16rem; height: 1.2rem; border: 1px solid #bbb; }
.strip span { display: block; min-width: 3px; }
.passed, .fixed, .succeeded { background: #2e7d32; } .failed { background: #c62828; } .warning { background: #ef8c00; }
.expected-failure { background: #8e5a9b; } .not-run, .unsupported { background: #9e9e9e; } .not-applicable { background: #c8c8c8; }
.intermittent { color: #a04000; font-weight: 600; } .rose { color: #c62828; font-weight: 600; }
.quiet { color: #555; } small { color: #555; } figure { display: inline-block; margin: 0 1rem 1rem 0; }
.legend span { display: inline-block; width: .8rem; height: .8rem; margin: 0 .25rem 0 .75rem; vertical-align: middle; }
`;

function link(ref: RunRef): string {
  const where = ref.jobUrl ?? (ref.folder ? `file://${ref.folder}` : undefined);
  const name = `${escapeHtml(runName(ref))}, ${escapeHtml(ref.date.slice(0, 10))}`;
  return where ? `<a href="${escapeHtml(where)}">${name}</a>` : name;
}

function strip(history: RowHistory): string {
  const segments = history.stretches.map((s, i) => {
    const title = escapeHtml(stretchLine(s, i === history.stretches.length - 1));
    return `<span class="${cssClass(s.verdict)}" style="flex: ${s.runs}" title="${title}"></span>`;
  });
  const words = history.stretches.map((s, i) => stretchLine(s, i === history.stretches.length - 1)).join("; ");
  return `<div class="strip" role="img" aria-label="${escapeHtml(words)}">${segments.join("")}</div>`;
}

/**
 * A broken stretch's reason: its words on the page, the exchange it quotes (failureText's
 * "in the exchange:" and the indented lines after it) folded behind them.
 */
function noteOf(note: string): string {
  const cut = note.search(/\n(?=[^\n]*:\n {4})/);
  if (cut < 0) return `<small>${escapeHtml(note)}</small>`;
  return `<details><summary><small>${escapeHtml(note.slice(0, cut))}</small></summary><pre><small>${escapeHtml(note.slice(cut + 1))}</small></pre></details>`;
}

function rowsTable(what: string, histories: readonly RowHistory[]): string {
  if (histories.length === 0) return "";
  const lines = histories.map((h) => {
    const broken = h.stretches.findLast((s) => brokenness(s.verdict) === "broken");
    const intermittent = h.intermittent
      ? `<span class="intermittent">intermittent</span>: broken in ${Math.round(h.failedShare * 100)}% (${escapeHtml(h.intermittentLabels.join(", "))})`
      : "";
    return `<tr id="${escapeHtml(h.id)}"><th scope="row">${escapeHtml(h.id)}</th><td>${strip(h)}${
      broken?.note ? noteOf(broken.note) : ""
    }</td><td class="when">${h.firstFailed ? link(h.firstFailed) : "–"}</td><td class="when">${
      h.fixedBy ? link(h.fixedBy) : h.firstFailed ? "not yet" : "–"
    }</td><td>${intermittent}</td></tr>`;
  });
  return `<table><caption class="quiet">${what}, oldest run on the left</caption><thead><tr><th scope="col">${what === "Rows" ? "Row" : "Cell"}</th><th scope="col">Runs</th><th scope="col">First failed</th><th scope="col">Fixed by</th><th scope="col">Intermittent</th></tr></thead><tbody>${lines.join("")}</tbody></table>`;
}

const W = 420;
const H = 200;
const PAD = { left: 56, right: 12, top: 24, bottom: 40 };

/** A case's cost by label: a point a label, its lower to upper quartile as a bar, rises in red. */
function trendChart(trend: CaseTrend): string {
  const highest = Math.max(...trend.labels.map((l) => l.upperQuartile), 0) * 1.1 || 1;
  const x = (i: number) => PAD.left + ((i + 0.5) / trend.labels.length) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / highest) * (H - PAD.top - PAD.bottom);
  const marks = trend.labels.map((l, i) => {
    const colour = l.risen ? "#c62828" : "#1f5fa8";
    return `<line x1="${x(i)}" x2="${x(i)}" y1="${y(l.lowerQuartile)}" y2="${y(l.upperQuartile)}" stroke="${colour}" stroke-width="3"/><circle cx="${x(i)}" cy="${y(l.lowerQuartile)}" r="4" fill="${colour}"><title>${escapeHtml(`${l.label}: ${l.lowerQuartile} ${trend.unit} (p25), ${l.runs} runs${l.risen ? ", rose" : ""}`)}</title></circle><text x="${x(i)}" y="${H - PAD.bottom + 16}" font-size="11" text-anchor="middle">${escapeHtml(l.label.slice(0, 10))}</text>`;
  });
  const title = `${trend.caseId} ${trend.series} at ${trend.size}`;
  const axis = `<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#555"/><line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#555"/><text x="${PAD.left - 6}" y="${y(highest / 1.1) + 4}" font-size="11" text-anchor="end">${(highest / 1.1).toPrecision(3)}</text><text x="${PAD.left - 6}" y="${H - PAD.bottom}" font-size="11" text-anchor="end">0</text><text x="12" y="${PAD.top - 8}" font-size="11">${escapeHtml(trend.unit)}</text>`;
  const caption = trend.labels
    .map(
      (l) =>
        `${escapeHtml(l.label)} ${l.lowerQuartile.toPrecision(3)}${l.risen ? ' <span class="rose">rose</span>' : ""}`,
    )
    .join(", ");
  return `<figure><svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(title)}"><text x="${W / 2}" y="14" font-size="13" text-anchor="middle">${escapeHtml(title)}</text>${axis}${marks.join("")}</svg><figcaption>${caption}</figcaption></figure>`;
}

function targetSection(target: TargetHistory): string {
  const limits =
    target.limits.length > 0
      ? `<h3>Limits: each case's cost at its largest size, by label</h3>${target.limits.map(trendChart).join("")}`
      : "";
  return `<section><h2>${escapeHtml(target.target)}</h2><p class="quiet">${escapeHtml(target.kinds.join(", "))}: ${target.runs} runs, from ${link(target.first)} to ${link(target.last)}</p>${rowsTable("Rows", target.rows)}${rowsTable("Interop cells", target.cells)}${limits}</section>`;
}

const LEGEND = ["passed", "failed", "warning", "expected failure", "not run", "not applicable"]
  .map((v) => `<span class="${cssClass(v)}"></span>${v}`)
  .join("");

export function historyPage(doc: HistoryDocument): string {
  const body = doc.runs === 0 ? `<p>No run in the store matches.</p>` : doc.targets.map(targetSection).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>sxd history</title><style>${STYLE}</style></head>
<body><main><h1>sxd history</h1><p class="quiet">${doc.runs} runs in ${escapeHtml(doc.store)}.</p><p class="legend">${LEGEND}</p>${body}</main></body></html>
`;
}
