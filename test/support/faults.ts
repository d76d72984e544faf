/**
 * The suite proven to catch faults: for each faulty mode of the reference, a run of the
 * behaviour's rows must fail exactly the rows the fault claims to break, and no other.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRows } from "../../harness/catalogue.ts";
import { PACKAGE_ROOT } from "../../harness/run.ts";
import { loadScenarios } from "../../harness/scenarios.ts";
import type { FaultInfo } from "../../reference/index.ts";
import { FAULTS } from "../../reference/index.ts";
import { behaviourTags, rowsWith, runAgainstReference } from "./suite.ts";

export function checkFaultsOf(prefix: "SNAP" | "DIG" | "EXP"): void {
  const tags = behaviourTags(
    prefix,
    loadRows().map((r) => r.id),
  );
  const faults = (Object.entries(FAULTS) as [string, FaultInfo][]).filter(([, info]) =>
    info.breaks.some((row) => row.startsWith(`${prefix}-`)),
  );
  // Scenarios some fault made fail; a scenario no fault can make fail checks nothing.
  const caught = new Set<string>();
  test(`${prefix}: every fault breaks the rows it names, and only those`, async (t) => {
    assert.ok(faults.length > 0, `no faults for ${prefix}`);
    for (const [name, info] of faults) {
      await t.test(name, async () => {
        const run = await runAgainstReference({ faults: [name], tags, strict: true });
        assert.deepEqual(rowsWith(run, "failed"), [...info.breaks].sort(), `fault ${name}: ${info.description}`);
        assert.equal(run.exitCode, 1);
        for (const row of run.judgement.rows) {
          for (const s of row.scenarios) if (s.status === "failed") caught.add(s.location);
        }
      });
    }
  });
  test(`${prefix}: every scenario fails under at least one fault`, () => {
    const scenarios = loadScenarios(PACKAGE_ROOT).filter((s) => s.rows.some((r) => r.startsWith(`${prefix}-`)));
    const uncaught = scenarios.filter((s) => !caught.has(s.location)).map((s) => `${s.location} ${s.name}`);
    assert.deepEqual(uncaught, [], `scenarios no fault makes fail:\n${uncaught.join("\n")}`);
  });
}
