/**
 * What the rows about predictable values share (a server's nonces, its tokens): a sample taken
 * a few requests at a time, and the sequencer's verdict (lib/sequencer.ts) turned into a pass
 * that says what it rests on, a failure that says how the values can be computed, or "not run"
 * where the sample is too small to judge.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { headerOf } from "../../harness/evidence/exchange.ts";
import { DEFAULT_SECURITY_SAMPLES } from "../../harness/run/world-parameters.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { judgeSequence, SEQUENCER_CAVEAT, SEQUENCER_TESTS, type SequenceSample } from "../../lib/sequencer.ts";
import { fail } from "./expect.ts";
import type { SxdWorld } from "./world.ts";

/** Requests of a sample in flight at once: enough to hide a round trip, few enough for any server. */
const AT_ONCE = 16;

/** How many values the run samples (--security-samples). */
export function sampleSize(world: SxdWorld): number {
  return world.parameters.securitySamples ?? DEFAULT_SECURITY_SAMPLES;
}

/** `count` calls of `take`, AT_ONCE at a time; the values it gave, in the order their replies came. */
export async function sampleAtOnce<T>(count: number, take: () => Promise<T | undefined>): Promise<T[]> {
  const taken: T[] = [];
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      const value = await take();
      if (value !== undefined) taken.push(value);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, count) }, worker));
  return taken;
}

/** A value as the sequencer takes it, with the Date of the reply that carried it. */
export function sampled(value: string, reply: Answered): SequenceSample {
  return { value, dateMs: parseHttpDate(headerOf(reply, "date"))?.getTime() };
}

/**
 * Judges the sample: a failure where the values repeat or can be computed or carry too few bits
 * no observer can derive, "not run" where there are too few to judge, else a pass with its basis.
 */
export function expectUnpredictable(
  world: SxdWorld,
  samples: readonly SequenceSample[],
  what: string,
  last: Answered,
): "skipped" | undefined {
  const judged = judgeSequence(samples);
  const found = judged.details.length > 0 ? `\n${judged.details.join("\n")}` : "";
  const dated = samples.every((s) => s.dateMs !== undefined) ? "" : "; some replies had no Date, so no clock was tried";
  world.observe(
    `${samples.length} ${what} sampled${dated}. Tried: ${SEQUENCER_TESTS}.${found}\nPassing: ${SEQUENCER_CAVEAT}.`,
  );
  switch (judged.verdict) {
    case "passed":
      return undefined;
    case "too few":
      return world.notRun(`${judged.summary}: sample more with --security-samples`);
    default:
      return fail(
        `${what} that no observer can compute: at least 64 bits none can derive, none repeated`,
        judged.summary,
        last,
      );
  }
}
