/**
 * The arithmetic of HTTP Digest authentication (RFC 7616 §3.4, RFC 2617 §3.2.2), shared by
 * the reference server and the suite's client. Pure; checked against the RFCs' published
 * examples and, end to end, against curl and Python requests. Besides RFC 7616's formula it
 * computes the one SPEC.md shows, which a server may take instead (see `Formula`).
 *
 *   const ha1 = hashA1("SHA-256", "Mufasa", "http-auth@example.org", "Circle of Life");
 *   responseDigest({ algorithm: "SHA-256", ha1, nonce, nc: "00000001", cnonce, qop: "auth", method: "GET", uri })
 */

/**
 * How often a server lets one nonce be used (RFC 7616 §5.5 leaves it to the server).
 * "nc-once": any number of uses, but each nonce count once (a seen nc is a replay).
 */
export type NoncePolicy = "one-time" | "unlimited" | "nc-once" | { uses: number };

import { hash as oneShot } from "node:crypto";

/** Every algorithm RFC 7616 §6.1 registers, each with its -sess variant. */
export const ALGORITHMS = ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess", "SHA-512-256", "SHA-512-256-sess"] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export type Qop = "auth" | "auth-int";
/** The hash a stored H(user:realm:password) was made with: the algorithm without "-sess". */
export type HashName = "MD5" | "SHA-256" | "SHA-512-256";

/** node:crypto's names; SHA-512-256 is FIPS 180-4's SHA-512/256, with its own initial values. */
const NODE_HASHES: Record<HashName, string> = { MD5: "md5", "SHA-256": "sha256", "SHA-512-256": "sha512-256" };

const BY_LOWER_CASE_NAME = new Map<string, Algorithm>(ALGORITHMS.map((known) => [known.toLowerCase(), known]));
const HASH_OF = Object.fromEntries(ALGORITHMS.map((known) => [known, known.replace(/-sess$/, "")])) as Record<
  Algorithm,
  HashName
>;

/** Algorithm names are case-insensitive; an absent algorithm means MD5 (RFC 7616 §3.3). */
export function parseAlgorithm(name: string | undefined): Algorithm | undefined {
  if (name === undefined) return "MD5";
  return BY_LOWER_CASE_NAME.get(name.toLowerCase());
}

export function hashOf(algorithm: Algorithm): HashName {
  return HASH_OF[algorithm];
}

export function isSession(algorithm: Algorithm): boolean {
  return algorithm.endsWith("-sess");
}

export function hex(hash: HashName, data: string | Buffer): string {
  return oneShot(NODE_HASHES[hash], data, "hex");
}

/** The username directive's value where a challenge asks for userhash=true: H(username:realm) (RFC 7616 §3.4.4). */
export function hashUsername(hash: HashName, username: string, realm: string): string {
  return hex(hash, `${username}:${realm}`);
}

/** H(username:realm:password): what an htdigest file stores in place of the password. */
export function hashA1(hash: HashName, username: string, realm: string, password: string): string {
  return hex(hash, `${username}:${realm}:${password}`);
}

/** An eight-digit hexadecimal nonce count, as the nc directive carries it. */
export function formatNc(count: number): string {
  return count.toString(16).padStart(8, "0");
}

/**
 * How the response is computed. "rfc7616": RFC 7616 §3.4.1, with nc, cnonce and qop, and
 * H(body) for auth-int. "spec": SPEC.md's literal H(H(A1):nonce:H(method:uri)), which leaves
 * nc, cnonce, qop and the body out; the spec does not show how they enter, so a server may
 * use it as written.
 */
export type Formula = "rfc7616" | "spec";

export interface ResponseInput {
  algorithm: Algorithm;
  /** H(username:realm:password) with the algorithm's hash. */
  ha1: string;
  nonce: string;
  method: string;
  uri: string;
  /** Absent: the RFC 2069 form, with neither nc nor cnonce. */
  qop?: Qop;
  nc?: string;
  cnonce?: string;
  /** The request body, which auth-int's response covers (rspauth covers the reply's instead). */
  body?: string | Buffer;
  /** Default: "rfc7616". */
  formula?: Formula;
}

/** The response directive the client sends (RFC 7616 §3.4.1). */
export function responseDigest(input: ResponseInput): string {
  return kd(input, input.method, input.body);
}

/**
 * The rspauth of Authentication-Info: the same computation with an empty method (RFC 7616 §3.5).
 * With qop=auth-int its A2 hashes the body of the reply that carries it, not the request's
 * (RFC 2617 §3.2.3, which RFC 7616 keeps: it "also provides limited integrity protection of
 * the response"), so the reply's body is given, and `input.body` is not read.
 */
export function rspauthDigest(input: ResponseInput, replyBody: string | Buffer): string {
  return kd(input, "", replyBody);
}

/** The digest of `input` with this method and this body in A2 (the body for auth-int only). */
function kd(input: ResponseInput, method: string, body: string | Buffer | undefined): string {
  const hash = hashOf(input.algorithm);
  if (input.formula === "spec") return hex(hash, `${input.ha1}:${input.nonce}:${plainHa2(hash, method, input.uri)}`);
  const sessionKey = isSession(input.algorithm)
    ? hex(hash, `${input.ha1}:${input.nonce}:${input.cnonce ?? ""}`)
    : input.ha1;
  const ha2 =
    input.qop === "auth-int"
      ? hex(hash, `${method}:${input.uri}:${hex(hash, body ?? "")}`)
      : plainHa2(hash, method, input.uri);
  if (input.qop === undefined) return hex(hash, `${sessionKey}:${input.nonce}:${ha2}`);
  return hex(hash, `${sessionKey}:${input.nonce}:${input.nc ?? ""}:${input.cnonce ?? ""}:${input.qop}:${ha2}`);
}

/**
 * H(method:uri) without a body: a server computes it for the same few method and uri pairs
 * over and over (twice per login: for the response and for rspauth), so the last ones are kept,
 * and found by comparing their parts, with no key string built for a lookup.
 */
const recentHa2: { hash: HashName; method: string; uri: string; ha2: string }[] = [];
/** Small: a client choosing long uris costs at most this many header-sized strings. */
const RECENT_HA2_LIMIT = 8;
let nextHa2 = 0;

function plainHa2(hash: HashName, method: string, uri: string): string {
  for (const recent of recentHa2) {
    if (recent.uri === uri && recent.method === method && recent.hash === hash) return recent.ha2;
  }
  const ha2 = hex(hash, `${method}:${uri}`);
  recentHa2[nextHa2] = { hash, method, uri, ha2 };
  nextHa2 = (nextHa2 + 1) % RECENT_HA2_LIMIT;
  return ha2;
}
