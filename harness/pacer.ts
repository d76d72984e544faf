/**
 * The pace sxd keeps to behind a rate limit, as TCP keeps to a congested path: unpaced until
 * the first refusal (429), then at the rate its requests of the last second came to, less a
 * third; each later refusal cuts the rate by a third again (once for the requests sent before
 * the cut, in the order they asked, or sent within one interval after it), and every request sent adds a little, so the rate
 * creeps back up to the limit in about a hundred requests, and is cut again just past it.
 * Pure: the caller gives every time; harness/rate-limits.ts feeds it the run's shared log.
 *
 *   const pacer = new Pacer();              // or new Pacer(20): --rate 20, paced from the start
 *   const slot = pacer.send(now);           // when this request may go (>= now)
 *   pacer.refused({ asked: now, sentAt: slot }, later); // it got 429: the rate is cut
 *   pacer.settled();                        // the pace to pass as --rate next time
 */

/** A request's turn: when it asked for its slot, and the slot, when it was sent. */
export interface Turn {
  asked: number;
  sentAt: number;
}

/** A cut keeps this share of the rate (CUBIC's 0.7). */
export const KEEP_ON_CUT = 0.7;
/**
 * Requests per second added per request sent, as a share of the rate before the last cut: the
 * rate is back there after about 100 requests, at any limit. (Growing per second instead, a
 * climb that suits 30 a second ends in a refusal every few requests at 2 a second.)
 */
const GROWTH = 0.003;
/** No slower than one request in ten seconds. */
const MIN_RATE = 0.1;
/** The accepted requests of the last second give the first rate. */
const ESTIMATE_WINDOW_MS = 1000;
/** The cuts the settled pace is taken from. */
const CUTS_KEPT = 4;

export class Pacer {
  /** Requests per second; undefined while unpaced. */
  private rate: number | undefined;
  /** The earliest time the next slot may take, and the last slot taken. */
  private next = Number.NEGATIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  /**
   * A refusal of a request that asked for its slot before the last cut, or was sent before
   * `settling`, came from the pace the cut corrected: its slot was spaced at the old pace (with
   * many scenarios at once, slots are taken seconds ahead), or it went within one interval of
   * the new pace after the cut, while the limit's bucket may still be short.
   */
  private cutAt = Number.NEGATIVE_INFINITY;
  private settling = Number.NEGATIVE_INFINITY;
  private growth = 0;
  /** Slots of the last ESTIMATE_WINDOW_MS. */
  private recent: number[] = [];
  /** The rates just before the last cuts, and the estimate the first refusal made when unpaced. */
  private peaks: number[] = [];
  private estimate: number | undefined;

  /** `ceiling` (--rate): paced at it from the start, and never above it. */
  constructor(private readonly ceiling?: number) {
    this.rate = ceiling;
  }

  /** The slot of a request asked for at `asked`: no sooner, and one interval after the one before. */
  send(asked: number): number {
    let slot = asked;
    if (this.rate !== undefined) {
      slot = Math.max(asked, this.next);
      this.next = slot + 1000 / this.rate;
      this.rate = Math.min(this.ceiling ?? Number.POSITIVE_INFINITY, this.rate + this.growth);
    }
    this.last = slot;
    this.recent.push(slot);
    while ((this.recent[0] as number) < slot - ESTIMATE_WINDOW_MS) this.recent.shift();
    return slot;
  }

  /** A request that asked for its slot at `asked` and was sent at `sentAt` was refused at `at`. */
  refused({ asked, sentAt }: Turn, at: number): void {
    if (this.rate !== undefined && (asked < this.cutAt || sentAt < this.settling)) return;
    const before = this.rate ?? this.accepted(at);
    if (this.rate === undefined) this.estimate = before;
    else this.peaks = [...this.peaks, before].slice(-CUTS_KEPT);
    this.rate = Math.max(MIN_RATE, before * KEEP_ON_CUT);
    this.growth = before * GROWTH;
    this.cutAt = at;
    this.settling = at + 1000 / this.rate;
    // The schedule starts again at the new rate; a slot taken ahead at the old one is given up
    // (harness/rate-limits.ts takes another: cutSince).
    this.next = Math.max(at, Math.min(this.last, at) + 1000 / this.rate);
  }

  /** Whether the pace was cut after `asked`: a slot taken then was spaced at the old pace. */
  cutSince(asked: number): boolean {
    return this.cutAt > asked;
  }

  /** Requests per second now; undefined while unpaced. */
  current(): number | undefined {
    return this.rate;
  }

  /**
   * The pace to pass as --rate next time, undefined before any refusal: midway between the
   * rates of the last cuts and where each cut put it (the first refusal's estimate only alone).
   */
  settled(): number | undefined {
    const peaks = this.peaks.length > 0 ? this.peaks : this.estimate === undefined ? [] : [this.estimate];
    if (peaks.length === 0) return undefined;
    const mean = peaks.reduce((a, b) => a + b, 0) / peaks.length;
    return (mean * (1 + KEEP_ON_CUT)) / 2;
  }

  /**
   * Requests sent in the last second, the first refusal's estimate of the limit. A run that
   * starts with many scenarios at once sends them all in its first moments: counted over the
   * second, not over those moments, they make no estimate of hundreds a second.
   */
  private accepted(at: number): number {
    const inWindow = this.recent.filter((slot) => slot >= at - ESTIMATE_WINDOW_MS).length;
    return Math.max(1, inWindow) / (ESTIMATE_WINDOW_MS / 1000);
  }
}

/** Wall-clock time covered by waits that may overlap (workers waiting at once count once). */
export function wallClockMs(waits: ReadonlyArray<readonly [start: number, end: number]>): number {
  let covered = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [start, end] of [...waits].sort((a, b) => a[0] - b[0])) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return covered;
}
