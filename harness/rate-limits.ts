/**
 * Rate limits between sxd and the target. A 429, or a 503 with Retry-After, is a gateway (or
 * the server) saying "not now": the request was not processed (RFC 6585 §4), so it is no
 * answer to judge. The client waits and sends the same request again, within bounds:
 *
 *   const limits = new RateLimits(parameters);      // one per scenario; the state is the run's
 *   await limits.pace();                            // before each request, under --rate
 *   const wait = limits.waitBeforeRetry(reply, waitedMs, attempt); // a number, or why to give up
 *
 * Under `--parallel` every worker is a process of its own: the schedule of `--rate` is a file in
 * the run's state folder that they all append to, and every refusal is appended to a log there
 * (one line with the wait), which the run reads for its summary and its console note.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { retryAfterMs } from "../lib/http-date.ts";

// The reference's backend request reads Retry-After too: the one parser lives in lib/.
export { retryAfterMs };

export interface RateParameters {
  /** The run's own folder, shared by every worker (as for run-limits.ts). */
  stateDir: string;
  /** At most this many requests per second across all workers; absent: no cap. */
  rate?: number;
}

/** Waiting one request may spend on refusals before its scenario is not run. */
export const REQUEST_WAIT_MS = 30_000;
/** Waiting the whole run may spend on refusals, summed over its workers. */
const RUN_WAIT_MS = 300_000;
/** The first wait when the refusal names none; it doubles up to the last. */
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

const REFUSALS = "refusals";

/** Status and headers of a reply; enough to tell a refusal. */
type Reply = { status: number; headers: Record<string, string[]> };

/**
 * 429, or 503 with Retry-After: "not now", not an answer. A 503 without it is the server's
 * answer, and so is any 503 to a request whose answer the spec wants to be a 5xx (an export
 * while the contacts server is down): `unavailableIsAnswer`.
 */
export function isRefusal(reply: Reply, unavailableIsAnswer = false): boolean {
  if (reply.status === 429) return true;
  return reply.status === 503 && !unavailableIsAnswer && reply.headers["retry-after"] !== undefined;
}

/** Why a scenario is not run when the target refused for too long. */
export function rateLimitedReason(status: number, waitedMs: number, detail = ""): string {
  return `the target kept answering ${status} for ${Math.round(waitedMs / 1000)} s${detail} (rate-limited; see --rate)`;
}

/** Tells this process's reservations apart in the shared schedule. */
let reservations = 0;

export class RateLimits {
  private readonly log: string;
  private readonly schedule: string;

  constructor(private readonly parameters: RateParameters) {
    this.log = join(parameters.stateDir, REFUSALS);
    this.schedule = join(parameters.stateDir, "schedule");
  }

  /** Waits for this worker's next slot under `--rate`; at once without a cap. */
  async pace(): Promise<void> {
    const delay = this.reserveSlot(Date.now());
    if (delay > 0) await sleep(delay);
  }

  /**
   * Takes the run's next slot under `--rate`: how long from `now` until it comes. Every worker
   * appends its reservation (who, and when it asked) to one file; the file's order is the
   * order of the slots, and each reader derives the same times from it: a slot comes when it
   * was asked for, but no sooner than one interval after the slot before.
   */
  reserveSlot(now: number): number {
    const { rate } = this.parameters;
    if (rate === undefined) return 0;
    const me = `${process.pid}.${++reservations}`;
    appendFileSync(this.schedule, `${me} ${now}\n`);
    const interval = 1000 / rate;
    let slot = Number.NEGATIVE_INFINITY;
    for (const line of readFileSync(this.schedule, "utf8").split("\n")) {
      const [who, asked] = line.split(" ");
      slot = Math.max(Number(asked), slot + interval);
      if (who === me) break;
    }
    return Math.max(0, slot - now);
  }

  /**
   * How long to wait before sending a refused request again, or why not to: the request has
   * waited `waitedMs` so far over `attempt` refusals. Records the wait for the run.
   */
  waitBeforeRetry(reply: Reply, waitedMs: number, attempt: number): number | { reason: string } {
    const asked = retryAfterMs(reply.headers["retry-after"]?.[0]);
    const wait = asked ?? BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
    const run = readRefusals(this.parameters.stateDir);
    let detail: string | undefined;
    if (waitedMs + wait > REQUEST_WAIT_MS) {
      detail = asked !== undefined && asked > REQUEST_WAIT_MS ? ` and asked to wait ${asked / 1000} s more` : "";
    } else if (run.waitedMs + wait > RUN_WAIT_MS) {
      detail = `, after ${Math.round(run.waitedMs / 1000)} s of waits in this run`;
    }
    // A refusal the client gives up on is counted too, with no wait.
    appendFileSync(this.log, `${detail === undefined ? wait : 0}\n`);
    return detail === undefined ? wait : { reason: rateLimitedReason(reply.status, waitedMs, detail) };
  }
}

/** The run's refusals so far: how many, and how long the workers waited in all. */
export function readRefusals(stateDir: string): { refused: number; waitedMs: number } {
  const log = join(stateDir, REFUSALS);
  if (!existsSync(log)) return { refused: 0, waitedMs: 0 };
  const waits = readFileSync(log, "utf8").split("\n").filter(Boolean).map(Number);
  return { refused: waits.length, waitedMs: waits.reduce((a, b) => a + b, 0) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
