/**
 * Randomness tests on bit positions, as Burp's sequencer's bit-level analysis runs them: each
 * position tested on its own across the sample (is it a fair coin, does it flip between
 * consecutive values as often as one), never in one stream with others, whose biases differ
 * (the bytes of a time stamp beside a hash's). A position that passes counts as one bit, unless
 * it only repeats others: a copy or mirror of another position, or (where the sample is large
 * enough to show it) a sum of others over GF(2). Passing says only that these tests found no
 * pattern.
 *
 * Example: `independentPositions(columns.filter(positionPasses)).effective` for the effective bits.
 */

/** A fair bit position fails a position test about once in a thousand. */
const POSITION_ALPHA = 1e-3;
/**
 * A position that lies in the span of positions kept so far is a sum of them only while that
 * span leaves this many dimensions of the sample free: a fair position falls in it by chance
 * with odds of 2^-20, about one in a million.
 */
const SPAN_SLACK = 20;

/** Two-sided p-value of a standard normal statistic. */
export function normalP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/**
 * Whether one bit position behaves as a fair coin across the sample, in the order the values came:
 * as many ones as zeros (monobit) and as many changes as chance gives (Wald–Wolfowitz runs).
 * A counter's lowest bit alternates and fails the runs test; a constant bit fails both.
 */
export function positionPasses(series: readonly number[]): boolean {
  const n = series.length;
  const ones = series.reduce((sum, b) => sum + b, 0);
  if (ones === 0 || ones === n) return false;
  if (normalP((2 * ones - n) / Math.sqrt(n)) < POSITION_ALPHA) return false;
  let runs = 1;
  for (let i = 1; i < n; i++) if (series[i] !== series[i - 1]) runs++;
  const zeros = n - ones;
  const mean = (2 * ones * zeros) / n + 1;
  const variance = ((mean - 1) * (mean - 2)) / (n - 1);
  return variance <= 0 || normalP((runs - mean) / Math.sqrt(variance)) >= POSITION_ALPHA;
}

/** What the positions that passed carry between them. */
export interface Independence {
  /** The positions that count: one of each set of copies and mirrors, and no more than their rank where it shows. */
  effective: number;
  /** Positions that copy or mirror (are the complement of) an earlier one. */
  copies: number;
  /** Their rank over GF(2) (mirrors reckoned as copies); undefined where the sample is too small to bound it. */
  rank?: number;
}

/**
 * How many of these positions (each a series of bits across the sample) carry bits of their own.
 * A copy or mirror of another is told at any sample size (a fair pair matches by chance with odds
 * of 2^-(n-1)). A sum of others only shows while the positions' rank leaves SPAN_SLACK dimensions
 * of the n values free: with 32 values, 48 random bits spread as sums over 160 positions look
 * like 160; with 100 they show as 48.
 */
export function independentPositions(columns: readonly (readonly number[])[]): Independence {
  const n = columns[0]?.length ?? 0;
  // Each series as a number whose first value's bit is 0: a mirror gives the same number as its original.
  const normalised = columns.map((c) => c.reduce((v, b) => (v << 1n) | BigInt(b ^ c[0]), 0n));
  const distinct = [...new Set(normalised)];
  const basis = new Map<number, bigint>();
  for (let v of distinct) {
    while (v !== 0n) {
      const top = v.toString(2).length;
      const pivot = basis.get(top);
      if (pivot === undefined) {
        basis.set(top, v);
        break;
      }
      v ^= pivot;
    }
  }
  const copies = columns.length - distinct.length;
  // Normalised series have n - 1 free bits; a rank that fills them (bar the slack) bounds nothing.
  if (basis.size > n - 1 - SPAN_SLACK) return { effective: distinct.length, copies };
  return { effective: basis.size, copies, rank: basis.size };
}

/** Complementary error function (Numerical Recipes' Chebyshev fit, relative error under 1.2e-7). */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}
