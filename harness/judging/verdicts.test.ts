import assert from "node:assert/strict";
import { test } from "node:test";
import type { Row } from "./catalogue.ts";
import type { ScenarioOutcome } from "./outcomes.ts";
import { caseVerdict, judge, scenarioVerdict } from "./verdicts.ts";

const rows: Row[] = [
  { id: "SNAP-9", level: "must", rule: "delete", should: "404 or 410" },
  { id: "SNAP-11", level: "should", rule: "412" },
  { id: "DIG-9", level: "may", rule: "replay" },
  { id: "EXP-8", level: "should", rule: "outage" },
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

test("a row whose scenarios were all skipped is not run, never passed; a run where none ran exits incomplete", () => {
  const skipped = [outcome("SNAP-9", "must", "not run"), outcome("DIG-9", "may", "not run")];
  const run = judge(rows, skipped, { strict: false });
  assert.equal(verdictOf(run, "SNAP-9"), "not run");
  assert.equal(run.overall, "incomplete");
  assert.equal(run.executed, 0);
  // The code says what the verdict says: 3, incomplete, never 1, which is "not conformant".
  assert.equal(run.exitCode, 3);
  assert.equal(verdictOf(run, "SNAP-11"), "not run");
  // --allow-incomplete accepts rows left out of a run that checked something, not a run that checked nothing.
  assert.equal(judge(rows, skipped, { strict: false, allowIncomplete: true }).exitCode, 3);
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

test("a MUST row sxd could not run makes the run incomplete, exit 3, unless incompleteness is accepted", () => {
  const outcomes = [outcome("SNAP-9", "must", "not run"), outcome("SNAP-11", "should", "passed")];
  const run = judge(rows, outcomes, { strict: false });
  assert.equal(run.overall, "incomplete");
  assert.equal(run.exitCode, 3);
  const accepted = judge(rows, outcomes, { strict: false, allowIncomplete: true });
  assert.equal(accepted.overall, "incomplete");
  assert.equal(accepted.exitCode, 0);
});

test("a stated MAY row that was not run is a hole too; a SHOULD row that was not run is not", () => {
  const may = judge(rows, [outcome("SNAP-9", "must", "passed"), outcome("DIG-9", "may", "not run")], { strict: false });
  assert.equal(may.overall, "incomplete");
  assert.equal(may.exitCode, 3);
  const should = judge(rows, [outcome("SNAP-9", "must", "passed"), outcome("EXP-8", "should", "not run")], {
    strict: false,
  });
  assert.equal(verdictOf(should, "EXP-8"), "not run");
  assert.equal(should.overall, "conformant");
  assert.equal(should.exitCode, 0);
});

test("a row deselected with --tags is not a hole, and a MUST row not applicable is not one either", () => {
  const onlySnap11 = judge(rows, [outcome("SNAP-11", "should", "passed")], { strict: false });
  assert.equal(verdictOf(onlySnap11, "SNAP-9"), "not run");
  assert.equal(onlySnap11.overall, "conformant");
  assert.equal(onlySnap11.exitCode, 0);
  const notApplicable = judge(
    rows,
    [outcome("SNAP-9", "must", "not applicable"), outcome("SNAP-11", "should", "passed")],
    {
      strict: false,
    },
  );
  assert.equal(notApplicable.overall, "conformant");
  assert.equal(notApplicable.exitCode, 0);
});

test("a failure outweighs a hole: a run both failed and incomplete is not conformant and exits 1", () => {
  const run = judge(rows, [outcome("SNAP-9", "must", "not run"), outcome("SNAP-11", "should", "failed")], {
    strict: true,
  });
  assert.equal(run.overall, "not conformant");
  assert.equal(run.exitCode, 1);
});

test("each case's verdict is what its row would say of it alone", () => {
  const lenient = { strict: false, expectedFailures: new Map([["SNAP-11", "bug 13"]]) };
  assert.equal(caseVerdict(outcome("SNAP-9", "should", "failed"), "SNAP-9", lenient), "warning");
  assert.equal(caseVerdict(outcome("SNAP-9", "should", "failed"), "SNAP-9", { strict: true }), "failed");
  assert.equal(caseVerdict(outcome("SNAP-9", "must", "failed"), "SNAP-9", lenient), "failed");
  assert.equal(caseVerdict(outcome("SNAP-11", "should", "failed"), "SNAP-11", lenient), "expected failure");
  assert.equal(caseVerdict(outcome("SNAP-11", "should", "passed"), "SNAP-11", lenient), "fixed");
  assert.equal(caseVerdict(outcome("DIG-9", "may", "not applicable"), "DIG-9", lenient), "not applicable");
  const twoRows: ScenarioOutcome = { ...outcome("SNAP-9", "must", "failed"), rows: ["SNAP-11", "SNAP-9"] };
  assert.equal(scenarioVerdict(twoRows, lenient), "failed");
});

test("a row whose MUST case could not be run is not run, whatever its other cases passed", () => {
  const unchecked: ScenarioOutcome = { ...outcome("SNAP-9", "must", "not run"), message: "state a second user" };
  const run = judge(rows, [outcome("SNAP-9", "must", "passed"), unchecked], { strict: false });
  assert.equal(verdictOf(run, "SNAP-9"), "not run");
  assert.equal(run.rows.find((r) => r.row.id === "SNAP-9")?.reason, "state a second user");
  assert.equal(run.exitCode, 3);
  // The should part of a row can only warn: its hole leaves the row's passes standing.
  const shouldPart = judge(rows, [outcome("SNAP-9", "must", "passed"), outcome("SNAP-9", "should", "not run")], {
    strict: false,
  });
  assert.equal(verdictOf(shouldPart, "SNAP-9"), "passed");
  assert.equal(shouldPart.exitCode, 0);
  // A failure still outweighs the hole.
  const failed = judge(rows, [outcome("SNAP-9", "must", "failed"), unchecked], { strict: false });
  assert.equal(verdictOf(failed, "SNAP-9"), "failed");
});
