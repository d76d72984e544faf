import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfiguration, loadSources } from "@cucumber/cucumber/api";
import { loadRows } from "./catalogue.ts";
import { PACKAGE_ROOT } from "./package.ts";
import { rowsOfPlan } from "./scenarios.ts";

/** Cucumber's own plan for a tag expression, as a run gets it. */
async function planFor(tags: string) {
  const environment = { cwd: PACKAGE_ROOT };
  const { runConfiguration } = await loadConfiguration(
    { file: false, provided: { paths: ["features/**/*.feature"], tags } },
    environment,
  );
  return (await loadSources(runConfiguration.sources, environment)).plan;
}

test("the rows of a plan are those of the scenarios cucumber chose, outlines' Examples rows included", async () => {
  // SNAP-12 is a Scenario Outline: its plan entries stand at its Examples rows.
  assert.deepEqual(rowsOfPlan(PACKAGE_ROOT, await planFor("@SNAP-12 or @DIG-3")), ["DIG-3", "SNAP-12"]);
  assert.deepEqual(rowsOfPlan(PACKAGE_ROOT, await planFor("@SNAP-11")), ["SNAP-11"]);
});

test("a whole run plans every row of the catalogue", async () => {
  const all = loadRows()
    .map((row) => row.id)
    .sort();
  assert.deepEqual(rowsOfPlan(PACKAGE_ROOT, await planFor("")), all);
});

test("an empty plan has no rows", () => {
  assert.deepEqual(rowsOfPlan(PACKAGE_ROOT, []), []);
});
