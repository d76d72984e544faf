// The suite against the bundled reference: the standard variant passes every row, SHOULD
// included; the alternative variant, which makes the other choices the spec allows, has no
// MUST failure.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rowsWith, runAgainstReference } from "./support/suite.ts";

test("the standard reference is conformant on every row, under --strict", async () => {
  const run = await runAgainstReference({ strict: true });
  assert.deepEqual(rowsWith(run, "failed", "warning", "not run"), []);
  assert.equal(run.judgement.overall, "conformant");
  assert.equal(run.exitCode, 0);
});

test("the alternative reference has no failed MUST row", async () => {
  const run = await runAgainstReference({ variant: "alternative", strict: false });
  assert.deepEqual(rowsWith(run, "failed"), []);
  assert.equal(run.exitCode, 0);
});
