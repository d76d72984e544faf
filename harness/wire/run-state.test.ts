import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { forgetRunState, runState } from "./run-state.ts";

const folder = () => mkdtempSync(join(tmpdir(), "sxd-state-"));

for (const workers of [false, true]) {
  test(`${workers ? "in files" : "in memory"}: logs grow and are read from an offset, a first note stays`, () => {
    const stateDir = folder();
    const state = runState({ stateDir, workers });
    assert.equal(runState({ stateDir, workers }), state, "one state a run in a process");
    assert.equal(state.readFrom("log", 0), "");
    assert.equal(state.size("log"), 0);
    state.append("log", "s 1 2\n");
    state.append("log", "r 3 4 5\n");
    assert.equal(state.size("log"), 14);
    assert.equal(state.readFrom("log", 6), "r 3 4 5\n");
    assert.equal(state.readFrom("log", 3), " 2\nr 3 4 5\n", "from inside an append");
    assert.equal(state.readFrom("log", 14), "");
    assert.equal(state.read("why"), undefined);
    state.write("why", "first", true);
    state.write("why", "second", true);
    assert.equal(state.read("why"), "first");
    state.write("why", "third");
    assert.equal(state.read("why"), "third");
    forgetRunState(stateDir);
    assert.notEqual(runState({ stateDir, workers }), state, "forgotten at the run's end");
  });
}

test("in files, what one process appended another reads; in memory, nothing reaches the folder", () => {
  const shared = folder();
  runState({ stateDir: shared, workers: true }).append("requests", "aan");
  runState({ stateDir: shared, workers: true }).write("breaker-open", "why");
  forgetRunState(shared); // as a worker of its own would find it
  const other = runState({ stateDir: shared, workers: true });
  assert.equal(other.readFrom("requests", 1), "an");
  assert.equal(other.read("breaker-open"), "why");
  assert.equal(readFileSync(join(shared, "requests"), "latin1"), "aan");
  const alone = folder();
  runState({ stateDir: alone }).append("requests", "a");
  runState({ stateDir: alone }).write("interrupted", "SIGINT");
  assert.deepEqual(readdirSync(alone), []);
});
