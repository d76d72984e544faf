import assert from "node:assert/strict";
import { test } from "node:test";
import { growthOf, pointOf } from "./growth.ts";

/** Repeats around a cost: the cost, and a little more and less (a quiet machine's noise). */
const around = (cost: number, noise = 0.05) => [cost, cost * (1 - noise), cost * (1 + noise), cost * (1 + 2 * noise)];
const series = (costs: Record<number, number[]>) => Object.entries(costs).map(([size, r]) => pointOf(Number(size), r));

test("a cost that stays within its noise is flat", () => {
  assert.equal(growthOf(series({ 10: around(1), 100: around(1.1), 1000: around(1.2) }))?.growth, "flat");
});

test("a constant part and a part proportional to the size is linear, its exponent under 1", () => {
  const fit = growthOf(
    series({ 10: around(1 + 0.01 * 10), 100: around(1 + 0.01 * 100), 1000: around(1 + 0.01 * 1000) }),
  );
  assert.equal(fit?.growth, "linear");
  assert.ok(fit && fit.exponent > 0.2 && fit.exponent < 1, `exponent ${fit?.exponent}`);
});

test("a quadratic cost grows faster", () => {
  assert.equal(growthOf(series({ 10: around(1), 100: around(100), 1000: around(10_000) }))?.growth, "faster");
});

test("a change the repeats' spread covers is unclear, never linear", () => {
  const noisy = growthOf(series({ 10: [1, 1, 6, 9], 100: [1.2, 5, 8, 9], 1000: [2, 6, 9, 12] }));
  assert.equal(noisy?.growth, "unclear");
});

test("a machine's hold-ups only add time: the class reads the faster repeats", () => {
  // Half the repeats at the largest size held up by 20 ms: the operation's own cost did not change.
  const held = growthOf(series({ 10: [1, 1.1, 1, 21], 100: [1, 1.05, 21, 1.1], 1000: [1.1, 21, 22, 1] }));
  assert.equal(held?.growth, "flat");
});

test("one size is no series", () => {
  assert.equal(growthOf(series({ 10: around(1) })), undefined);
});
