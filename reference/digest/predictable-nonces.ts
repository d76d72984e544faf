/**
 * The nonces of two fault modes, as servers make them that count their challenges: the
 * store's own nonce stays behind each one (so every other rule still holds: a nonce is known,
 * used up, stale as before), and the client sees the count instead, in decimal, or as the MD5
 * of its decimal text. Anyone who saw one can compute the next (DIG-13). Which nonce stands
 * for which is kept for the last CAPACITY issued, a fault's memory, bounded.
 */
import { hash } from "node:crypto";
import { ScannedNonceLog } from "./logged-nonces.ts";
import type { NonceOrigin, NonceStore, NonceUse } from "./nonces.ts";

export type NonceForm = "mac" | "counter" | "hashed-counter";

/** What the guard asks of the nonces it hands out and checks. */
export type Nonces = Pick<NonceStore, "issue" | "origin" | "timestampCurrent" | "use" | "successorDue"> & {
  /**
   * Where the nonces are kept as a log read from storage (logged-nonces.ts, a fault of LIM-4):
   * whether it holds this one, read before anything else of a login. Absent: nothing to read.
   */
  logged?(nonce: string): Promise<boolean>;
};

const CAPACITY = 10_000;

export class CountedNonces implements Nonces {
  private count = 0;
  private readonly behind = new Map<string, string>();

  constructor(
    private readonly store: NonceStore,
    private readonly form: "counter" | "hashed-counter",
  ) {}

  issue(): string {
    const count = String(this.count++).padStart(16, "0");
    const shown = this.form === "counter" ? count : hash("md5", String(Number(count)), "hex");
    this.behind.set(shown, this.store.issue());
    // A Map iterates in insertion order: the first key is the oldest.
    if (this.behind.size > CAPACITY) this.behind.delete(this.behind.keys().next().value as string);
    return shown;
  }

  origin(nonce: string): NonceOrigin {
    return this.store.origin(this.inner(nonce));
  }

  timestampCurrent(nonce: string): boolean {
    return this.store.timestampCurrent(this.inner(nonce));
  }

  use(nonce: string, nc: number): NonceUse {
    return this.store.use(this.inner(nonce), nc);
  }

  successorDue(nonce: string): boolean {
    return this.store.successorDue(this.inner(nonce));
  }

  /** The store's nonce behind one shown; one never shown goes to the store as it is, which does not know it. */
  private inner(nonce: string): string {
    return this.behind.get(nonce) ?? nonce;
  }
}

export function noncesOf(
  store: NonceStore,
  { nonceForm, scansNonceLog }: { nonceForm: NonceForm; scansNonceLog: boolean },
): Nonces {
  const made = nonceForm === "mac" ? store : new CountedNonces(store, nonceForm);
  return scansNonceLog ? new ScannedNonceLog(made) : made;
}
