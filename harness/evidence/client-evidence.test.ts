import assert from "node:assert/strict";
import { test } from "node:test";
import { failedPlainRuns, NOT_SUPPORTED, type TaskRun } from "./client-evidence.ts";

function run(task: string, exitCode: number | null, extra: Partial<TaskRun> = {}): TaskRun {
  const base = { environment: {}, timedOut: false, stdout: "", stderr: "", durationMs: 7, requests: [] };
  return { task, exitCode, ...base, ...extra };
}

test("a note for each plain run the client failed against sxd's servers, with the first line it wrote to stderr", () => {
  const notes = failedPlainRuns([
    run("digest-get", 0),
    run("digest-post", 1, { stderr: "\nclient: rspauth does not prove the server knows the secret\nat line 3\n" }),
    run("digest-post", 1, { condition: "md5-only" }),
    run("update", NOT_SUPPORTED),
    run("history", null, { timedOut: true }),
    run("export", 1, { recorded: "recorded in app.har" }),
  ]);
  assert.deepEqual(notes, [
    "note: the client failed the plain run of task digest-post against sxd's own servers (exit 1 after 7 ms): client: rspauth does not prove the server knows the secret",
    "note: the client failed the plain run of task history against sxd's own servers (killed after 7 ms without exiting)",
  ]);
});

test("in a group of repeats, one note a task: its first failed plain run, and in how many repeats one failed", () => {
  const notes = failedPlainRuns([
    run("update", 0, { repeat: 1 }),
    run("update", 2, { repeat: 2, stderr: "first\n" }),
    run("update", 3, { repeat: 3, stderr: "second\n" }),
    run("history", 1, { repeat: 3 }),
  ]);
  assert.deepEqual(notes, [
    "note: the client failed the plain run of task update against sxd's own servers (exit 2 after 7 ms, in 2 repeats): first",
    "note: the client failed the plain run of task history against sxd's own servers (exit 1 after 7 ms)",
  ]);
});
