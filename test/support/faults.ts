/**
 * The suite proven to catch faults: for each faulty mode of the reference, a run of the
 * behaviour's rows must fail exactly the rows the fault claims to break, and no other.
 *
 * Each run's failure summary (the rows that did not pass, their scenarios, and the first lines
 * of each message, see failure-summary.ts) must equal test/expected-failures/<fault>.txt, so a
 * change of wording or of the scenario that fails shows in review as a diff of that file.
 * After a change meant to alter them, rewrite the files and read the diff:
 *
 *   SXD_UPDATE_EXPECTED=1 node scripts/run-tests.mjs faults-
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { test } from "node:test";
import { loadRows } from "../../harness/judging/catalogue.ts";
import { loadScenarios } from "../../harness/judging/scenarios.ts";
import { PACKAGE_ROOT } from "../../harness/package.ts";
import { FAULTS, type FaultInfo } from "../../reference/index.ts";
import { failureSummary } from "./failure-summary.ts";
import { SOURCE_ROOT } from "./source-root.ts";
import { behaviourTags, rowsWith, runAgainstReference } from "./suite.ts";

// The checkout's folder, not the test tree's: a file written with SXD_UPDATE_EXPECTED=1 must land
// where git sees it, also where none was pinned before (the test tree links only to those pinned when it was built).
const EXPECTED_DIR = join(SOURCE_ROOT, "test", "expected-failures", sep);
const UPDATE_EXPECTED = process.env.SXD_UPDATE_EXPECTED === "1";

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
  test(`${prefix}: every fault breaks the rows it names, and only those, with its pinned summary`, async (t) => {
    assert.ok(faults.length > 0, `no faults for ${prefix}`);
    for (const [name, info] of faults) {
      await t.test(name, async () => {
        const run = await runAgainstReference({ faults: [name], tags, strict: true });
        assert.deepEqual(rowsWith(run, "failed"), [...info.breaks].sort(), `fault ${name}: ${info.description}`);
        assert.equal(run.exitCode, 1);
        for (const row of run.judgement.rows) {
          for (const s of row.scenarios) if (s.status === "failed") caught.add(s.location);
        }
        checkPinnedSummary(name, failureSummary(run));
      });
    }
  });
  test(`${prefix}: every scenario fails under at least one fault`, () => {
    const scenarios = loadScenarios(PACKAGE_ROOT).filter((s) => s.rows.some((r) => r.startsWith(`${prefix}-`)));
    const uncaught = scenarios.filter((s) => !caught.has(s.location)).map((s) => `${s.location} ${s.name}`);
    assert.deepEqual(uncaught, [], `scenarios no fault makes fail:\n${uncaught.join("\n")}`);
  });
  test(`${prefix}: every pinned summary belongs to a fault mode`, () => {
    const known = new Set(faults.map(([name]) => `${name}.txt`));
    const pinned = existsSync(EXPECTED_DIR) ? readdirSync(EXPECTED_DIR) : [];
    const orphans = pinned.filter((file) => file.startsWith(`${prefix.toLowerCase()}-`) && !known.has(file));
    assert.deepEqual(orphans, [], `expected files of no fault mode in ${EXPECTED_DIR}: delete them`);
  });
}

function checkPinnedSummary(fault: string, actual: string): void {
  const file = `${EXPECTED_DIR}${fault}.txt`;
  if (UPDATE_EXPECTED) {
    mkdirSync(EXPECTED_DIR, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `no pinned summary ${file}: write it with SXD_UPDATE_EXPECTED=1`);
  assert.equal(
    actual,
    readFileSync(file, "utf8"),
    `the failure summary of ${fault} differs from ${file}; if the change is meant, rewrite it with SXD_UPDATE_EXPECTED=1 and review the diff`,
  );
}
