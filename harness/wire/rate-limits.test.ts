import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isRefusal, RateLimits, type RateParameters, readRefusals, retryAfterMs } from "./rate-limits.ts";

const parameters = (rate?: number, workers = false): RateParameters => ({
  stateDir: mkdtempSync(join(tmpdir(), "sxd-rate-")),
  workers,
  rate,
});

const refusal = (status: number, retryAfter?: string) => {
  const headers: Record<string, string[]> = retryAfter === undefined ? {} : { "retry-after": [retryAfter] };
  return { status, headers };
};

test("429 is a refusal; 503 only with Retry-After, else it is the server's answer", () => {
  assert.equal(isRefusal(refusal(429)), true);
  assert.equal(isRefusal(refusal(503, "2")), true);
  assert.equal(isRefusal(refusal(503)), false);
  assert.equal(isRefusal(refusal(401)), false);
  // Where the spec wants a 5xx (an export while the contacts server is down), any 503 answers.
  assert.equal(isRefusal(refusal(503, "2"), true), false);
  assert.equal(isRefusal(refusal(429), true), true);
});

test("Retry-After in seconds or as an HTTP date", () => {
  const now = Date.parse("Sun, 22 Nov 2026 10:00:00 GMT");
  assert.equal(retryAfterMs("3", now), 3000);
  assert.equal(retryAfterMs("Sun, 22 Nov 2026 10:00:05 GMT", now), 5000);
  assert.equal(retryAfterMs("Sun, 22 Nov 2026 09:00:00 GMT", now), 0, "a date in the past: at once");
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs(undefined, now), undefined);
});

test("without Retry-After the wait is one interval of the slowed pace, doubling up to 8 s; the run logs them", () => {
  // Paced at 10 a second, the first refusal cuts the pace to 7: one interval is 143 ms.
  const shared = parameters(10);
  const limits = new RateLimits(shared);
  const waits = [0, 1, 2, 3, 4, 5, 6].map((attempt) =>
    limits.waitBeforeRetry(refusal(429), { turn: { asked: 0, sentAt: 0 }, waitedMs: 0, attempt }),
  );
  assert.deepEqual(waits, [143, 286, 572, 1143, 2286, 4572, 8000], "the requests sent before the cut cut nothing");
  const other = new RateLimits(shared).waitBeforeRetry(refusal(503, "2"), {
    turn: { asked: 0, sentAt: 0 },
    waitedMs: 0,
    attempt: 0,
  });
  assert.equal(other, 2000, "another scenario, same log");
  const run = readRefusals(shared);
  assert.equal(run.refused, 8);
  // The waits began together: the run waited as long as the longest, not their sum.
  assert.ok(run.waitedMs >= 8000 && run.waitedMs < 18_000, `${run.waitedMs} ms`);
  assert.equal(Math.floor(run.settledRate as number), 8, "midway between 10 and 7");
});

const first = { turn: { asked: 0, sentAt: 0 }, waitedMs: 0, attempt: 0 };

test("past the request's budget, or asked to wait too long, the client gives up with the reason", () => {
  const limits = new RateLimits(parameters());
  const spent = limits.waitBeforeRetry(refusal(429), { turn: { asked: 0, sentAt: 0 }, waitedMs: 23_500, attempt: 5 });
  assert.deepEqual(spent, { reason: "the target kept answering 429 for 24 s (rate-limited; see --rate)" });
  const tooLong = limits.waitBeforeRetry(refusal(503, "3600"), first);
  assert.equal(typeof tooLong, "object");
  assert.match((tooLong as { reason: string }).reason, /answering 503 for 0 s and asked to wait 3600 s more/);
});

test("the run's bound is on the wall clock: waits of two workers at once count once", () => {
  const shared = { ...parameters(), refusalWaitSeconds: 2 };
  const [one, two] = [new RateLimits(shared), new RateLimits(shared)];
  assert.equal(one.waitBeforeRetry(refusal(429, "2"), first), 2000);
  assert.equal(two.waitBeforeRetry(refusal(429, "1"), first), 1000, "3 s summed, 2 s on the clock");
  assert.deepEqual(two.waitBeforeRetry(refusal(429, "3"), first), {
    reason:
      "the target kept answering 429 for 0 s, after 2 s of waits in this run (see --refusal-wait) (rate-limited; see --rate)",
  });
});

for (const workers of [false, true]) {
  test(`--rate spaces the requests of all workers by one schedule; a slot asked for late is not moved earlier (${workers ? "in files" : "in memory"})`, () => {
    // 20 per second: one slot every 50 ms, whichever worker takes it.
    const shared = parameters(20, workers);
    const [one, two] = [new RateLimits(shared), new RateLimits(shared)];
    assert.deepEqual(
      [one, two, one, two].map((worker) => worker.reserveSlot(1000)),
      [1000, 1050, 1100, 1150],
    );
    assert.equal(two.reserveSlot(2000), 2000, "idle since: at once");
    assert.equal(one.reserveSlot(2010), 2050, "yet no sooner than 50 ms after the slot before");
    assert.equal(new RateLimits(parameters()).reserveSlot(1000), 1000, "without --rate nothing waits before a refusal");
  });
}
