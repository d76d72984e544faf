/**
 * Nonces that cost no memory until they are used. A nonce carries when it was issued, a
 * sequence number and an HMAC under a per-process secret, so the server recognises its own
 * nonces without storing them: a flood of 401s stores nothing. Only nonces that took part
 * in a successful authentication enter the log (uses, last nc), which is bounded: entries
 * expire with the nonce lifetime, and when the log is full the oldest entry is dropped and
 * every nonce issued up to it becomes stale, so dropping an entry never re-opens a nonce.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { NoncePolicy } from "../../lib/digest.ts";

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
  sequence: bigint;
  issuedAt: number;
  uses: number;
  lastNc: number;
}

const MAC_BYTES = 16;
const PAYLOAD_BYTES = 24;

export class NonceStore {
  private readonly log = new Map<string, Used>();
  private sequence = 0n;
  /** Nonces with a sequence number up to here count as stale (their log entry was dropped). */
  private floor = -1n;
  private insertsSinceSweep = 0;

  constructor(
    private readonly rules: NonceRules,
    private readonly secret: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {}

  issue(): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeBigUInt64BE(BigInt(this.now()), 0);
    payload.writeBigUInt64BE(this.sequence++, 8);
    randomBytes(8).copy(payload, 16);
    return Buffer.concat([payload, this.mac(payload)]).toString("base64url");
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
    return this.now() - Number(raw.readBigUInt64BE(0)) <= this.rules.lifetimeMs;
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
    this.log.set(nonce, { ...decoded, uses: 1, lastNc: nc });
    this.bound();
    return "accepted";
  }

  /** Entries in the log: what the memory measurement watches. */
  get size(): number {
    return this.log.size;
  }

  private bound(): void {
    if (this.log.size > this.rules.capacity) {
      const [oldest, entry] = this.log.entries().next().value as [string, Used];
      this.log.delete(oldest);
      if (entry.sequence > this.floor) this.floor = entry.sequence;
    }
    if (++this.insertsSinceSweep >= Math.max(1, this.rules.capacity / 10)) {
      this.insertsSinceSweep = 0;
      const now = this.now();
      for (const [nonce, entry] of this.log) {
        if (now - entry.issuedAt > this.rules.lifetimeMs || entry.sequence <= this.floor) this.log.delete(nonce);
      }
    }
  }

  private decode(nonce: string): { issuedAt: number; sequence: bigint } | undefined {
    const raw = canonicalBytes(nonce);
    if (raw?.length !== PAYLOAD_BYTES + MAC_BYTES) return undefined;
    const payload = raw.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(raw.subarray(PAYLOAD_BYTES), this.mac(payload))) return undefined;
    return { issuedAt: Number(payload.readBigUInt64BE(0)), sequence: payload.readBigUInt64BE(8) };
  }

  private mac(payload: Buffer): Buffer {
    return createHmac("sha256", this.secret).update(payload).digest().subarray(0, MAC_BYTES);
  }
}

/**
 * The bytes of a nonce in this store's encoding, or undefined. Only the canonical spelling
 * counts: base64url ignores the spare low bits of the last character, and a nonce with that
 * character changed is a string this server never issued, though it decodes the same.
 */
function canonicalBytes(nonce: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(nonce)) return undefined;
  const raw = Buffer.from(nonce, "base64url");
  return raw.toString("base64url") === nonce ? raw : undefined;
}
