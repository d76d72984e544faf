/**
 * How the export servers mint and check a link's token: the reference's own HMAC token
 * (token.ts), or, under a fault mode (faults.ts), one of the weak tokens real servers ship,
 * each forgeable from what it shows:
 *
 * - unsigned-user:   base64url of the user name; any user's token is one encoding away.
 * - unsigned-expiry: `<expiry>.<hmac of the user>`; the expiry is shown and not signed.
 * - jwt-alg-none:    an HS256 JWT {sub, exp}, checked, unless its header says alg "none".
 * - jwt-unverified:  the same JWT, read but never verified (decoded in place of checked).
 * - counted:         the next number of a counter, looked up in a table (counted-tokens.ts):
 *                    unforgeable by changing one, yet anyone who read one knows the next.
 * - escaped-counted: the same, numbering by one, as `<n>|<SHA-256 hex of n>` (no key), which the
 *                    link carries percent-encoded: as written, one run of text whose hex digits
 *                    look random; decoded, a counter and a hash anyone can compute.
 * - escaped-unsigned-expiry: a version byte 0x80 (as Fernet's), then `<user>|<expiry>|<hex MAC
 *                    of the user>`, which the link carries percent-encoded (as Go's url.PathEscape
 *                    writes bytes): decoded, it shows an expiry, and nothing signs it. The version
 *                    byte is no UTF-8, so a reader that decodes the escapes as UTF-8 sees nothing.
 *
 * Both servers check through `checkToken`, so the contacts server's backend check agrees with
 * the messaging server's, whatever the scheme.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { type JsonObject, readJwt, signedJwt, verifiedHs256 } from "../../lib/jwt.ts";
import { textOfBytes } from "../../lib/percent.ts";
import { mintCounted, verifyCounted } from "./counted-tokens.ts";
import { mintToken, type TokenCheck, type TokenFormat, verifyToken } from "./token.ts";

export type TokenScheme =
  | "hmac"
  | "unsigned-user"
  | "unsigned-expiry"
  | "escaped-unsigned-expiry"
  | "jwt-alg-none"
  | "jwt-unverified"
  | "counted"
  | "escaped-counted";

export interface TokenSetting {
  scheme: TokenScheme;
  key: string;
  /** The HMAC token's format (the variant's choice). */
  format: TokenFormat;
}

export function issueToken(setting: TokenSetting, user: string, expiresAt: number): string {
  switch (setting.scheme) {
    case "hmac":
      return mintToken(setting.key, user, expiresAt, setting.format);
    case "counted":
      return mintCounted(setting.key, user, expiresAt);
    case "escaped-counted":
      return mintCounted(setting.key, user, expiresAt, "hashed");
    case "unsigned-user":
      return Buffer.from(user).toString("base64url");
    case "unsigned-expiry":
      return `${expiresAt}.${userMac(setting.key, user).toString("base64url")}`;
    case "escaped-unsigned-expiry":
      return `${VERSION_BYTE}${user}|${expiresAt}|${userMac(setting.key, user).toString("hex")}`;
    case "jwt-alg-none":
    case "jwt-unverified":
      return signedJwt({ sub: user, exp: expiresAt }, setting.key);
  }
}

/** `now` and expiries in whole seconds since the epoch. */
export function checkToken(setting: TokenSetting, user: string, token: string | undefined, now: number): TokenCheck {
  if (setting.scheme === "hmac") return verifyToken(setting.key, user, token, now, setting.format);
  if (setting.scheme === "counted") return verifyCounted(setting.key, user, token, now);
  if (setting.scheme === "escaped-counted") return verifyCounted(setting.key, user, token, now, "hashed");
  if (token === undefined || token === "") return { ok: false, reason: "missing" };
  switch (setting.scheme) {
    case "unsigned-user":
      return Buffer.from(token, "base64url").toString("utf8") === user
        ? { ok: true }
        : { ok: false, reason: "invalid" };
    case "unsigned-expiry": {
      const match = /^(\d{1,15})\.([A-Za-z0-9_-]+)$/.exec(token);
      if (!match) return { ok: false, reason: "malformed" };
      if (!sameBytes(Buffer.from(match[2]), Buffer.from(userMac(setting.key, user).toString("base64url"))))
        return { ok: false, reason: "invalid" };
      return Number(match[1]) > now ? { ok: true } : { ok: false, reason: "expired" };
    }
    case "escaped-unsigned-expiry": {
      // The token as meant, its escapes decoded (lib/percent.ts): the version byte stays a byte.
      const match = /^\uDC80([^|]*)\|(\d{1,15})\|([0-9a-f]{64})$/.exec(token);
      if (!match) return { ok: false, reason: "malformed" };
      const mac = userMac(setting.key, user).toString("hex");
      if (match[1] !== user || !sameBytes(Buffer.from(match[3]), Buffer.from(mac)))
        return { ok: false, reason: "invalid" };
      return Number(match[2]) > now ? { ok: true } : { ok: false, reason: "expired" };
    }
    case "jwt-alg-none":
    case "jwt-unverified":
      return jwtClaimsCheck(trustedClaims(setting, token), user, now);
  }
}

/** The claims a weak JWT check takes as true: every one where unverified, an unsigned one where alg is none. */
function trustedClaims(setting: TokenSetting, token: string): JsonObject | undefined {
  const jwt = readJwt(token);
  if (!jwt) return undefined;
  if (setting.scheme === "jwt-unverified" || jwt.header.alg === "none") return jwt.payload;
  return verifiedHs256(token, setting.key);
}

function jwtClaimsCheck(claims: JsonObject | undefined, user: string, now: number): TokenCheck {
  if (!claims) return { ok: false, reason: "invalid" };
  if (claims.sub !== user) return { ok: false, reason: "invalid" };
  return typeof claims.exp === "number" && claims.exp > now ? { ok: true } : { ok: false, reason: "expired" };
}

/** The version byte 0x80 as decoded text holds a byte that is no UTF-8 (lib/percent.ts). */
const VERSION_BYTE = textOfBytes(Uint8Array.of(0x80));

function userMac(key: string, user: string): Buffer {
  return createHmac("sha256", key).update(`user\n${user}`).digest();
}

function sameBytes(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
