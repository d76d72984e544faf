import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isRefusal, RateLimits, type RateParameters, readRefusals, retryAfterMs } from "./rate-limits.ts";

const parameters = (rate?: number): RateParameters => ({
  stateDir: mkdtempSync(join(tmpdir(), "sxd-rate-")),
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

test("without Retry-After the wait grows from half a second; each wait is logged for the run", () => {
  const shared = parameters();
  const limits = new RateLimits(shared);
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((attempt) => limits.waitBeforeRetry(refusal(429), 0, attempt)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  assert.equal(new RateLimits(shared).waitBeforeRetry(refusal(503, "2"), 0, 0), 2000, "another worker, same log");
  assert.deepEqual(readRefusals(shared.stateDir), { refused: 7, waitedMs: 25_500 });
});

test("past the request's budget, or asked to wait too long, the client gives up with the reason", () => {
  const limits = new RateLimits(parameters());
  const spent = limits.waitBeforeRetry(refusal(429), 23_500, 5);
  assert.deepEqual(spent, { reason: "the target kept answering 429 for 24 s (rate-limited; see --rate)" });
  const tooLong = limits.waitBeforeRetry(refusal(503, "3600"), 0, 0);
  assert.equal(typeof tooLong, "object");
  assert.match((tooLong as { reason: string }).reason, /answering 503 for 0 s and asked to wait 3600 s more/);
});

test("--rate spaces the requests of all workers by one schedule; a slot asked for late is not moved earlier", () => {
  // 20 per second: one slot every 50 ms, whichever worker takes it.
  const shared = parameters(20);
  const [one, two] = [new RateLimits(shared), new RateLimits(shared)];
  assert.deepEqual(
    [one, two, one, two].map((worker) => worker.reserveSlot(1000)),
    [0, 50, 100, 150],
  );
  assert.equal(two.reserveSlot(2000), 0, "idle since: at once");
  assert.equal(one.reserveSlot(2010), 40, "yet no sooner than 50 ms after the slot before");
  assert.equal(new RateLimits(parameters()).reserveSlot(1000), 0, "without --rate nothing waits");
});
