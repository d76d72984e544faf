// sxd limits against a snapshot server shaped unlike the reference (test/snapshot-targets:
// written from SPEC.md alone, resources under /notes/, each version dated a second after the
// last): the correct server is flat in every snapshot case; its twin that rebuilds an old
// snapshot from differences, a storage read per version after it, grows in LIM-1 and only there.
// Small sizes: the twin's cost per version is large enough to show at 30 versions.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startCarefulServer } from "./snapshot-targets/careful-servers.ts";
import { sxdHere, tempDir } from "./support/cli.ts";

const SMALL = ["--sizes", "LIM-1=3,10,30", "--sizes", "LIM-2=1,10,30", "--sizes", "LIM-3=1,10,30", "--repeats", "5"];

interface Measured {
  id: string;
  status: string;
  growth?: string;
  series: Array<{ name: string; growth?: string }>;
}

async function limitsOf(replaysDifferences: boolean, cases: string) {
  const server = await startCarefulServer({ dates: "dates ahead", replaysDifferences });
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
  const cases = await limitsOf(false, "LIM-1,LIM-2,LIM-3");
  for (const id of ["LIM-1", "LIM-2", "LIM-3"]) {
    const measured = cases.get(id);
    assert.equal(measured?.status, "measured", `${id}: ${JSON.stringify(measured)}`);
    assert.ok(!growing(measured?.growth), `${id} classed ${measured?.growth}: ${JSON.stringify(measured?.series)}`);
  }
});

test("its twin that rebuilds a snapshot from differences grows in LIM-1, reading s1, and not in LIM-2", async () => {
  const cases = await limitsOf(true, "LIM-1,LIM-2");
  const s1 = cases.get("LIM-1")?.series.find((s) => s.name === "GET s1");
  assert.ok(growing(s1?.growth), `GET s1 classed ${s1?.growth}`);
  assert.ok(growing(cases.get("LIM-1")?.growth));
  assert.ok(!growing(cases.get("LIM-2")?.growth), `LIM-2 classed ${cases.get("LIM-2")?.growth}`);
});
