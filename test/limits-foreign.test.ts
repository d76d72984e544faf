// sxd limits against snapshot servers shaped unlike the reference (test/snapshot-targets:
// written from SPEC.md alone, resources under /notes/, each version a second of its own): the
// correct server that dates a quick version ahead of its clock is flat in every snapshot case,
// and so is the one that holds a quick update until its clock has passed the version before (a
// PUT timed within that second waits for it: sxd times an update only once the server's clock
// has passed, and builds the chain it times no faster than a version a second). The twin that
// rebuilds an old snapshot from differences, a storage read per version after it, grows in LIM-1
// and not in LIM-3. Small sizes: the twin's cost per version shows at 30 versions; LIM-2's chains
// take a second a version on these servers, so LIM-2 goes to 8.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { type CarefulRules, startCarefulServer } from "./snapshot-targets/careful-servers.ts";
import { sxdHere, tempDir } from "./support/cli.ts";

const SMALL = [
  ...["--sizes", "LIM-1=3,10,30", "--sizes", "LIM-2=1,3,8", "--sizes", "LIM-3=1,10,30"],
  ...["--sizes", "LIM-6=1000,30000,300000", "--repeats", "5"],
];

interface Measured {
  id: string;
  status: string;
  growth?: string;
  notes?: string[];
  series: Array<{ name: string; growth?: string; points: Array<{ size: number }> }>;
}

async function limitsOf(rules: CarefulRules, cases: string) {
  const server = await startCarefulServer(rules);
  try {
    const dir = tempDir();
    const config = join(dir, "target.json");
    writeFileSync(
      config,
      JSON.stringify({ baseUrl: server.description.baseUrl, snapshots: { collection: "/notes/" } }),
    );
    const run = await sxdHere(["limits", "--config", config, "--cases", cases, ...SMALL, "--report-dir", dir]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const doc = JSON.parse(readFileSync(join(dir, "limits.json"), "utf8")) as { cases: Measured[] };
    return new Map(doc.cases.map((c) => [c.id, c]));
  } finally {
    await server.close();
  }
}

const growing = (growth: string | undefined) => growth === "linear" || growth === "faster";

test("a server of another shape that keeps whole versions: every snapshot case flat", async () => {
  const cases = await limitsOf({ dates: "dates ahead" }, "LIM-1,LIM-2,LIM-3");
  for (const id of ["LIM-1", "LIM-2", "LIM-3"]) {
    const measured = cases.get(id);
    assert.equal(measured?.status, "measured", `${id}: ${JSON.stringify(measured)}`);
    assert.ok(!growing(measured?.growth), `${id} classed ${measured?.growth}: ${JSON.stringify(measured?.series)}`);
  }
});

test("its twin that rebuilds a snapshot from differences grows in LIM-1, reading s1, and not in LIM-3", async () => {
  // LIM-3 deletes chains of the same lengths, and reads no snapshot back but one already gone.
  const cases = await limitsOf({ dates: "dates ahead", replaysDifferences: true }, "LIM-1,LIM-3");
  const s1 = cases.get("LIM-1")?.series.find((s) => s.name === "GET s1");
  assert.ok(growing(s1?.growth), `GET s1 classed ${s1?.growth}`);
  assert.ok(growing(cases.get("LIM-1")?.growth));
  assert.ok(!growing(cases.get("LIM-3")?.growth), `LIM-3 classed ${cases.get("LIM-3")?.growth}`);
});

test("a server that holds a quick update until its clock has passed the version before: its updates flat, at every size", async () => {
  // Timed at once, the update of the size measured last in each turn waited for the server's
  // next second, and LIM-2 was "faster" (x826 from 1 to 6 versions).
  const cases = await limitsOf({ dates: "waits" }, "LIM-2,LIM-6");
  for (const id of ["LIM-2", "LIM-6"]) {
    const measured = cases.get(id);
    assert.equal(measured?.status, "measured", `${id}: ${JSON.stringify(measured)}`);
    assert.ok(!growing(measured?.growth), `${id} classed ${measured?.growth}: ${JSON.stringify(measured?.series)}`);
    assert.equal(measured?.notes, undefined, `${id}: every repeat under one condition`);
  }
  assert.deepEqual(
    cases.get("LIM-2")?.series[0].points.map((p) => p.size),
    [1, 3, 8],
  );
  assert.deepEqual(
    cases.get("LIM-6")?.series[0].points.map((p) => p.size),
    [1000, 30000, 300000],
  );
});
