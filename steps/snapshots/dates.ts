/**
 * SNAP-1's should part (RFC 9110 §8.8.2.1): a server never dates a version later than the reply
 * that shows it, so Last-Modified is no later than the reply's Date. A server whose dates count
 * whole seconds may date a quick update a second after the version before, ahead of its clock:
 * so every reply to a GET of a resource or a snapshot counts, in the scenario (server.steps.ts)
 * and in the whole run (run-judge.ts). Pure: exchanges in, the replies dated ahead out.
 *
 *   const { judged, ahead } = datedAhead(exchanges, (url) => url.startsWith(resourceUrl));
 */
import type { Answered, Exchange } from "../../harness/evidence/exchange.ts";
import { headerOf } from "../../harness/evidence/exchange.ts";
import { parseHttpDate } from "../../lib/http-date.ts";

export interface DatedReplies {
  /** The replies that carried both dates, so could be judged. */
  judged: number;
  /** Those whose Last-Modified is later than their Date, in the order given. */
  ahead: Answered[];
}

/** The successful GET and HEAD replies at the addresses `covered` takes that show a Last-Modified later than their Date. */
export function datedAhead(exchanges: readonly Exchange[], covered: (url: string) => boolean): DatedReplies {
  let judged = 0;
  const ahead: Answered[] = [];
  for (const exchange of exchanges) {
    if (!isRead(exchange) || !covered(exchange.url)) continue;
    const modified = parseHttpDate(headerOf(exchange, "last-modified"));
    const sent = parseHttpDate(headerOf(exchange, "date"));
    if (modified === undefined || sent === undefined) continue;
    judged++;
    if (modified.getTime() > sent.getTime()) ahead.push(exchange);
  }
  return { judged, ahead };
}

function isRead(exchange: Exchange): exchange is Answered {
  const status = exchange.response?.status ?? 0;
  return (exchange.method === "GET" || exchange.method === "HEAD") && status >= 200 && status <= 299;
}

/** What a failure says: the rule, and the first reply dated ahead (its dates), with how many there were. */
export function datedAheadFailure({ judged, ahead }: DatedReplies): { expected: string; got: string } {
  const [first] = ahead;
  return {
    expected: "a Last-Modified no later than the reply's Date on every reply to a GET of a resource or a snapshot",
    got: `Last-Modified: ${headerOf(first, "last-modified")} in a reply dated ${headerOf(first, "date")}\n(${ahead.length} of the ${judged} replies that carry both dates)`,
  };
}
