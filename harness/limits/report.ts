/**
 * The reports of `sxd limits`, each made from the same run: limits.json (schema/limits.schema.json),
 * limits.html (a chart per series, memory beside, findings first) and the lines of summary.md,
 * which replace the earlier limits section of that file and keep the rest.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { escapeXml } from "../../lib/xml.ts";
import type { TargetDescription } from "../description/target.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import { formatExchange } from "../evidence/transcript.ts";
import { suiteVersion } from "../package.ts";
import { CHART_CSS, chartSvg } from "./chart.ts";
import { formatRatio } from "./growth.ts";
import type { CaseResult, SeriesResult } from "./measure.ts";
import type { LimitsRun } from "./run.ts";

export interface LimitsDocument {
  tool: "sxd limits";
  version: string;
  target: string;
  startedAt: string;
  elapsedMs: number;
  repeats: number;
  deadlineSeconds: number;
  memory: string;
  cases: CaseDocument[];
}

interface CaseDocument {
  id: string;
  measures: string;
  size: { name: string; unit: string };
  sizes: number[];
  status: "measured" | "not run" | "finding";
  reason?: string;
  growth?: string;
  limit?: { size: number; said: string };
  lowered: Array<{ size: number; reason: string }>;
  finding?: { message: string; exchange?: string };
  series: SeriesDocument[];
  memory?: SeriesDocument;
}

interface SeriesDocument {
  name: string;
  unit: string;
  expected?: "linear";
  points: Array<{ size: number; median: number; spread: number; repeats: number[] }>;
  exponent?: number;
  ratio?: number;
  growth?: string;
  why?: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function seriesDocument(series: SeriesResult): SeriesDocument {
  const { fit } = series;
  return {
    name: series.name,
    unit: series.unit,
    ...(series.expected ? { expected: series.expected } : {}),
    points: series.points.map((p) => ({
      size: p.size,
      median: round(p.median),
      spread: round(p.spread),
      repeats: p.repeats.map(round),
    })),
    ...(fit
      ? {
          exponent: round(fit.exponent),
          ratio: Number.isFinite(fit.ratio) ? round(fit.ratio) : undefined,
          growth: fit.growth,
          why: fit.why,
        }
      : {}),
  };
}

function caseDocument(result: CaseResult): CaseDocument {
  const status = result.notRun !== undefined ? "not run" : result.finding ? "finding" : "measured";
  return {
    id: result.id,
    measures: result.measures,
    size: result.size,
    sizes: result.sizes,
    status,
    ...(result.notRun !== undefined ? { reason: result.notRun } : {}),
    ...(result.growth ? { growth: result.growth } : {}),
    ...(result.limit ? { limit: result.limit } : {}),
    lowered: result.lowered,
    ...(result.finding
      ? {
          finding: {
            message: result.finding.message,
            ...(result.finding.exchange ? { exchange: formatExchange(result.finding.exchange) } : {}),
          },
        }
      : {}),
    series: result.series.map(seriesDocument),
    ...(result.memory ? { memory: seriesDocument(result.memory) } : {}),
  };
}

export function limitsDocument(run: LimitsRun, target: TargetDescription): LimitsDocument {
  return {
    tool: "sxd limits",
    version: suiteVersion(),
    target: target.baseUrl,
    startedAt: run.startedAt,
    elapsedMs: run.elapsedMs,
    repeats: run.repeats,
    deadlineSeconds: run.deadlineSeconds,
    memory: run.memory,
    cases: run.cases.map(caseDocument),
  };
}

/** Writes limits.json, limits.html and the limits section of summary.md; returns their paths. */
export function writeLimitsReports(reportDir: string, run: LimitsRun, target: TargetDescription): string[] {
  mkdirSync(reportDir, { recursive: true });
  const doc = limitsDocument(run, target);
  const json = join(reportDir, REPORT_FILES.limitsJson);
  const html = join(reportDir, REPORT_FILES.limitsHtml);
  const summary = join(reportDir, REPORT_FILES.summary);
  writeFileSync(json, `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(html, limitsHtml(doc));
  const before = existsSync(summary) ? readFileSync(summary, "utf8") : "";
  const kept = before.includes(SUMMARY_MARK) ? before.slice(0, before.indexOf(SUMMARY_MARK)) : before;
  writeFileSync(summary, `${kept}${kept && !kept.endsWith("\n\n") ? "\n" : ""}${summaryMarkdown(doc)}`);
  return [json, html, summary];
}

const SUMMARY_MARK = "<!-- sxd limits -->";

/** Findings first, then each case with its class and its series' numbers. */
function ordered(cases: readonly CaseDocument[]): CaseDocument[] {
  return [...cases.filter((c) => c.finding), ...cases.filter((c) => !c.finding)];
}

function seriesLine(series: SeriesDocument): string {
  const ends = series.points.length > 0 ? series.points : undefined;
  const numbers = ends
    ? `${ends.map((p) => `${p.median} ${series.unit} at ${p.size}`).join(", ")}`
    : "nothing measured";
  const fit =
    series.growth === undefined
      ? ""
      : `: ${series.growth} (exponent ${series.exponent}, ${formatRatio(series.ratio ?? Number.POSITIVE_INFINITY)})`;
  return `${series.name}${fit}; ${numbers}`;
}

function caseHeadline(c: CaseDocument): string {
  if (c.status === "not run") return `not run: ${c.reason}`;
  const parts = [c.growth ?? "no class (fewer than two sizes measured)"];
  if (c.limit) parts.push(`limit at ${c.size.name} = ${c.limit.size}: ${c.limit.said}`);
  for (const l of c.lowered) parts.push(`${c.size.name} = ${l.size} not measured: ${l.reason}`);
  if (c.finding) parts.push(`FINDING: ${c.finding.message}`);
  return parts.join("; ");
}

export function summaryMarkdown(doc: LimitsDocument): string {
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
export function limitsSummary(run: LimitsRun): string {
  const cases = ordered(run.cases.map(caseDocument));
  return `${cases.map((c) => `${c.id}: ${caseHeadline(c)}`).join("\n")}\n`;
}

export function limitsHtml(doc: LimitsDocument): string {
  const sections = ordered(doc.cases).map((c) => {
    const charts = [...c.series, ...(c.memory ? [c.memory] : [])]
      .filter((s) => s.points.length > 0)
      .map(
        (s) =>
          `<figure>${chartSvg({ title: s.name, x: `${c.size.name} (${c.size.unit})`, y: s.unit, points: s.points })}<figcaption>${escapeXml(seriesLine(s))}${s.why ? `<br><small>${escapeXml(s.why)}</small>` : ""}</figcaption></figure>`,
      )
      .join("");
    const finding = c.finding?.exchange ? `<pre class="exchange">${escapeXml(c.finding.exchange)}</pre>` : "";
    const growth = c.status === "not run" ? "not-run" : c.finding ? "finding" : (c.growth ?? "none");
    return `<section id="${c.id}" class="${growth}"><h2>${c.id} <span class="growth">${escapeXml(caseHeadline(c))}</span></h2>
<p>${escapeXml(c.measures)}</p>${finding}<div class="charts">${charts}</div></section>`;
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
