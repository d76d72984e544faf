/**
 * The entries of a nonce log (nonces.ts), oldest first: per nonce used, its sequence number,
 * time of issue, uses, last nc and text, found by sequence number. Entries come in at the back
 * and leave from the front only, as the store's rules say.
 *
 * Typed arrays, not a Map of objects: with one-time nonces an entry comes and one goes on every
 * login, and a Map of ten thousand entries that churn so rebuilds its table every few thousand
 * logins, while each entry lives long enough to be promoted before it dies, for a full garbage
 * collection to find. Here the entries stand in a ring in the order they came, and an index of
 * open addressing (linear probing, at most half full, emptied by backward shift) maps a sequence
 * number to its place in the ring. Both grow by doubling with the entries, as far as the store
 * lets the log grow; nothing is made per entry but the nonce's text, which the store already has.
 *
 *   const log = new UseLog();
 *   const at = log.add(sequence, issuedAt, nc, nonce);
 *   log.find(sequence) === at;
 */

const INITIAL_SLOTS = 64;
const TWO_TO_32 = 2 ** 32;
/** 2^32 over the golden ratio: a multiplier that spreads consecutive and strided numbers alike. */
const FIBONACCI = 0x9e3779b1;

export class UseLog {
  private sequences = new Float64Array(INITIAL_SLOTS);
  private issuedAts = new Float64Array(INITIAL_SLOTS);
  private useCounts = new Float64Array(INITIAL_SLOTS);
  private lastNcs = new Float64Array(INITIAL_SLOTS);
  private texts: string[] = new Array<string>(INITIAL_SLOTS).fill("");
  /** The ring slot of the oldest entry. */
  private head = 0;
  private count = 0;
  /** Per place, the ring slot + 1 of the entry whose sequence number hashes there or past it; 0 is empty. */
  private index = new Int32Array(INITIAL_SLOTS * 2);
  /** 32 less the index's bits: the hash's top bits pick the place. */
  private shift = 32 - Math.log2(INITIAL_SLOTS * 2);

  get size(): number {
    return this.count;
  }

  /** The ring slot of the entry with this sequence number, or -1. */
  find(sequence: number): number {
    const mask = this.index.length - 1;
    for (let place = this.home(sequence); ; place = (place + 1) & mask) {
      const slot = this.index[place] - 1;
      if (slot < 0) return -1;
      if (this.sequences[slot] === sequence) return slot;
    }
  }

  /** A new entry at the back, one use recorded; its ring slot. The sequence number must not be in the log. */
  add(sequence: number, issuedAt: number, nc: number, text: string): number {
    if (this.count === this.sequences.length) this.grow();
    const slot = (this.head + this.count) & (this.sequences.length - 1);
    this.sequences[slot] = sequence;
    this.issuedAts[slot] = issuedAt;
    this.useCounts[slot] = 1;
    this.lastNcs[slot] = nc;
    this.texts[slot] = text;
    this.count++;
    this.place(slot);
    return slot;
  }

  recordUse(slot: number, nc: number): void {
    this.useCounts[slot]++;
    this.lastNcs[slot] = nc;
  }

  /** The ring slot of the oldest entry, or -1 when the log is empty. */
  oldest(): number {
    return this.count === 0 ? -1 : this.head;
  }

  dropOldest(): void {
    const slot = this.head;
    const mask = this.index.length - 1;
    let hole = this.home(this.sequences[slot]);
    while (this.index[hole] !== slot + 1) hole = (hole + 1) & mask;
    // Backward shift: an entry further on moves into the hole unless the hole lies before its home.
    for (let next = (hole + 1) & mask; this.index[next] !== 0; next = (next + 1) & mask) {
      const home = this.home(this.sequences[this.index[next] - 1]);
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        this.index[hole] = this.index[next];
        hole = next;
      }
    }
    this.index[hole] = 0;
    this.texts[slot] = "";
    this.head = (this.head + 1) & (this.sequences.length - 1);
    this.count--;
  }

  sequenceAt(slot: number): number {
    return this.sequences[slot];
  }

  issuedAt(slot: number): number {
    return this.issuedAts[slot];
  }

  usesAt(slot: number): number {
    return this.useCounts[slot];
  }

  lastNcAt(slot: number): number {
    return this.lastNcs[slot];
  }

  textAt(slot: number): string {
    return this.texts[slot];
  }

  /** Where a sequence number's search starts: the top bits of its Fibonacci hash (both halves of it, up to 2^53). */
  private home(sequence: number): number {
    return Math.imul((sequence >>> 0) ^ ((sequence / TWO_TO_32) >>> 0), FIBONACCI) >>> this.shift;
  }

  private place(slot: number): void {
    const mask = this.index.length - 1;
    let place = this.home(this.sequences[slot]);
    while (this.index[place] !== 0) place = (place + 1) & mask;
    this.index[place] = slot + 1;
  }

  /** Twice the slots, the entries moved to the front of the ring in their order, the index rebuilt. */
  private grow(): void {
    const slots = this.sequences.length * 2;
    const order = Array.from({ length: this.count }, (_, n) => (this.head + n) & (this.sequences.length - 1));
    const moved = (from: Float64Array) => Float64Array.from({ length: slots }, (_, n) => from[order[n]] ?? 0);
    this.sequences = moved(this.sequences);
    this.issuedAts = moved(this.issuedAts);
    this.useCounts = moved(this.useCounts);
    this.lastNcs = moved(this.lastNcs);
    this.texts = Array.from({ length: slots }, (_, n) => this.texts[order[n]] ?? "");
    this.head = 0;
    this.index = new Int32Array(slots * 2);
    this.shift = 32 - Math.log2(slots * 2);
    for (let slot = 0; slot < this.count; slot++) this.place(slot);
  }
}
