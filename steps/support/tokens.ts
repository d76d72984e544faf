/**
 * Tokens that differ from a served export token by the token alone (EXP-6). A server may
 * refuse a token on its shape before it checks its value, so besides a token of another
 * shape the suite forges tokens of the real one's length and alphabet: only the value
 * can give those away.
 */
import { randomBytes } from "node:crypto";

/**
 * Another token of the same length and alphabet, differing from the first character on.
 * Never the token itself: a token of one repeated character gets a second one to vary with.
 */
export function forgedLike(token: string): string {
  const alphabet = [...new Set(token)];
  if (alphabet.length < 2) alphabet.push(alphabet[0] === "A" ? "B" : "A");
  const forged = Array.from({ length: Math.max(token.length, 1) }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]);
  if (forged.join("") !== token) return forged.join("");
  // Each character shifted to the next of the alphabet differs from it everywhere.
  return Array.from(token, (c) => alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]).join("");
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

function anotherOfItsKind(c: string, token: string): string {
  const kind = KINDS.find((k) => k.includes(c));
  if (!kind) return c === "A" ? "B" : "A";
  const used = [...new Set(token)].filter((x) => kind.includes(x)).sort();
  const pool = used.length > 1 ? used : [...kind];
  return pool[(pool.indexOf(c) + 1) % pool.length];
}
