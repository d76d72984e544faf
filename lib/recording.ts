/**
 * What crosses the wire when a client talks to sxd's servers: each request as the server
 * received it and the reply it got. The reference records these (reference/recorder.ts) and
 * the client steps grade them (steps/<behaviour>/client*); this type is the one both speak.
 */

import type { KeptBody } from "./body.ts";

export type Fields = Record<string, string | string[]>;

export interface RecordedRequest {
  /** Which of sxd's servers received it. */
  server: "base" | "contacts" | "messaging";
  method: string;
  /** The request-target exactly as sent, e.g. `/client/protected?x=1`. */
  target: string;
  /** Lower-case names, as node:http gives them. */
  headers: Fields;
  /** The body as UTF-8 text ("" for none). */
  body: string;
  /** ISO time the request arrived. */
  at: string;
  /** Its body as text, and its bytes where they are not UTF-8 (body.ts). */
  reply: { status: number; headers: Fields } & KeptBody;
  /** Set where one of sxd's servers sent it, not the client (the messaging server fetching contacts). */
  bySxd?: true;
  /**
   * Where it went, `https://host:port`, for a request recorded elsewhere (a HAR file); absent for
   * one sxd's servers received, which were reached over plain HTTP at the request's Host.
   */
  origin?: string;
}

/**
 * A condition the servers stage for one run of a task, so the client's answer to it shows.
 * "wrong-credentials": the first Authorization is answered 401 without stale, even if right.
 * "stale-nonce": the first right Authorization is answered 401 with stale=true and a new nonce.
 * "precondition-failed": the first PUT is answered 412, as if the entry had changed since the read.
 * "md5-first", "md5-only": for the whole run, the challenges offer MD5 then SHA-256, or MD5 alone
 * (an Offer: another condition may be staged on it, so that it meets a client on an offer the
 * client answers).
 * "auth-int-only": for the whole run, the challenges offer qop auth-int alone.
 * "wrong-rspauth": the first grant carries an rspauth that does not prove the secret.
 * "no-export-link", "import-fails": for the whole run, the contact list is served without its
 * export link, or every POST to an export link is answered 503 (where CEXP-4's fallback acts).
 */
export type StagedCondition =
  | "wrong-credentials"
  | "stale-nonce"
  | "precondition-failed"
  | "md5-first"
  | "md5-only"
  | "auth-int-only"
  | "wrong-rspauth"
  | "no-export-link"
  | "import-fails";

/** The conditions that only change which algorithms the challenges offer, in which order. */
export type Offer = Extract<StagedCondition, "md5-first" | "md5-only">;

/** What the servers stage for one run of a task: a condition, and the offer it meets the client on. */
export interface Staging {
  condition?: StagedCondition;
  offer?: Offer;
}
