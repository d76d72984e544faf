// The suite itself: every row of the catalogue is checked, every scenario names its rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadScenarios } from "../cli/features.ts";
import { loadRows } from "../cli/rows.ts";
import { PACKAGE_ROOT } from "../cli/run-suite.ts";
import { traceabilityProblems } from "../cli/traceability.ts";

test("every row has a scenario and every scenario names known rows at their level", () => {
  const problems = traceabilityProblems(loadRows(), loadScenarios(PACKAGE_ROOT));
  assert.deepEqual(problems, [], `traceability problems:\n${problems.join("\n")}`);
});
