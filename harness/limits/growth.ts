/**
 * How a cost grows with a size, pure: the median and spread of each size's repeats, a
 * least-squares line through (log size, log median), and the class the line and the spread
 * allow. docs/limits.md gives the thresholds in words; a test holds the two together.
 *
 *   const points = [pointOf(10, [1.1, 1.0, 1.2]), pointOf(1000, [9.8, 10.1, 10.4])];
 *   growthOf(points); // { growth: "linear", exponent: 0.5, ratio: 9.2 }
 */

import { formatRatio } from "../evidence/limits-document.ts";

export type Growth = "flat" | "linear" | "faster" | "unclear";

/** One size of a series: what each repeat cost, their median and spread (the middle half, p25 to p75). */
export interface Point {
  size: number;
  median: number;
  /** The interquartile range of the repeats, in the series' unit. */
  spread: number;
  low: number;
  high: number;
  repeats: number[];
}

export interface Fit {
  growth: Growth;
  /** The slope of log(cost) against log(size): 0 flat, 1 proportional, 2 quadratic. */
  exponent: number;
  /** The lower quartile at the largest size over that at the smallest. */
  ratio: number;
  /** Why the class, in a sentence (the numbers that decided it). */
  why: string;
}

/** Below this ratio of largest to smallest the cost did not grow, whatever the line's slope. */
export const FLAT_RATIO = 1.5;
/** Below this exponent the cost did not grow, whatever the ratio (a ratio over a range of a million). */
export const FLAT_EXPONENT = 0.2;
/**
 * Above this exponent the cost grows faster than the size. A cost of a constant part and a part
 * proportional to the size never has a slope above 1; the margin is the noise's.
 */
export const FASTER_EXPONENT = 1.3;
/** A change of the median smaller than this many times the larger spread of the two ends is noise. */
export const NOISE_TIMES = 2;

export function pointOf(size: number, repeats: readonly number[]): Point {
  const sorted = [...repeats].sort((a, b) => a - b);
  const low = quantile(sorted, 0.25);
  const high = quantile(sorted, 0.75);
  return { size, median: quantile(sorted, 0.5), spread: high - low, low, high, repeats: [...repeats] };
}

/** Linear interpolation between the closest ranks of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

/** The least-squares slope of log(p25) against log(size). */
export function exponentOf(points: readonly Point[]): number {
  const xs = points.map((p) => Math.log(p.size));
  const ys = points.map((p) => Math.log(Math.max(p.low, Number.MIN_VALUE)));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < xs.length; i++) {
    covariance += (xs[i] - mx) * (ys[i] - my);
    variance += (xs[i] - mx) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/**
 * The class of a series of at least two sizes, read on each size's lower quartile (p25), not its
 * median: a busy machine holds a request up (another process's turn on the core, a collection
 * of garbage) and only ever adds time, so the lower repeats are the operation's own cost.
 * Flat where the cost at the largest size is less
 * than FLAT_RATIO times that at the smallest, or the slope is under FLAT_EXPONENT; else unclear
 * where the fastest repeat at the largest size is no slower than the upper quartile at the
 * smallest, or the lower quartiles differ by less than NOISE_TIMES the larger spread
 * (the noise is as large as the change); else linear
 * up to FASTER_EXPONENT, faster above it.
 */
export function growthOf(points: readonly Point[]): Fit | undefined {
  if (points.length < 2) return undefined;
  const sorted = [...points].sort((a, b) => a.size - b.size);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  const exponent = exponentOf(sorted);
  const ratio = first.low > 0 ? last.low / first.low : Number.POSITIVE_INFINITY;
  const numbers = `exponent ${exponent.toFixed(2)}, ${formatRatio(ratio)} from ${first.size} to ${last.size}`;
  if (ratio < FLAT_RATIO || exponent < FLAT_EXPONENT) {
    return { growth: "flat", exponent, ratio, why: `${numbers}: under ${FLAT_RATIO}× or exponent ${FLAT_EXPONENT}` };
  }
  const fastestAtLargest = Math.min(...last.repeats);
  const noise = NOISE_TIMES * Math.max(first.spread, last.spread);
  if (fastestAtLargest <= first.high || last.low - first.low < noise) {
    return {
      growth: "unclear",
      exponent,
      ratio,
      why: `${numbers}, but the fastest repeat at ${last.size} is within those at ${first.size}, or the change is under ${NOISE_TIMES} times their spread: the noise is as large as the change`,
    };
  }
  const growth = exponent > FASTER_EXPONENT ? "faster" : "linear";
  const bound = growth === "faster" ? `above ${FASTER_EXPONENT}` : `up to ${FASTER_EXPONENT}`;
  return { growth, exponent, ratio, why: `${numbers}: exponent ${bound}` };
}

/** The growths in order, for a gate: `linear` fails on linear and faster. */
export const GROWTH_ORDER: readonly Growth[] = ["flat", "unclear", "linear", "faster"];
