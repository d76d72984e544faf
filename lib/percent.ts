/**
 * Percent-encoding (RFC 3986 §2.1) as a reader of tokens needs it: the text a value means, from
 * the text a URI writes, and back. Decoding keeps every byte: where the escapes make no UTF-8
 * (a MAC's raw bytes, say), each byte of a broken sequence stands as one lone surrogate, U+DC80
 * to U+DCFF (Python's "surrogateescape"), which encoding writes back as that byte. So a change
 * made to the decoded text is a change of the bytes it shows, and nothing else changes.
 *
 *   percentDecoded("ada%7C1760000000%7C%D9%F6")          // "ada|1760000000|\uDCD9\uDCF6"
 *   percentEncoded("ada|1760000001|\uDCD9\uDCF6", "ada%7C1760000000%7C%D9%F6")
 *                                                         // "ada%7C1760000001%7C%D9%F6"
 */

/** The text `written` means: its escapes decoded; a "%" that starts no escape stays a "%". */
export function percentDecoded(written: string): string {
  if (!written.includes("%")) return written;
  const bytes: number[] = [];
  for (let i = 0; i < written.length; ) {
    if (written[i] === "%" && /^[0-9A-Fa-f]{2}$/.test(written.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(written.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const char = String.fromCodePoint(written.codePointAt(i) as number);
      bytes.push(...Buffer.from(char, "utf8"));
      i += char.length;
    }
  }
  return textOfBytes(Uint8Array.from(bytes));
}

/**
 * The bytes `written` means, one character a byte (U+0000 to U+00FF, Latin-1): what a reader of
 * bits takes, each byte at its place whether or not it is UTF-8, and no escape's "%" or hex
 * digits among them.
 *
 *   percentDecodedBytes("7%7C%D9%C3%A9")   // "7|\u00D9\u00C3\u00A9": four bytes, four characters
 */
export function percentDecodedBytes(written: string): string {
  return bytesOf(percentDecoded(written)).toString("latin1");
}

/** The bytes as text: UTF-8 where they are, each other byte a lone surrogate U+DC80 to U+DCFF. */
export function textOfBytes(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceAt(bytes, i);
    if (length === 0) {
      text += String.fromCharCode(ESCAPED_BYTE_BASE + bytes[i]);
      i++;
    } else {
      text += Buffer.from(bytes.subarray(i, i + length)).toString("utf8");
      i += length;
    }
  }
  return text;
}

/** The bytes a decoded text stands for: the inverse of textOfBytes. */
export function bytesOf(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= ESCAPED_BYTE_BASE + 0x80 && unit <= ESCAPED_BYTE_BASE + 0xff)
      bytes.push(unit - ESCAPED_BYTE_BASE);
    else bytes.push(...Buffer.from(char, "utf8"));
  }
  return Buffer.from(bytes);
}

/** The share of the text's characters that stand for bytes that are not UTF-8 (lone surrogates). */
export function rawShare(text: string): number {
  const chars = Array.from(text);
  return chars.length === 0 ? 0 : chars.filter((c) => /^[\uDC80-\uDCFF]$/.test(c)).length / chars.length;
}

/**
 * The text written as a value of a path segment's parameter or of a query may be (`;t=…`,
 * `?t=…`), spelled as `like` spells it: a character `like` escapes is escaped, one it writes raw
 * stays raw where a value may carry it raw, and every other byte but the unreserved ones is
 * escaped, in the case of `like`'s hex digits (upper case, as RFC 3986 §2.1 advises, unless
 * `like` writes lower case only). What comes out is always well-formed.
 */
export function percentEncoded(text: string, like = ""): string {
  const escapes = like.match(/%[0-9A-Fa-f]{2}/g) ?? [];
  const escaped = new Set(escapes.map((e) => String.fromCharCode(Number.parseInt(e.slice(1), 16))));
  const raw = new Set(like.replace(/%[0-9A-Fa-f]{2}/g, ""));
  const lower = escapes.some((e) => /[a-f]/.test(e)) && !escapes.some((e) => /[A-F]/.test(e));
  const escapeByte = (byte: number) => {
    const hex = byte.toString(16).padStart(2, "0");
    return `%${lower ? hex : hex.toUpperCase()}`;
  };
  let out = "";
  for (const char of text) {
    const keep =
      (UNRESERVED.test(char) && !(escaped.has(char) && !raw.has(char))) || (SAFE_RAW.test(char) && raw.has(char));
    out += keep ? char : [...bytesOf(char)].map(escapeByte).join("");
  }
  return out;
}

/** RFC 3986's unreserved characters: never need an escape. */
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/** Sub-delimiters, ":" and "@": a parameter's value may carry them raw (but not ";" or "&", which end it). */
const SAFE_RAW = /^[!$'()*+,=:@]$/;

const ESCAPED_BYTE_BASE = 0xdc00;

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629 §4), or 0 where none starts there. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  const [length, low, high] = UTF8_LEADS.find(([from, to]) => lead >= from && lead <= to)?.slice(2) ?? [0, 0, 0];
  if (length === 0 || i + length > bytes.length) return 0;
  if (bytes[i + 1] < low || bytes[i + 1] > high) return 0;
  for (let k = 2; k < length; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return 0;
  return length;
}

/** Lead bytes (from, to), the sequence's length, and the range of its second byte. */
const UTF8_LEADS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f],
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f],
];
