// Properties of the sequencer's statistics and of the sequencer itself, over generated inputs
// (fast-check; a failure is shrunk and printed with the seed that replays it).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { chiSquareP, normalP, positionPasses, streamTests } from "./sequence-stats.ts";
import { judgeSequence } from "./sequencer.ts";

test("p-values lie in [0, 1] and fall as the statistic grows", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 200, noNaN: true }),
      fc.double({ min: 0, max: 50, noNaN: true }),
      fc.integer({ min: 1, max: 40 }),
      (x, more, df) => {
        for (const p of [normalP(x), chiSquareP(x, df)]) assert.ok(p >= 0 && p <= 1 + 1e-12, `${p}`);
        assert.ok(normalP(x + more) <= normalP(x) + 1e-12);
        assert.ok(chiSquareP(x + more, df) <= chiSquareP(x, df) + 1e-9);
        assert.ok(Math.abs(normalP(x) - normalP(-x)) < 1e-12);
      },
    ),
  );
  // Known values: P(|Z| > 1.96) = 0.05, P(χ²₁₅ > 46.17) ≈ 1e-4 (FIPS 140-2's poker bound).
  assert.ok(Math.abs(normalP(1.959964) - 0.05) < 1e-6);
  assert.ok(Math.abs(chiSquareP(46.17, 15) - 5e-5) < 2e-5);
});

test("a stream with a fixed pattern fails FIPS 140-2's tests; a constant or alternating position fails its own", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1000, max: 5000 }),
      (pattern, n) => {
        const bits = Array.from({ length: n }, (_, i) => pattern[i % pattern.length]);
        assert.ok(
          streamTests(bits).some((t) => !t.passed),
          `pattern ${pattern.join("")} passed`,
        );
      },
    ),
  );
  fc.assert(
    fc.property(fc.integer({ min: 20, max: 500 }), fc.integer({ min: 0, max: 1 }), (n, bit) => {
      assert.equal(positionPasses(new Array(n).fill(bit)), false);
      assert.equal(positionPasses(Array.from({ length: n }, (_, i) => (i + bit) % 2)), false);
    }),
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
