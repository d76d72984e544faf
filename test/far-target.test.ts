// A target far away (the reference behind delay proxies): sxd, left to choose, takes more than
// one scenario at once, and judges exactly as one scenario at a time does on this machine:
// every row passes against the reference, and a faulty one fails with its pinned summary
// (test/expected-failures), order-sensitive faults included. No time is asserted.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { test } from "node:test";
import { loadRows } from "../harness/judging/catalogue.ts";
import { runConformance, type SuiteRun } from "../harness/run/run.ts";
import type { FaultName } from "../reference/index.ts";
import { type FarReference, farReference } from "./support/delay-proxy.ts";
import { failureSummary } from "./support/failure-summary.ts";
import { scratchDir } from "./support/scratch.ts";
import { behaviourTags, rowsWith } from "./support/suite.ts";

const RTT_MS = 10;

async function runChoosing(far: FarReference, tags?: string): Promise<SuiteRun & { output: string }> {
  let output = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += String(chunk);
      done();
    },
  });
  const run = await runConformance(
    {
      target: far.target,
      outageMessagingUrl: far.outageMessagingUrl,
      tags,
      strict: true,
      reportDir: scratchDir("sxd-far-"),
      timeoutMs: 5000,
      harFile: undefined,
      deadlineSeconds: 600,
    },
    { stdout: sink, stderr: sink },
  );
  return { ...run, output };
}

function scenariosAtOnce(output: string): number {
  const chosen = /^sxd: round trip [\d.]+ ms: (\d+) scenarios at once$/m.exec(output);
  assert.ok(chosen, output);
  return Number(chosen[1]);
}

async function againstFar<T>(faults: FaultName[], use: (far: FarReference) => Promise<T>): Promise<T> {
  const far = await farReference({ rttMs: RTT_MS, faults });
  try {
    return await use(far);
  } finally {
    await far.close();
  }
}

test(`${RTT_MS} ms away: several scenarios at once, and every row passes against the reference`, async () => {
  const run = await againstFar([], (far) => runChoosing(far));
  assert.ok(scenariosAtOnce(run.output) > 1);
  assert.deepEqual(rowsWith(run, "failed", "warning", "not run"), [], run.output);
  assert.equal(run.judgement.overall, "conformant");
});

for (const fault of ["dig-replay-allowed", "snap-stale-accepted"] as FaultName[]) {
  test(`${RTT_MS} ms away: the fault ${fault} gives the failure summary pinned for one scenario at a time`, async () => {
    const prefix = fault.startsWith("dig-") ? "DIG" : "SNAP";
    const tags = behaviourTags(
      prefix,
      loadRows().map((r) => r.id),
    );
    const run = await againstFar([fault], (far) => runChoosing(far, tags));
    assert.ok(scenariosAtOnce(run.output) > 1);
    const pinned = readFileSync(new URL(`expected-failures/${fault}.txt`, import.meta.url), "utf8");
    assert.equal(failureSummary(run), pinned);
  });
}
