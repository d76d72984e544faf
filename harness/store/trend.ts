/**
 * The limits trend, pure: each case's cost at its largest size, label by label, and where it
 * rose. A label's cost is the median of its runs' lower quartiles (the limits engine reads a
 * cost at its p25: the repeats least disturbed by anything else); it has risen where it lies
 * above the upper quartile (p25 + spread) of every earlier run: its fastest quarter slower
 * than the slowest quarter of any run before.
 */
import type { RunRef } from "./stretches.ts";

/** One run's point of one series at one size. */
export interface MeasuredPoint {
  at: RunRef;
  caseId: string;
  series: string;
  unit: string;
  size: number;
  lowerQuartile: number;
  spread: number;
  memory: number | null;
}

export interface LabelCost {
  /** The label, or the run where it has none. */
  label: string;
  runs: number;
  last: RunRef;
  lowerQuartile: number;
  upperQuartile: number;
  memory: number | null;
  /** Above the upper quartile of every earlier run. */
  risen: boolean;
}

export interface CaseTrend {
  caseId: string;
  series: string;
  unit: string;
  /** The largest size of the latest run's series: the runs measured at it are compared. */
  size: number;
  labels: LabelCost[];
  risen: boolean;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The trend of one case's series from its points, oldest run first. */
export function caseTrend(points: readonly MeasuredPoint[]): CaseTrend | undefined {
  const latest = points.at(-1);
  if (latest === undefined) return undefined;
  const size = Math.max(...points.filter((p) => p.at.run === latest.at.run).map((p) => p.size));
  const atSize = points.filter((p) => p.size === size);
  const byLabel = new Map<string, MeasuredPoint[]>();
  for (const p of atSize) {
    const label = p.at.label ?? `run ${p.at.run.slice(0, 12)}`;
    const runs = byLabel.get(label);
    if (runs) runs.push(p);
    else byLabel.set(label, [p]);
  }
  // The highest upper quartile of the runs before each point, in the runs' order.
  const highestBefore: number[] = [];
  let highest = Number.NEGATIVE_INFINITY;
  for (const p of atSize) {
    highestBefore.push(highest);
    highest = Math.max(highest, p.lowerQuartile + p.spread);
  }
  const labels: LabelCost[] = [];
  for (const [label, runs] of byLabel) {
    const before = highestBefore[atSize.indexOf(runs[0] as MeasuredPoint)] as number;
    const lowerQuartile = median(runs.map((p) => p.lowerQuartile));
    const memories = runs.flatMap((p) => (p.memory === null ? [] : [p.memory]));
    labels.push({
      label,
      runs: runs.length,
      last: (runs.at(-1) as MeasuredPoint).at,
      lowerQuartile,
      upperQuartile: median(runs.map((p) => p.lowerQuartile + p.spread)),
      memory: memories.length > 0 ? median(memories) : null,
      risen: Number.isFinite(before) && lowerQuartile > before,
    });
  }
  return {
    caseId: latest.caseId,
    series: latest.series,
    unit: latest.unit,
    size,
    labels,
    risen: labels.some((l) => l.risen),
  };
}
