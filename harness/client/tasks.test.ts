import assert from "node:assert/strict";
import { test } from "node:test";
import type { RecordedRequest, Staging } from "../../lib/recording.ts";
import { NOT_SUPPORTED, type TaskRun } from "../evidence/client-evidence.ts";
import { nextStaging, OFFERED_TASKS, type PendingRun, type TaskName, WAIT } from "./tasks.ts";

const ANSWER: RecordedRequest = {
  server: "base",
  method: "GET",
  target: "/client/protected",
  headers: { authorization: 'Digest username="u", realm="r", nonce="n", uri="/client/protected", response="00"' },
  body: "",
  at: "2024-01-01T00:00:00.000Z",
  reply: { status: 200, headers: {}, body: "" },
};

/** A run as it ended: the client did the task, answering a challenge or not, or said it does not do it. */
function ended(task: TaskName, staging: Staging, outcome: "answered" | "silent" | "unsupported"): TaskRun {
  return {
    task,
    ...staging,
    environment: {},
    exitCode: outcome === "unsupported" ? NOT_SUPPORTED : 0,
    timedOut: false,
    stdout: "",
    stderr: "",
    durationMs: 1,
    requests: outcome === "answered" ? [ANSWER] : [],
  };
}

/** Every sequence of runs one at a time gives, for every way each run can end (at most 2^8 of them). */
function serialSequences(task: TaskName, claimsAll: boolean): TaskRun[][] {
  const description = claimsAll ? { export: { fallback: true } } : {};
  const sequences: TaskRun[][] = [];
  const grow = (runs: TaskRun[]) => {
    sequences.push(runs);
    const staging = runs.length === 0 ? {} : nextStaging(task, runs, description);
    assert.notEqual(staging, WAIT, "with no run going, the next run is known");
    if (!staging || staging === WAIT) return;
    const outcomes =
      runs.length === 0 ? (["answered", "silent", "unsupported"] as const) : (["answered", "silent"] as const);
    for (const outcome of outcomes) grow([...runs, ended(task, staging, outcome)]);
  };
  grow([]);
  return sequences;
}

test("a run chosen while others go is the run one at a time would choose, whatever those others do", () => {
  let decided = 0;
  for (const task of OFFERED_TASKS)
    for (const claimsAll of [false, true]) {
      const description = claimsAll ? { export: { fallback: true } } : {};
      for (const runs of serialSequences(task, claimsAll)) {
        if (runs.length === 0) continue;
        const serial = nextStaging(task, runs, description);
        // Any set of the runs may still be going (a bit per run).
        for (let going = 1; going < 2 ** runs.length; going++) {
          const sofar = runs.map((run, i): TaskRun | PendingRun =>
            going & (1 << i) ? { condition: run.condition, offer: run.offer, pending: true } : run,
          );
          const chosen = nextStaging(task, sofar, description);
          if (chosen === WAIT) continue;
          decided += 1;
          assert.deepEqual(chosen, serial, `${task}: ${JSON.stringify(sofar.map((r) => r.condition ?? "plain"))}`);
        }
      }
    }
  assert.ok(decided > 50, `some runs are chosen while others go (${decided})`);
});

test("the conditions staged whatever the client does are chosen at once; those on its answer wait for it", () => {
  const plain = ended("digest-get", {}, "silent");
  const going = (condition: Staging["condition"]): PendingRun => ({ condition, pending: true });
  assert.equal(nextStaging("digest-get", [{ pending: true }]), WAIT);
  assert.deepEqual(nextStaging("digest-get", [plain]), { condition: "md5-first" });
  assert.deepEqual(nextStaging("digest-get", [plain, going("md5-first")]), { condition: "md5-only" });
  assert.equal(nextStaging("digest-get", [plain, going("md5-first"), going("md5-only")]), WAIT);
  const answeredAtOnce = ended("digest-get", {}, "answered");
  assert.deepEqual(nextStaging("digest-get", [answeredAtOnce, going("md5-first"), going("md5-only")]), {
    condition: "wrong-credentials",
  });
  assert.equal(nextStaging("digest-get", [ended("digest-get", {}, "unsupported")]), undefined);
});
