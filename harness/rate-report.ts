/**
 * What a run tells of the target's refusals (429, or 503 with Retry-After; rate-limits.ts): a
 * line on the console at the first one, and the summary's figures with a --rate to try.
 */
import type { Writable } from "node:stream";
import { readRefusals } from "./rate-limits.ts";
import type { RateSummary } from "./report/summary.ts";
import { RunLimits } from "./run-limits.ts";

/** One line on the console at the run's first 429, so a run that waits does not look hung. */
export function firstRefusalNote(stateDir: string, stderr: Writable): () => void {
  const timer = setInterval(() => {
    if (readRefusals(stateDir).refused === 0) return;
    stderr.write(`\nsxd: the target answers 429 (too many requests): sxd waits and sends again; see --rate\n`);
    clearInterval(timer);
  }, 250);
  return () => clearInterval(timer);
}

/** The run's refusals for the summary, with a rate that the accepted requests kept under. */
export function rateSummary(stateDir: string, startedAt: number): RateSummary | undefined {
  const { refused, waitedMs } = readRefusals(stateDir);
  if (refused === 0) return undefined;
  const accepted = RunLimits.requestsSent(stateDir) - refused;
  const seconds = Math.max(1, (Date.now() - startedAt) / 1000);
  return { refused, waitedMs, suggestedRate: accepted > 0 ? Math.max(1, Math.floor(accepted / seconds)) : undefined };
}
