/**
 * One HTTP exchange as the harness keeps it: what was sent, what came back or why nothing
 * did. How a person reads one is transcript.ts; how a failure to get a reply is told is
 * transport.ts.
 */
import type { KeptBody } from "../../lib/body.ts";

export type Headers = Record<string, string>;

/** The body as text, and its bytes where they are not UTF-8 (lib/body.ts). */
export interface RecordedResponse extends KeptBody {
  status: number;
  /** Lower-case names; repeated headers keep every value. */
  headers: Record<string, string[]>;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Headers;
  requestBody?: string;
  /** Why the suite sent this request, where the request alone does not say (a retry in another form). */
  note?: string;
  response?: RecordedResponse;
  /** Set when no reply came: refused, reset, timed out. */
  error?: string;
  /** Replies that were no answer (429; 503 with Retry-After), each followed by a wait and the same request again. */
  refusals?: Refusal[];
  /**
   * Milliseconds sxd held the request back to keep its pace (--rate, or the pace it took after
   * refusals) before sending it; absent where it went when asked. Waits after a refusal are in `refusals`.
   */
  heldMs?: number;
  /** ISO time the request was sent. */
  startedAt: string;
  durationMs: number;
  /**
   * Of durationMs, the milliseconds in which sxd's own process was held up (lib/held-up.ts: no
   * core for it, or its loop backed up), where there were any: time the target is not to blame
   * for when its speed is judged.
   */
  stalledMs?: number;
}

/** A reply that was no answer; `waitMs` is how long sxd waited before sending again, absent where it gave up. */
export interface Refusal {
  status: number;
  headers: Record<string, string[]>;
  waitMs?: number;
}

export type Answered = Exchange & { response: RecordedResponse };

/** Header names whose values are secrets: credentials, keys, tokens, cookies. */
const SECRET_HEADER = /authorization|cookie|token|secret|key|password|credential/i;

/**
 * A configured header's value as reports show it: a secret is masked, its scheme word kept
 * ("Bearer •••"), so a report can be shared without the key it was run with.
 */
export function masked(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value)?.[1];
  return scheme ? `${scheme} •••` : "•••";
}

/** One header's value; repeated fields are joined with ", " as RFC 9110 §5.3 allows. */
export function headerOf(exchange: Answered, name: string): string | undefined {
  const values = exchange.response.headers[name.toLowerCase()];
  return values === undefined ? undefined : values.join(", ");
}
