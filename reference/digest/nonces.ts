/**
 * Nonces that cost no memory until they are used. A nonce carries when it was issued, a
 * sequence number and an HMAC under a per-process secret, so the server recognises its own
 * nonces without storing them: a flood of 401s stores nothing. Only nonces that took part
 * in a successful authentication enter the log (uses, last nc), which is bounded: a fixed
 * number of slots, a nonce's slot given by its sequence number. Entries expire with the nonce
 * lifetime; a nonce whose slot holds an older current entry drops it, and every nonce issued
 * up to the dropped one becomes stale, so dropping an entry never re-opens a nonce; a nonce
 * whose slot holds a newer one is too old to track and is stale. No use scans the log.
 *
 * Cheap per request (a nonce is issued and checked on every authenticated GET): the MAC is
 * SHA-256 over the secret then the payload, hashed in one call from a buffer that holds the
 * secret once; with a payload of fixed length, a length-extension forgery has the wrong length
 * and is refused before the MAC is checked. Random bytes come from a pool refilled every 512
 * nonces, and the nonce just checked is remembered, so checking its origin and then its use
 * verifies it once. A nonce that may serve again is not replaced on every use: nextnonce is
 * sent when it is spent or ageing (successorDue).
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

const MAC_BYTES = 16;
const PAYLOAD_BYTES = 24;
const RANDOM_BYTES = 8;
const RANDOM_POOL_BYTES = 512 * RANDOM_BYTES;
const TWO_TO_32 = 2 ** 32;

interface Decoded {
  issuedAt: number;
  sequence: number;
}

export class NonceStore {
  private sequence = 0;
  /** Nonces with a sequence number up to here count as stale (their log entry was dropped). */
  private floor = -1;
  /**
   * The log: slot `sequence % capacity` holds a used nonce's sequence (-1: none), time of
   * issue, uses and last nc. Typed arrays, allocated once: a use allocates nothing that the
   * garbage collector would have to carry from one generation to the next.
   */
  private readonly slotSequence: Float64Array;
  private readonly slotIssuedAt: Float64Array;
  private readonly slotUses: Float64Array;
  private readonly slotLastNc: Float64Array;
  /** The secret, then room for the payload being MACed. */
  private readonly keyed: Buffer;
  private readonly randomPool = Buffer.alloc(RANDOM_POOL_BYTES);
  private randomAt = RANDOM_POOL_BYTES;
  private lastChecked: { nonce: string; decoded: Decoded | undefined } | undefined;

  constructor(
    private readonly rules: NonceRules,
    secret: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {
    this.keyed = Buffer.concat([secret, Buffer.alloc(PAYLOAD_BYTES)]);
    this.slotSequence = new Float64Array(rules.capacity).fill(-1);
    this.slotIssuedAt = new Float64Array(rules.capacity);
    this.slotUses = new Float64Array(rules.capacity);
    this.slotLastNc = new Float64Array(rules.capacity);
  }

  issue(): string {
    const raw = Buffer.alloc(PAYLOAD_BYTES + MAC_BYTES);
    const payload = raw.subarray(0, PAYLOAD_BYTES);
    writeUint64(payload, 0, this.now());
    writeUint64(payload, 8, this.sequence++);
    if (this.randomAt >= RANDOM_POOL_BYTES) {
      randomFillSync(this.randomPool);
      this.randomAt = 0;
    }
    this.randomPool.copy(payload, 16, this.randomAt, this.randomAt + RANDOM_BYTES);
    this.randomAt += RANDOM_BYTES;
    this.mac(payload).copy(raw, PAYLOAD_BYTES);
    return raw.toString("base64url");
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
    if (!decoded || !this.current(decoded.sequence, decoded.issuedAt)) return "stale";
    const slot = decoded.sequence % this.rules.capacity;
    const held = this.slotSequence[slot];
    if (held === decoded.sequence) {
      if (nc <= this.slotLastNc[slot] || this.slotUses[slot] >= this.rules.maxUses) return "stale";
      this.slotUses[slot]++;
      this.slotLastNc[slot] = nc;
      return "accepted";
    }
    // The slot holds a nonce issued at least `capacity` nonces later: this one is too old to track.
    if (held > decoded.sequence) return "stale";
    // It holds an older one: that entry is dropped, and if it was still current, every nonce
    // issued up to it becomes stale, so that dropping it never re-opens it.
    if (held >= 0 && this.current(held, this.slotIssuedAt[slot])) this.floor = held;
    this.slotSequence[slot] = decoded.sequence;
    this.slotIssuedAt[slot] = decoded.issuedAt;
    this.slotUses[slot] = 1;
    this.slotLastNc[slot] = nc;
    return "accepted";
  }

  /**
   * Whether the client should be handed the next nonce now (nextnonce, RFC 7616 §3.5): this one
   * has no use left, or two thirds of its lifetime are gone. Asked after an accepted use; a
   * nonce that may serve again is left to serve, which spares issuing one per request.
   */
  successorDue(nonce: string): boolean {
    const decoded = this.decode(nonce);
    if (!decoded) return true;
    const slot = decoded.sequence % this.rules.capacity;
    if (this.slotSequence[slot] !== decoded.sequence) return true;
    return this.slotUses[slot] >= this.rules.maxUses || this.now() - decoded.issuedAt > (this.rules.lifetimeMs * 2) / 3;
  }

  /** Current entries in the log: what the memory measurement and the tests watch. */
  get size(): number {
    let count = 0;
    for (let slot = 0; slot < this.rules.capacity; slot++) {
      const held = this.slotSequence[slot];
      if (held >= 0 && this.current(held, this.slotIssuedAt[slot])) count++;
    }
    return count;
  }

  /** Not behind the floor, not past its lifetime. */
  private current(sequence: number, issuedAt: number): boolean {
    return sequence > this.floor && this.now() - issuedAt <= this.rules.lifetimeMs;
  }

  private decode(nonce: string): Decoded | undefined {
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

/** A whole number below 2^53 as eight big-endian bytes, without BigInt. */
function writeUint64(buffer: Buffer, offset: number, value: number): void {
  buffer.writeUInt32BE(Math.floor(value / TWO_TO_32), offset);
  buffer.writeUInt32BE(value % TWO_TO_32, offset + 4);
}

function readUint64(buffer: Buffer, offset: number): number {
  return buffer.readUInt32BE(offset) * TWO_TO_32 + buffer.readUInt32BE(offset + 4);
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
