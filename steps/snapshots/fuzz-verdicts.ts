/**
 * The updates generator's verdicts (steps/snapshots/fuzz.ts), pure: what the server answered
 * and showed afterwards in, the row it broke out, if any. SNAP-11, SNAP-12, SNAP-14 and
 * SNAP-15 (updates sent at once with one read's date).
 */

import type { Answered } from "../../harness/evidence/exchange.ts";
import type { FuzzFailure } from "../../harness/fuzz/engine.ts";
import { loadRows } from "../../harness/judging/catalogue.ts";
import { EXPANSION } from "../../lib/entry-mutants.ts";

/** The row where the catalogue has it; without it, what the older rows say about the same input. */
const rowOr = (id: string, older: string) => (loadRows().some((row) => row.id === id) ? id : older);
/** SNAP-14 where the catalogue has it; without it, an expanded entity is input SNAP-12 says to refuse. */
const DOCTYPE_ROW = rowOr("SNAP-14", "SNAP-12");
/** SNAP-15 where the catalogue has it; without it, a lost update is SNAP-11's. */
const RACE_ROW = rowOr("SNAP-15", "SNAP-11");

/** What a read shows of the resource: enough to see that an update got in. */
export interface Seen {
  status: number;
  title?: string;
  previous?: string;
}

/** Why an update that got in should not have, if so; the first reason in the rows' order. */
export function acceptedVerdict(
  status: number,
  sent: { stale: boolean; unguarded: boolean; wrongType: boolean; malformed: boolean; declaresEntity: boolean },
  after: Seen,
): FuzzFailure | undefined {
  const got = `status ${status}`;
  if (sent.stale)
    return {
      row: "SNAP-11",
      kind: "accepted stale",
      why: `${got} for If-Unmodified-Since older than the Last-Modified read`,
    };
  if (sent.unguarded)
    return {
      row: "SNAP-12",
      kind: "accepted unguarded",
      why: `${got} for an update without a valid If-Unmodified-Since or If-Match`,
    };
  if (sent.wrongType)
    return { row: "SNAP-12", kind: "accepted wrong type", why: `${got} for a body sent as another media type` };
  if (sent.malformed)
    return {
      row: "SNAP-12",
      kind: "accepted malformed",
      why: `${got} for a body that is not a well-formed Atom entry`,
    };
  if (sent.declaresEntity && after.title?.includes(EXPANSION)) {
    return {
      row: DOCTYPE_ROW,
      kind: "expanded",
      why: `${got}, and the title read back holds the entity's text: the DOCTYPE was expanded`,
    };
  }
  return undefined;
}

export function serverError(reply: Answered, what: string): FuzzFailure {
  return { row: "SNAP-12", kind: "5xx", why: `status ${reply.response.status} for ${what}` };
}

/** The mutated request got no reply: the connection dropped, or what came back was not HTTP. */
export function transportFailure(message: string): FuzzFailure {
  const kind = /not HTTP|HPE_|parse/i.test(message) ? "not HTTP" : "dropped";
  return { row: "SNAP-12", kind, why: message };
}

/**
 * Updates sent at once, each with the date of one read (SNAP-15): more than one that got in
 * means a later one overwrote a version its client never read. `judged` only where the
 * updates carried that date as read and nothing that overrides it (If-Match), so every one
 * of them had to be refused once another got in.
 */
export function raceVerdict(puts: readonly Answered[], judged: boolean): FuzzFailure | undefined {
  const landed = puts.filter((put) => put.response.status >= 200 && put.response.status < 300);
  if (!judged || landed.length < 2) return undefined;
  return {
    row: RACE_ROW,
    kind: "lost update",
    why: `${landed.length} of ${puts.length} updates sent at once with the Last-Modified of one read got in (status ${landed.map((put) => put.response.status).join(", ")}): all but one overwrote a version their client never read`,
  };
}
