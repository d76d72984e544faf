/**
 * The reports of `sxd limits`, each made from one document (evidence/limits-document.ts):
 * limits.json (schema/limits.schema.json), limits.html (a chart per series, memory beside,
 * findings first) and the lines of summary.md, which replace the earlier limits section of that
 * file and keep the rest.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { escapeXml } from "../../lib/xml.ts";
import { CHART_CSS } from "../evidence/limits-chart.ts";
import { caseChartsHtml, caseHeadline, type LimitsDocument, ordered, seriesLine } from "../evidence/limits-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";

/** Writes limits.json, limits.html and the limits section of summary.md; returns their paths. */
export function writeLimitsReports(reportDir: string, doc: LimitsDocument): string[] {
  mkdirSync(reportDir, { recursive: true });
  const json = join(reportDir, REPORT_FILES.limitsJson);
  const html = join(reportDir, REPORT_FILES.limitsHtml);
  const summary = join(reportDir, REPORT_FILES.summary);
  writeFileSync(json, `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(html, limitsHtml(doc));
  const before = existsSync(summary) ? readFileSync(summary, "utf8") : "";
  const kept = before.includes(SUMMARY_MARK) ? before.slice(0, before.indexOf(SUMMARY_MARK)) : before;
  writeFileSync(summary, `${kept}${kept && !kept.endsWith("\n\n") ? "\n" : ""}${limitsMarkdown(doc)}`);
  return [json, html, summary];
}

const SUMMARY_MARK = "<!-- sxd limits -->";

export function limitsMarkdown(doc: LimitsDocument): string {
  const lines = [SUMMARY_MARK, `### sxd limits: ${doc.target}`, ""];
  lines.push("| Case | Growth | Series |", "|---|---|---|");
  const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  for (const c of ordered(doc.cases)) {
    const series = [...c.series, ...(c.memory ? [c.memory] : [])].filter((s) => s.points.length > 0);
    lines.push(`| ${c.id} | ${cell(caseHeadline(c))} | ${cell(series.map(seriesLine).join("<br>"))} |`);
  }
  lines.push("", `Memory: ${doc.memory}. Informational: no LIM case makes a target conformant or not.`, "");
  return `${lines.join("\n")}\n`;
}

/** The console's summary: a line per case, findings first. */
export function limitsSummary(doc: LimitsDocument): string {
  return `${ordered(doc.cases)
    .map((c) => `${c.id}: ${caseHeadline(c)}`)
    .join("\n")}\n`;
}

export function limitsHtml(doc: LimitsDocument): string {
  const sections = ordered(doc.cases).map((c) => {
    const finding = c.finding?.exchange ? `<pre class="exchange">${escapeXml(c.finding.exchange)}</pre>` : "";
    const growth = c.status === "not run" ? "not-run" : c.finding ? "finding" : (c.growth ?? "none");
    return `<section id="${c.id}" class="${growth}"><h2>${c.id} <span class="growth">${escapeXml(caseHeadline(c))}</span></h2>
<p>${escapeXml(c.measures)}</p>${finding}${caseChartsHtml(c)}</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sxd limits: ${escapeXml(doc.target)}</title>
<style>body { font: 14px system-ui, sans-serif; margin: 1.5rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
h2 { font-size: 1.1rem; margin-bottom: 0.2rem; } h2 .growth { font-weight: normal; color: #555; }
section { border-top: 1px solid #ccc; padding: 0.5rem 0 1rem; }
section.finding h2 .growth { color: #b00; font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0; width: 360px; } figcaption { font-size: 12px; color: #444; overflow-wrap: anywhere; }
pre.exchange { background: #f6f6f6; padding: 0.5rem; overflow-x: auto; font-size: 12px; }
${CHART_CSS}</style></head><body>
<h1>sxd limits</h1>
<p>${escapeXml(`${doc.target} · ${doc.startedAt} · ${doc.repeats} repeats a size · ${Math.round(doc.elapsedMs / 1000)} s · memory: ${doc.memory}`)}</p>
<p>Informational: each case measures how a cost grows with a size; no case makes a target conformant or not. Both axes are logarithmic; each point is a repeat, the line joins the medians.</p>
${sections.join("\n")}
</body></html>
`;
}
