import assert from "node:assert/strict";
import { test } from "node:test";
import { KEEP_ON_CUT, Pacer, type Turn, wallClockMs } from "./pacer.ts";

/** The turn of a request sent as soon as it asked. */
const turn = (at: number) => ({ asked: at, sentAt: at });

/** A gateway's token bucket on a fake clock: `perSecond` tokens a second, at most `burst`. */
function tokenBucket(perSecond: number, burst: number): (at: number) => boolean {
  let tokens = burst;
  let last = 0;
  return (at) => {
    tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** How a simulated client waits before it sends a refused request again. */
type Retry = "one interval" | "as sxd does";

interface Drive {
  workers: number;
  /** Whether the target takes a request sent at this time. */
  takes: (at: number) => boolean;
  /** The fake time to stop at, or the requests the run makes (it ends when all got in). */
  until: { seconds: number } | { requests: number };
  /** Time between an answer and the worker's next request (given the answer's time). */
  gapMs?: number | ((at: number) => number);
  /**
   * "one interval": of the pace, told as a first refusal; "as sxd does" (harness/wire/rate-limits.ts):
   * the pacer's doubling wait, told whether the request had been refused before.
   */
  retry?: Retry;
}

/**
 * `workers` clients sending one request after another, `gapMs` (2 ms) apart when answered,
 * through one pacer to a target, on a fake clock: each asks for a slot, sleeps until it and
 * learns the answer then, so with many workers slots are taken ahead. What got through, what was
 * refused, the pace after each answer, when the run ended, and the pacer.
 */
function drive(pacer: Pacer, { workers, takes, until, gapMs = 2, retry = "one interval" }: Drive) {
  type Event = { at: number; turn?: Turn; attempt: number };
  const events: Event[] = Array.from({ length: workers }, () => ({ at: 0, attempt: 0 }));
  const paces: Array<[at: number, pace: number | undefined]> = [];
  let accepted = 0;
  let refused = 0;
  let endedAt = 0;
  for (;;) {
    const event = events.reduce((soonest, e) => (e.at < soonest.at ? e : soonest));
    if ("seconds" in until ? event.at > until.seconds * 1000 : accepted >= until.requests) break;
    endedAt = event.at;
    if (event.turn === undefined) {
      // It asks for its slot, and goes then.
      const sentAt = pacer.send(event.at);
      event.turn = { asked: event.at, sentAt };
      event.at = sentAt;
    } else if (pacer.cutSince(event.turn.asked)) {
      // Its slot was taken at the old pace: it asks again.
      event.turn = undefined;
    } else if (takes(event.at)) {
      accepted++;
      event.turn = undefined;
      event.attempt = 0;
      event.at += typeof gapMs === "number" ? gapMs : gapMs(event.at);
      paces.push([event.at, pacer.current()]);
    } else {
      refused++;
      pacer.refused(event.turn, event.at + 1, retry === "as sxd does" && event.attempt > 0);
      event.turn = undefined;
      event.at += 1 + (retry === "as sxd does" ? pacer.retryWaitMs(event.attempt) : 1000 / (pacer.current() as number));
      event.attempt++;
    }
  }
  return { accepted, refused, paces, seconds: endedAt / 1000, pacer };
}

/**
 * `workers` clients, 2 ms apart, behind a token bucket of `limit` a second (burst 10) for
 * `seconds`; a refused request asks again after one interval of the pace.
 */
function simulate(limit: number, workers: number, seconds: number, pacer = new Pacer()) {
  return drive(pacer, { workers, takes: tokenBucket(limit, 10), until: { seconds } });
}

/** Long enough for the slowest limit to see a dozen cuts. */
const SECONDS = 600;

for (const limit of [2, 10, 30, 100]) {
  test(`behind a ${limit}-a-second token bucket the pace settles near the limit, and few requests are refused`, () => {
    const { accepted, refused, pacer } = simulate(limit, 2, SECONDS);
    const settled = pacer.settled() as number;
    assert.ok(settled > 0.8 * limit && settled < 1.25 * limit, `settled on ${settled.toFixed(1)} a second`);
    assert.ok(accepted / SECONDS > 0.85 * limit, `${(accepted / SECONDS).toFixed(1)} a second got through`);
    assert.ok(refused < 0.05 * (accepted + refused), `${refused} of ${accepted + refused} refused`);
  });
}

test("with 64 scenarios at once (slots taken seconds ahead, given up at a cut) the pace settles near the limit", () => {
  const { accepted, refused, pacer } = simulate(30, 64, SECONDS);
  const settled = pacer.settled() as number;
  assert.ok(settled > 0.8 * 30 && settled < 1.25 * 30, `settled on ${settled.toFixed(1)} a second`);
  assert.ok(accepted / SECONDS > 0.85 * 30, `${(accepted / SECONDS).toFixed(1)} a second got through`);
  assert.ok(refused < 0.1 * (accepted + refused), `${refused} of ${accepted + refused} refused`);
});

test("unpaced until the first refusal; then at the rate of the busiest second so far (here the last)", () => {
  const pacer = new Pacer();
  assert.deepEqual(
    [0, 0, 5, 5].map((at) => pacer.send(at)),
    [0, 0, 5, 5],
    "nothing waits",
  );
  assert.equal(pacer.current(), undefined);
  for (let at = 10; at < 1000; at += 10) pacer.send(at);
  // 103 requests in the first second; the cut keeps 0.7 of that.
  pacer.refused(turn(990), 1000);
  const interval = 1000 / (103 * KEEP_ON_CUT);
  assert.equal(pacer.current(), 103 * KEEP_ON_CUT);
  assert.equal(pacer.send(1000), 990 + interval, "one interval of the new pace after the last slot");
  assert.equal(pacer.send(1000), 990 + 2 * interval);
});

/**
 * A lone refusal at `at` (a server's own lockout after wrong passwords: no gateway), then one
 * worker sending as fast as the pace lets it to a target that takes `capacity` a second: the
 * requests until the target first refuses (the pace has found its capacity), and the fake seconds.
 */
function recoverFromLoneRefusal(pacer: Pacer, at: number, capacity: number) {
  pacer.send(at);
  pacer.refused(turn(at), at + 1);
  const take = tokenBucket(capacity, 10);
  let now = at + 1;
  let requests = 0;
  for (;;) {
    const slot = pacer.send(now);
    requests++;
    if (!take(slot)) return { requests, seconds: (slot - at) / 1000 };
    now = slot + 2;
  }
}

test("a lone refusal after a quiet moment paces from the run's busiest second, and climbs past it fast", () => {
  const pacer = new Pacer();
  // The run's first second: 40 requests, all taken; then 8 s with none.
  for (let at = 0; at < 1000; at += 25) pacer.send(at);
  const { requests, seconds } = recoverFromLoneRefusal(pacer, 9000, 100);
  assert.ok(requests < 400 && seconds < 10, `at 100 a second after ${requests} requests, ${seconds.toFixed(1)} s`);
  // Paced from the last second alone (one request: 0.7 a second) and climbing 0.003 a second
  // per request, it would take some 33,000 requests.
});

test("after a lone refusal in a run that never sent two a second, the pace is at the target's 30 a second within 600 requests", () => {
  const pacer = new Pacer();
  for (let at = 0; at < 8000; at += 1000) pacer.send(at);
  const { requests } = recoverFromLoneRefusal(pacer, 9000, 30);
  assert.ok(requests < 600, `at 30 a second after ${requests} requests`);
});

/** A login lockout on the fake clock: every request refused from 3 s to 5 s, once. */
const LOCKOUT = { from: 3000, to: 5000 };
const lockedOut = (at: number) => at >= LOCKOUT.from && at < LOCKOUT.to;

for (const [workers, gapMs] of [
  [2, 14],
  [8, 60],
  [64, 500],
]) {
  test(`after a 2 s lockout the pace is back near the one before within 1.5 s, and the run takes at most 1.5 times as long plus the lockout (${workers} at once)`, () => {
    // A run of 1,024 requests at about 130 a second, unpaced; the same with the lockout, each
    // refused request waiting as sxd waits (no Retry-After).
    const run = (lockout: boolean) =>
      drive(new Pacer(), {
        workers,
        gapMs,
        takes: (at) => !(lockout && lockedOut(at)),
        until: { requests: 1024 },
        retry: "as sxd does",
      });
    const [free, locked] = [run(false), run(true)];
    assert.ok(locked.refused > 5, `the lockout refused ${locked.refused} requests, or this proves nothing`);
    const before = locked.paces.filter(([at]) => at >= LOCKOUT.from - 1000 && at < LOCKOUT.from).length;
    // Unpaced again (no pace) holds nothing back: it is back too.
    const back = locked.paces.find(([at, pace]) => at >= LOCKOUT.to && (pace === undefined || pace >= 0.8 * before));
    assert.ok(back !== undefined && back[0] - LOCKOUT.to < 1500, `${before} a second before; back at ${back?.[0]} ms`);
    const bound = 1.5 * free.seconds + (LOCKOUT.to - LOCKOUT.from) / 1000;
    assert.ok(
      locked.seconds <= bound,
      `${locked.seconds.toFixed(1)} s with the lockout, ${free.seconds.toFixed(1)} s without`,
    );
    assert.ok(
      (locked.pacer.settled() as number) > 0.6 * before,
      `settled on ${locked.pacer.settled()}, ${before} before`,
    );
  });
}

/**
 * A run that starts slowly, as the suite does (2 workers, 25 requests a second in its first
 * second, then about 140), locked out from 1 s to 3 s, while its busiest second is still slow.
 */
const EARLY_LOCKOUT = { from: 1000, to: 3000 };
const startingSlowly = (at: number) => (at < EARLY_LOCKOUT.from ? 80 : 14);
const lockedOutEarly = (at: number) => at >= EARLY_LOCKOUT.from && at < EARLY_LOCKOUT.to;

test("a lockout in a run's slow first second leaves it unpaced again soon after, and the run takes at most 1.5 times as long plus the lockout", () => {
  const run = (takes: (at: number) => boolean) =>
    drive(new Pacer(), { workers: 2, gapMs: startingSlowly, takes, until: { requests: 1024 }, retry: "as sxd does" });
  const [free, locked] = [run(() => true), run((at) => !lockedOutEarly(at))];
  assert.ok(locked.refused > 5, `the lockout refused ${locked.refused} requests, or this proves nothing`);
  // Paced from its busiest second (25), it never refused at a pace that let requests in: that
  // was no limit. Slow start from the cut, and unpaced once the pace is twice what sxd sends.
  const after = locked.paces.filter(([at]) => at >= EARLY_LOCKOUT.to);
  const unpaced = after.findIndex(([, pace]) => pace === undefined);
  assert.ok(unpaced >= 0 && unpaced < 100, `unpaced again after ${unpaced} requests let in after the lockout`);
  const bound = 1.5 * free.seconds + (EARLY_LOCKOUT.to - EARLY_LOCKOUT.from) / 1000;
  assert.ok(
    locked.seconds <= bound,
    `${locked.seconds.toFixed(1)} s with the lockout, ${free.seconds.toFixed(1)} s without`,
  );
});

// With 64 at once the bucket refuses in the run's first moment, and slots are taken seconds
// ahead: slow start must not run away there either.
for (const workers of [2, 64]) {
  test(`a 30-a-second token bucket met right after that lockout is found, with few refusals (${workers} at once)`, () => {
    const bucket = tokenBucket(30, 10);
    const seconds = 300;
    const run = drive(new Pacer(), {
      workers,
      gapMs: workers === 2 ? startingSlowly : 500,
      takes: (at) => !lockedOutEarly(at) && bucket(at),
      until: { seconds },
      retry: "as sxd does",
    });
    const settled = run.pacer.settled() as number;
    assert.ok(settled > 0.8 * 30 && settled < 1.25 * 30, `settled on ${settled.toFixed(1)} a second`);
    assert.ok(run.accepted / seconds > 0.85 * 30, `${(run.accepted / seconds).toFixed(1)} a second got through`);
    const share = run.refused / (run.accepted + run.refused);
    assert.ok(share < (workers === 2 ? 0.02 : 0.1), `${run.refused} of ${run.accepted + run.refused} refused`);
  });
}

test("behind a 30-a-second token bucket, a lockout leaves the pace settling under the limit, with few refusals", () => {
  const bucket = tokenBucket(30, 10);
  const late = 150_000;
  const run = drive(new Pacer(), {
    workers: 2,
    takes: (at) => !(at >= 120_000 && at < 122_000) && bucket(at),
    until: { seconds: 300 },
    retry: "as sxd does",
  });
  const settled = run.pacer.settled() as number;
  assert.ok(settled > 0.8 * 30 && settled <= 30, `settled on ${settled.toFixed(1)} a second`);
  assert.ok(run.accepted / 300 > 0.85 * 30, `${(run.accepted / 300).toFixed(1)} a second got through`);
  // From 28 s after the lockout on: the pace probes a little past the limit, no more.
  const paces = run.paces.filter(([at]) => at >= late).map(([, pace]) => pace as number);
  const mean = paces.reduce((sum, pace) => sum + pace, 0) / paces.length;
  assert.ok(mean < 1.1 * 30, `at ${mean.toFixed(1)} a second on average`);
  assert.ok(
    run.refused < 0.02 * (run.accepted + run.refused),
    `${run.refused} of ${run.accepted + run.refused} refused`,
  );
});

test("requests sent before a cut, or within one interval after it, are refused without cutting again", () => {
  const pacer = new Pacer(40);
  for (let at = 0; at < 500; at += 25) pacer.send(at);
  pacer.refused(turn(450), 500);
  const afterCut = pacer.current() as number;
  assert.equal(afterCut, 28);
  pacer.refused(turn(475), 510);
  assert.equal(pacer.current(), afterCut, "sent at 475, before the cut at 500");
  pacer.refused(turn(520), 530);
  assert.equal(pacer.current(), afterCut, "sent at 520, before the bucket had one interval (36 ms) to refill");
  pacer.refused(turn(540), 541);
  assert.ok((pacer.current() as number) < afterCut, "sent at 540, after it");
});

test("--rate is where the pacer starts and a ceiling it never creeps past", () => {
  const pacer = new Pacer(20);
  assert.deepEqual(
    [1000, 1000, 1000].map((at) => pacer.send(at)),
    [1000, 1050, 1100],
  );
  pacer.refused(turn(1100), 1101);
  assert.equal(pacer.current(), 14);
  for (let i = 0; i < 10_000; i++) pacer.send(0);
  assert.equal(pacer.current(), 20);
});

test("a target that refuses everything drives the pace down to one request in ten seconds", () => {
  const pacer = new Pacer();
  let at = 0;
  for (let i = 0; i < 200; i++) {
    const slot = pacer.send(at);
    pacer.refused({ asked: at, sentAt: slot }, slot + 1);
    at = slot + 1;
  }
  assert.equal((pacer.current() as number).toFixed(2), "0.10");
  assert.equal(new Pacer().settled(), undefined, "no refusal, no pace to suggest");
});

test("waits of workers that overlap count once, as the wall clock ran", () => {
  assert.equal(wallClockMs([]), 0);
  assert.equal(
    wallClockMs([
      [0, 1000],
      [500, 1500],
      [2000, 2500],
      [2100, 2200],
    ]),
    2000,
  );
});
