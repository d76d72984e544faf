/**
 * Randomness tests on bits, as Burp's sequencer and FIPS 140-2 (§4.9.1) run them: each bit
 * position tested across the sample (is it a fair coin, does it flip as often as one), and the
 * stream of every position that passed tested as a whole (monobit, poker, runs, long run).
 * FIPS fixes its bounds for 20,000 bits; here each test is the statistic behind those bounds,
 * so it holds for the stream the sample gives, at the same strictness (about 1 in 10,000 for a
 * fair source). Passing says only that these tests found no pattern.
 *
 * Example: `streamTests(bits).every((t) => t.passed)` for a stream of fair bits.
 */

/** Below this a stream test says nothing, and is reported as not run. */
export const MIN_STREAM_BITS = 1000;
/** A fair bit position fails a position test about once in a thousand. */
const POSITION_ALPHA = 1e-3;
/** FIPS 140-2's own strictness: a fair source fails one of its tests about once in 10,000 runs. */
const STREAM_ALPHA = 1e-4;

export interface StreamTest {
  name: "monobit" | "poker" | "runs" | "long run";
  passed: boolean;
  /** The statistic, in words: what was counted and what a fair source gives. */
  detail: string;
}

/** Two-sided p-value of a standard normal statistic. */
export function normalP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** Probability that a chi-square variable with `df` degrees of freedom exceeds x. */
export function chiSquareP(x: number, df: number): number {
  return x <= 0 ? 1 : upperGamma(df / 2, x / 2);
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

/** FIPS 140-2's four tests over a stream of bits (0 or 1), each at its own strictness. */
export function streamTests(bits: readonly number[]): StreamTest[] {
  const n = bits.length;
  const ones = bits.reduce((sum, b) => sum + b, 0);
  const monobitZ = (2 * ones - n) / Math.sqrt(n);

  // Poker: the 16 four-bit patterns equally often (chi-square, 15 degrees of freedom).
  const blocks = Math.floor(n / 4);
  const counts = new Array<number>(16).fill(0);
  for (let b = 0; b < blocks; b++) {
    const at = 4 * b;
    counts[bits[at] * 8 + bits[at + 1] * 4 + bits[at + 2] * 2 + bits[at + 3]]++;
  }
  const poker = (16 / blocks) * counts.reduce((sum, c) => sum + c * c, 0) - blocks;
  const pokerP = chiSquareP(poker, 15);

  // Runs: how many runs of each length 1..5 and 6 or more, of ones and of zeros, against
  // a fair stream's (n - i + 3) / 2^(i+2); and the longest run.
  const observed = [new Array<number>(6).fill(0), new Array<number>(6).fill(0)];
  let longest = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && bits[j] === bits[i]) j++;
    observed[bits[i]][Math.min(j - i, 6) - 1]++;
    longest = Math.max(longest, j - i);
    i = j;
  }
  let runsChi = 0;
  for (let length = 1; length <= 6; length++) {
    const expected = length < 6 ? (n - length + 3) / 2 ** (length + 2) : (n - 3) / 2 ** 7;
    for (const value of [0, 1]) runsChi += (observed[value][length - 1] - expected) ** 2 / expected;
  }
  // The 12 counts are tied by the total number of runs, and each value's runs alternate with the other's.
  const runsP = chiSquareP(runsChi, 10);
  // A run of L or more starts somewhere with probability about n / 2^L.
  const longestAllowed = Math.ceil(Math.log2(n / STREAM_ALPHA));

  return [
    {
      name: "monobit",
      passed: normalP(monobitZ) >= STREAM_ALPHA,
      detail: `${ones} ones in ${n} bits (a fair source: ${n / 2} ± ${Math.round((3.9 * Math.sqrt(n)) / 2)})`,
    },
    {
      name: "poker",
      passed: pokerP >= STREAM_ALPHA / 2 && 1 - pokerP >= STREAM_ALPHA / 2,
      detail: `X = ${poker.toFixed(2)} over ${blocks} four-bit blocks (a fair source: about 15)`,
    },
    {
      name: "runs",
      passed: runsP >= STREAM_ALPHA,
      detail: `runs of each length 1 to 6+, chi-square ${runsChi.toFixed(1)} (a fair source: about 10)`,
    },
    {
      name: "long run",
      passed: longest < longestAllowed,
      detail: `longest run ${longest} bits (a fair source: under ${longestAllowed})`,
    },
  ];
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

/** The regularised upper incomplete gamma function Q(a, x): a series below a + 1, a continued fraction above. */
function upperGamma(a: number, x: number): number {
  const logPrefix = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let k = 1; k < 500 && Math.abs(term) > Math.abs(sum) * 1e-15; k++) {
      term *= x / (a + k);
      sum += term;
    }
    return 1 - sum * Math.exp(logPrefix);
  }
  // Lentz's method for the continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = Math.abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(logPrefix) * h;
}

/** Lanczos's approximation of ln Γ(x) for x > 0. */
function logGamma(x: number): number {
  const g = [
    76.18009172947146, -86.50532032941678, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2,
    -0.5395239384953e-5,
  ];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let series = 1.000000000190015;
  for (const coefficient of g) series += coefficient / ++y;
  return -tmp + Math.log((2.5066282746310007 * series) / x);
}
