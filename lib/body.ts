/**
 * A body as sxd keeps it: as text, which steps read and reports show, and, where its bytes are
 * not UTF-8, the bytes as well. The text then holds U+FFFD in place of each such byte, and
 * whatever hashes a body (auth-int's rspauth, RFC 2617 §3.2.3) must hash what was sent, not
 * that text. The bytes are kept in base64 so that a record stays JSON (an interop cell's
 * exchange.json), and only where they differ from the text, so that memory is not doubled.
 *
 * @example
 *   const kept = keptBody(Buffer.from("Genève", "latin1")); // { body: "Gen\uFFFDve", bodyBase64: "R2Vu6HZl" }
 *   bodyBytes(kept); // <Buffer 47 65 6e e8 76 65>
 */
import { isUtf8 } from "node:buffer";

export interface KeptBody {
  /** The body as UTF-8 text ("" for none); a byte that is not UTF-8 shows as U+FFFD. */
  body: string;
  /** The bytes as they came, in base64, where they are not UTF-8; absent where `body` is them. */
  bodyBase64?: string;
}

export function keptBody(bytes: Buffer): KeptBody {
  const body = bytes.toString("utf8");
  return isUtf8(bytes) ? { body } : { body, bodyBase64: bytes.toString("base64") };
}

/** The body's bytes as they came (its text where that is them): what a digest of the body hashes. */
export function bodyBytes(kept: KeptBody): string | Buffer {
  return kept.bodyBase64 === undefined ? kept.body : Buffer.from(kept.bodyBase64, "base64");
}
