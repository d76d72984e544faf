/**
 * The document a run of `sxd limits` leaves (limits.json, schema/limits.schema.json), and the
 * words both its readers give it: the report's pages (report/limits.ts) and the site's page of
 * LIM cases (docs/). Pure; harness/limits/report.ts builds it from a run.
 */
import { escapeXml } from "../../lib/xml.ts";
import type { BundledReference, DescribedKeys } from "./described-target.ts";
import { chartSvg } from "./limits-chart.ts";

export interface LimitsDocument {
  tool: "sxd limits";
  version: string;
  target: string;
  /** The description's keys the run read (described-target.ts), secrets masked; absent in older documents. */
  described?: DescribedKeys;
  /** The run started the bundled reference (no URL given): which one. */
  bundled?: BundledReference;
  startedAt: string;
  elapsedMs: number;
  repeats: number;
  deadlineSeconds: number;
  memory: string;
  cases: CaseDocument[];
}

export interface CaseDocument {
  id: string;
  measures: string;
  size: { name: string; unit: string };
  sizes: number[];
  status: "measured" | "not run" | "finding";
  reason?: string;
  growth?: string;
  limit?: { size: number; said: string };
  lowered: Array<{ size: number; reason: string }>;
  observed?: Array<{ size: number; said: string }>;
  finding?: { message: string; exchange?: string };
  /** What the case could not check or delete. */
  notes?: string[];
  series: SeriesDocument[];
  memory?: SeriesDocument;
}

export interface SeriesDocument {
  name: string;
  unit: string;
  expected?: "linear";
  points: Array<{ size: number; median: number; spread: number; repeats: number[] }>;
  exponent?: number;
  ratio?: number;
  growth?: string;
  why?: string;
}

/** A ratio of costs as the reports write it: ×1.04, ×12, ×∞. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `×${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(0)}` : "×∞";
}

/** Findings first, then each case in the catalogue's order. */
export function ordered(cases: readonly CaseDocument[]): CaseDocument[] {
  return [...cases.filter((c) => c.finding), ...cases.filter((c) => !c.finding)];
}

export function seriesLine(series: SeriesDocument): string {
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

/** A case in a line: its class, the limit the server stated, the sizes lowered, a finding. */
export function caseHeadline(c: CaseDocument): string {
  if (c.status === "not run") return `not run: ${c.reason}`;
  const parts = [c.growth ?? "no class (fewer than two sizes measured)"];
  // A flat case whose operation handles every item still says how that grew.
  for (const s of c.series)
    if (s.expected === "linear" && s.growth === "linear") parts.push(`${s.name} linear, as expected`);
  if (c.limit) parts.push(`limit at ${c.size.name} = ${c.limit.size}: ${c.limit.said}`);
  for (const l of c.lowered) parts.push(`${c.size.name} = ${l.size} not measured: ${l.reason}`);
  for (const [said, sizes] of observedBySaying(c.observed ?? []))
    parts.push(`at ${c.size.name} = ${sizes.join(", ")}: ${said}`);
  if (c.finding) parts.push(`FINDING: ${c.finding.message}`);
  parts.push(...(c.notes ?? []));
  return parts.join("; ");
}

/** The sizes at which a case saw the same thing, by what it saw. */
export function observedBySaying(observed: ReadonlyArray<{ size: number; said: string }>): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const { size, said } of observed) by.set(said, [...(by.get(said) ?? []), size]);
  return by;
}

/** A case's charts, one per series and memory beside them, each with its numbers under it. */
export function caseChartsHtml(c: CaseDocument): string {
  const charts = [...c.series, ...(c.memory ? [c.memory] : [])]
    .filter((s) => s.points.length > 0)
    .map(
      (s) =>
        `<figure>${chartSvg({ title: s.name, x: `${c.size.name} (${c.size.unit})`, y: s.unit, points: s.points })}<figcaption>${escapeXml(seriesLine(s))}${s.why ? `<br><small>${escapeXml(s.why)}</small>` : ""}</figcaption></figure>`,
    )
    .join("");
  return `<div class="charts">${charts}</div>`;
}
