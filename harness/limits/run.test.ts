import assert from "node:assert/strict";
import { test } from "node:test";
import { sizesFor } from "./run.ts";

const chains = { id: "LIM-1", defaultSizes: [10, 100, 1000], smallestSize: 3 };
const held = { id: "LIM-5", defaultSizes: [10, 100, 1000], sizesHeld: true };
const noSizes = (factor: number) => ({ byCase: new Map<string, number[]>(), factor });

test("a factor scales the sizes a case makes, never under its smallest", () => {
  assert.deepEqual(sizesFor(chains, noSizes(0.1)), [3, 10, 100]);
});

test("a factor keeps the sizes the target holds up to the factor times the largest, at least the smallest", () => {
  assert.deepEqual(sizesFor(held, noSizes(1)), [10, 100, 1000]);
  assert.deepEqual(sizesFor(held, noSizes(0.1)), [10, 100]);
  assert.deepEqual(sizesFor(held, noSizes(0.001)), [10]);
});

test("sizes given for a case are its sizes", () => {
  assert.deepEqual(sizesFor(held, { byCase: new Map([["LIM-5", [100]]]), factor: 0.1 }), [100]);
});
