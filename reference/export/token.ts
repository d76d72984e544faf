/**
 * The capability token in the export link's `;t=` parameter.
 *
 * A token is an HMAC over the user and an expiry time, keyed with a secret that the
 * contacts server (which mints it) and the messaging server (which checks it) share.
 * Why an HMAC: the messaging server can refuse a forged link on its own, before it sends
 * any request to the contacts server, and neither server keeps a table of issued tokens
 * that the other would have to reach. The key is the only shared state; it travels with
 * the servers' configuration, never over the wire.
 *
 * Two formats, so the suite can show it never relies on one:
 * - standard:    `<expiry base36>.<hmac base64url>`
 * - alternative: `<nonce hex>|<user>|<expiry decimal>|<hmac base64>` (a random nonce makes every
 *                link differ), which the link carries percent-encoded: `%7C` for each `|`, and
 *                the `+`, `/` and `=` of base64 escaped too, so a reader must decode it first.
 *
 * Checking rebuilds the token from its parts and compares whole strings in constant time,
 * so a change to any character (even padding bits of an encoding) is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type TokenFormat = "standard" | "alternative";

export type TokenCheck = { ok: true } | { ok: false; reason: "missing" | "malformed" | "invalid" | "expired" };

/** How long a minted link stays usable. */
export const TOKEN_LIFETIME_SECONDS = 3600;

export function mintToken(
  key: string,
  user: string,
  expiresAt: number,
  format: TokenFormat,
  nonce = randomBytes(8).toString("hex"),
): string {
  return format === "standard"
    ? `${expiresAt.toString(36)}.${sign(key, ["standard", user, String(expiresAt)]).toString("base64url")}`
    : `${nonce}|${user}|${expiresAt}|${sign(key, ["alternative", user, String(expiresAt), nonce]).toString("base64")}`;
}

/** `now` and the expiry are in whole seconds since the epoch. */
export function verifyToken(
  key: string,
  user: string,
  token: string | undefined,
  now: number,
  format: TokenFormat,
): TokenCheck {
  if (token === undefined || token === "") return { ok: false, reason: "missing" };
  const parts = parseToken(token, format);
  if (!parts) return { ok: false, reason: "malformed" };
  if (!sameText(expectedToken(key, user, token, format) ?? "", token)) return { ok: false, reason: "invalid" };
  if (parts.expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true };
}

/** The token that `user` would have been issued with the expiry (and nonce) that `token` carries. */
export function expectedToken(key: string, user: string, token: string, format: TokenFormat): string | undefined {
  const parts = parseToken(token, format);
  return parts && mintToken(key, user, parts.expiresAt, format, parts.nonce);
}

function parseToken(token: string, format: TokenFormat): { expiresAt: number; nonce?: string } | undefined {
  const match =
    format === "standard"
      ? /^([0-9a-z]{1,12})\.[A-Za-z0-9_-]+$/.exec(token)
      : /^([0-9a-f]{16})\|.*\|(\d{1,15})\|[A-Za-z0-9+/]+={0,2}$/s.exec(token);
  if (!match) return undefined;
  return format === "standard"
    ? { expiresAt: Number.parseInt(match[1], 36) }
    : { expiresAt: Number(match[2]), nonce: match[1] };
}

function sign(key: string, fields: string[]): Buffer {
  // Every field after the user is digits or hex, so the joined text splits into fields one way only.
  return createHmac("sha256", key).update(fields.join("\n")).digest();
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
