/**
 * A run of `sxd limits` as the document its reports are made from (evidence/limits-document.ts,
 * limits.json's shape): each case's sizes, series and class, rounded for reading.
 */
import type { TargetDescription } from "../description/target.ts";
import { type BundledReference, describedKeys } from "../evidence/described-target.ts";
import type { CaseDocument, LimitsDocument, SeriesDocument } from "../evidence/limits-document.ts";
import { formatExchange } from "../evidence/transcript.ts";
import { suiteVersion } from "../package.ts";
import type { CaseResult, SeriesResult } from "./measure.ts";
import type { LimitsRun } from "./run.ts";

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
    ...(result.observed.length > 0 ? { observed: result.observed } : {}),
    ...(result.finding
      ? {
          finding: {
            message: result.finding.message,
            ...(result.finding.exchange ? { exchange: formatExchange(result.finding.exchange) } : {}),
          },
        }
      : {}),
    ...(result.notes ? { notes: result.notes } : {}),
    series: result.series.map(seriesDocument),
    ...(result.memory ? { memory: seriesDocument(result.memory) } : {}),
  };
}

export function limitsDocument(run: LimitsRun, target: TargetDescription, bundled?: BundledReference): LimitsDocument {
  return {
    tool: "sxd limits",
    version: suiteVersion(),
    target: target.baseUrl,
    described: describedKeys(target),
    ...(bundled ? { bundled } : {}),
    startedAt: run.startedAt,
    elapsedMs: run.elapsedMs,
    repeats: run.repeats,
    deadlineSeconds: run.deadlineSeconds,
    memory: run.memory,
    cases: run.cases.map(caseDocument),
  };
}
