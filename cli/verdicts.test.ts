import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScenarioOutcome } from "./outcomes.ts";
import type { Row } from "./rows.ts";
import { judge } from "./verdicts.ts";

const rows: Row[] = [
  { id: "SNAP-9", level: "must", rule: "delete", should: "404 or 410" },
  { id: "SNAP-11", level: "should", rule: "412" },
  { id: "DIG-9", level: "may", rule: "replay" },
];

const outcome = (row: string, level: ScenarioOutcome["level"], status: ScenarioOutcome["status"]): ScenarioOutcome => ({
  name: `${row} ${level} ${status}`,
  location: "f.feature:1",
  rows: [row],
  level,
  status,
  message: status === "passed" ? undefined : `${row} went ${status}`,
  attachments: [],
});

const verdictOf = (run: ReturnType<typeof judge>, id: string) => run.rows.find((r) => r.row.id === id)?.verdict;

test("a failed MUST scenario fails its row and the run", () => {
  const run = judge(rows, [outcome("SNAP-9", "must", "failed"), outcome("SNAP-11", "should", "passed")], {
    strict: false,
  });
  assert.equal(verdictOf(run, "SNAP-9"), "failed");
  assert.equal(run.overall, "not conformant");
  assert.equal(run.exitCode, 1);
});

test("a failed SHOULD scenario warns, and fails only under strict", () => {
  const outcomes = [
    outcome("SNAP-9", "must", "passed"),
    outcome("SNAP-9", "should", "failed"),
    outcome("SNAP-11", "should", "failed"),
  ];
  const lenient = judge(rows, outcomes, { strict: false });
  assert.equal(verdictOf(lenient, "SNAP-9"), "warning");
  assert.equal(verdictOf(lenient, "SNAP-11"), "warning");
  assert.equal(lenient.overall, "conformant with warnings");
  assert.equal(lenient.exitCode, 0);
  const strict = judge(rows, outcomes, { strict: true });
  assert.equal(verdictOf(strict, "SNAP-11"), "failed");
  assert.equal(strict.exitCode, 1);
});

test("a row whose scenarios were all skipped is not run, never passed", () => {
  const run = judge(rows, [outcome("SNAP-9", "must", "not run"), outcome("DIG-9", "may", "not run")], {
    strict: false,
  });
  assert.equal(verdictOf(run, "SNAP-9"), "not run");
  assert.equal(run.overall, "incomplete");
  assert.equal(run.executed, 0);
  assert.equal(run.exitCode, 1);
  assert.equal(verdictOf(run, "SNAP-11"), "not run");
});

test("listed failures are expected, and a listed row that passes is reported fixed", () => {
  const expectedFailures = new Map([
    ["SNAP-9", "bug 12"],
    ["SNAP-11", "bug 13"],
  ]);
  const run = judge(rows, [outcome("SNAP-9", "must", "failed"), outcome("SNAP-11", "should", "passed")], {
    strict: false,
    expectedFailures,
  });
  assert.equal(verdictOf(run, "SNAP-9"), "expected failure");
  assert.equal(verdictOf(run, "SNAP-11"), "fixed");
  assert.equal(run.exitCode, 0);
});

test("a row the target does not take is not applicable, and the run stays complete", () => {
  const notApplicable: ScenarioOutcome = { ...outcome("DIG-9", "may", "not applicable"), message: "no limit stated" };
  const run = judge(rows, [outcome("SNAP-9", "must", "passed"), notApplicable], { strict: false });
  assert.equal(verdictOf(run, "DIG-9"), "not applicable");
  assert.equal(run.overall, "conformant");
  assert.equal(run.exitCode, 0);
});
