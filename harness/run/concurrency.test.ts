import assert from "node:assert/strict";
import { test } from "node:test";
import { NEARBY_MS } from "../wire/probe.ts";
import { MOST_AT_ONCE, scenariosAtOnce } from "./concurrency.ts";

test("a target on this machine gets one scenario at a time", () => {
  assert.equal(scenariosAtOnce(0), 1);
  assert.equal(scenariosAtOnce(0.7), 1);
  assert.equal(scenariosAtOnce(NEARBY_MS - 0.1), 1);
});

test("a target further away gets more scenarios at once the longer its round trip, up to the bound", () => {
  const choices = [NEARBY_MS, 10, 20, 40, 100, 1000].map((ms) => scenariosAtOnce(ms));
  assert.ok(choices[0] >= 2, `at ${NEARBY_MS} ms: ${choices[0]}`);
  for (let i = 1; i < choices.length; i++) assert.ok(choices[i] >= choices[i - 1], choices.join(", "));
  assert.equal(scenariosAtOnce(50), MOST_AT_ONCE);
  assert.equal(scenariosAtOnce(60_000), MOST_AT_ONCE);
});

test("a round trip that is not a number leaves one scenario at a time", () => {
  assert.equal(scenariosAtOnce(Number.NaN), 1);
  assert.equal(scenariosAtOnce(Number.POSITIVE_INFINITY), 1);
});

test("where the description names the resources to update, no more at once than it names", () => {
  assert.equal(scenariosAtOnce(50, 3), 3);
  assert.equal(scenariosAtOnce(50, 1), 1);
  assert.equal(scenariosAtOnce(0.5, 3), 1);
  assert.equal(scenariosAtOnce(50, 100), MOST_AT_ONCE);
});
