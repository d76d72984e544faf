/**
 * Values that differ from a served export token (EXP-6) or nonce (DIG-6) by the value alone.
 * A server may refuse a value on its shape before it checks it, so besides a token of another
 * shape the suite forges values of the real one's length and alphabet: only the value can give
 * those away.
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
 * A nonce or token of the server's own shape that it never issued: its last characters before
 * any base64 padding (a quarter of it, at most four) each changed to another character of the
 * same kind (digit, lower case, upper case) that the value uses. A server that checks only the
 * head of its values lets this one through; four characters, so that bits a decoder ignores
 * at the very end cannot hide the change.
 */
export function forgedTail(value: string): string {
  const body = value.replace(/=+$/, "");
  const n = Math.min(4, Math.max(1, Math.ceil(body.length / 4)));
  const tail = Array.from(body.slice(body.length - n), (c) => anotherOfItsKind(c, body));
  return `${body.slice(0, body.length - n)}${tail.join("")}${value.slice(body.length)}`;
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
