import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import {
  InProcessAdapter,
  PRIVATE_MODULES,
  supportCodeLibraryBuilder,
  TESTED_WITH,
  World,
} from "./cucumber-private.ts";

const require = createRequire(import.meta.url);
const cucumber = require("@cucumber/cucumber");

/** What is wrong with running sxd on this cucumber, or undefined where it is the one sxd is tested with. */
function versionProblem(installed: string): string | undefined {
  if (installed === TESTED_WITH) return undefined;
  return (
    `sxd uses cucumber's private modules ${PRIVATE_MODULES.join(", ")}; it is tested with ` +
    `@cucumber/cucumber ${TESTED_WITH} but ${installed} is installed: install ${TESTED_WITH}, or check what ` +
    `harness/run/cucumber-private.ts takes from each module against ${installed} and set TESTED_WITH there`
  );
}

test("the installed cucumber is the one sxd's use of its private modules is tested with", () => {
  const problem = versionProblem(require("@cucumber/cucumber/package.json").version);
  if (problem) assert.fail(problem);
});

test("another cucumber fails that test, naming every private module and both versions", () => {
  const problem = versionProblem("12.10.0") ?? "";
  assert.match(problem, /tested with @cucumber\/cucumber 12\.9\.0 but 12\.10\.0 is installed/);
  assert.equal(PRIVATE_MODULES.length, 3);
  for (const name of PRIVATE_MODULES) assert.ok(problem.includes(name), name);
});

test("the step-definition API is the one cucumber's index exports: same builder, same World", () => {
  assert.equal(supportCodeLibraryBuilder, cucumber.supportCodeLibraryBuilder);
  assert.equal(World, cucumber.World);
});

test("the in-process adapter's run is the loop concurrent-scenarios.ts widens, on the parts it uses", () => {
  // One scenario after another on this.worker, remembering a failure in this.failing.
  const run = String(InProcessAdapter.prototype.run).replace(/\s+/g, " ");
  for (const part of [
    "await this.worker.runBeforeAllHooks()",
    "await this.worker.runTestCase(item, this.failing)",
    "this.failing = true",
    "await this.worker.runAfterAllHooks()",
    "return !this.failing",
  ])
    assert.ok(run.includes(part), `${part} in ${run}`);
});
