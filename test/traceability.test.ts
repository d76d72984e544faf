// The suite itself: every row of the catalogue is checked, every scenario names its rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRows } from "../harness/catalogue.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { loadScenarios } from "../harness/scenarios.ts";
import { traceabilityProblems } from "../harness/traceability.ts";

test("every row has a scenario and every scenario names known rows at their level", () => {
  const problems = traceabilityProblems(loadRows(), loadScenarios(PACKAGE_ROOT));
  assert.deepEqual(problems, [], `traceability problems:\n${problems.join("\n")}`);
});
