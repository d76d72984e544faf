// Properties of the sequencer's statistics and of the sequencer itself, over generated inputs
// (fast-check; a failure is shrunk and printed with the seed that replays it).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { independentPositions, normalP, positionPasses } from "./sequence-stats.ts";
import { judgeSequence } from "./sequencer.ts";

test("p-values lie in [0, 1] and fall as the statistic grows", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 200, noNaN: true }),
      fc.double({ min: 0, max: 50, noNaN: true }),
      (x, more) => {
        assert.ok(normalP(x) >= 0 && normalP(x) <= 1 + 1e-12, `${normalP(x)}`);
        assert.ok(normalP(x + more) <= normalP(x) + 1e-12);
        assert.ok(Math.abs(normalP(x) - normalP(-x)) < 1e-12);
      },
    ),
  );
  // Known values: P(|Z| > 1.96) = 0.05, P(|Z| > 3.29) ≈ 1e-3 (the position tests' bound).
  assert.ok(Math.abs(normalP(1.959964) - 0.05) < 1e-6);
  assert.ok(Math.abs(normalP(3.2905) - 1e-3) < 1e-5);
});

test("a constant or alternating position fails its own tests; so does one that flips too seldom", () => {
  fc.assert(
    fc.property(fc.integer({ min: 20, max: 500 }), fc.integer({ min: 0, max: 1 }), (n, bit) => {
      assert.equal(positionPasses(new Array(n).fill(bit)), false);
      assert.equal(positionPasses(Array.from({ length: n }, (_, i) => (i + bit) % 2)), false);
      // A clock's bit above its fast ones: half the sample one way, then the other.
      assert.equal(positionPasses(Array.from({ length: n }, (_, i) => (i < n / 2 ? bit : 1 - bit))), false);
    }),
  );
});

/** `count` series of `n` fair bits from fast-check's generator. */
const fairColumns = (count: number, n: number) =>
  fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: n, maxLength: n }), {
    minLength: count,
    maxLength: count,
  });

test("copies and mirrors of a position count once, at any sample size", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 20, max: 100 }).chain((n) => fairColumns(8, n)),
      (columns) => {
        const mirrors = columns.map((c) => c.map((b) => 1 - b));
        const alone = independentPositions(columns);
        const doubled = independentPositions([...columns, ...mirrors, ...columns]);
        assert.equal(doubled.effective, alone.effective);
        assert.equal(doubled.copies, columns.length * 2 + alone.copies);
      },
    ),
    { numRuns: 100 },
  );
});

test("sums of a few positions count as those few where the sample shows it", () => {
  fc.assert(
    fc.property(fairColumns(12, 100), fc.integer({ min: 1, max: 2 ** 30 }), (seeds, mixing) => {
      // 40 positions, each the sum (XOR) of some of the 12 seeds: 12 bits of their own at most.
      const sums = Array.from({ length: 40 }, (_, k) =>
        seeds[0].map((_, s) => seeds.reduce((x, seed, j) => x ^ (((mixing * (k + 1)) >> j) & 1 ? seed[s] : 0), 0)),
      );
      const judged = independentPositions(sums);
      assert.ok(judged.effective <= 12, `${judged.effective}`);
    }),
    { numRuns: 100 },
  );
});

test("the sequencer judges any sample without throwing, and always says why", () => {
  const sampled = fc.array(
    fc.record({
      value: fc.string({ maxLength: 60 }),
      dateMs: fc.option(fc.integer({ min: 0, max: 2 ** 42 }), { nil: undefined }),
    }),
    { maxLength: 40 },
  );
  fc.assert(
    fc.property(sampled, (samples) => {
      const judged = judgeSequence(samples);
      assert.ok(["predictable", "weak", "passed", "too few"].includes(judged.verdict));
      assert.ok(judged.summary.length > 0);
    }),
    { numRuns: 300 },
  );
});

test("a counter is predicted whatever its start, step and form", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 2n ** 60n }),
      fc.integer({ min: 1, max: 5000 }),
      fc.constantFrom(10, 16),
      fc.integer({ min: 5, max: 60 }),
      (start, step, radix, n) => {
        const samples = Array.from({ length: n }, (_, i) => ({ value: (start + BigInt(step * i)).toString(radix) }));
        assert.equal(judgeSequence(samples).verdict, "predictable", samples.map((s) => s.value).join(" "));
      },
    ),
    { numRuns: 200 },
  );
});
