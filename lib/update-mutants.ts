/**
 * Mutants of what goes around an entry update: its preconditions (If-Unmodified-Since left out,
 * older, in RFC 9110's obsolete date formats, not a date, far in the future; odd If-Match and
 * If-None-Match values), its Content-Type, how many copies go at once, and snapshot addresses
 * a server must not be confused by. Pure: validators and ids in, headers and paths out.
 *
 *   const { headers, stale } = preconditionsOf({ lastModified, etag }, ["ius:older"]);
 */
import { parseHttpDate } from "./http-date.ts";

export interface Validators {
  lastModified: string;
  etag?: string;
}

export const PRECONDITION_MUTATIONS = [
  "ius:missing",
  "ius:older",
  "ius:rfc850",
  "ius:asctime",
  "ius:garbage",
  "ius:future",
  "if-match:star",
  "if-match:wrong",
  "if-match:weak",
  "if-match:unquoted",
  "if-match:empty",
  "if-none-match:star",
  "if-none-match:current",
  "if-none-match:garbage",
] as const;

export interface Preconditions {
  headers: Record<string, string>;
  /** If-Unmodified-Since is older than the date read, and no If-Match overrides it: a lost update (412). */
  stale: boolean;
  /** Neither a valid If-Unmodified-Since nor an If-Match: the update says no version it replaces (428). */
  unguarded: boolean;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const clock = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** RFC 850's date, obsolete but one a recipient must read (RFC 9110 §5.6.7). */
export function rfc850Date(d: Date): string {
  const year = pad(d.getUTCFullYear() % 100);
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${year} ${clock(d)} GMT`;
}

/** ANSI C's asctime() date, the other obsolete format. */
export function asctimeDate(d: Date): string {
  const day = String(d.getUTCDate()).padStart(2, " ");
  return `${DAYS[d.getUTCDay()].slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${day} ${clock(d)} ${d.getUTCFullYear()}`;
}

function imfDate(d: Date): string {
  return `${DAYS[d.getUTCDay()].slice(0, 3)}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${clock(d)} GMT`;
}

/** The validators a client read, as the update sends them (If-Unmodified-Since), with the mutations applied. */
export function preconditionsOf(read: Validators, ids: readonly string[]): Preconditions {
  const date = parseHttpDate(read.lastModified);
  const etag = read.etag ?? '"sxd"';
  const headers: Record<string, string> = { "if-unmodified-since": read.lastModified };
  for (const id of ids) {
    switch (id) {
      case "ius:missing":
        delete headers["if-unmodified-since"];
        break;
      case "ius:older":
        if (date) headers["if-unmodified-since"] = imfDate(new Date(date.getTime() - 1000));
        break;
      case "ius:rfc850":
        if (date) headers["if-unmodified-since"] = rfc850Date(date);
        break;
      case "ius:asctime":
        if (date) headers["if-unmodified-since"] = asctimeDate(date);
        break;
      case "ius:garbage":
        headers["if-unmodified-since"] = "yesterday, around noon";
        break;
      case "ius:future":
        headers["if-unmodified-since"] = "Fri, 31 Dec 9999 23:59:59 GMT";
        break;
      case "if-match:star":
        headers["if-match"] = "*";
        break;
      case "if-match:wrong":
        headers["if-match"] = '"sxd-no-such-version"';
        break;
      case "if-match:weak":
        headers["if-match"] = etag.startsWith("W/") ? etag : `W/${etag}`;
        break;
      case "if-match:unquoted":
        headers["if-match"] = etag.replace(/^W\//, "").replace(/"/g, "");
        break;
      case "if-match:empty":
        headers["if-match"] = "";
        break;
      case "if-none-match:star":
        headers["if-none-match"] = "*";
        break;
      case "if-none-match:current":
        headers["if-none-match"] = etag;
        break;
      case "if-none-match:garbage":
        headers["if-none-match"] = 'W/"unclosed, ""';
        break;
    }
  }
  // Judged on the headers as they end up: a later mutation may put back what an earlier took out.
  // With If-Match, If-Unmodified-Since is not evaluated (RFC 9110 §13.2.2): the update is
  // guarded by the tag instead, and an old date proves nothing.
  const matched = "if-match" in headers;
  const sent = parseHttpDate(headers["if-unmodified-since"]);
  return {
    headers,
    stale: !matched && sent !== undefined && date !== undefined && sent.getTime() < date.getTime(),
    unguarded: !matched && sent === undefined,
  };
}

/** Content-Types an update may carry; `wrong` ones are not the entry's type by any reading (415). */
export const CONTENT_TYPES: Record<string, { value?: string; wrong: boolean }> = {
  "type:missing": { wrong: false },
  "type:text": { value: "text/plain;charset=UTF-8", wrong: true },
  "type:json": { value: "application/json", wrong: true },
  "type:garbage": { value: "atom", wrong: true },
  "type:empty": { value: "", wrong: false },
  "type:feed": { value: "application/atom+xml;type=feed;charset=UTF-8", wrong: false },
  "type:latin1": { value: "application/atom+xml;type=entry;charset=ISO-8859-1", wrong: false },
  "type:xml": { value: "application/xml", wrong: false },
  "type:upper-case": { value: "APPLICATION/ATOM+XML;TYPE=ENTRY;CHARSET=utf-8", wrong: false },
  "type:unclosed-quote": { value: 'application/atom+xml;type="entry;charset=UTF-8', wrong: false },
};

/** Addresses near a resource's snapshots that name none of them, by their id; `{res}` is the resource's path. */
export const ODD_PATHS: Record<string, string> = {
  "path:s0": "{res}/s0",
  "path:negative": "{res}/s-1",
  "path:leading-zero": "{res}/s01",
  "path:huge": "{res}/s999999999999",
  "path:beyond-number": "{res}/s99999999999999999999999999",
  "path:extra-segment": "{res}/s1/extra",
  "path:encoded-slash": "{res}%2Fs1",
  "path:dot-segment": "{res}/s1/../s1",
  "path:encoded-dots": "{res}/%2e%2e/%2e%2e",
  "path:empty-number": "{res}/s",
};

/** The update sent N times at once, each copy a version of its own, all on the validators of one read. */
export const AT_ONCE = ["at-once:2", "at-once:8"] as const;

/** How many copies of the update a recipe sends at once: the largest it names, else one. */
export function copiesAtOnce(ids: readonly string[]): number {
  const counts = ids.flatMap((id) =>
    AT_ONCE.some((known) => known === id) ? [Number(id.slice("at-once:".length))] : [],
  );
  return Math.max(1, ...counts);
}
