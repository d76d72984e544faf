/**
 * Tokens that differ from a served export token by the token alone (EXP-6). A server may
 * refuse a token on its shape before it checks its value, so besides a token of another
 * shape the suite forges tokens of the real one's length and alphabet: only the value
 * can give those away.
 */
import { randomBytes } from "node:crypto";

/**
 * Another token of the same shape: every letter and digit changed to another of its kind
 * (digit, lower case, upper case) that the token uses, every other character (separators
 * such as "." or "-") kept in place. Never the token itself.
 */
export function forgedLike(token: string): string {
  const forged = Array.from(token, (c) => (kindOf(c) ? anotherOfItsKind(c, token) : c)).join("");
  if (forged !== token) return forged;
  // No letter or digit to change: a token of separators only, or none at all.
  return token === "" ? "A" : Array.from(token, (c) => anotherOfItsKind(c, token)).join("");
}

/**
 * The token with its last characters changed (a quarter of it, at most four), each to
 * another character of the same kind (digit, lower case, upper case) that the token uses:
 * a server that checks only the head of its tokens lets this one through.
 */
export function tailChanged(token: string): string {
  const n = Math.min(4, Math.max(1, Math.ceil(token.length / 4)));
  const tail = Array.from(token.slice(token.length - n), (c) => anotherOfItsKind(c, token));
  return `${token.slice(0, token.length - n)}${tail.join("")}`;
}

/** Random bytes in hex: a token of a shape the server did not issue. */
export function randomToken(): string {
  return randomBytes(16).toString("hex");
}

const KINDS = ["0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"];

const kindOf = (c: string) => KINDS.find((k) => k.includes(c));

function anotherOfItsKind(c: string, token: string): string {
  const kind = kindOf(c);
  if (!kind) return c === "A" ? "B" : "A";
  const used = [...new Set(token)].filter((x) => kind.includes(x)).sort();
  const pool = used.length > 1 ? used : [...kind];
  return pool[(pool.indexOf(c) + 1) % pool.length];
}
