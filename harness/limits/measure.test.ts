import assert from "node:assert/strict";
import { test } from "node:test";
import { type LimitCase, LimitFinding, LimitReached, UnexpectedAnswer } from "./case.ts";
import { measureLimits } from "./measure.ts";

/** A case of costs given by size; `fails` throws at a size; every cleanup counted. */
function fakeCase(
  cost: (size: number) => number,
  fails?: (size: number) => Error | undefined,
): LimitCase & {
  cleaned: number;
} {
  const made = {
    id: "LIM-9",
    size: { name: "N", unit: "things" },
    defaultSizes: [10, 100, 1000],
    series: [{ name: "op", unit: "ms" }],
    interleaved: true,
    cleaned: 0,
    notRun: () => undefined,
    requests: (size: number) => size,
    prepare: async (size: number) => {
      clock.spend(size);
      const error = fails?.(size);
      if (error) throw error;
    },
    measure: async (size: number, repeat: number) => ({ op: cost(size) * (1 + (repeat % 3) / 100) }),
    cleanup: async () => {
      made.cleaned++;
    },
  };
  return made;
}

/** The clock every reading of which moves on a millisecond, and `spend` more. */
const clock = { ms: 0, spend: (ms: number) => (clock.ms += ms) };

const plan = (deadlineMs = 60_000) => {
  clock.ms = 0;
  return {
    measures: () => "a fake",
    sizesOf: (c: LimitCase) => [...c.defaultSizes],
    repeats: 5,
    deadlineAt: deadlineMs,
    plainGetFails: async () => undefined,
    progress: () => undefined,
    now: () => clock.ms++,
  };
};

test("a cost proportional to the size is linear, a constant one flat; the case is cleaned up", async () => {
  const linear = fakeCase((n) => 1 + n / 10);
  const flat = fakeCase(() => 1);
  const [a, b] = await measureLimits([linear, { ...flat, id: "LIM-8" }], plan());
  assert.equal(a.growth, "linear");
  assert.equal(b.growth, "flat");
  assert.equal(linear.cleaned, 1);
});

test("a stated limit ends the series there and is no finding; a finding is kept with its exchange", async () => {
  const limited = fakeCase(
    () => 1,
    (n) => (n === 1000 ? new LimitReached("PUT: 413") : undefined),
  );
  const [result] = await measureLimits([limited], plan());
  assert.deepEqual(result.limit, { size: 1000, said: "PUT: 413" });
  assert.equal(result.finding, undefined);
  assert.deepEqual(
    result.series[0].points.map((p) => p.size),
    [10, 100],
  );
  const crashing = fakeCase(
    () => 1,
    (n) => (n === 100 ? new LimitFinding("GET s1 answered 500", undefined) : undefined),
  );
  const [found] = await measureLimits([crashing], plan());
  assert.equal(found.finding?.message, "GET s1 answered 500");
  assert.equal(crashing.cleaned, 1, "cleaned up after the finding");
});

test("a size that would pass the deadline is lowered to what fits, measured there, and named", async () => {
  // A request takes about 1 ms: 10 and 100 things fit in 400 ms, 1000 would not; a few hundred do.
  const [result] = await measureLimits([fakeCase(() => 1)], plan(400));
  const sizes = result.series[0].points.map((p) => p.size);
  assert.deepEqual(sizes.slice(0, 2), [10, 100]);
  const lowered = sizes[2];
  assert.ok(lowered >= 150 && lowered < 1000, `measured at ${sizes}`);
  assert.deepEqual(result.lowered.length, 1);
  assert.match(result.lowered[0].reason, new RegExp(`^lowered to ${lowered}, about \\d+ s: past the deadline$`));
  assert.equal(result.lowered[0].size, 1000);
});

test("a size that cannot fit even half again above the one before is not measured, and named", async () => {
  // Past 10 things, each takes a thousand requests: 15 (the least step above 10) would not fit.
  const steep = fakeCase(() => 1);
  steep.requests = (size) => (size <= 10 ? size : size * 1000);
  const [result] = await measureLimits([steep], plan(400));
  assert.deepEqual(
    result.series[0].points.map((p) => p.size),
    [10],
  );
  assert.deepEqual(
    result.lowered.map((l) => l.size),
    [100, 1000],
  );
  assert.match(result.lowered[0].reason, /^about \d+ s: past the deadline$/);
});

test("what a case observes at each size is kept by size; an answer it did not expect is what it saw", async () => {
  const seen = fakeCase(() => 1);
  seen.observe = async (size) => {
    if (size === 1000) throw new UnexpectedAnswer("the late answer answered 409");
    return size === 10 ? "an old one gets in" : "an old one is stale";
  };
  const [result] = await measureLimits([seen], plan());
  assert.deepEqual(result.observed, [
    { size: 10, said: "an old one gets in" },
    { size: 100, said: "an old one is stale" },
    { size: 1000, said: "the late answer answered 409" },
  ]);
  assert.equal(result.growth, "flat", "an observation is no cost");
});

test("repeats measured under another condition than most are not classed with them, and the case says which", async () => {
  // At 1000 things every repeat was measured otherwise (a server's wait for its clock), and cost 100 times more.
  const mixed = fakeCase((n) => (n === 1000 ? 100 : 1));
  let last = 0;
  const measure = mixed.measure;
  mixed.measure = async (size, repeat) => {
    last = size;
    return measure(size, repeat);
  };
  mixed.condition = () => (last === 1000 ? "before the clock passed" : "after the clock passed");
  const [result] = await measureLimits([mixed], plan());
  assert.deepEqual(
    result.series[0].points.map((p) => p.size),
    [10, 100],
  );
  assert.equal(result.growth, "flat");
  assert.deepEqual(result.notes, [
    "not classed with the repeats measured after the clock passed, those measured otherwise: N = 1000: 5 of 5 before the clock passed",
  ]);
  // Told one condition throughout, every size is classed.
  const same = fakeCase((n) => 1 + n / 10);
  same.condition = () => "after the clock passed";
  const [classed] = await measureLimits([same], plan());
  assert.equal(classed.growth, "linear");
  assert.equal(classed.notes, undefined);
});

test("where the target sets a pace of its own, a size it bounds is lowered naming that pace", async () => {
  // Requests of a millisecond would fit 1000 things in 30 s; at a second a thing, 100 do not: 30 do.
  const paced = fakeCase(() => 1);
  paced.paced = (size) => ({ ms: size * 1000, pace: "one version a second" });
  const [result] = await measureLimits([paced], plan(30_000));
  assert.deepEqual(
    result.series[0].points.map((p) => p.size),
    [10, 29],
  );
  assert.deepEqual(result.lowered, [
    { size: 100, reason: "lowered to 29, about 100 s at one version a second: past the deadline" },
    { size: 1000, reason: "about 1000 s at one version a second: past the deadline" },
  ]);
});
