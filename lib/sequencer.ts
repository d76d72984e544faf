/**
 * The sequencer: judges whether a sample of values (a server's nonces, its tokens) can be
 * predicted. It takes each value apart (sequence-parts.ts), lets the guesser find what an
 * observer can compute (sequence-guess.ts: counters, clocks, hashes of either), and tests the
 * bits left over as Burp's sequencer and FIPS 140-2 do (sequence-stats.ts): each bit position
 * across the sample, then the stream of the positions that passed. The effective bits are the
 * positions that passed: bits no observer derives and no test tells from a fair coin.
 *
 * A value fails when one repeats, when nothing in it is left that the guesser cannot compute,
 * when fewer than 64 effective bits are left, or when the stream fails a FIPS test. Passing
 * proves nothing absolute: a value can be predictable in a way none of these tries.
 *
 * Example: `judgeSequence(nonces.map((value) => ({ value, dateMs })))`.
 */
import { type Derivable, guessParts } from "./sequence-guess.ts";
import { describeParts, type Part, takeApart } from "./sequence-parts.ts";
import { MIN_STREAM_BITS, positionPasses, type StreamTest, streamTests } from "./sequence-stats.ts";

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
  "repeats; counters (any step) and clocks near the reply's Date (s, ms, µs) in every part and in 4 or 8 bytes of a decoded one; " +
  `MD5, SHA-1 and SHA-256 of a counter up to 65,535 or of the clock; per-bit monobit and runs tests; FIPS 140-2 monobit, poker, runs and long run; at least ${NEEDED_BITS} effective bits`;
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

  const passing = parts.map((part, index) => open[index].filter((at) => positionPasses(part.bits.map((b) => b[at]))));
  const effectiveBits = passing.reduce((sum, positions) => sum + positions.length, 0);
  const openBits = open.reduce((sum, positions) => sum + positions.length, 0);
  details.push(`${effectiveBits} of the ${openBits} bits no guess explains pass the per-bit tests over ${n} values`);
  const stream = samples.flatMap((_, s) =>
    parts.flatMap((part, index) => passing[index].map((at) => part.bits[s][at])),
  );
  const tests = stream.length >= MIN_STREAM_BITS ? streamTests(stream) : [];
  details.push(streamLine(tests, stream.length));

  const failed = tests.filter((t) => !t.passed);
  if (effectiveBits < NEEDED_BITS)
    return {
      verdict: "weak",
      summary: `${effectiveBits} effective bits, fewer than the ${NEEDED_BITS} no observer may derive`,
      details,
      effectiveBits,
    };
  if (failed.length > 0)
    return {
      verdict: "weak",
      summary: `the bits no guess explains fail FIPS 140-2's ${failed.map((t) => `${t.name} test (${t.detail})`).join(" and ")}`,
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

function streamLine(tests: readonly StreamTest[], bits: number): string {
  if (tests.length === 0) return `FIPS 140-2 tests not run: ${bits} bits, fewer than ${MIN_STREAM_BITS}`;
  return `FIPS 140-2 over ${bits} bits: ${tests.map((t) => `${t.name} ${t.passed ? "passed" : "failed"} (${t.detail})`).join("; ")}`;
}
