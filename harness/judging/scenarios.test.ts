import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfiguration, loadSources } from "@cucumber/cucumber/api";
import { PACKAGE_ROOT } from "../package.ts";
import { earlyResourceFor, loadScenarios, plannedScenarios, runOrder } from "./scenarios.ts";

const scenarios = loadScenarios(PACKAGE_ROOT);

/** Cucumber's own plan for a tag expression, as `file:line` of each scenario, in its order. */
async function cucumberPlan(tags: string): Promise<string[]> {
  const environment = { cwd: PACKAGE_ROOT };
  const { runConfiguration } = await loadConfiguration(
    { file: false, provided: { paths: runOrder(scenarios, false), tags } },
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

test("a resource is made early for the scenario that waits for the clock where one process runs them, and only then", () => {
  const all = plannedScenarios(scenarios, undefined);
  assert.match(earlyResourceFor(all, false) ?? "", /^SNAP-11: An update with the Last-Modified read before/);
  assert.equal(earlyResourceFor(all, true), undefined);
  assert.equal(earlyResourceFor(plannedScenarios(scenarios, "@SNAP-3"), false), undefined);
  assert.equal(earlyResourceFor([], false), undefined);
});

test("one process takes the features that wait for the clock last, parallel workers take them first", async () => {
  const serial = runOrder(scenarios, false);
  assert.deepEqual(serial.slice(-1), ["features/snapshots/lost-update.feature"]);
  assert.deepEqual(serial.slice(0, -1), [...serial.slice(0, -1)].sort());
  assert.equal(new Set(serial).size, serial.length);
  const parallel = runOrder(scenarios, true);
  assert.equal(parallel[0], serial.at(-1));
  assert.deepEqual([...parallel.slice(1)].sort(), serial.slice(0, -1));
  // After it, the suite's longest chains of requests: the mutated credentials, each after a
  // challenge of its own, then the walk along the links.
  assert.deepEqual(parallel.slice(1, 3), ["features/digest/mutants.feature", "features/snapshots/links.feature"]);
  // Cucumber takes the files in that order: the lost update is the run's last scenario.
  assert.match((await cucumberPlan("")).at(-1) ?? "", /lost-update\.feature:\d+$/);
});

test("a feature with a scenario that waits for the clock moves as a whole, whatever its place by path", () => {
  const at = (location: string, waitsForClock: boolean, length = 3) => ({
    name: "",
    location,
    tags: [],
    rows: [],
    levels: [],
    waitsForClock,
    length,
  });
  const features = [
    at("features/a/first.feature:3", true),
    at("features/a/first.feature:9", false),
    at("features/b/second.feature:3", false, 5),
    at("features/a/third.feature:4", false),
  ];
  assert.deepEqual(runOrder(features, false), [
    "features/a/third.feature",
    "features/b/second.feature",
    "features/a/first.feature",
  ]);
  // Where scenarios run at once, the rest go longest first.
  assert.deepEqual(runOrder(features, true), [
    "features/a/first.feature",
    "features/b/second.feature",
    "features/a/third.feature",
  ]);
});
