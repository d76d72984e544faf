import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { RunLimits, type RunLimitsParameters } from "./run-limits.ts";

const parameters = (deadlineAt = Date.now() + 60_000, workers = false): RunLimitsParameters => ({
  stateDir: mkdtempSync(join(tmpdir(), "sxd-limits-")),
  workers,
  deadlineAt,
  deadlineSeconds: 60,
  failuresInARow: 3,
});

for (const workers of [false, true]) {
  test(`failures in a row from two workers open the breaker for both; an answer in between resets the count (${workers ? "in files" : "in memory"})`, () => {
    const shared = parameters(undefined, workers);
    const [one, two] = [new RunLimits(shared), new RunLimits(shared)];
    one.record(false);
    two.record(false);
    one.record(true);
    two.record(false);
    one.record(false);
    assert.equal(one.refusal(), undefined, "an answer came two requests ago");
    two.record(false);
    const reason = "the target stopped answering: 3 transport failures in a row";
    assert.equal(one.refusal(), reason);
    assert.equal(two.stopReason(), reason);
    two.record(true);
    assert.equal(one.refusal(), reason, "once open, the breaker stays open");
  });
}

test("past the deadline no scenario starts, with the reason; requests already under way are not refused", () => {
  const limits = new RunLimits(parameters(Date.now() - 1));
  assert.match(limits.stopReason() ?? "", /the run's deadline of 60 s had passed \(see --deadline\)/);
  assert.equal(limits.refusal(), undefined);
  assert.equal(new RunLimits(parameters()).stopReason(), undefined);
});
