/**
 * The store of results on a SQLite file, through the command line in this process (sxdHere):
 * `sxd test --store` records the run its reports hold, `sxd history add` of the same folders
 * makes the same history, a store that cannot be used stops the run before it starts, a store
 * that fails after the run leaves the reports and exits 2, and history.json keeps its schema.
 * (PostgreSQL, and a server tried under three labels: test/store-postgres.test.ts.)
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Static } from "typebox";
import type { HISTORY_SCHEMA } from "../harness/description/schemas/history.ts";
import type { ConformanceDocument } from "../harness/evidence/conformance-document.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import { catalogueVersion } from "../harness/judging/catalogue.ts";
import type { HistoryDocument } from "../harness/store/history.ts";
import { REFERENCE_DESCRIPTION, startReference } from "../reference/index.ts";
import { EXAMPLE_CLIENT, referenceDescriptionFile, sxdHere, tempDir } from "./support/cli.ts";
import { hostile, PROBE_REPLY } from "./support/hostile.ts";

// The declared schema and the document's type say the same, both ways (else this file does not compile).
const asSchema = (doc: HistoryDocument): Static<typeof HISTORY_SCHEMA> => doc;
const asDocument = (doc: Static<typeof HISTORY_SCHEMA>): HistoryDocument => doc;

const schemaAccepts = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL("../schema/history.schema.json", import.meta.url), "utf8")),
);

/** A secret of the description: the reports and the store mask it. */
const API_KEY = "k-hush-5f3a9";

/** A few rows' scenarios only: the store, not the suite, is under test. */
const TAGS = ["--tags", "@DIG-1 or @DIG-2"];

async function history(store: string, ...args: string[]): Promise<HistoryDocument> {
  const shown = await sxdHere(["history", "--store", store, "--json", ...args]);
  assert.equal(shown.code, 0, shown.stderr);
  const doc = JSON.parse(shown.stdout) as HistoryDocument;
  assert.ok(schemaAccepts(doc), `history.json against its schema: ${JSON.stringify(schemaAccepts.errors)}`);
  return asDocument(asSchema(doc));
}

test("sxd test --store records the run; sxd history add of its folders into another store makes the same history; the bundled reference is one target whatever its ports", async () => {
  const dir = tempDir();
  const stored = join(dir, "runs.db");
  const folders = [join(dir, "one"), join(dir, "two")];
  for (const folder of folders) {
    const run = await sxdHere([
      ...["test", ...TAGS, "--store", stored, "--label", "v1", "--report-dir", folder],
      ...["--header", `X-Api-Key: ${API_KEY}`],
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^recorded in .*runs\.db: test run [0-9a-f]{12} of the bundled reference, label v1$/m);
  }
  const added = join(dir, "added.db");
  const add = await sxdHere(["history", "add", ...folders, "--store", added, "--label", "v1"]);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /^added 2 of 2 runs$/m);
  const again = await sxdHere(["history", "add", folders[0] as string, "--store", stored, "--label", "v1"]);
  assert.match(again.stdout, /^already stored in .*: test run/m);
  assert.match(again.stdout, /^added 0 of 1 runs$/m, "a run recorded twice is kept once");

  // The run names the catalogue it judged by, and the description's keys it read, its secrets
  // masked (the description's password, the key sent in a header); the store keeps them.
  const text = readFileSync(join(folders[0] as string, REPORT_FILES.conformanceJson), "utf8");
  const written = JSON.parse(text) as ConformanceDocument;
  assert.equal(written.suite.catalogue, catalogueVersion());
  const { described, bundled } = written.target;
  assert.deepEqual(bundled, { variant: "standard", faults: [] });
  assert.deepEqual(
    [described?.digest?.path, described?.digest?.username, described?.digest?.password],
    [REFERENCE_DESCRIPTION.digest.path, REFERENCE_DESCRIPTION.digest.username, "•••"],
  );
  assert.equal(described?.snapshots?.collection, REFERENCE_DESCRIPTION.snapshots.collection);
  assert.equal(described?.headers?.base?.["X-Api-Key"], "•••");
  const { openStore } = await import("../harness/store/store.ts");
  const store = await openStore(stored);
  const runs = await store.runs();
  assert.deepEqual(
    runs.map((run) => run.catalogueVersion),
    [catalogueVersion(), catalogueVersion()],
  );
  assert.deepEqual(runs[0]?.targetDetail.described, described);
  await store.close();
  const storeBytes = readdirSync(dir)
    .filter((file) => file.startsWith("runs.db"))
    .map((file) => readFileSync(join(dir, file)).toString("latin1"))
    .join("");
  assert.ok(storeBytes.includes('"password":"'), "the store's bytes hold the described keys as text");
  for (const secret of [REFERENCE_DESCRIPTION.digest.password, API_KEY]) {
    assert.ok(!text.includes(secret), `${secret} is not in conformance.json`);
    assert.ok(!storeBytes.includes(secret), `${secret} is not in the store`);
  }

  const fromStore = await history(stored);
  const fromFolders = await history(added);
  assert.deepEqual({ ...fromFolders, store: "" }, { ...fromStore, store: "" });
  assert.equal(fromStore.runs, 2);
  // The bundled reference listens on new ports each run, and is one target: its two runs one stretch.
  assert.deepEqual(
    fromStore.targets.map((t) => [t.target, t.runs]),
    [["the bundled reference", 2]],
  );
  const rows = fromStore.targets.flatMap((t) => t.rows);
  assert.deepEqual(
    [...new Set(rows.map((r) => r.id))].sort(),
    ["DIG-1", "DIG-2"],
    "the rows the runs judged, no other",
  );
  assert.ok(
    rows.every((r) => r.stretches.length === 1 && r.stretches[0]?.verdict === "passed" && r.stretches[0].runs === 2),
  );
  assert.ok(rows.every((r) => !r.intermittent));
  assert.deepEqual(
    fromStore.targets.map((t) => [t.first.folder, t.last.folder]),
    [folders],
    "each run names its report folder",
  );

  const page = join(dir, "page");
  const shown = await sxdHere(["history", "--store", stored, "--row", "dig-1", "--html", page]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /passed in every run: 1 rows/);
  assert.match(readFileSync(join(page, REPORT_FILES.historyHtml), "utf8"), /<tr id="DIG-1">/);
  assert.deepEqual(
    (JSON.parse(readFileSync(join(page, REPORT_FILES.historyJson), "utf8")) as HistoryDocument).targets.map((t) =>
      t.rows.map((r) => r.id),
    ),
    [["DIG-1"]],
  );
  const none = await history(stored, "--label", "v2");
  assert.equal(none.runs, 0);
  assert.equal((await history(stored, "--since", "2999-01-01")).runs, 0);
});

test("a --repeat group and sxd limits are recorded too: the group's counts, and each case's cost by label", async () => {
  const dir = tempDir();
  const stored = join(dir, "runs.db");
  const group = await sxdHere([
    "test",
    "--tags",
    "@DIG-1",
    "--repeat",
    "2",
    "--store",
    stored,
    "--report-dir",
    join(dir, "g"),
  ]);
  assert.equal(group.code, 0, group.stderr);
  // One server measured under two labels: one target.
  const reference = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
  try {
    for (const label of ["v1", "v2"]) {
      const limits = ["limits", "--cases", "LIM-1", "--sizes", "LIM-1=3,10", "--repeats", "3"];
      const target = ["--config", referenceDescriptionFile(), "--base-url", reference.urls.base];
      const run = await sxdHere([
        ...limits,
        ...target,
        "--store",
        stored,
        "--label",
        label,
        "--report-dir",
        join(dir, label),
      ]);
      assert.equal(run.code, 0, run.stderr);
    }
  } finally {
    await reference.close();
  }
  const { openStore } = await import("../harness/store/store.ts");
  const store = await openStore(stored);
  const runs = await store.runs();
  await store.close();
  assert.deepEqual(
    runs.map((run) => run.kind),
    ["test", "limits", "limits"],
  );
  const dig1 = runs[0]?.rows.find((row) => row.id === "DIG-1");
  assert.deepEqual([dig1?.verdict, dig1?.repeats, dig1?.intermittent], ["passed", { passed: 2 }, false]);
  assert.deepEqual([...new Set(runs[1]?.points.map((p) => `${p.caseId} ${p.size}`))].sort(), ["LIM-1 10", "LIM-1 3"]);
  // limits.json keeps the description's keys the run read, the password masked; so does the store.
  const limitsText = readFileSync(join(dir, "v1", REPORT_FILES.limitsJson), "utf8");
  assert.ok(!limitsText.includes(REFERENCE_DESCRIPTION.digest.password));
  const described = { ...REFERENCE_DESCRIPTION, digest: { ...REFERENCE_DESCRIPTION.digest, password: "•••" } };
  assert.deepEqual(JSON.parse(limitsText).described, described);
  assert.deepEqual(runs[1]?.targetDetail.described, described);
  const measured = (await history(stored, "--row", "LIM-1")).targets.filter((t) => t.limits.length > 0);
  assert.deepEqual(
    measured.map((t) => t.target),
    [reference.urls.base],
  );
  const trends = measured[0]?.limits ?? [];
  assert.ok(trends.length > 0);
  for (const trend of trends) {
    assert.equal(trend.size, 10, "the largest size");
    assert.deepEqual(
      trend.labels.map((l) => l.label),
      ["v1", "v2"],
    );
  }
});

test("sxd test-client --store records the client's run: its target is the client's command, with the rows it judged", async () => {
  const dir = tempDir();
  const stored = join(dir, "runs.db");
  const folder = join(dir, "client");
  const run = await sxdHere([
    ...["test-client", "--run", EXAMPLE_CLIENT, "--tasks", "digest-get", "--allow-incomplete"],
    ...["--store", stored, "--label", "c1", "--report-dir", folder],
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stdout.endsWith(` of ${EXAMPLE_CLIENT}, label c1\n`), run.stdout);
  assert.match(run.stdout, /^recorded in .*runs\.db: test-client run [0-9a-f]{12} of /m);
  const shown = await history(stored);
  assert.equal(shown.runs, 1);
  assert.deepEqual(
    shown.targets.map((t) => [t.target, t.kinds, t.first.label, t.first.folder]),
    [[EXAMPLE_CLIENT, ["test-client"], "c1", folder]],
  );
  const written = JSON.parse(readFileSync(join(folder, REPORT_FILES.conformanceJson), "utf8")) as ConformanceDocument;
  const judged = written.rows.filter((row) => row.scenarios.length > 0);
  assert.ok(judged.length > 0 && judged.every((row) => row.id.startsWith("C")), "the client's rows");
  assert.deepEqual(
    shown.targets[0]?.rows.map((row) => [row.id, row.stretches.map((s) => `${s.verdict} x${s.runs}`)]),
    judged.map((row) => [row.id, [`${row.verdict} x1`]]),
  );
});

test("a store that cannot be used stops the run before it starts: one line, exit 2, no report", async () => {
  const dir = tempDir();
  const notes = join(dir, "notes.db");
  writeFileSync(notes, "a shopping list, not a database\n".repeat(100));
  const folder = join(dir, "reports");
  const run = await sxdHere(["test", ...TAGS, "--report-dir", folder], { SXD_STORE: notes });
  assert.equal(run.code, 2);
  assert.equal(run.stderr, `sxd: ${notes} is not a database (not a SQLite file)\n`);
  assert.equal(run.stdout, "", "nothing ran");
  assert.equal(existsSync(join(folder, REPORT_FILES.conformanceJson)), false);
  const missing = await sxdHere(["history", "--store", join(dir, "never-made.db")]);
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /^sxd: no store at .*never-made\.db: runs are recorded there with --store, or sxd history add\n$/,
  );
});

test("a store that fails after the run: the reports stay written, one line, exit 2", async () => {
  const dir = tempDir();
  const stored = join(dir, "runs.db");
  const made = await sxdHere(["history", "add", "--store", stored]);
  assert.equal(made.code, 2, "add without folders is a usage error");
  // The target spoils the store as it is first asked: the run goes on, its record cannot be made.
  const target = await hostile((socket, n) => {
    if (n === 1) writeFileSync(stored, "spoilt\n".repeat(1000));
    socket.end(PROBE_REPLY);
  });
  try {
    writeFileSync(stored, "");
    const folder = join(dir, "reports");
    const run = await sxdHere([
      "test",
      ...["--config", referenceDescriptionFile(), "--base-url", target.url, "--tags", "@DIG-1"],
      ...["--store", stored, "--report-dir", folder],
    ]);
    assert.equal(run.code, 2, run.stdout);
    assert.equal(
      run.stderr.split("\n").at(-2),
      `sxd: the run is not recorded (its reports are in ${folder}): ${stored} is not a database (not a SQLite file)`,
    );
    assert.match(readFileSync(join(folder, REPORT_FILES.conformanceJson), "utf8"), /"DIG-1"/);
  } finally {
    target.close();
  }
});

test("the label is the CI's commit where --label is not given, and the job's page is where the evidence lies", async () => {
  const { provenanceOf } = await import("../cli/store-run.ts");
  const github = {
    GITHUB_SHA: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    GITHUB_REF_NAME: "main",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "team/server",
    GITHUB_RUN_ID: "42",
  };
  assert.deepEqual(provenanceOf(undefined, github), {
    label: "9f8e7d6",
    ref: "main",
    jobUrl: "https://github.com/team/server/actions/runs/42",
  });
  const gitlab = { CI_COMMIT_SHA: "77aa01bb", CI_COMMIT_REF_NAME: "fix-dig6", CI_JOB_URL: "https://gitlab.test/j/7" };
  assert.deepEqual(provenanceOf(undefined, gitlab), {
    label: "77aa01b",
    ref: "fix-dig6",
    jobUrl: "https://gitlab.test/j/7",
  });
  assert.deepEqual(provenanceOf("release-2.1", gitlab).label, "release-2.1");
  assert.deepEqual(provenanceOf(undefined, {}), { label: null, ref: null, jobUrl: null });
});
