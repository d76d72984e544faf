/**
 * JSON Web Tokens (RFC 7519) in their compact form, `header.payload.signature`, each part
 * base64url without padding (RFC 7515 §3.1). Only what sxd needs: reading one apart, writing
 * one, and HS256 (HMAC SHA-256, RFC 7518 §3.2) for the servers of its own tests.
 *
 *   const token = signedJwt({ sub: "ada", exp: 1760000000 }, "key");
 *   readJwt(token); // { header: { alg: "HS256", typ: "JWT" }, payload: { sub: "ada", … }, signature: "…" }
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type JsonObject = Record<string, unknown>;

export interface Jwt {
  header: JsonObject;
  payload: JsonObject;
  /** The third part as written (base64url), "" where the token has none. */
  signature: string;
}

const PART = /^[A-Za-z0-9_-]*$/;

/** The parts of a compact JWT whose header is a JSON object naming an alg; undefined for anything else. */
export function readJwt(token: string): Jwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((p) => PART.test(p)) || parts[0] === "" || parts[1] === "") return undefined;
  const header = jsonObjectOf(parts[0]);
  const payload = jsonObjectOf(parts[1]);
  if (!header || !payload || typeof header.alg !== "string") return undefined;
  return { header, payload, signature: parts[2] };
}

/** header.payload of the two objects, each JSON in base64url: the signing input of RFC 7515 §5.1. */
export function jwtSigningInput(header: JsonObject, payload: JsonObject): string {
  return `${base64urlJson(header)}.${base64urlJson(payload)}`;
}

export function signedJwt(payload: JsonObject, key: string): string {
  const input = jwtSigningInput({ alg: "HS256", typ: "JWT" }, payload);
  return `${input}.${hs256(input, key)}`;
}

/** The payload of an HS256 token whose signature is right for `key`; undefined for any other token. */
export function verifiedHs256(token: string, key: string): JsonObject | undefined {
  const jwt = readJwt(token);
  if (jwt?.header.alg !== "HS256") return undefined;
  const expected = Buffer.from(hs256(token.slice(0, token.lastIndexOf(".")), key));
  const given = Buffer.from(jwt.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? jwt.payload : undefined;
}

function hs256(input: string, key: string): string {
  return createHmac("sha256", key).update(input).digest("base64url");
}

function base64urlJson(value: JsonObject): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function jsonObjectOf(part: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}
