import assert from "node:assert/strict";
import { test } from "node:test";
import { describeRun, runCommand, succeeded } from "./commands.ts";

test("a command's exit code and output are kept", async () => {
  const run = await runCommand("echo out; echo err >&2; exit 3", 5000);
  assert.equal(run.exitCode, 3);
  assert.equal(succeeded(run), false);
  assert.match(run.output, /out\nerr/);
  assert.match(describeRun(run), /^\$ echo out.*\n\(exit code 3, after \d+ ms\)\nout\nerr$/);
});

test("a command that overstays its limit is stopped", { timeout: 10000 }, async () => {
  const run = await runCommand("echo started; sleep 30", 300);
  assert.equal(run.timedOut, true);
  assert.equal(succeeded(run), false);
  assert.match(describeRun(run), /stopped: no exit within its time limit/);
});

test("a command that leaves a process in the background returns when it exits", { timeout: 10000 }, async () => {
  const run = await runCommand("sleep 5 & echo $! ; exit 0", 3000);
  assert.equal(succeeded(run), true);
  process.kill(Number(run.output.trim()));
});
