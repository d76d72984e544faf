/**
 * `sxd test-client --parallel`: a slow-starting client graded one run at a time and with the
 * default runs at once gets the same runs, in the same order, and the same verdicts; each run
 * going at once is recorded on servers of its own, so no run's recording holds another's requests.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EXAMPLE_CLIENT, sxdHere, tempDir } from "./support/cli.ts";

interface Report {
  rows: Array<{ id: string; verdict: string; reason?: string }>;
  client: {
    runs: Array<{
      task: string;
      condition?: string;
      offer?: string;
      exitCode: number | null;
      environment: Record<string, string>;
      requests: Array<{ target: string; headers: Record<string, string> }>;
    }>;
  };
}

/** Starts like a JVM, a little: each run waits before the client does anything. */
const SLOW_CLIENT = `sleep 0.3; ${EXAMPLE_CLIENT}`;

/** Graded through sxd test-client's code in this process (support/cli.ts sxdHere). */
async function graded(...args: string[]): Promise<Report> {
  const dir = tempDir();
  const run = await sxdHere([
    "test-client",
    "--run",
    SLOW_CLIENT,
    "--tasks",
    "digest-get",
    "--report-dir",
    dir,
    ...args,
  ]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
}

test("runs at once give the runs and verdicts of one at a time, each recorded apart", async () => {
  const [serial, atOnce] = await Promise.all([graded("--parallel", "1"), graded()]);
  const verdicts = (report: Report) => report.rows.map(({ id, verdict, reason }) => ({ id, verdict, reason }));
  assert.deepEqual(verdicts(atOnce), verdicts(serial));
  const runs = (report: Report) =>
    report.client.runs.map(({ task, condition, offer, exitCode, requests }) => ({
      task,
      condition,
      offer,
      exitCode,
      requests: requests.map((request) => request.target),
    }));
  assert.deepEqual(runs(atOnce), runs(serial));
  assert.ok(serial.client.runs.length >= 4, "digest-get is run under its conditions");

  // Each run's requests reached the servers it was given, and only its own.
  const hostOf = (url: string | undefined) => new URL(url ?? "").host;
  for (const run of atOnce.client.runs) {
    assert.ok(run.requests.length > 0, `${run.condition ?? "plain"} sent requests`);
    for (const request of run.requests) assert.equal(request.headers.host, hostOf(run.environment.SXD_URL));
  }
  const servers = (report: Report) => new Set(report.client.runs.map((run) => hostOf(run.environment.SXD_URL)));
  assert.equal(servers(serial).size, 1, "one at a time: one set of servers");
  assert.ok(servers(atOnce).size > 1, "at once: runs on servers of their own");
});
