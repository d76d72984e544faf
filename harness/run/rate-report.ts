/**
 * What a run tells of the target's refusals (429, or 503 with Retry-After; rate-limits.ts): a
 * line on the console at the first one, and the summary's figures with the pace sxd settled on.
 */
import type { Writable } from "node:stream";
import type { RateSummary } from "../report/summary.ts";
import { type RateParameters, readRefusals } from "../wire/rate-limits.ts";
import { RunLimits } from "../wire/run-limits.ts";

/** One line on the console at the run's first 429, so a run that waits does not look hung. */
export function firstRefusalNote(rate: RateParameters, stderr: Writable): () => void {
  const timer = setInterval(() => {
    if (readRefusals(rate).refused === 0) return;
    stderr.write(
      `\nsxd: the target answers 429 (too many requests): sxd slows down to the pace it allows and sends again; see --rate\n`,
    );
    clearInterval(timer);
  }, 250);
  return () => clearInterval(timer);
}

/** The run's refusals for the summary, with the pace sxd settled on as a --rate to pass. */
export function rateSummary(rate: RateParameters): RateSummary | undefined {
  const { refused, waitedMs, boundMs, settledRate } = readRefusals(rate);
  if (refused === 0) return undefined;
  const accepted = RunLimits.requestsSent(rate) - refused;
  const suggestedRate = accepted > 0 && settledRate !== undefined ? Math.max(1, Math.floor(settledRate)) : undefined;
  return { refused, waitedMs, boundMs, ...(suggestedRate === undefined ? {} : { suggestedRate }) };
}
