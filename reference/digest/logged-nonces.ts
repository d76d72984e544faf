/**
 * The nonces of a fault mode, as a server keeps them that logs every nonce it issues in
 * storage: the log only grows (any client that asks without credentials adds to it), and a nonce
 * sent back is looked for page by page, each page a read from storage, each logged nonce compared
 * in constant time as a careful server compares secrets. Its cost grows with the challenges
 * nobody answered: `sxd limits` LIM-4. Every other rule is the store's, behind it.
 */
import { timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { NonceOrigin, NonceStore } from "./nonces.ts";

type Nonces = Pick<NonceStore, "issue" | "origin" | "timestampCurrent" | "use" | "successorDue">;

/** Nonces a page of the log holds, and what reading one from storage takes. */
const PAGE = 50;
const PAGE_READ_MS = 2;

export class ScannedNonceLog implements Nonces {
  private readonly log: Buffer[] = [];

  constructor(private readonly inner: Nonces) {}

  issue(): string {
    const nonce = this.inner.issue();
    this.log.push(Buffer.from(nonce));
    return nonce;
  }

  /** Whether the log holds the nonce, read in full: a page at a time, every nonce in it compared. */
  async logged(nonce: string): Promise<boolean> {
    const sent = Buffer.from(nonce);
    let found = false;
    for (const entry of this.log) if (entry.length === sent.length && timingSafeEqual(entry, sent)) found = true;
    await sleep(Math.ceil(this.log.length / PAGE) * PAGE_READ_MS);
    return found;
  }

  origin(nonce: string): NonceOrigin {
    return this.inner.origin(nonce);
  }

  timestampCurrent(nonce: string): boolean {
    return this.inner.timestampCurrent(nonce);
  }

  use(nonce: string, nc: number) {
    return this.inner.use(nonce, nc);
  }

  successorDue(nonce: string): boolean {
    return this.inner.successorDue(nonce);
  }
}
