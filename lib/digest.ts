/**
 * The arithmetic of HTTP Digest authentication (RFC 7616 §3.4, RFC 2617 §3.2.2), shared by
 * the reference server and the suite's client. Pure; checked against the RFCs' published
 * examples and, end to end, against curl and Python requests.
 *
 *   const ha1 = hashA1("SHA-256", "Mufasa", "http-auth@example.org", "Circle of Life");
 *   responseDigest({ algorithm: "SHA-256", ha1, nonce, nc: "00000001", cnonce, qop: "auth", method: "GET", uri })
 */
import { createHash } from "node:crypto";

export const ALGORITHMS = ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess"] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export type Qop = "auth" | "auth-int";
/** The hash a stored H(user:realm:password) was made with: the algorithm without "-sess". */
export type HashName = "MD5" | "SHA-256";

/** Algorithm names are case-insensitive; an absent algorithm means MD5 (RFC 7616 §3.3). */
export function parseAlgorithm(name: string | undefined): Algorithm | undefined {
  if (name === undefined) return "MD5";
  return ALGORITHMS.find((known) => known.toLowerCase() === name.toLowerCase());
}

export function hashOf(algorithm: Algorithm): HashName {
  return algorithm.startsWith("SHA-256") ? "SHA-256" : "MD5";
}

export function isSession(algorithm: Algorithm): boolean {
  return algorithm.endsWith("-sess");
}

export function hex(hash: HashName, data: string | Buffer): string {
  return createHash(hash === "MD5" ? "md5" : "sha256")
    .update(data)
    .digest("hex");
}

/** H(username:realm:password): what an htdigest file stores in place of the password. */
export function hashA1(hash: HashName, username: string, realm: string, password: string): string {
  return hex(hash, `${username}:${realm}:${password}`);
}

/** An eight-digit hexadecimal nonce count, as the nc directive carries it. */
export function formatNc(count: number): string {
  return count.toString(16).padStart(8, "0");
}

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
  /** The request body, which auth-int covers. */
  body?: string | Buffer;
}

/** The response directive the client sends (RFC 7616 §3.4.1). */
export function responseDigest(input: ResponseInput): string {
  return kd(input, input.method);
}

/** The rspauth of Authentication-Info: the same computation with an empty method (RFC 7616 §3.5). */
export function rspauthDigest(input: ResponseInput): string {
  return kd(input, "");
}

function kd(input: ResponseInput, method: string): string {
  const hash = hashOf(input.algorithm);
  const sessionKey = isSession(input.algorithm)
    ? hex(hash, `${input.ha1}:${input.nonce}:${input.cnonce ?? ""}`)
    : input.ha1;
  const a2 =
    input.qop === "auth-int" ? `${method}:${input.uri}:${hex(hash, input.body ?? "")}` : `${method}:${input.uri}`;
  const ha2 = hex(hash, a2);
  if (input.qop === undefined) return hex(hash, `${sessionKey}:${input.nonce}:${ha2}`);
  return hex(hash, `${sessionKey}:${input.nonce}:${input.nc ?? ""}:${input.cnonce ?? ""}:${input.qop}:${ha2}`);
}
