import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfiguration, loadSources } from "@cucumber/cucumber/api";
import { loadRows } from "./catalogue.ts";
import { PACKAGE_ROOT } from "./package.ts";
import { loadScenarios, plannedScenarios, rowsOf, runOrder } from "./scenarios.ts";

const scenarios = loadScenarios(PACKAGE_ROOT);

/** Cucumber's own plan for a tag expression, as `file:line` of each scenario, in its order. */
async function cucumberPlan(tags: string): Promise<string[]> {
  const environment = { cwd: PACKAGE_ROOT };
  const { runConfiguration } = await loadConfiguration(
    { file: false, provided: { paths: runOrder(scenarios), tags } },
    environment,
  );
  const { plan } = await loadSources(runConfiguration.sources, environment);
  return plan.map((p) => `${p.uri}:${p.location.line}`);
}

const locations = (tags: string) =>
  plannedScenarios(scenarios, tags)
    .map((s) => s.location)
    .sort();

test("a run takes the scenarios cucumber would plan for its tags, outlines' Examples rows included", async () => {
  for (const tags of ["", "@SNAP-12 or @DIG-3", "@must and not @EXP-5", "@SNAP-11", "@alone", "@nothing"]) {
    assert.deepEqual(locations(tags), (await cucumberPlan(tags)).sort(), tags);
  }
});

test("the rows of a run are those of its scenarios", () => {
  assert.deepEqual(rowsOf(plannedScenarios(scenarios, "@SNAP-12 or @DIG-3")), ["DIG-3", "SNAP-12"]);
  assert.deepEqual(rowsOf(plannedScenarios(scenarios, "@SNAP-11")), ["SNAP-11"]);
  assert.deepEqual(
    rowsOf(plannedScenarios(scenarios, undefined)),
    loadRows()
      .map((row) => row.id)
      .sort(),
  );
  assert.deepEqual(rowsOf([]), []);
});

test("features run in path order, those tagged @runs-last after the others", async () => {
  const order = runOrder(scenarios);
  assert.equal(order.at(-1), "features/snapshots/lost-update.feature");
  assert.deepEqual(order.slice(0, -1), [...order.slice(0, -1)].sort());
  assert.equal(new Set(order).size, order.length);
  // Cucumber takes the files in that order: the lost update is the run's last scenario.
  assert.match((await cucumberPlan("")).at(-1) ?? "", /lost-update\.feature:\d+$/);
});

test("a feature tagged @runs-last moves as a whole, whatever its place by path", () => {
  const at = (location: string, tags: string[]) => ({ name: "", location, tags, rows: [], levels: [] });
  const order = runOrder([
    at("features/a/first.feature:3", ["@runs-last"]),
    at("features/a/first.feature:9", ["@runs-last"]),
    at("features/b/second.feature:3", []),
    at("features/a/third.feature:4", []),
  ]);
  assert.deepEqual(order, ["features/a/third.feature", "features/b/second.feature", "features/a/first.feature"]);
});
