// EXP-5 and EXP-6 on what a target shows, not on what it answers: a 303 that stores nothing
// fails the MUST row; a result the description calls unreadable, or a token case without an
// accepted control, leaves the case not run, never passed.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScenarioOutcome } from "../harness/judging/outcomes.ts";
import type { SuiteRun } from "../harness/run/run.ts";
import { rowsWith, runAgainstReference } from "./support/suite.ts";

function scenariosOf(run: SuiteRun, row: string): ScenarioOutcome[] {
  return run.judgement.rows.find((r) => r.row.id === row)?.scenarios ?? [];
}

test("a messaging server that answers 303 and stores nothing fails EXP-5 as a MUST row", async () => {
  const run = await runAgainstReference({ faults: ["exp-import-stores-nothing"], tags: "@EXP-5", strict: false });
  assert.deepEqual(rowsWith(run, "failed"), ["EXP-5"]);
  const must = scenariosOf(run, "EXP-5").find((s) => s.level === "must");
  assert.equal(must?.status, "failed");
  assert.match(must?.message ?? "", /to hold every contact of the list\nbut got 3 of 3 missing/);
  assert.equal(run.exitCode, 1);
});

test("the result is read where export.result says: a path there that holds nothing fails EXP-5", async () => {
  const layers = [{ export: { user: "alice", result: "/user/{user}" } }];
  const good = await runAgainstReference({ tags: "@EXP-5 and @must", strict: false, layers });
  assert.deepEqual(rowsWith(good, "passed"), ["EXP-5"]);
  const faulty = await runAgainstReference({
    faults: ["exp-import-stores-nothing"],
    tags: "@EXP-5 and @must",
    strict: false,
    layers,
  });
  assert.deepEqual(rowsWith(faulty, "failed"), ["EXP-5"]);
  // A stated address that holds nothing at all is a failure, not a reason to give up.
  const nowhere = await runAgainstReference({
    tags: "@EXP-5 and @must",
    strict: false,
    layers: [{ export: { user: "alice", result: "/nothing-here/{user}" } }],
  });
  assert.deepEqual(rowsWith(nowhere, "failed"), ["EXP-5"]);
  assert.match(scenariosOf(nowhere, "EXP-5")[0].message ?? "", /\(export\.result\).*\nbut got status 404/);
});

test("a result the description calls unreadable leaves EXP-5, EXP-7 and EXP-8 not run, and the run incomplete", async () => {
  const run = await runAgainstReference({
    faults: ["exp-import-stores-nothing"],
    tags: "@EXP-5 or @EXP-7 or @EXP-8",
    strict: false,
    layers: [{ export: { user: "alice", result: false } }],
  });
  assert.deepEqual(rowsWith(run, "not run"), ["EXP-5", "EXP-7", "EXP-8"]);
  const [outage] = scenariosOf(run, "EXP-8");
  assert.match(outage.message ?? "", /nothing half imported cannot be checked: .*cannot be read/);
  for (const s of [...scenariosOf(run, "EXP-5"), ...scenariosOf(run, "EXP-7")]) {
    assert.match(s.message ?? "", /export result cannot be read \(export\.result: false\)/);
  }
  assert.equal(run.judgement.overall, "incomplete");
});

test("a messaging server that refuses every export gets EXP-6 not run, never passed", async () => {
  const run = await runAgainstReference({ faults: ["exp-refuses-every-export"], tags: "@EXP-6", strict: true });
  assert.deepEqual(rowsWith(run, "not run"), ["EXP-6"]);
  const scenarios = scenariosOf(run, "EXP-6");
  assert.equal(scenarios.length, 20);
  for (const s of scenarios) {
    assert.equal(s.status, "not run", s.name);
    assert.match(s.message ?? "", /the same request without the defect was refused too \(status 403\): see EXP-4/);
  }
});

test("each forged-token case is caught by a server that checks that part of the token only", async () => {
  for (const [fault, caught] of [
    ["exp-token-tail-unchecked", "its token with the tail changed"],
    ["exp-token-shape-unchecked", "a random token"],
  ]) {
    const run = await runAgainstReference({ faults: [fault], tags: "@EXP-6 and @must", strict: true });
    const failed = scenariosOf(run, "EXP-6").filter((s) => s.status === "failed");
    assert.deepEqual(
      failed.map((s) => s.name),
      [`A POST with ${caught} does not export`],
      fault,
    );
  }
});
