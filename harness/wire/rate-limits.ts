/**
 * Rate limits between sxd and the target. A 429, or a 503 with Retry-After, is a gateway (or
 * the server) saying "not now": the request was not processed (RFC 6585 §4), so it is no
 * answer to judge. The client sends the same request again, and the whole run slows down to the
 * pace the target allows (harness/wire/pacer.ts), within bounds:
 *
 *   const limits = new RateLimits(parameters);      // one per scenario; the state is the run's
 *   const turn = await limits.pace();               // before each request: when it asked, its slot, how long it was held
 *   const wait = limits.waitBeforeRetry(reply, { turn, waitedMs, attempt }); // a number, or why to give up
 *
 * Under `--parallel` every worker is a process of its own: they share one pacer through a log of
 * the run's state (run-state.ts) that each appends its requests, refusals and waits to, one line
 * each, and replays in the same order; the run reads it for its summary and its console note.
 */
import { retryAfterMs } from "../../lib/http-date.ts";
import { DEFAULT_REFUSAL_WAIT_SECONDS } from "../description/settings.ts";
import { Pacer, type Turn, wallClockMs } from "./pacer.ts";
import { type RunState, type RunStatePlace, runState } from "./run-state.ts";

// The reference's backend request reads Retry-After too: the one parser lives in lib/.
export { retryAfterMs };

/** Where the run's state is (run-state.ts), shared by every worker as for run-limits.ts. */
export interface RateParameters extends RunStatePlace {
  /** At most this many requests per second across all workers, from the start; absent: found. */
  rate?: number;
  /** Seconds of the wall clock the run may spend waiting after refusals; absent: the default. */
  refusalWaitSeconds?: number;
}

/** Waiting one request may spend on refusals before its scenario is not run. */
export const REQUEST_WAIT_MS = 30_000;

const LOG = "pace";

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

/** Tells this process's requests apart in the shared log. */
let requests = 0;

export class RateLimits {
  private readonly log: PaceLog;

  constructor(private readonly parameters: RateParameters) {
    this.log = paceLog(parameters);
  }

  /**
   * Waits for this request's slot in the run's pace; at once while unpaced. A slot taken ahead
   * and cut meanwhile is spaced at the old pace: the request takes another. `heldMs` is how
   * long the pace held the request back in all (0 where it went when asked): a request held
   * did not go when its step sent it, which a step that sends requests together needs to know.
   */
  async pace(): Promise<Turn & { heldMs: number }> {
    let heldMs = 0;
    for (;;) {
      const asked = Date.now();
      const slot = this.reserveSlot(asked);
      if (slot <= asked) return { asked, sentAt: slot, heldMs };
      await sleep(slot - asked);
      heldMs += slot - asked;
      this.log.catchUp();
      if (!this.log.pacer.cutSince(asked)) return { asked, sentAt: slot, heldMs };
    }
  }

  /**
   * Takes the run's next slot: when, from `now` on, this request may go. Every worker appends
   * its request (who, and when it asked) to the log; the log's order is the order of the slots,
   * and each worker's replay derives the same times from it.
   */
  reserveSlot(now: number): number {
    const me = `${process.pid}.${++requests}`;
    this.log.append(`s ${me} ${now}`);
    return this.log.catchUp(me) ?? now;
  }

  /**
   * How long to wait before sending a refused request again, or why not to: the request had
   * its `turn` and has waited `waitedMs` so far over `attempt` refusals. The refusal slows
   * the run's pace; the wait is recorded for the run's bound.
   */
  waitBeforeRetry(
    reply: Reply,
    { turn, waitedMs, attempt }: { turn: Turn; waitedMs: number; attempt: number },
  ): number | { reason: string } {
    const now = Date.now();
    this.log.append(`r ${turn.asked} ${turn.sentAt} ${now}${attempt > 0 ? " again" : ""}`);
    this.log.catchUp();
    const asked = retryAfterMs(reply.headers["retry-after"]?.[0]);
    const wait = asked ?? this.log.pacer.retryWaitMs(attempt);
    const boundMs = refusalWaitMs(this.parameters);
    const runWaited = wallClockMs(this.log.waits);
    let detail: string | undefined;
    if (waitedMs + wait > REQUEST_WAIT_MS) {
      detail = asked !== undefined && asked > REQUEST_WAIT_MS ? ` and asked to wait ${asked / 1000} s more` : "";
    } else if (wallClockMs([...this.log.waits, [now, now + wait]]) > boundMs) {
      detail = `, after ${Math.round(runWaited / 1000)} s of waits in this run (see --refusal-wait)`;
    }
    if (detail !== undefined) return { reason: rateLimitedReason(reply.status, waitedMs, detail) };
    this.log.append(`w ${now} ${now + wait}`);
    return wait;
  }
}

function refusalWaitMs(parameters: RateParameters): number {
  return (parameters.refusalWaitSeconds ?? DEFAULT_REFUSAL_WAIT_SECONDS) * 1000;
}

/** What a run's refusals came to: how many, the wall-clock time spent waiting, and the pace settled on. */
export interface Refusals {
  refused: number;
  waitedMs: number;
  /** The bound on `waitedMs`. */
  boundMs: number;
  /** Requests per second the pacer settled on; absent before any refusal. */
  settledRate?: number;
}

/** The run's refusals so far. */
export function readRefusals(parameters: RateParameters): Refusals {
  const log = paceLog(parameters);
  log.catchUp();
  const settledRate = log.pacer.settled();
  return {
    refused: log.refused,
    waitedMs: wallClockMs(log.waits),
    boundMs: refusalWaitMs(parameters),
    ...(settledRate === undefined ? {} : { settledRate }),
  };
}

/**
 * The run's log as this process has replayed it so far. Lines: `s WHO ASKED` (a request asks
 * for a slot), `r ASKED SENT AT [again]` (the request that asked for its slot at ASKED, sent at
 * SENT, was refused at AT; `again`: it had been refused before), `w START END` (a wait after a
 * refusal). Appends of a line are atomic, so every reader sees them in one order.
 */
class PaceLog {
  readonly pacer: Pacer;
  refused = 0;
  readonly waits: Array<[number, number]> = [];
  private offset = 0;

  constructor(
    private readonly state: RunState,
    rate: number | undefined,
  ) {
    this.pacer = new Pacer(rate);
  }

  append(line: string): void {
    this.state.append(LOG, `${line}\n`);
  }

  /** Replays the lines appended since the last call; the slot of request `who` where its line came. */
  catchUp(who?: string): number | undefined {
    const text = this.state.readFrom(LOG, this.offset);
    const complete = text.lastIndexOf("\n") + 1;
    this.offset += complete;
    let mine: number | undefined;
    for (const line of text.slice(0, complete).split("\n")) {
      const [kind, first, second, third, fourth] = line.split(" ");
      if (kind === "s") {
        const slot = this.pacer.send(Number(second));
        if (first === who) mine = slot;
      } else if (kind === "r") {
        this.refused++;
        this.pacer.refused({ asked: Number(first), sentAt: Number(second) }, Number(third), fourth === "again");
      } else if (kind === "w") {
        this.waits.push([Number(first), Number(second)]);
      }
    }
    return mine;
  }
}

/** One replay per run in this process, shared by its scenarios. */
const logs = new WeakMap<RunState, PaceLog>();

function paceLog(parameters: RateParameters): PaceLog {
  const state = runState(parameters);
  let log = logs.get(state);
  if (log === undefined) {
    log = new PaceLog(state, parameters.rate);
    logs.set(state, log);
  }
  return log;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
