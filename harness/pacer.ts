/**
 * The pace sxd keeps to behind a rate limit, as TCP CUBIC keeps to a congested path: unpaced
 * until the first refusal (429), then at the busiest second the run has had so far, less a third
 * (every request before that refusal got in; the last second alone may be a trickle after a quiet
 * moment, and a lone refusal then, a lockout say, would leave the run crawling). Each later
 * refusal cuts the rate by a third again (once for the requests sent before the cut, in the order
 * they asked, or sent within one interval after it). Between cuts the rate climbs with the
 * requests the pace held back: fast at first, flat near the rate of the last cut (about a hundred
 * requests after it, where a real limit refuses again), then faster and faster past it, so a
 * refusal that was no limit costs a few hundred requests, at any rate.
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
 * Requests held back by the pace after a cut until the rate is back where the cut was, at any
 * rate. (Climbing per second instead, a climb that suits 30 a second ends in a refusal every few
 * requests at 2 a second.)
 */
const CLIMB_REQUESTS = 100;
/** No slower than one request in ten seconds. */
const MIN_RATE = 0.1;
/** The requests of the busiest such window give the first rate. */
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
  /** The rate just before the last cut, and the requests the pace held back since. */
  private peak: number | undefined;
  private climbed = 0;
  /** Slots of the last ESTIMATE_WINDOW_MS, and the most there have been. */
  private recent: number[] = [];
  private busiest = 0;
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
      // A request that went when it asked was not held back: the rate is no limit on a run
      // this slow, and climbing on it would only make the next cut miss.
      if (slot > asked && this.peak !== undefined) this.rate = this.climb(this.peak, ++this.climbed);
    }
    this.last = slot;
    this.recent.push(slot);
    while ((this.recent[0] as number) < slot - ESTIMATE_WINDOW_MS) this.recent.shift();
    this.busiest = Math.max(this.busiest, this.recent.length);
    return slot;
  }

  /** A request that asked for its slot at `asked` and was sent at `sentAt` was refused at `at`. */
  refused({ asked, sentAt }: Turn, at: number): void {
    if (this.rate !== undefined && (asked < this.cutAt || sentAt < this.settling)) return;
    const before = this.rate ?? this.busiestRate();
    if (this.rate === undefined) this.estimate = before;
    else this.peaks = [...this.peaks, before].slice(-CUTS_KEPT);
    this.peak = before;
    this.climbed = 0;
    this.rate = this.climb(before, 0);
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
   * The busiest second of the run so far, the first refusal's estimate of the limit: every
   * request before it got in. A run that starts with many scenarios at once sends them all in its
   * first moments: counted over a second, not over those moments, they make no estimate of
   * hundreds a second.
   */
  private busiestRate(): number {
    return Math.max(1, this.busiest) / (ESTIMATE_WINDOW_MS / 1000);
  }

  /**
   * CUBIC's curve, in requests held back rather than in time: `climbed` requests after a cut
   * from `peak`, the rate is back at the peak when `climbed` is CLIMB_REQUESTS, flat around it,
   * then rising as the cube of the requests past it (1.3 times the peak after twice as many, 9
   * times after four times as many).
   */
  private climb(peak: number, climbed: number): number {
    const past = (climbed - CLIMB_REQUESTS) / CLIMB_REQUESTS;
    const rate = peak * (1 + (1 - KEEP_ON_CUT) * past ** 3);
    return Math.min(this.ceiling ?? Number.POSITIVE_INFINITY, Math.max(MIN_RATE, rate));
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
