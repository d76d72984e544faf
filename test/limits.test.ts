// sxd limits as a user runs it, on small sizes: the reference grows nowhere beyond what a case
// expects (its export is linear in the list's length), and each growth fault of the reference
// makes its own case grow and leaves another flat. The faults' growth is large per version, per
// nonce or per contact (a read from storage each), so small sizes show it; the reference's
// classes may be unclear on a busy machine, never linear (its export never faster).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { FAULTS, type FaultInfo, REFERENCE_DESCRIPTION, startReference } from "../reference/index.ts";
import { sxdHere, tempDir } from "./support/cli.ts";

const SMALL = [
  "--sizes",
  "LIM-1=3,10,30",
  "--sizes",
  "LIM-2=1,10,30",
  "--sizes",
  "LIM-3=1,10,30",
  "--sizes",
  "LIM-4=50,250,1250",
  "--sizes",
  "LIM-5=6,12,24",
  "--sizes",
  "LIM-6=1000,30000,1000000",
  "--sizes",
  "LIM-7=1,4,8",
  "--repeats",
  "5",
];

interface CaseDocument {
  id: string;
  status: string;
  growth?: string;
  reason?: string;
  limit?: { size: number; said: string };
  observed?: Array<{ size: number; said: string }>;
  lowered?: Array<{ size: number; reason: string }>;
  notes?: string[];
  series: Array<{
    name: string;
    growth?: string;
    exponent?: number;
    points: Array<{ size: number; repeats: number[] }>;
  }>;
  memory?: { unit: string; points: unknown[] };
}

async function limits(cases: string, extra: string[] = [], env: Record<string, string> = {}) {
  const dir = tempDir();
  const run = await sxdHere(["limits", "--cases", cases, ...SMALL, "--report-dir", dir, ...extra], env);
  const doc = JSON.parse(readFileSync(join(dir, "limits.json"), "utf8")) as { cases: CaseDocument[] };
  assert.ok(schemaAccepts(doc), `limits.json against its schema: ${JSON.stringify(schemaAccepts.errors)}`);
  return { run, dir, cases: new Map(doc.cases.map((c) => [c.id, c])) };
}

const schemaAccepts = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL("../schema/limits.schema.json", import.meta.url), "utf8")),
);

const growing = (growth: string | undefined) => growth === "linear" || growth === "faster";

test("the bundled reference: no case grows, no finding, exit 0; the reports hold every case", async () => {
  // An export costs microseconds a contact beside a millisecond or two a request: its growth shows
  // over the reference's own lists, a hundredfold apart, and costs well under a second.
  const { run, dir, cases } = await limits("LIM-1,LIM-2,LIM-3,LIM-4,LIM-5,LIM-6,LIM-7", [
    "--sizes",
    "LIM-5=10,100,1000",
  ]);
  assert.equal(run.code, 0, run.stderr);
  for (const id of ["LIM-1", "LIM-2", "LIM-3", "LIM-4", "LIM-5", "LIM-6", "LIM-7"]) {
    const measured = cases.get(id);
    assert.equal(measured?.status, "measured", `${id}: ${JSON.stringify(measured)}`);
    assert.ok(!growing(measured?.growth), `${id} classed ${measured?.growth}: ${JSON.stringify(measured?.series)}`);
    assert.ok(measured?.memory, `${id}: the bundled reference's memory is read`);
  }
  // A nonce issued before the flood still gets in, or is refused as stale: never the user asked again.
  const late = cases.get("LIM-4")?.observed ?? [];
  assert.equal(late.length, 3);
  for (const { said } of late) assert.match(said, /still gets in|refused as stale/);
  // The export handles every contact: linear (unclear where the machine is busy), never faster or flat.
  const exported = cases.get("LIM-5")?.series[0];
  assert.match(exported?.growth ?? "", /^(linear|unclear)$/, JSON.stringify(exported));
  assert.ok((exported?.exponent ?? 0) > 0.2 && (exported?.exponent ?? 2) <= 1.3, JSON.stringify(exported));
  assert.match(cases.get("LIM-5")?.notes?.join() ?? "", /long-1000\): the spec gives no way to delete them/);
  // The reference refuses an entry over its limit with 413: the series ends there, naming it.
  assert.match(cases.get("LIM-6")?.limit?.said ?? "", /413/);
  const html = readFileSync(join(dir, "limits.html"), "utf8");
  assert.ok((html.match(/<svg /g) ?? []).length >= 8, "a chart per series");
  assert.match(readFileSync(join(dir, "summary.md"), "utf8"), /\| LIM-1 \|/);
  assert.match(run.stdout, /^LIM-5: flat — export (linear|unclear)/m);
});

const GROWTH_FAULTS = (Object.entries(FAULTS) as Array<[string, FaultInfo]>).flatMap(([fault, info]) =>
  info.grows ? [{ fault, own: info.grows[0] }] : [],
);

for (const { fault, own } of GROWTH_FAULTS) {
  // Another case the fault must leave flat: a snapshot fault's neighbour, the others' a snapshot case.
  // LIM-5 expects its export to grow linearly: it grows only where the export is faster (quadratic).
  const other = own === "LIM-1" ? "LIM-2" : "LIM-1";
  test(`${fault} makes ${own} grow and leaves ${other} alone; --fail-on linear exits 1`, async () => {
    const { run, cases } = await limits(`${own},${other}`, ["--reference-fault", fault, "--fail-on", "linear"]);
    const grown = cases.get(own);
    assert.ok(growing(grown?.growth), `${own} under ${fault}: ${grown?.growth} ${JSON.stringify(grown?.series)}`);
    assert.ok(!growing(cases.get(other)?.growth), `${other} under ${fault}: ${cases.get(other)?.growth}`);
    assert.equal(run.code, 1, "a case grows as --fail-on names");
  });
}

test("LIM-5 runs on the lists the description names: not run without export.longLists, naming it; a list of another length is not measured, saying so", async () => {
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    longLists: [10, 100],
  });
  // The servers' URLs given as sxd test takes them: by flags beside a description without them
  // (issue 57's command line), and by the environment.
  const { urls } = reference;
  const config = (longLists?: Array<{ user: string; contacts: number }>) => {
    const file = join(tempDir(), "target.json");
    const description = { ...REFERENCE_DESCRIPTION, export: { ...REFERENCE_DESCRIPTION.export, longLists } };
    writeFileSync(file, JSON.stringify(description));
    return ["--config", file, "--sizes", "LIM-5=10,100,1000"];
  };
  const flags = ["--base-url", urls.base, "--contacts-url", urls.contacts, "--messaging-url", urls.messaging];
  const env = { SXD_BASE_URL: urls.base, SXD_CONTACTS_URL: urls.contacts, SXD_MESSAGING_URL: urls.messaging };
  try {
    const silent = await limits("LIM-5", config(), env);
    assert.equal(silent.cases.get("LIM-5")?.status, "not run");
    assert.match(silent.cases.get("LIM-5")?.reason ?? "", /state export\.longLists/);
    const named = await limits("LIM-5", [
      ...flags,
      ...config([
        { user: "long-10", contacts: 10 },
        { user: "long-100", contacts: 100 },
        { user: "long-100", contacts: 1000 },
      ]),
    ]);
    const measured = named.cases.get("LIM-5");
    assert.equal(measured?.status, "measured", JSON.stringify(measured));
    assert.deepEqual(
      measured?.series[0].points.map((p) => p.size),
      [10, 100],
    );
    assert.match(JSON.stringify(measured?.lowered), /long-100 holds 100 contacts, not the 1000/);
  } finally {
    await reference.close();
  }
});

test("LIM-5: an export that leaves contacts out is a finding, with the exchange that shows it, and exits 1", async () => {
  const { run, cases } = await limits("LIM-5", ["--reference-fault", "exp-import-stores-nothing", "--repeats", "1"]);
  const found = cases.get("LIM-5") as CaseDocument & { finding?: { message: string; exchange?: string } };
  assert.equal(found.status, "finding", JSON.stringify(found));
  assert.match(found.finding?.message ?? "", /after the export of long-6's 6 contacts: .* 6 of 6 missing/);
  assert.match(found.finding?.exchange ?? "", /^> GET http:\/\/\S+\/user\/long-6\n/);
  assert.equal(run.code, 1);
});

test("usage errors are one line and exit 2", async () => {
  for (const args of [
    ["--sizes", "2"],
    ["--fail-on", "quadratic"],
    ["--cases", "LIM-9"],
  ]) {
    const run = await sxdHere(["limits", ...args]);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr, /^sxd: .*\n$/);
  }
});
