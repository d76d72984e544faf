// The suite itself: every row of the catalogue is checked, every scenario names its rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRows } from "../harness/judging/catalogue.ts";
import { loadScenarios } from "../harness/judging/scenarios.ts";
import { traceabilityProblems } from "../harness/judging/traceability.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";

test("every row has a scenario and every scenario names known rows at their level", () => {
  const problems = traceabilityProblems(loadRows(), loadScenarios(PACKAGE_ROOT));
  assert.deepEqual(problems, [], `traceability problems:\n${problems.join("\n")}`);
});
