/** conformance.html: the run as one self-contained page, failures first, each row unfolding to its scenarios and exchanges. */

import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import { cssClass, rowDocsUrl } from "../evidence/presentation.ts";
import { curlCommand, formatExchange } from "../evidence/transcript.ts";
import { repeatsCount, repeatsShare } from "../judging/repeats.ts";
import type { RowVerdict } from "../judging/verdicts.ts";

/** Failures first, then warnings, then what did not run, then the rest. */
const VERDICT_ORDER: RowVerdict[] = [
  "failed",
  "warning",
  "fixed",
  "expected failure",
  "not run",
  "not applicable",
  "passed",
];

export function conformanceHtml(doc: ConformanceDocument, docsUrl?: string): string {
  const run = doc.rows.filter((r) => r.scenarios.length > 0);
  const sorted = [...run].sort(
    (a, b) =>
      VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) ||
      a.id.localeCompare(b.id, "en", { numeric: true }),
  );
  const levels = ["must", "should", "may"];
  const countRows = levels
    .map((level) => {
      const ofLevel = run.filter((r) => r.level === level);
      const cells = VERDICT_ORDER.map((v) => `<td>${ofLevel.filter((r) => r.verdict === v).length}</td>`).join("");
      return `<tr><th>${level.toUpperCase()}</th>${cells}</tr>`;
    })
    .join("\n");
  const rowsHtml = sorted.map((row) => rowHtml(row, docsUrl)).join("\n");
  const inRepeats = repeatsCount(doc.repeated);
  const intermittent = run.filter((r) => r.intermittent).map((r) => r.id);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sxd conformance: ${escapeHtml(doc.target.baseUrl)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #555; margin-bottom: 1rem; }
.overall { font-size: 1.3rem; font-weight: 600; padding: .6rem 1rem; border-radius: 6px; display: inline-block; }
.overall.conformant { background: #d8f5dd; } .overall.conformant-with-warnings { background: #fff2c4; }
.overall.not-conformant { background: #ffd9d6; } .overall.incomplete { background: #e4e4ea; }
table.counts { border-collapse: collapse; margin: 1rem 0 1.5rem; }
table.counts td, table.counts th { border: 1px solid #ccc; padding: .25rem .7rem; text-align: center; }
details.row { border: 1px solid #ddd; border-left-width: 6px; border-radius: 4px; margin: .35rem 0; padding: .3rem .7rem; }
details.row > summary { cursor: pointer; }
.failed { border-left-color: #d93025 !important; } .warning { border-left-color: #f2a600 !important; }
.passed { border-left-color: #1e8e3e !important; } .not-run, .not-applicable { border-left-color: #999 !important; }
.expected-failure, .fixed { border-left-color: #7b61ff !important; }
.verdict { font-weight: 600; text-transform: uppercase; font-size: .8rem; margin-right: .5rem; }
.level { color: #555; font-size: .8rem; margin-right: .5rem; }
.reason, pre { white-space: pre-wrap; word-break: break-word; }
pre { background: #f6f8fa; padding: .5rem; border-radius: 4px; font-size: 12.5px; }
.scenario { margin: .5rem 0 .5rem 1rem; }
.intermittent { background: #fde2c0; color: #7a3b00; border-radius: 3px; padding: 0 .35rem; font-size: .8rem; margin-right: .5rem; }
.share { color: #555; margin: .2rem 0; }
</style>
</head>
<body>
<h1>sxd conformance report</h1>
<div class="meta">Target ${escapeHtml(doc.target.baseUrl)}${doc.target.contactsUrl ? ` · contacts ${escapeHtml(doc.target.contactsUrl)}` : ""}${doc.target.messagingUrl ? ` · messaging ${escapeHtml(doc.target.messagingUrl)}` : ""}<br>
${escapeHtml(doc.date)} · sxd ${escapeHtml(doc.suite.version)}${doc.strict ? " · strict" : ""}${inRepeats ? ` · ${inRepeats}` : ""}${doc.peer ? ` · sxd played the ${escapeHtml(doc.peer)} server (--peer)` : ""}</div>
<div class="overall ${cssClass(doc.overall)}" id="overall">${escapeHtml(doc.overall)}${doc.interrupted ? ` (interrupted by ${escapeHtml(doc.interrupted)})` : ""}</div>
${(doc.warnings ?? []).map((w) => `<p class="warning-line" role="alert">warning: ${escapeHtml(w)}</p>`).join("\n")}
${(doc.repeated?.ran ?? 1) > 1 ? `<p id="intermittent">Intermittent, their verdicts differing between repeats: ${intermittent.join(", ") || "none"}</p>` : ""}
<table class="counts" id="counts">
<tr><th></th>${VERDICT_ORDER.map((v) => `<th>${v}</th>`).join("")}</tr>
${countRows}
</table>
${rowsHtml}
</body>
</html>
`;
}

function rowHtml(row: ConformanceDocument["rows"][number], docsUrl: string | undefined): string {
  const open = row.verdict === "failed" ? " open" : "";
  // The row shows what was expected and what came; the exchange is in the scenario below.
  const reason = row.reason ? `<div class="reason">${escapeHtml(row.reason.split("\nin the exchange:")[0])}</div>` : "";
  const share = repeatsShare(row);
  // In a group, the row's scenarios are those of one repeat: the first that gave its verdict.
  const shareHtml = share
    ? `<div class="share">${escapeHtml(share)}; the scenarios below are of repeat ${row.evidenceRepeat}</div>`
    : "";
  const docs = docsUrl
    ? `<div class="docs"><a href="${escapeHtml(rowDocsUrl(docsUrl, row.id))}">${row.id} in the documentation</a></div>`
    : "";
  const scenarios = row.scenarios
    .map((s) => {
      const exchanges = s.exchanges
        .map((e) => `<pre>${escapeHtml(formatExchange(e))}</pre><pre class="curl">${escapeHtml(curlCommand(e))}</pre>`)
        .join("");
      const message = s.message ? `<pre class="message">${escapeHtml(s.message)}</pre>` : "";
      const observed = (s.observed ?? []).map((o) => `<p class="observed">observed: ${escapeHtml(o)}</p>`).join("");
      return `<details class="scenario"><summary>${escapeHtml(s.status)}: ${escapeHtml(s.name)} <small>${escapeHtml(s.location)}</small></summary>${message}${observed}${exchanges}</details>`;
    })
    .join("");
  const mark = row.intermittent ? '<span class="intermittent">intermittent</span>' : "";
  return `<details class="row ${cssClass(row.verdict)}" data-row="${row.id}" data-verdict="${row.verdict}"${row.intermittent ? ' data-intermittent="true"' : ""}${open}>
<summary><span class="verdict">${escapeHtml(row.verdict)}</span>${mark}<span class="level">${row.level.toUpperCase()}</span><b>${row.id}</b> ${escapeHtml(row.rule)}</summary>
${shareHtml}${reason}${docs}${scenarios}</details>`;
}
