/**
 * The site's page of LIM cases: what each measures and at which sizes (the catalogue), and what
 * a run of `sxd limits` measured of it, with its charts: the bundled reference's by default
 * (cli/docs-recording.ts measures it as the site is built), or the limits.json given.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { caseChartsHtml, caseHeadline, type LimitsDocument } from "../evidence/limits-document.ts";
import type { LimitRow } from "../judging/catalogue.ts";

export function limitsPageBody(rows: readonly LimitRow[], measured: LimitsDocument | undefined): string {
  const intro = `<p>No rule of the interface bounds what a server may cost as it holds more: every rule can pass on a
server whose old snapshots are rebuilt from differences, whose updates copy the history, or whose
nonce log only grows. The LIM cases measure those costs at growing sizes and say how each grows:
flat, linear, faster, or unclear where the repeats' noise is as large as the change. A LIM case has
no level: it never makes a target conformant or not. <code>sxd limits</code> runs them against any
target; <code>--fail-on linear</code> makes them a gate in CI.</p>
${measured ? measuredBy(measured) : "<p>Nothing was measured for this build.</p>"}`;
  const sections = rows.map((row) => {
    const result = measured?.cases.find((c) => c.id === row.id);
    const shown = result
      ? `<p class="measured"><b>Measured:</b> ${escapeHtml(caseHeadline(result))}</p>${caseChartsHtml(result)}`
      : "";
    return `<section class="limit" id="${row.id}"><h2>${row.id}</h2>
<p>${escapeHtml(row.measures)}</p>
<p class="sizes"><b>Sizes:</b> ${escapeHtml(row.sizes)}</p>
${shown}</section>`;
  });
  return `${intro}\n${sections.join("\n")}`;
}

function measuredBy(doc: LimitsDocument): string {
  const when = `${doc.startedAt}, ${doc.repeats} repeats a size, in ${Math.round(doc.elapsedMs / 1000)} s`;
  return `<p>Under each case: what <code>sxd limits</code> measured of ${escapeHtml(doc.target)} (${escapeHtml(when)}).
Both axes of a chart are logarithmic; each point is a repeat, the line joins the medians. Memory: ${escapeHtml(doc.memory)}.</p>`;
}
