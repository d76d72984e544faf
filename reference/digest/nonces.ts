/**
 * Nonces that cost no memory until they are used. A nonce carries when it was issued, a
 * sequence number and an HMAC under a per-process secret, so the server recognises its own
 * nonces without storing them: a flood of 401s stores nothing. Only nonces that took part
 * in a successful authentication enter the log (uses, last nc), which is bounded: entries
 * expire with the nonce lifetime, and when the log is full the oldest entry is dropped and
 * every nonce issued up to it becomes stale, so dropping an entry never re-opens a nonce.
 * Both are done from the front of the log, which keeps its entries in the order they came
 * (use-log.ts), never by scanning it.
 *
 * Cheap per request (a nonce is issued and checked on every authenticated GET): the MAC is
 * SHA-256 over the secret then the payload, hashed in one call from a buffer that holds the
 * secret once, its digest taken as a string (node makes a Buffer for a digest at three times
 * the cost of the hash); with a payload of fixed length, a length-extension forgery has the
 * wrong length and is refused before the MAC is checked. A nonce is checked by spelling the one
 * its payload would have and comparing the two texts, which refuses a forged MAC and any other
 * spelling of the right bytes alike. Random bytes come from a pool refilled every 512
 * nonces, and the nonce just checked is remembered, so checking its origin and then its use
 * verifies it once; a nonce in the log is not verified again, nor is one of the last few issued
 * (remembered in a small ring of constant size, so a flood of 401s still stores nothing that
 * grows: the client that got a nonce a moment ago is the one most likely to send it back). A
 * nonce that may serve again is not replaced on every use: nextnonce is sent when it is spent
 * or ageing (successorDue). Sequence and time are plain numbers (exact far beyond 2^32).
 */
import { hash, randomBytes, randomFillSync } from "node:crypto";
import type { NoncePolicy } from "../../lib/digest-math.ts";
import { sameText } from "../../lib/same-text.ts";
import { UseLog } from "./use-log.ts";

export interface NonceRules {
  /** Successful uses per nonce; Infinity when only the lifetime limits it. */
  maxUses: number;
  lifetimeMs: number;
  /** Most nonces the log holds at once. */
  capacity: number;
}

export const DEFAULT_LIFETIME_MS = 5 * 60 * 1000;
export const DEFAULT_CAPACITY = 10_000;

export function rulesFor(
  policy: NoncePolicy,
  lifetimeMs = DEFAULT_LIFETIME_MS,
  capacity = DEFAULT_CAPACITY,
): NonceRules {
  // The log refuses an nc not above the last one anyway, so "nc-once" limits nothing more.
  const maxUses =
    policy === "one-time" ? 1 : policy === "unlimited" || policy === "nc-once" ? Number.POSITIVE_INFINITY : policy.uses;
  return { maxUses, lifetimeMs, capacity };
}

/** What the server may conclude from a nonce before checking the digest. */
export type NonceOrigin = "issued" | "unknown";
/** And after the digest matched: accept it, or answer stale=true. */
export type NonceUse = "accepted" | "stale";

const MAC_BYTES = 16;
/** Time of issue, sequence number, random bytes: eight each. */
const PAYLOAD_BYTES = 24;
/** Refilled every 512 nonces. */
const RANDOM_POOL_WORDS = 1024;
const SECRET_BYTES = 32;
/** The base64url length of PAYLOAD_BYTES + MAC_BYTES. */
const NONCE_CHARS = Math.ceil(((PAYLOAD_BYTES + MAC_BYTES) * 4) / 3);
/** How many of the nonces issued last are known without checking their MAC. */
const RECENT_ISSUES = 64;
const TWO_TO_32 = 2 ** 32;

interface Decoded {
  issuedAt: number;
  sequence: number;
}

/** One of the nonces issued last, with the text it was given. */
interface Issued extends Decoded {
  nonce: string;
}

export class NonceStore {
  private readonly log = new UseLog();
  private sequence = 0;
  /** Nonces with a sequence number up to here count as stale (their log entry was dropped). */
  private floor = -1;
  /** The secret, then the payload of the nonce being issued or checked: what the MAC is computed over. */
  private readonly keyed: Buffer;
  /** The bytes of the nonce being spelled: the payload, then its MAC. */
  private readonly spelling = Buffer.alloc(PAYLOAD_BYTES + MAC_BYTES);
  /** The payload's bytes in `keyed`, written and read in place. */
  private readonly payload: DataView;
  /** Random bytes for the nonces to come, as two 32-bit words a nonce. */
  private readonly randomPool = new Uint32Array(RANDOM_POOL_WORDS);
  private randomAt = RANDOM_POOL_WORDS;
  private lastDecoded: { nonce: string; decoded: Decoded | undefined } | undefined;
  /** The last RECENT_ISSUES nonces issued, each at its sequence number modulo RECENT_ISSUES. */
  private readonly recentIssues: Issued[] = Array.from({ length: RECENT_ISSUES }, () => ({
    nonce: "",
    issuedAt: 0,
    sequence: -1,
  }));

  constructor(
    private readonly rules: NonceRules,
    secret: Buffer = randomBytes(SECRET_BYTES),
    private readonly now: () => number = Date.now,
  ) {
    this.keyed = Buffer.concat([secret, Buffer.alloc(PAYLOAD_BYTES)]);
    this.payload = new DataView(this.keyed.buffer, this.keyed.byteOffset + secret.length, PAYLOAD_BYTES);
  }

  issue(): string {
    const issued: Issued = { issuedAt: this.now(), sequence: this.sequence++, nonce: "" };
    writeUint64(this.payload, issued.issuedAt, 0);
    writeUint64(this.payload, issued.sequence, 8);
    if (this.randomAt >= this.randomPool.length) {
      randomFillSync(this.randomPool);
      this.randomAt = 0;
    }
    this.payload.setUint32(16, this.randomPool[this.randomAt++]);
    this.payload.setUint32(20, this.randomPool[this.randomAt++]);
    issued.nonce = this.spelled();
    this.recentIssues[issued.sequence % RECENT_ISSUES] = issued;
    return issued.nonce;
  }

  origin(nonce: string): NonceOrigin {
    return this.decode(nonce) ? "issued" : "unknown";
  }

  /**
   * Whether the nonce has this store's shape and a time of issue within the lifetime, its
   * MAC unchecked: what a server that trusts the timestamp alone concludes (a fault's check).
   */
  timestampCurrent(nonce: string): boolean {
    if (!/^[A-Za-z0-9_-]+$/.test(nonce)) return false;
    const raw = Buffer.from(nonce, "base64url");
    if (raw.length !== PAYLOAD_BYTES + MAC_BYTES) return false;
    return this.now() - readUint64(new DataView(raw.buffer, raw.byteOffset, raw.length), 0) <= this.rules.lifetimeMs;
  }

  /** Records a use with nonce count `nc`; call only once the digest has matched. */
  use(nonce: string, nc: number): NonceUse {
    const decoded = this.decode(nonce);
    if (!decoded) return "stale";
    if (decoded.sequence <= this.floor || this.now() - decoded.issuedAt > this.rules.lifetimeMs) return "stale";
    const logged = this.log.find(decoded.sequence);
    if (logged >= 0) {
      if (nc <= this.log.lastNcAt(logged) || this.log.usesAt(logged) >= this.rules.maxUses) return "stale";
      this.log.recordUse(logged, nc);
      return "accepted";
    }
    // The log keeps the string issue() made where it still has it, not the one read from the
    // request: that may be a slice of the whole Authorization header, kept alive with it.
    const issued = this.recentIssues[decoded.sequence % RECENT_ISSUES].nonce;
    this.log.add(decoded.sequence, decoded.issuedAt, nc, issued === nonce ? issued : nonce);
    this.bound();
    return "accepted";
  }

  /**
   * Whether the client should be handed the next nonce now (nextnonce, RFC 7616 §3.5): this one
   * has no use left, or two thirds of its lifetime are gone. Asked after an accepted use; a
   * nonce that may serve again is left to serve, which spares issuing one per request.
   */
  successorDue(nonce: string): boolean {
    const decoded = this.decode(nonce);
    const logged = decoded ? this.log.find(decoded.sequence) : -1;
    if (logged < 0) return true;
    return (
      this.log.usesAt(logged) >= this.rules.maxUses ||
      this.now() - this.log.issuedAt(logged) > (this.rules.lifetimeMs * 2) / 3
    );
  }

  /** Entries in the log: what the memory measurement watches. */
  get size(): number {
    return this.log.size;
  }

  /**
   * Drops entries from the oldest inserted: while the log is over capacity (every nonce issued
   * up to a dropped one becomes stale), and while the oldest has expired. Amortised O(1) per
   * use; an expired entry behind a live one waits its turn, within the capacity.
   */
  private bound(): void {
    const now = this.now();
    for (let oldest = this.log.oldest(); oldest >= 0; oldest = this.log.oldest()) {
      const full = this.log.size > this.rules.capacity;
      if (!full && now - this.log.issuedAt(oldest) <= this.rules.lifetimeMs) break;
      const sequence = this.log.sequenceAt(oldest);
      if (full && sequence > this.floor) this.floor = sequence;
      this.log.dropOldest();
    }
  }

  /** The nonce's time of issue and sequence number where this store issued it; the MAC is checked once per nonce met. */
  private decode(nonce: string): Decoded | undefined {
    if (this.lastDecoded?.nonce !== nonce)
      this.lastDecoded = { nonce, decoded: this.known(nonce) ?? this.verify(nonce) };
    return this.lastDecoded.decoded;
  }

  /**
   * A nonce just issued, or one in the log (verified when it entered it), known by its text at
   * the place its sequence number gives: its payload read, its MAC unchecked, for the lookup only.
   */
  private known(nonce: string): Decoded | undefined {
    if (nonce.length !== NONCE_CHARS) return undefined;
    this.readPayload(nonce);
    const sequence = readUint64(this.payload, 8);
    const issued = this.recentIssues[sequence % RECENT_ISSUES];
    if (issued.nonce === nonce) return issued;
    const logged = this.log.find(sequence);
    return logged >= 0 && this.log.textAt(logged) === nonce
      ? { issuedAt: this.log.issuedAt(logged), sequence }
      : undefined;
  }

  /**
   * Only the spelling issue() gives counts: base64url decoding skips characters outside its
   * alphabet and ignores the spare low bits of the last character, so a nonce with either
   * changed decodes alike, yet it is a string this server never issued.
   */
  private verify(nonce: string): Decoded | undefined {
    if (nonce.length !== NONCE_CHARS) return undefined;
    if (!this.readPayload(nonce) || !sameText(this.spelled(), nonce)) return undefined;
    return { issuedAt: readUint64(this.payload, 0), sequence: readUint64(this.payload, 8) };
  }

  /**
   * Decodes the nonce's payload into `keyed` (its first 32 characters hold the 24 bytes exactly);
   * the MAC is not read, only spelled again. False where there were not the bytes for it.
   */
  private readPayload(nonce: string): boolean {
    return this.keyed.write(nonce, this.keyed.length - PAYLOAD_BYTES, PAYLOAD_BYTES, "base64url") === PAYLOAD_BYTES;
  }

  /** The nonce of the payload in `keyed`: the payload and the first bytes of its MAC, in base64url. */
  private spelled(): string {
    this.keyed.copy(this.spelling, 0, this.keyed.length - PAYLOAD_BYTES);
    // "binary" is latin1: a character per byte, written back byte for byte.
    this.spelling.write(hash("sha256", this.keyed, "binary"), PAYLOAD_BYTES, MAC_BYTES, "latin1");
    return this.spelling.toString("base64url");
  }
}

/** Big-endian, as eight bytes; exact up to 2^53, which neither a time nor a count reaches. */
function writeUint64(view: DataView, value: number, at: number): void {
  view.setUint32(at, Math.floor(value / TWO_TO_32));
  view.setUint32(at + 4, value >>> 0);
}

function readUint64(view: DataView, at: number): number {
  return view.getUint32(at) * TWO_TO_32 + view.getUint32(at + 4);
}
