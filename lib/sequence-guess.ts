/**
 * The guesser: what an observer who saw the sample, and the Date of each reply, can compute of
 * the values. Statistics cannot see through MD5 of a counter; this tries what an attacker would
 * try first: a counter with any step, a clock around the reply's Date (seconds, milliseconds,
 * microseconds, with any fixed offset such as an expiry), in a whole part, in 4 or 8 bytes
 * anywhere inside a decoded one (in either byte order: Apache httpd's time stamp is
 * little-endian) or in the decimal digits at either end of one, and MD5, SHA-1 or SHA-256 of a
 * counter or a clock, written in hex or base64. What it finds is derivable: those bits count
 * for nothing.
 *
 * Example: `guessParts(takeApart(nonces), dates)` for nonces 1001, 1002, 1003 finds a counter.
 */
import { hash } from "node:crypto";
import { formatHttpDate } from "./http-date.ts";
import type { Part } from "./sequence-parts.ts";
import { normalP } from "./sequence-stats.ts";

/** Bits [fromBit, toBit) of a part that an observer can compute, and how. */
export interface Derivable {
  part: number;
  fromBit: number;
  toBit: number;
  what: string;
}

/** The guesses stop here: a hashed counter past it, or a clock hashed in µs, is not found. */
export const COUNTER_SEARCH = 65_536;
/** How many values of a hash-shaped part are tried for a preimage; all of them must be found. */
const HASH_TRIES = 3;
/** A field whose values lie within this many steps per value sampled is guessable in that many tries. */
const STEPS_PER_VALUE = 32;
const TWO_DAYS_S = 2 * 86_400;
const UNITS: Array<[bigint, string]> = [
  [1n, "s"],
  [1000n, "ms"],
  [1_000_000n, "µs"],
];
const HASHES: Record<number, string> = { 16: "md5", 20: "sha1", 32: "sha256" };
const HASH_NAMES: Record<string, string> = { md5: "MD5", sha1: "SHA-1", sha256: "SHA-256" };

/** Everything derivable the guesser found in the parts; `dates` are the replies' Dates in ms (undefined: none). */
export function guessParts(parts: readonly Part[], dates: ReadonlyArray<number | undefined>): Derivable[] {
  const found: Derivable[] = [];
  parts.forEach((part, index) => {
    if (part.encoding === "constant") return;
    if (part.numbers) {
      const what = numericPattern(part.numbers, dates) ?? hexDigitsPattern(part, dates);
      if (what) found.push({ part: index, fromBit: 0, toBit: part.bits[0].length, what });
    }
    found.push(...decimalEnds(part, index, dates));
    const bytes = part.bytes;
    if (!bytes) return;
    const hashed = HASHES[bytes[0].length] === undefined ? undefined : hashPreimage(bytes, dates);
    if (hashed) found.push({ part: index, fromBit: 0, toBit: part.bits[0].length, what: hashed });
    for (const width of [4, 8]) {
      for (let at = 0; at + width <= bytes[0].length; at++) {
        const what = windowPattern(bytes, at, width, dates);
        if (what) found.push({ part: index, fromBit: 8 * at, toBit: 8 * (at + width), what });
      }
    }
  });
  return found;
}

/** Bits a character stands for, in the parts whose bits are read a character at a time. */
const CHARACTER_BITS: Partial<Record<Part["encoding"], number>> = { hex: 4, base64: 6, base64url: 6, text: 8 };

/**
 * A counter or a clock written in decimal at the start or the end of a part of other digits,
 * with no separator (`${Date.now()}${hmac}`): the digits every value has there, as one number.
 */
function decimalEnds(part: Part, index: number, dates: ReadonlyArray<number | undefined>): Derivable[] {
  const width = CHARACTER_BITS[part.encoding];
  const length = part.texts[0].length;
  if (width === undefined || part.texts.some((t) => t.length !== length)) return [];
  const found: Derivable[] = [];
  for (const [where, pattern] of [
    ["first", /^[0-9]+/],
    ["last", /[0-9]+$/],
  ] as const) {
    const digits = Math.min(...part.texts.map((t) => pattern.exec(t)?.[0].length ?? 0));
    if (digits === 0 || digits === length) continue;
    const from = where === "first" ? 0 : length - digits;
    const what = movingPattern(
      part.texts.map((t) => BigInt(t.slice(from, from + digits))),
      dates,
    );
    if (what)
      found.push({
        part: index,
        fromBit: from * width,
        toBit: (from + digits) * width,
        what: `its ${where} ${digits} digits: ${what}`,
      });
  }
  return found;
}

/** A clock near the replies' Dates, or a counter, in these numbers; undefined where neither. */
export function numericPattern(
  values: readonly bigint[],
  dates: ReadonlyArray<number | undefined>,
): string | undefined {
  return clockOf(values, dates) ?? counterOf(values);
}

/**
 * Decimal digits may be hex that happened to use none of a-f (a hex counter from 0 by 4360:
 * 0, 1108, 2210, 3318): read as hex too, where the decimal reading shows nothing.
 */
function hexDigitsPattern(part: Part, dates: ReadonlyArray<number | undefined>): string | undefined {
  if (part.encoding !== "decimal" || part.texts.some((t) => t.length > 32)) return undefined;
  const what = numericPattern(
    part.texts.map((t) => BigInt(`0x${t}`)),
    dates,
  );
  return what && `${what}, its digits read as hex`;
}

function clockOf(values: readonly bigint[], dates: ReadonlyArray<number | undefined>): string | undefined {
  if (dates.some((d) => d === undefined) || values.some((v) => v > BigInt(Number.MAX_SAFE_INTEGER))) return undefined;
  for (const [unit, name] of UNITS) {
    const offsets = values.map((v, i) => Number(v) / Number(unit) - (dates[i] as number) / 1000).sort((a, b) => a - b);
    const low = offsets[0];
    const high = offsets[offsets.length - 1];
    const median = offsets[Math.floor(offsets.length / 2)];
    // The Date header counts whole seconds, so a clock read with it lands 0 to 1 s after it, give or take a second.
    if (high - low <= 2.5 && Math.abs(median) <= TWO_DAYS_S) {
      const shift = Math.round(median);
      const where = Math.abs(shift) <= 2 ? "at the reply's Date" : `${shift} s from the reply's Date`;
      return `a clock in ${name}, ${where}`;
    }
  }
  return undefined;
}

function counterOf(values: readonly bigint[]): string | undefined {
  const distinct = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (distinct.length < 3) return undefined;
  let step = 0n;
  for (let i = 1; i < distinct.length; i++) step = gcd(step, distinct[i] - distinct[i - 1]);
  const span = (distinct[distinct.length - 1] - distinct[0]) / step;
  if (span > BigInt(STEPS_PER_VALUE * values.length)) return undefined;
  return span < BigInt(4 * distinct.length)
    ? `a counter (step ${step})`
    : `values within ${span} steps of ${step}, guessable in as many tries`;
}

/**
 * A clock, or a counter that rises with the sample, in numbers read from inside a part. Those
 * must rise: random bits beside constant ones (a random byte, hex digits whose top bit never
 * changes) span a few hundred steps too, and are no one's to derive.
 */
function movingPattern(values: readonly bigint[], dates: ReadonlyArray<number | undefined>): string | undefined {
  return clockOf(values, dates) ?? (rises(values) ? counterOf(values) : undefined);
}

/** One-sided p-value below which values rise with the sample (Kendall's tau). */
const RISING_P = 1e-3;

/** Whether the values rise with their order in the sample more than chance allows (Kendall's tau, z above 3.09). */
function rises(values: readonly bigint[]): boolean {
  const n = values.length;
  let score = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) score += values[j] > values[i] ? 1 : values[j] < values[i] ? -1 : 0;
  const sd = Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18);
  return n > 2 && normalP(score / sd) / 2 < RISING_P && score > 0;
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** A counter or a clock in `width` bytes from `at`, read in either byte order (big-endian first). */
function windowPattern(
  bytes: readonly Uint8Array[],
  at: number,
  width: number,
  dates: ReadonlyArray<number | undefined>,
): string | undefined {
  for (const littleEndian of [false, true]) {
    const values = bytes.map((b) => readNumber(b, at, width, littleEndian));
    if (values.every((v) => v === values[0])) return undefined;
    const what = movingPattern(values, dates);
    if (what) return `bytes ${at}–${at + width - 1}${littleEndian ? ", little-endian" : ""}: ${what}`;
  }
  return undefined;
}

function readNumber(bytes: Uint8Array, at: number, width: number, littleEndian: boolean): bigint {
  let value = 0n;
  for (let i = 0; i < width; i++) value = (value << 8n) | BigInt(bytes[littleEndian ? at + width - 1 - i : at + i]);
  return value;
}

/**
 * Whether the first values are each the hash of a counter (its decimal text, up to COUNTER_SEARCH)
 * or of the reply's clock (s or ms as decimal text, or the Date header itself): the digest's
 * length names the hash. A value is found or not; all the tried ones must be.
 */
function hashPreimage(bytes: readonly Uint8Array[], dates: ReadonlyArray<number | undefined>): string | undefined {
  const algorithm = HASHES[bytes[0].length];
  const tried = bytes.slice(0, HASH_TRIES).map((b) => Buffer.from(b).toString("hex"));
  const digest = (text: string) => hash(algorithm, text, "hex");
  const name = HASH_NAMES[algorithm];

  const counters = new Map<string, number>();
  const wanted = new Set(tried);
  for (let c = 0; c < COUNTER_SEARCH && counters.size < wanted.size; c++) {
    const d = digest(String(c));
    if (wanted.has(d)) counters.set(d, c);
  }
  if (tried.every((t) => counters.has(t))) return `${name} of a counter, as decimal text`;

  const clocked = tried.map((t, i) => {
    const date = dates[i];
    if (date === undefined) return undefined;
    const seconds = Math.floor(date / 1000);
    if (digest(formatHttpDate(new Date(date))) === t) return "the Date header";
    for (let s = seconds - 2; s <= seconds + 2; s++) if (digest(String(s)) === t) return "the clock in s";
    for (let ms = (seconds - 2) * 1000; ms < (seconds + 3) * 1000; ms++)
      if (digest(String(ms)) === t) return "the clock in ms";
    return undefined;
  });
  if (clocked.every((c) => c !== undefined)) return `${name} of ${clocked[0]}`;
  return undefined;
}
