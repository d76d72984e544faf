/**
 * What a sample of values (nonces, tokens) visibly is: the parts a separator joins or base64's
 * padding ends, and each part's alphabet (decimal, hex, base36, base64, base64url, or text),
 * with its bits, its bytes where it encodes some, and its number where it is one. A base64 part that decodes to text in
 * every value is taken apart again, once, as RFC 7616 §3.3's own example nonce would be
 * (base64 of a time stamp, a space and a hash).
 *
 * Example: `takeApart(["1712.9f3a", "1713.be01"])` gives two parts, decimal and hex.
 */

export type Encoding = "constant" | "decimal" | "hex" | "base36" | "base64" | "base64url" | "text";

export interface Part {
  /** Where it sits, in words: "the whole value", "part 2", "part 1, decoded: part 2". */
  label: string;
  encoding: Encoding;
  /** One text per value, in the sample's order. */
  texts: string[];
  /** One bit array per value, all the same length: what the statistics read. */
  bits: number[][];
  /** The bytes a hex or base64 part encodes, where every value encodes as many. */
  bytes?: Uint8Array[];
  /** The part as a number, where it is one (decimal, hex up to 32 digits, base36 up to 12). */
  numbers?: bigint[];
}

/** Characters that may join parts; not + / =, which base64 itself uses. */
const SEPARATORS = [".", "-", "_", ":", "|", "~", ",", ";", " ", "$", "!", "*", "@"];
const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * Where base64 padding ends and more text follows (Apache httpd's nonce: base64 of a time stamp,
 * then a hash in hex), a part ends: the padding stays with the base64 before it.
 */
const PADDING_END = "(?<==)(?=[^=])";

/** The parts of every value, or one part (the whole value) where no separator recurs in all alike. */
export function takeApart(values: readonly string[], within = ""): Part[] {
  if (values.length === 0) return [];
  const joining = SEPARATORS.filter((s) => {
    const count = occurrences(values[0], s);
    return count > 0 && values.every((v) => occurrences(v, s) === count);
  });
  const paddings = paddingEnds(values[0]);
  const padded = paddings > 0 && values.every((v) => paddingEnds(v) === paddings);
  // With one value, every separator "recurs alike": nothing tells structure from chance.
  const whole = () => withDecoded([describe([...values], within ? `${within}the whole text` : "the whole value")]);
  if ((joining.length === 0 && !padded) || values.length < 2) return whole();
  const boundaries = joining.length > 0 ? [`[${joining.map((s) => `\\${s}`).join("")}]`] : [];
  const splitter = new RegExp([...boundaries, ...(padded ? [PADDING_END] : [])].join("|"));
  const split = values.map((v) => v.split(splitter));
  const width = split[0].length;
  if (split.some((p) => p.length !== width)) return whole();
  return withDecoded(
    Array.from({ length: width }, (_, i) =>
      describe(
        split.map((p) => p[i]),
        `${within}part ${i + 1}`,
      ),
    ),
  );
}

function withDecoded(parts: Part[]): Part[] {
  return parts.flatMap((part) => decodedText(part) ?? [part]);
}

function occurrences(text: string, character: string): number {
  return text.split(character).length - 1;
}

function paddingEnds(text: string): number {
  return text.split(new RegExp(PADDING_END)).length - 1;
}

/** A base64 part that is text in every value, taken apart in its turn (once: no nesting below it). */
function decodedText(part: Part): Part[] | undefined {
  if ((part.encoding !== "base64" && part.encoding !== "base64url") || part.label.includes("decoded")) return undefined;
  const texts = (part.bytes ?? part.texts.map((t) => decodeBase64(t))).map((b) => Buffer.from(b).toString("latin1"));
  if (!texts.every((t) => t.length >= 4 && /^[\x20-\x7e]+$/.test(t))) return undefined;
  return takeApart(texts, `${part.label}, decoded: `);
}

function describe(texts: string[], label: string): Part {
  const encoding = encodingOf(texts);
  const part: Part = { label, encoding, texts, bits: [] };
  switch (encoding) {
    case "constant":
      part.bits = texts.map(() => []);
      break;
    case "decimal":
      part.numbers = texts.map((t) => BigInt(t));
      part.bits = numberBits(part.numbers);
      break;
    case "base36":
      part.numbers = texts.map((t) => [...t].reduce((n, c) => n * 36n + BigInt(Number.parseInt(c, 36)), 0n));
      part.bits = numberBits(part.numbers);
      break;
    case "hex":
      if (texts[0].length <= 32) part.numbers = texts.map((t) => BigInt(`0x${t}`));
      part.bits = charBits(texts, 4, (c) => Number.parseInt(c, 16));
      if (texts.every((t) => t.length % 2 === 0)) part.bytes = sameLength(texts.map((t) => Buffer.from(t, "hex")));
      break;
    case "base64":
    case "base64url": {
      const bare = texts.map((t) => t.replace(/=+$/, ""));
      part.bits = charBits(bare, 6, (c) => BASE64_ALPHABET.indexOf(c.replace("-", "+").replace("_", "/")));
      part.bytes = sameLength(bare.map((t) => decodeBase64(t)));
      break;
    }
    case "text":
      part.bits = charBits(texts, 8, (c) => c.charCodeAt(0) & 0xff);
      break;
  }
  return part;
}

function encodingOf(texts: readonly string[]): Encoding {
  if (texts.every((t) => t === texts[0])) return "constant";
  if (texts.every((t) => /^[0-9]{1,40}$/.test(t))) return "decimal";
  if (texts.every((t) => /^[0-9a-f]+$/.test(t)) || texts.every((t) => /^[0-9A-F]+$/.test(t))) return "hex";
  if (texts.every((t) => /^[0-9a-z]{1,12}$/.test(t))) return "base36";
  if (texts.every((t) => /^[A-Za-z0-9+/]+={0,2}$/.test(t))) return "base64";
  if (texts.every((t) => /^[A-Za-z0-9_-]+={0,2}$/.test(t))) return "base64url";
  return "text";
}

/** base64 and base64url alike (node reads both alphabets either way). */
function decodeBase64(text: string): Uint8Array {
  return Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

function sameLength(buffers: Uint8Array[]): Uint8Array[] | undefined {
  return buffers.every((b) => b.length === buffers[0].length) ? buffers : undefined;
}

/** Each value's characters as `width` bits each, up to the shortest value's length. */
function charBits(texts: readonly string[], width: number, digitOf: (c: string) => number): number[][] {
  const length = Math.min(...texts.map((t) => t.length));
  return texts.map((t) => {
    const bits: number[] = [];
    for (let i = 0; i < length; i++) {
      const v = digitOf(t[i]);
      for (let b = width - 1; b >= 0; b--) bits.push((v >> b) & 1);
    }
    return bits;
  });
}

/** Numbers as bits, all as wide as the widest, high bit first. */
function numberBits(numbers: readonly bigint[]): number[][] {
  const width = Math.max(...numbers.map((n) => n.toString(2).length));
  return numbers.map((n) => [...n.toString(2).padStart(width, "0")].map(Number));
}

/** One line per part: where it is and what it is. */
export function describeParts(parts: readonly Part[]): string {
  return parts
    .map((p) => {
      const lengths = new Set(p.texts.map((t) => t.length));
      const length = lengths.size === 1 ? `${[...lengths][0]}` : `${Math.min(...lengths)}–${Math.max(...lengths)}`;
      const bytes = p.bytes ? ` (${p.bytes[0].length} bytes)` : "";
      return p.encoding === "constant"
        ? `${p.label}: the same in every value`
        : `${p.label}: ${p.encoding}, ${length} characters${bytes}`;
    })
    .join("; ");
}
