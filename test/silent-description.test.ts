/**
 * Silence is not "no", nor the reference's choice: where the description of a team's server
 * leaves a behaviour's keys out, its rows are not run, naming the keys, and nothing is sent
 * to the reference's paths (issue: a digest server that serves no entries was warned on
 * SNAP-13 for a 404 under /entries/).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { REFERENCE_DESCRIPTION, type RunningReference, startReference } from "../reference/index.ts";
import { behaviourTags, exchangesOf, rowsWith, runAgainstTarget } from "./support/suite.ts";

const SNAP_ROWS = loadRows()
  .map((r) => r.id)
  .filter((id) => id.startsWith("SNAP-"));

let server: RunningReference;
before(async () => {
  server = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
  });
});
after(() => server.close());

function described(layer: Partial<TargetDescription>): TargetDescription {
  const resolved = resolveDescription([{ baseUrl: server.urls.base }, layer]);
  assert.ok(resolved.ok);
  return resolved.value;
}

test("a description with a digest section only: the snapshot rows are not run, naming the key, and no warning", async () => {
  const run = await runAgainstTarget(described({ digest: REFERENCE_DESCRIPTION.digest }), {
    tags: `${behaviourTags("SNAP", SNAP_ROWS)} or @DIG-1 or @DIG-4`,
  });
  assert.deepEqual(rowsWith(run, "not run"), [...SNAP_ROWS].sort());
  assert.deepEqual(rowsWith(run, "passed"), ["DIG-1", "DIG-4"]);
  assert.deepEqual(rowsWith(run, "warning", "failed"), []);
  for (const row of run.judgement.rows.filter((r) => r.row.id.startsWith("SNAP-"))) {
    assert.match(row.reason ?? "", /state snapshots\.collection \(or snapshots\.resources/, row.row.id);
    assert.deepEqual(exchangesOf(run, row.row.id), [], `${row.row.id}: nothing sent to the reference's paths`);
  }
});

test("a base URL alone states no protected resource: the digest rows are not run, naming the keys", async () => {
  const run = await runAgainstTarget(described({}), { tags: "@DIG-1 or @DIG-4" });
  assert.deepEqual(rowsWith(run, "not run"), ["DIG-1", "DIG-4"]);
  const reasonOf = (id: string) => run.judgement.rows.find((r) => r.row.id === id)?.reason ?? "";
  // DIG-1 asks without credentials: the path is all it needs.
  assert.match(reasonOf("DIG-1"), /state digest\.path$/);
  assert.match(reasonOf("DIG-4"), /state digest\.path, digest\.username, digest\.password$/);
});

test("a protected path with no user: the rows that only ask without credentials run, the rest name the user's keys", async () => {
  const run = await runAgainstTarget(described({ digest: { path: REFERENCE_DESCRIPTION.digest.path } }), {
    tags: "@DIG-1 or @DIG-2 or @DIG-3 or @DIG-4 or @DIG-13 or @DIG-14",
  });
  // DIG-13 only samples challenges: it needs no user either.
  assert.deepEqual(rowsWith(run, "passed"), ["DIG-1", "DIG-13", "DIG-14", "DIG-2"]);
  // DIG-3's second case answers a challenge, as DIG-4 logs in: both need the user.
  assert.deepEqual(rowsWith(run, "not run"), ["DIG-3", "DIG-4"]);
  for (const id of ["DIG-3", "DIG-4"]) {
    const row = run.judgement.rows.find((r) => r.row.id === id);
    assert.match(row?.reason ?? "", /state digest\.username, digest\.password$/, id);
  }
});
