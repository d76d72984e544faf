/**
 * The sequencer: judges whether a sample of values (a server's nonces, its tokens) can be
 * predicted. It takes each value apart (sequence-parts.ts), lets the guesser find what an
 * observer can compute (sequence-guess.ts: counters, clocks, hashes of either), and tests the
 * bits left over position by position, as Burp's sequencer's bit-level analysis does
 * (sequence-stats.ts): each bit position across the sample on its own, so that a time stamp's
 * slow bytes never weigh on a hash's. The effective bits are the positions that pass, less
 * those that only copy, mirror or sum others: bits no observer derives and no test tells from
 * a fair coin.
 *
 * A value fails when one repeats, when nothing in it is left that the guesser cannot compute,
 * or when fewer than 64 effective bits are left, wherever in the value they lie. Passing
 * proves nothing absolute: a value can be predictable in a way none of these tries.
 *
 * Example: `judgeSequence(nonces.map((value) => ({ value, dateMs })))`.
 */
import { type Derivable, guessParts } from "./sequence-guess.ts";
import { describeParts, type Part, takeApart } from "./sequence-parts.ts";
import { independentPositions, positionPasses } from "./sequence-stats.ts";

export interface SequenceSample {
  value: string;
  /** The Date of the reply that carried it, in ms since the epoch; the clock the guesser tries. */
  dateMs?: number;
}

export type SequenceVerdict = "predictable" | "weak" | "passed" | "too few";

export interface SequenceJudgement {
  verdict: SequenceVerdict;
  /** One sentence: why this verdict. */
  summary: string;
  /** What was found: the parts, what is derivable, the effective bits, the stream tests. */
  details: string[];
  effectiveBits?: number;
}

/** Bits no observer can derive that a value must carry. */
export const NEEDED_BITS = 64;
/** Fewer values than this leave the bit tests nothing to say (the guesser still tries). */
export const MIN_SAMPLES = 20;

/** What the sequencer tries, for a report. */
export const SEQUENCER_TESTS =
  "repeats; counters (any step) and clocks near the reply's Date (s, ms, µs) in every part, in 4 or 8 bytes of a decoded one (either byte order) and in the decimal digits at either end of one; " +
  `MD5, SHA-1 and SHA-256 of a counter up to 65,535 or of the clock; each bit position on its own: monobit and runs; positions that copy, mirror or sum others counted once; at least ${NEEDED_BITS} effective bits`;
export const SEQUENCER_CAVEAT =
  "passing says only that these tests found no way to predict the values, not that none exists";

export function judgeSequence(samples: readonly SequenceSample[]): SequenceJudgement {
  const values = samples.map((s) => s.value);
  const n = values.length;
  const repeats = n - new Set(values).size;
  if (repeats > 0)
    return {
      verdict: "predictable",
      summary: "values repeat: a value seen once can come again",
      details: [`${repeats} of ${n} values repeat an earlier one`],
    };
  if (n < 3) return { verdict: "too few", summary: `${n} values: too few to tell anything`, details: [] };

  const parts = takeApart(values);
  const derivable = guessParts(
    parts,
    samples.map((s) => s.dateMs),
  );
  const details = [`parts: ${describeParts(parts)}`, ...derivable.map((d) => `${parts[d.part].label}, ${d.what}`)];
  const open = parts.map((part, index) =>
    openPositions(
      part,
      derivable.filter((d) => d.part === index),
    ),
  );
  if (open.every((positions) => positions.length === 0)) {
    return {
      verdict: "predictable",
      summary: `every part that varies can be computed: ${derivable.map((d) => `${parts[d.part].label}, ${d.what}`).join("; ") || "nothing varies"}`,
      details,
      effectiveBits: 0,
    };
  }
  if (n < MIN_SAMPLES)
    return {
      verdict: "too few",
      summary: `the guesser found no way to compute the values, but ${n} values are too few for the bit tests (at least ${MIN_SAMPLES})`,
      details,
    };

  const passing = parts.flatMap((part, index) =>
    open[index].map((at) => part.bits.map((b) => b[at])).filter((series) => positionPasses(series)),
  );
  const openBits = open.reduce((sum, positions) => sum + positions.length, 0);
  const { effective: effectiveBits, copies, rank } = independentPositions(passing);
  details.push(
    `${passing.length} of the ${openBits} bits no guess explains pass the per-bit tests over ${n} values`,
    ...dependenceLines(copies, rank, passing.length),
  );
  if (effectiveBits < NEEDED_BITS)
    return {
      verdict: "weak",
      summary: `${effectiveBits} effective bits, fewer than the ${NEEDED_BITS} no observer may derive`,
      details,
      effectiveBits,
    };
  return {
    verdict: "passed",
    summary: `${effectiveBits} effective bits in ${n} values; no repeat, no counter, clock or hash of either found`,
    details,
    effectiveBits,
  };
}

/** The bit positions of a part that vary and that nothing derivable covers. */
function openPositions(part: Part, derivable: readonly Derivable[]): number[] {
  const width = part.bits[0]?.length ?? 0;
  const positions: number[] = [];
  for (let at = 0; at < width; at++) {
    if (derivable.some((d) => at >= d.fromBit && at < d.toBit)) continue;
    if (part.bits.every((b) => b[at] === part.bits[0][at])) continue;
    positions.push(at);
  }
  return positions;
}

function dependenceLines(copies: number, rank: number | undefined, passed: number): string[] {
  const lines = copies > 0 ? [`${copies} of them copy or mirror another and count once`] : [];
  if (rank !== undefined && rank < passed - copies)
    lines.push(`the rest have rank ${rank} over GF(2): the others are sums of those`);
  return lines;
}
