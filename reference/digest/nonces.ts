/**
 * Nonces that cost no memory until they are used. A nonce carries when it was issued, a
 * sequence number and an HMAC under a per-process secret, so the server recognises its own
 * nonces without storing them: a flood of 401s stores nothing. Only nonces that took part
 * in a successful authentication enter the log (uses, last nc), which is bounded: entries
 * expire with the nonce lifetime, and when the log is full the oldest entry is dropped and
 * every nonce issued up to it becomes stale, so dropping an entry never re-opens a nonce.
 * Both are done from the front of an insertion-order queue, never by scanning the log.
 *
 * Cheap per request (a nonce is issued and checked on every authenticated GET): the MAC is
 * SHA-256 over the secret then the payload, hashed in one call from a buffer that holds the
 * secret once; with a payload of fixed length, a length-extension forgery has the wrong length
 * and is refused before the MAC is checked. Random bytes come from a pool refilled every 512
 * nonces, and the nonce just checked is remembered, so checking its origin and then its use
 * verifies it once; a nonce in the log is not verified again, nor is one of the last few issued
 * (remembered in a small ring of constant size, so a flood of 401s still stores nothing that
 * grows: the client that got a nonce a moment ago is the one most likely to send it back). A
 * nonce that may serve again is not replaced on every use: nextnonce is sent when it is spent
 * or ageing (successorDue). Sequence and time are plain numbers (exact far beyond 2^32).
 */
import { hash, randomBytes, randomFillSync, timingSafeEqual } from "node:crypto";
import type { NoncePolicy } from "../../lib/digest-math.ts";

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

interface Used {
  sequence: number;
  issuedAt: number;
  uses: number;
  lastNc: number;
}

const MAC_BYTES = 16;
const PAYLOAD_BYTES = 24;
const RANDOM_BYTES = 8;
const RANDOM_POOL_BYTES = 512 * RANDOM_BYTES;
/** How many of the nonces issued last are known without checking their MAC. */
const RECENT_ISSUES = 64;
const TWO_TO_32 = 2 ** 32;

interface Decoded {
  issuedAt: number;
  sequence: number;
}

export class NonceStore {
  private readonly log = new Map<string, Used>();
  private sequence = 0;
  /** Nonces with a sequence number up to here count as stale (their log entry was dropped). */
  private floor = -1;
  /** The log's nonces in the order they entered it; those before queueHead have left it. */
  private readonly queue: string[] = [];
  private queueHead = 0;
  /** The secret, then room for the payload being MACed. */
  private readonly keyed: Buffer;
  private readonly randomPool = Buffer.alloc(RANDOM_POOL_BYTES);
  private randomAt = RANDOM_POOL_BYTES;
  private lastChecked: { nonce: string; decoded: Decoded | undefined } | undefined;
  /** The last RECENT_ISSUES nonces issued; the ring says which to forget next. */
  private readonly recentIssues = new Map<string, Decoded>();
  private readonly recentRing: string[] = new Array(RECENT_ISSUES).fill("");

  constructor(
    private readonly rules: NonceRules,
    secret: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {
    this.keyed = Buffer.concat([secret, Buffer.alloc(PAYLOAD_BYTES)]);
  }

  issue(): string {
    // Every byte is written below.
    const raw = Buffer.allocUnsafe(PAYLOAD_BYTES + MAC_BYTES);
    const payload = raw.subarray(0, PAYLOAD_BYTES);
    const issued: Decoded = { issuedAt: this.now(), sequence: this.sequence++ };
    writeUint64(payload, issued.issuedAt, 0);
    writeUint64(payload, issued.sequence, 8);
    if (this.randomAt >= RANDOM_POOL_BYTES) {
      randomFillSync(this.randomPool);
      this.randomAt = 0;
    }
    this.randomPool.copy(payload, 16, this.randomAt, this.randomAt + RANDOM_BYTES);
    this.randomAt += RANDOM_BYTES;
    this.mac(payload).copy(raw, PAYLOAD_BYTES);
    const nonce = raw.toString("base64url");
    const slot = issued.sequence % RECENT_ISSUES;
    this.recentIssues.delete(this.recentRing[slot]);
    this.recentRing[slot] = nonce;
    this.recentIssues.set(nonce, issued);
    return nonce;
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
    return this.now() - readUint64(raw, 0) <= this.rules.lifetimeMs;
  }

  /** Records a use with nonce count `nc`; call only once the digest has matched. */
  use(nonce: string, nc: number): NonceUse {
    const decoded = this.decode(nonce);
    if (!decoded) return "stale";
    if (decoded.sequence <= this.floor || this.now() - decoded.issuedAt > this.rules.lifetimeMs) return "stale";
    const entry = this.log.get(nonce);
    if (entry) {
      if (nc <= entry.lastNc || entry.uses >= this.rules.maxUses) return "stale";
      entry.uses++;
      entry.lastNc = nc;
      return "accepted";
    }
    // The log keeps the string issue() made where it still has it, not the one read from the
    // request: that may be a slice of the whole Authorization header, kept alive with it.
    const issued = this.recentRing[decoded.sequence % RECENT_ISSUES];
    const key = issued === nonce ? issued : nonce;
    this.log.set(key, { issuedAt: decoded.issuedAt, sequence: decoded.sequence, uses: 1, lastNc: nc });
    this.queue.push(key);
    this.bound();
    return "accepted";
  }

  /**
   * Whether the client should be handed the next nonce now (nextnonce, RFC 7616 §3.5): this one
   * has no use left, or two thirds of its lifetime are gone. Asked after an accepted use; a
   * nonce that may serve again is left to serve, which spares issuing one per request.
   */
  successorDue(nonce: string): boolean {
    const entry = this.log.get(nonce);
    if (!entry) return true;
    return entry.uses >= this.rules.maxUses || this.now() - entry.issuedAt > (this.rules.lifetimeMs * 2) / 3;
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
    while (this.queueHead < this.queue.length) {
      const nonce = this.queue[this.queueHead];
      const entry = this.log.get(nonce);
      const full = this.log.size > this.rules.capacity;
      if (entry && !full && now - entry.issuedAt <= this.rules.lifetimeMs) break;
      if (entry) {
        this.log.delete(nonce);
        if (full && entry.sequence > this.floor) this.floor = entry.sequence;
      }
      this.queueHead++;
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
  }

  private decode(nonce: string): Decoded | undefined {
    // A nonce just issued, or in the log (verified when it entered it), is known.
    const known = this.recentIssues.get(nonce) ?? this.log.get(nonce);
    if (known) return known;
    if (this.lastChecked?.nonce !== nonce) this.lastChecked = { nonce, decoded: this.verify(nonce) };
    return this.lastChecked.decoded;
  }

  private verify(nonce: string): Decoded | undefined {
    const raw = canonicalBytes(nonce);
    if (raw?.length !== PAYLOAD_BYTES + MAC_BYTES) return undefined;
    const payload = raw.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(raw.subarray(PAYLOAD_BYTES), this.mac(payload))) return undefined;
    return { issuedAt: readUint64(payload, 0), sequence: readUint64(payload, 8) };
  }

  private mac(payload: Buffer): Buffer {
    payload.copy(this.keyed, this.keyed.length - PAYLOAD_BYTES);
    return hash("sha256", this.keyed, "buffer").subarray(0, MAC_BYTES);
  }
}

/** Big-endian, as eight bytes; exact up to 2^53, which neither a time nor a count reaches. */
function writeUint64(buffer: Buffer, value: number, at: number): void {
  buffer.writeUInt32BE(Math.floor(value / TWO_TO_32), at);
  buffer.writeUInt32BE(value >>> 0, at + 4);
}

function readUint64(buffer: Buffer, at: number): number {
  return buffer.readUInt32BE(at) * TWO_TO_32 + buffer.readUInt32BE(at + 4);
}

/**
 * The bytes of a nonce in this store's encoding, or undefined. Only the canonical spelling
 * counts: base64url ignores the spare low bits of the last character, and a nonce with that
 * character changed is a string this server never issued, though it decodes the same.
 */
function canonicalBytes(nonce: string): Buffer | undefined {
  // Decoding skips characters outside the alphabet, so a nonce holding any re-encodes differently.
  const raw = Buffer.from(nonce, "base64url");
  return raw.toString("base64url") === nonce ? raw : undefined;
}
