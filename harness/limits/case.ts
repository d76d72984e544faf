/**
 * What a LIM case is to the engine of `sxd limits` (measure.ts), and how its replies are read:
 * a case (steps/<behaviour>/limits.ts, loaded by name) prepares a size, measures one repeat of
 * its operations there, and deletes what it made; the engine chooses the sizes, keeps the
 * deadline and the order of the repeats, and fits the growth. Refusals and findings are thrown
 * as the errors below, so a case's code reads as what it sends.
 */

import type { TargetDescription } from "../description/target.ts";
import type { Answered, Exchange } from "../evidence/exchange.ts";
import type { TlsSettings } from "../wire/dispatcher.ts";
import type { RateLimits } from "../wire/rate-limits.ts";

/** A series a case measures at every size: its name (`GET s1`) and unit. */
export interface SeriesSpec {
  name: string;
  unit: string;
  /**
   * The class a correct server shows where its operation must handle every item (an export
   * sends each contact, a PUT reads each byte): a gate fails only on growth beyond it.
   */
  expected?: "linear";
}

export interface LimitCase {
  /** `LIM-n`, as catalogue/rows.json names it. */
  id: string;
  /** The size's letter and what it counts: N versions, K challenges. */
  size: { name: string; unit: string };
  defaultSizes: readonly number[];
  /** The smallest size the case means anything at (a chain of one version has no s1). */
  smallestSize?: number;
  /**
   * Where the sizes are what the target already holds (lists the description names), not what
   * the case makes: a factor (--sizes 0.1) keeps those up to the factor times the largest.
   */
  sizesHeld?: boolean;
  series: readonly SeriesSpec[];
  /**
   * Where sizes are measured turn about, a repeat of each size in turn, so a busy moment of
   * the machine falls on all sizes alike; false where one state grows from size to size (the
   * nonce log), measured as it grows.
   */
  interleaved: boolean;
  /** Why the case cannot run against this target (the description key to state); undefined where it can. */
  notRun(): string | undefined;
  /** About how many requests preparing and measuring a size take, for the deadline's planning. */
  requests(size: number, repeats: number): number;
  /**
   * The requests of one repeat's measure alone, where preparing a size makes what each repeat
   * spends (LIM-3 builds a chain per repeat to delete); by default, the share of requests() that
   * grows with the repeats.
   */
  repeatRequests?(size: number): number;
  /**
   * The least time a size takes whatever its requests' pace, where the target has shown a pace
   * of its own (a server that gives each version a second makes a chain of N versions take N s),
   * with that pace in words: the deadline's planning counts it, and names it where it is what
   * lowers a size.
   */
  paced?(size: number, repeats: number): { ms: number; pace: string } | undefined;
  prepare(size: number, repeats: number): Promise<void>;
  /** One repeat at a prepared size: each series' cost by its name. */
  measure(size: number, repeat: number): Promise<Record<string, number>>;
  /**
   * The condition the repeat just measured was under, where the target's state can change what
   * the operation costs beside the size (an update sent before the server's clock passed the
   * version before may wait for it): the engine classes only repeats measured under one condition.
   */
  condition?(): string | undefined;
  /**
   * What the case sees at a size beside its costs, in words, asked once the size is prepared and
   * (unless interleaved) measured, where the memory is read: LIM-4's nonce issued before the
   * flood, still let in or refused.
   */
  observe?(size: number): Promise<string>;
  /** Deletes every resource the case made, whatever happened before. */
  cleanup(): Promise<void>;
  /** What the case could not check or could not delete, said beside its numbers; asked after cleanup. */
  notes?(): string[];
}

/** What a case is given: the target, and how to send to it as every sxd run does. */
export interface LimitContext {
  target: TargetDescription;
  timeoutMs: number;
  tls: TlsSettings;
  /** Bytes of a reply read at most (--max-body), where a case does not read larger ones by design. */
  maxBodyBytes: number;
  /** The run's pace (--rate, and what the target's 429s allow). */
  rate: RateLimits;
  /** Asked before each request: a reason not to send it (the deadline passed). */
  guard: { refusal(): string | undefined; record(answered: boolean): void };
}

/** A size the target refused with a limit it states: the end of the series, never a finding. */
export class LimitReached extends Error {}

/** A 5xx, a reset, a hang: shown first, with the exchange. */
export class LimitFinding extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange | undefined,
  ) {
    super(message);
  }
}

/** An answer that neither measures nor refuses (a 409, a 404): the series stops there, with it. */
export class UnexpectedAnswer extends Error {}

/** Words by which a 4xx states a limit. */
const STATES_A_LIMIT = /limit|too (large|long|many|big)|exceed|quota|maximum/i;

/**
 * The reply to an operation measured: returned where `expected` takes its status; otherwise
 * the error it is, by the rules of docs/limits.md.
 */
export function judged(reply: Answered, what: string, expected: (status: number) => boolean): Answered {
  const { status, body } = reply.response;
  if (expected(status)) return reply;
  const said = body
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 160);
  // 507 Insufficient Storage states a limit (RFC 4918 §11.5): the one 5xx that is an answer.
  if (status === 413 || status === 507 || (status >= 400 && status < 500 && STATES_A_LIMIT.test(said)))
    throw new LimitReached(`${what}: ${status}${said ? ` "${said}"` : ""}`);
  if (status >= 500) throw new LimitFinding(`${what} answered ${status}`, reply);
  throw new UnexpectedAnswer(`${what} answered ${status}${said ? ` "${said}"` : ""}`);
}

/** Methods a client may send again after a connection closed under them (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/**
 * A send (or sends) that got no reply (reset, hang, refused connection) as the finding it is.
 * A server may close a kept-alive connection just as a request goes out on it (RFC 9112 §9.3.1,
 * §9.6): where the request lost is idempotent and its connection was closed or reset, the send
 * is made once more, and only a second loss is a finding (Apache httpd's event MPM closes idle
 * connections so under 64 logins at once).
 */
export async function answerOf<T>(send: () => Promise<T>, exchanges: readonly Exchange[], what: string): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const lost = noAnswer(exchanges, error);
    if (!IDEMPOTENT.has(lost.method) || !/closed|reset|hang up/i.test(lost.error)) throw finding(lost, what);
    try {
      return await send();
    } catch (again) {
      throw finding(noAnswer(exchanges, again), what);
    }
  }
}

/** The exchange that got no reply; any other error (not sent, a step's own) is thrown on as it is. */
function noAnswer(exchanges: readonly Exchange[], error: unknown): Exchange & { error: string } {
  const last = exchanges.at(-1);
  if (last?.error === undefined || last.error.startsWith("not sent") || last.response !== undefined) throw error;
  return last as Exchange & { error: string };
}

function finding(lost: Exchange & { error: string }, what: string): LimitFinding {
  return new LimitFinding(`${what}: no answer (${lost.error})`, lost);
}
