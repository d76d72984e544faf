/**
 * The pace sxd keeps to behind a rate limit, as TCP CUBIC (RFC 9438) keeps to a congested path:
 * unpaced until the first refusal (429), then at the busiest second the run has had so far, less
 * a third (every request before that refusal got in; the last second alone may be a trickle after
 * a quiet moment). Each later refusal cuts the rate by a third again (once for the requests sent
 * before the cut, in the order they asked, or sent within one interval after it).
 *
 * A run of refusals with no request let in between (a lockout refuses everything for a while)
 * is one event, as CUBIC takes the losses of one round trip: a request refused again in it cuts
 * nothing more (its own doubling wait spaces its retries), and the pace does not climb until
 * requests get in again.
 *
 * The busiest second before a refusal that came while unpaced is only how fast the run happened
 * to go (a run's first seconds are slow), no evidence of a limit: from such a cut the pace is in
 * slow start, as TCP before its first loss. Each request it holds back raises it so that it
 * doubles with every second's worth of requests (or follows CUBIC's curve back to that busiest
 * second, where that is steeper), and once the pace is twice what sxd sends in a second, it holds
 * nothing back: sxd goes unpaced again. The first refusal at a pace that let requests in ends slow
 * start: a limit, taken as the rate before the last doubling (a token bucket's burst lets slow
 * start run past the limit for a while).
 *
 * From a limit the rate climbs with the requests the pace held back, on CUBIC's curve towards
 * it: steep where it is far below it (after a lockout's cuts), flat near it (about a hundred
 * requests after a single cut, where a real limit refuses again), then faster and faster past
 * it, so a refusal that was no limit costs a few hundred requests, at any rate.
 * Pure: the caller gives every time; harness/wire/rate-limits.ts feeds it the run's shared log.
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
/**
 * Requests sent at the pace since the last cut, and not refused, that show the pace let requests
 * in: the next refusal starts a run of refusals of its own. (One could be a request whose refusal
 * is still on its way from another worker.)
 */
const LET_IN = 2;
/** Slots since the last cut kept to look for them among: refusals take theirs away. */
const SENT_KEPT = 16;
/** The longest wait of a refused request that names none. */
const LONGEST_BACKOFF_MS = 8000;
/** No slower than one request in ten seconds. */
const MIN_RATE = 0.1;
/** The requests of the busiest such window give the first rate. */
const ESTIMATE_WINDOW_MS = 1000;
/** In slow start, a pace this many times what sxd sends is dropped: sxd goes unpaced again. */
const OUTPACED = 2;
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
  /** The rate the climb is headed for: the last that let requests in (before this run of refusals). */
  private peak: number | undefined;
  /**
   * Whether a refusal of the pace has shown a limit: the peak was the rate of a pace that let
   * requests in and was then refused. Until then (the first refusal came while unpaced) the peak
   * is only how fast the run happened to go, and the pace is in slow start.
   */
  private limitSeen = false;
  /** The rate the last cut left, and the requests the pace held back since. */
  private floor = 0;
  private climbed = 0;
  /** The rate the first cut of this run of refusals left: a refused request's retries are spaced by it. */
  private firstFloor = 0;
  /**
   * The first slots taken after the last cut at its pace (from `settling` on; a paced slot is
   * later than the one before) whose requests were not refused, SENT_KEPT at most, and the round
   * trip of the refusal that made the cut. A slot asked for before the cut is given up by its
   * request (`cutSince`): it was never sent.
   */
  private sentSinceCut: Array<{ asked: number; slot: number }> = [];
  private roundTrip = 0;
  /** Slots of the last ESTIMATE_WINDOW_MS, and the most there have been. */
  private recent: number[] = [];
  private busiest = 0;
  /** The rates just before the last runs of refusals, and the estimate the first refusal made when unpaced. */
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
      // this slow, and climbing on it would only make the next cut miss. Nor does the pace
      // climb before it let requests in: a run of refusals (a lockout) would climb between its cuts.
      if (slot > asked && this.peak !== undefined && this.letIn(slot, this.roundTrip)) {
        const climbed = this.climb(++this.climbed);
        this.rate = this.limitSeen ? climbed : Math.max(climbed, this.slowStart(this.rate));
      }
      if (slot >= this.settling && this.sentSinceCut.length < SENT_KEPT) this.sentSinceCut.push({ asked, slot });
    }
    this.last = slot;
    this.recent.push(slot);
    while ((this.recent[0] as number) < slot - ESTIMATE_WINDOW_MS) this.recent.shift();
    this.busiest = Math.max(this.busiest, this.recent.length);
    if (this.slowStarting() && this.outpaced(slot)) {
      this.rate = undefined;
      this.peak = undefined;
    }
    return slot;
  }

  /**
   * A request that asked for its slot at `asked` and was sent at `sentAt` was refused at `at`;
   * `again`: it had been refused before.
   */
  refused({ asked, sentAt }: Turn, at: number, again = false): void {
    const seen = this.sentSinceCut.findIndex(({ slot }) => slot === sentAt);
    if (seen >= 0) this.sentSinceCut.splice(seen, 1);
    if (this.rate !== undefined && (asked < this.cutAt || sentAt < this.settling)) return;
    if (this.rate === undefined) {
      this.estimate = this.busiestRate();
      this.peak = this.estimate;
      this.floor = this.bounded(this.estimate * KEEP_ON_CUT);
      this.firstFloor = this.floor;
    } else if (this.peak === undefined || this.letIn(sentAt, at - sentAt, true)) {
      // Slow start doubled the rate within the last window: the limit is nearer the rate before
      // (a token bucket's burst let it run past the limit for a while).
      const limit = this.slowStarting() ? Math.max(this.floor, this.rate / 2) : this.rate;
      this.limitSeen = true;
      this.peak = limit;
      this.peaks = [...this.peaks, limit].slice(-CUTS_KEPT);
      this.floor = this.bounded(limit * KEEP_ON_CUT);
      this.firstFloor = this.floor;
    } else if (again) {
      // A request refused again while nothing got in (a lockout): its own doubling wait spaces
      // its retries; the pace was cut when it was first refused.
      return;
    } else {
      // Nothing got in since the last cut: the climb since went nowhere, and the pace before
      // this run of refusals is still the one to climb back to.
      this.floor = this.bounded(this.floor * KEEP_ON_CUT);
    }
    this.climbed = 0;
    this.rate = this.floor;
    this.sentSinceCut = [];
    this.roundTrip = at - sentAt;
    this.cutAt = at;
    this.settling = at + 1000 / this.rate;
    // The schedule starts again at the new rate; a slot taken ahead at the old one is given up
    // (harness/wire/rate-limits.ts takes another: cutSince).
    this.next = Math.max(at, Math.min(this.last, at) + 1000 / this.rate);
  }

  /**
   * Whether requests got in at the pace since the last cut, as seen at `now`: LET_IN of them were
   * sent more than a `roundTrip` before, long enough to be refused, and were not. `sent`: only
   * slots not given up count.
   */
  private letIn(now: number, roundTrip: number, sent = false): boolean {
    const slots = sent ? this.sentSinceCut.filter(({ asked }) => asked >= this.cutAt) : this.sentSinceCut;
    const second = slots[LET_IN - 1];
    return second !== undefined && second.slot < now - roundTrip;
  }

  /** Whether the pace is in slow start: cut by refusals, none of which showed a limit yet. */
  private slowStarting(): boolean {
    return this.peak !== undefined && !this.limitSeen;
  }

  /**
   * Slow start, as TCP's before its first loss: each request the pace held back raises the rate
   * by 2^(1/rate), so that it doubles with every second's worth of requests, from wherever the
   * cuts left it. (Growing 16-fold a second, a pace a lockout's cuts left at a few a second came
   * back sooner, but behind a token bucket of 2 a second half the requests were refused.)
   */
  private slowStart(rate: number): number {
    return this.bounded(rate * 2 ** (ESTIMATE_WINDOW_MS / 1000 / rate));
  }

  /**
   * Whether, in slow start, the pace has left sxd well behind: a window after the cut, with
   * requests let in, the run took fewer than 1/OUTPACED of the pace's slots in the last window.
   * The pace then holds nothing back, and sxd sends unpaced again.
   */
  private outpaced(slot: number): boolean {
    const rate = this.rate as number;
    return (
      slot - this.cutAt >= ESTIMATE_WINDOW_MS &&
      this.letIn(slot, this.roundTrip) &&
      rate * (ESTIMATE_WINDOW_MS / 1000) >= OUTPACED * this.recent.length
    );
  }

  /** Whether the pace was cut after `asked`: a slot taken then was spaced at the old pace. */
  cutSince(asked: number): boolean {
    return this.cutAt > asked;
  }

  /**
   * How long a request refused `attempt` times before waits, where the refusal named no wait:
   * one interval of the pace the first cut of this run of refusals left, doubling with each
   * attempt up to LONGEST_BACKOFF_MS. (Of the pace now, the later cuts of a run of refusals would
   * lengthen the request's doubling waits too, and a lockout's retries come later and later
   * after it ended.)
   */
  retryWaitMs(attempt: number): number {
    const interval = 1000 / (this.firstFloor || (this.rate ?? 1));
    return Math.min(LONGEST_BACKOFF_MS, Math.ceil(interval * 2 ** attempt));
  }

  /** Requests per second now; undefined while unpaced. */
  current(): number | undefined {
    return this.rate;
  }

  /**
   * The pace to pass as --rate next time, undefined before any refusal: midway between the
   * rates before the last runs of refusals and where their first cut put it (the first refusal's
   * estimate only alone).
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
   * CUBIC's curve (RFC 9438 §4.2), in requests held back rather than in time: `climbed` requests
   * after a cut that left `floor`, headed for `peak`. From a single cut (a third off the peak) the
   * rate is back at the peak after CLIMB_REQUESTS, flat around it, then rising as the cube of the
   * requests past it (1.3 times the peak after twice as many, 9 times after four times as many).
   * From further below, the curve is the same one from further back: steep at first, as it is
   * far from the peak (from a twentieth of it: a quarter of it after 10 requests, two fifths
   * after 20, the peak after 147).
   */
  private climb(climbed: number): number {
    const peak = this.peak as number;
    const back = CLIMB_REQUESTS * Math.cbrt(Math.max(0, 1 - this.floor / peak) / (1 - KEEP_ON_CUT));
    const past = (climbed - back) / CLIMB_REQUESTS;
    return this.bounded(peak * (1 + (1 - KEEP_ON_CUT) * past ** 3));
  }

  /** No slower than MIN_RATE, no faster than --rate. */
  private bounded(rate: number): number {
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
