// Scenarios that act on the export user never run beside each other. Against a messaging server
// whose imports of one user are not serialised (the fault exp-import-not-serialised: an import
// empties the copy and refills it 100 ms later, and a POST meanwhile is answered at once), two
// export scenarios at once would see each other's work: one answered meanwhile reads an empty
// copy, and EXP-5, a MUST, would fail for EXP-7's SHOULD. With several scenarios at once in one
// process (sxd's choice for a far target) and with three worker processes, EXP-5 passes and
// EXP-7 alone fails. And a correct server whose single-use links come one at a time (a new one
// once the last is spent) passes: no scenario spends the link another has just read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveDescription } from "../harness/description/target.ts";
import type { FaultName } from "../reference/index.ts";
import { startExportPair } from "./export-targets/export-servers.ts";
import { farReference } from "./support/delay-proxy.ts";
import { rowsWith, runAgainstReference, runAgainstTarget } from "./support/suite.ts";

const FAULT: FaultName = "exp-import-not-serialised";
/** EXP-4, two EXP-5 scenarios and EXP-7: at once, some would POST while another's import runs. */
const TAGS = "@EXP-4 or @EXP-5 or @EXP-7";

test("several scenarios at once in one process: EXP-4 and EXP-5 pass, EXP-7 fails", async () => {
  const far = await farReference({ rttMs: 10, faults: [FAULT] });
  try {
    const run = await runAgainstTarget(far.target, { tags: TAGS, strict: true, parallel: "chosen" });
    assert.match(run.output, /round trip [\d.]+ ms: \d+ scenarios at once/);
    assert.deepEqual(rowsWith(run, "passed"), ["EXP-4", "EXP-5"], run.output);
    assert.deepEqual(rowsWith(run, "failed"), ["EXP-7"], run.output);
  } finally {
    await far.close();
  }
});

test("three worker processes: EXP-4 and EXP-5 pass, EXP-7 fails", async () => {
  const run = await runAgainstReference({ faults: [FAULT], tags: TAGS, strict: true, parallel: 3 });
  assert.deepEqual(rowsWith(run, "passed"), ["EXP-4", "EXP-5"], run.output);
  assert.deepEqual(rowsWith(run, "failed"), ["EXP-7"], run.output);
});

test("three worker processes against single-use links, a new one once the last is spent: the export rows pass", async () => {
  const pair = await startExportPair({ issue: "after-spent" });
  try {
    const resolved = resolveDescription([{ baseUrl: pair.description.messagingUrl, ...pair.description }]);
    assert.ok(resolved.ok);
    const run = await runAgainstTarget(resolved.value, {
      tags: "@EXP-4 or @EXP-5 or @EXP-6",
      strict: true,
      parallel: 3,
    });
    assert.deepEqual(rowsWith(run, "passed"), ["EXP-4", "EXP-5", "EXP-6"], run.output);
  } finally {
    await pair.close();
  }
});
