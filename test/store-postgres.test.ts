/**
 * The store on PostgreSQL: a throwaway server of this file's own (test/support/postgres.ts:
 * Debian's postgresql, initdb in a temporary folder, a free port; scripts/setup-postgresql.sh
 * installs it, and where it cannot be had every test here is skipped, saying why). Writers at
 * once lose nothing and a killed one leaves no part of its run; a store that cannot be used stops
 * sxd test before it starts; one that goes away during the run leaves the reports; and a server
 * tried under three labels, correct, broken, fixed, has a history that names the run that broke
 * it and the one that fixed it, calls nothing intermittent, and reads the same from --store as
 * from `sxd history add` of the same report folders into a SQLite file.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import type { HistoryDocument } from "../harness/store/history.ts";
import { openStore, SCHEMA_VERSION } from "../harness/store/store.ts";
import { referenceDescriptionFile, sxdHere, tempDir } from "./support/cli.ts";
import { hostile, PROBE_REPLY } from "./support/hostile.ts";
import { BROKEN_THEN_FIXED, underLabels } from "./support/labels.ts";
import { freePort } from "./support/ports.ts";
import { postgresMissing, startPostgres, type ThrowawayPostgres } from "./support/postgres.ts";
import { storeWriterArgs } from "./support/store-runs.ts";

const skip = postgresMissing();
let server: ThrowawayPostgres;
before(async () => {
  if (!skip) server = await startPostgres();
});
after(() => server?.stop());

function writer(url: string, name: string, count: number, big = false) {
  const args = storeWriterArgs([url, name, String(count), ...(big ? ["big"] : [])]);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let said = "";
  child.stdout.on("data", (chunk) => {
    said += String(chunk);
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, ended, said: () => said };
}

test("three writers at once: every finished run whole; the one killed in its transaction leaves its big run absent", {
  skip,
}, async () => {
  // A new database: the three make its tables at once, one of them under the migrations' lock.
  const url = server.url("writers");
  const killed = `${url}?application_name=sxd-killed-writer`;
  const writers = [writer(url, "one", 12), writer(url, "two", 12), writer(killed, "three", 6, true)];
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  let inTransaction = false;
  try {
    const three = writers[2] as ReturnType<typeof writer>;
    while (!inTransaction) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (!three.said().includes("writing the big run")) continue;
      const open = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'sxd-killed-writer' AND xact_start IS NOT NULL",
      );
      inTransaction = (open.rows[0] as { n: number }).n > 0;
    }
    three.child.kill("SIGKILL");
    const ends = await Promise.all(writers.map((w) => w.ended));
    assert.deepEqual(
      ends.map((e) => e.code ?? e.signal),
      [0, 0, "SIGKILL"],
    );
  } finally {
    await watcher.end();
  }
  const store = await openStore(url);
  try {
    const runs = await store.runs();
    const byTarget = (name: string) => runs.filter((r) => r.target === `http://${name}.test`);
    assert.equal(byTarget("one").length, 12);
    assert.equal(byTarget("two").length, 12);
    assert.equal(byTarget("three").length, 6, "its six small runs, not its big one");
    assert.ok(
      runs.every((r) => r.rows.length === 2),
      "every run whole: both its rows",
    );
  } finally {
    await store.close();
  }
});

/** sxd test in this process against `baseUrl`, DIG-1's scenarios only, into a new report folder. */
async function testRun(baseUrl: string, store: string, label: string, folder = join(tempDir(), "reports")) {
  const run = await sxdHere([
    "test",
    ...["--config", referenceDescriptionFile(), "--base-url", baseUrl, "--tags", "@DIG-1"],
    ...["--store", store, "--label", label, "--report-dir", folder],
  ]);
  return { ...run, folder };
}

test("a store that cannot be used stops sxd test before it starts: one line, exit 2, no report", { skip }, async () => {
  const newer = server.url("newer");
  await (await openStore(newer)).close();
  const admin = new pg.Client({ connectionString: newer });
  await admin.connect();
  await admin.query("UPDATE sxd_meta SET value = $1 WHERE key = 'schema_version'", [String(SCHEMA_VERSION + 1)]);
  await admin.end();
  const shown = (url: string) => url.replace(/:[^:@/]+@/, ":•••@");
  const refusals: Array<[string, string]> = [
    [
      server.wrongPasswordUrl("newer"),
      `the store ${shown(server.wrongPasswordUrl("newer"))}: the server refused the password`,
    ],
    [
      newer,
      `the store ${shown(newer)} was written by a newer sxd (its schema is version ${SCHEMA_VERSION + 1}; this sxd knows up to ${SCHEMA_VERSION}): use that sxd or a newer one`,
    ],
    [`postgres://sxd:x@127.0.0.1:${await freePort()}/none`, "nothing listening there (connection refused)"],
  ];
  for (const [url, why] of refusals) {
    const run = await testRun("http://127.0.0.1:9", url, "v1");
    assert.equal(run.code, 2, url);
    assert.equal(run.stdout, "", "nothing ran");
    assert.match(run.stderr, /^sxd: [^\n]+\n$/, "one line");
    assert.ok(run.stderr.includes(why), `${run.stderr} says ${why}`);
    assert.equal(existsSync(join(run.folder, REPORT_FILES.conformanceJson)), false);
  }
});

test("a store that goes away during the run: the reports stay written, one line, exit 2", { skip }, async () => {
  const url = server.url("going");
  const admin = new pg.Client({ connectionString: server.url("postgres") });
  await admin.connect();
  const target = await hostile((socket, n) => {
    if (n === 1) admin.query("DROP DATABASE going").catch(() => undefined);
    socket.end(PROBE_REPLY);
  });
  try {
    const run = await testRun(target.url, url, "v1");
    assert.equal(run.code, 2, run.stdout);
    assert.match(
      run.stderr.split("\n").at(-2) ?? "",
      /^sxd: the run is not recorded \(its reports are in .*\): the store postgres:\/\/sxd:•••@.*\/going: no such database on the server$/,
    );
    assert.ok(existsSync(join(run.folder, REPORT_FILES.conformanceJson)));
  } finally {
    target.close();
    await admin.end();
  }
});

test("a server tried under three labels: history names the run that broke it and the one that fixed it, nothing intermittent", {
  skip,
}, async () => {
  const url = server.url("labels");
  const folders: string[] = [];
  let port = "";
  await underLabels(BROKEN_THEN_FIXED, async (baseUrl, label) => {
    port = new URL(baseUrl).port;
    for (let n = 0; n < 2; n++) {
      const run = await testRun(baseUrl, url, label);
      assert.equal(run.code, label === "broken" ? 1 : 0, `${label}: ${run.stdout}`);
      folders.push(run.folder);
    }
  });
  const shown = await sxdHere(["history", "--store", url, "--json"]);
  assert.equal(shown.code, 0, shown.stderr);
  const history = JSON.parse(shown.stdout) as HistoryDocument;
  assert.deepEqual(
    history.targets.map((t) => [t.target, t.runs]),
    [[`http://127.0.0.1:${port}`, 6]],
  );
  const rows = history.targets[0]?.rows ?? [];
  const dig1 = rows.find((r) => r.id === "DIG-1");
  assert.deepEqual(
    dig1?.stretches.map((s) => [s.verdict, s.runs, s.first.label, s.last.label]),
    [
      ["passed", 2, "correct", "correct"],
      ["failed", 2, "broken", "broken"],
      ["passed", 2, "fixed", "fixed"],
    ],
  );
  assert.equal(dig1?.firstFailed?.label, "broken");
  assert.equal(dig1?.firstFailed?.folder, folders[2], "the first broken run's reports");
  assert.equal(dig1?.fixedBy?.label, "fixed");
  assert.equal(dig1?.fixedBy?.folder, folders[4]);
  assert.deepEqual(
    rows.filter((r) => r.intermittent).map((r) => r.id),
    [],
  );
  const text = await sxdHere(["history", "--store", url, "--row", "DIG-1"]);
  assert.match(
    text.stdout,
    /DIG-1: passed in 2 runs from correct to correct; failed in 2 runs from broken to broken; passed in 2 runs from fixed to fixed/,
  );
  assert.match(text.stdout, /first failed: broken, \d{4}-\d{2}-\d{2}, .*; fixed by fixed, /);

  // The same folders added to a SQLite store, each under its label: the same history.
  const file = join(tempDir(), "added.db");
  for (const [i, label] of ["correct", "correct", "broken", "broken", "fixed", "fixed"].entries()) {
    const add = await sxdHere(["history", "add", folders[i] as string, "--store", file, "--label", label]);
    assert.equal(add.code, 0, add.stderr);
  }
  const fromFolders = await sxdHere(["history", "--store", file, "--json"]);
  assert.deepEqual({ ...(JSON.parse(fromFolders.stdout) as HistoryDocument), store: "" }, { ...history, store: "" });
  assert.match(readFileSync(join(folders[2] as string, REPORT_FILES.conformanceJson), "utf8"), /"verdict": "failed"/);
});
