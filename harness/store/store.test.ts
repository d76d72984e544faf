/**
 * The store on a SQLite file: what a run records comes back as it was recorded, the same run is
 * kept once, a file that cannot be a store is refused in one line, and a writer killed in its
 * transaction leaves no part of its run. (The PostgreSQL backend: test/store-postgres.test.ts.)
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "libsql";
import { scratchDir } from "../../test/support/scratch.ts";
import {
  conformanceRun,
  interopRun,
  limitsRun,
  NO_PROVENANCE,
  storeWriterArgs,
} from "../../test/support/store-runs.ts";
import { runRecord } from "./records.ts";
import { shownUrl } from "./sql.ts";
import { noteKey, openStore, SCHEMA_VERSION, StoreError } from "./store.ts";

const folder = scratchDir("sxd-store-");
let files = 0;
const freshFile = () => join(folder, `store-${++files}.db`);

test("a run's record comes back whole, each row's notes apart; the same run recorded twice is one", async () => {
  const store = await openStore(join(folder, "made", "on", "first-use.db"));
  try {
    const provenance = { label: "a1b2c3d", ref: "main", jobUrl: "https://ci.test/job/7", folder: "/reports" };
    const runs = [
      runRecord(conformanceRun({ "DIG-1": "passed", "DIG-2": "failed" }), provenance),
      runRecord(
        limitsRun((n) => n / 10),
        NO_PROVENANCE,
      ),
      runRecord(interopRun({ "curl/ref/digest-get": "failed", "wget/ref/digest-get": "succeeded" }), NO_PROVENANCE),
    ];
    for (const run of runs) assert.equal(await store.record(run), true);
    assert.equal(await store.record(runs[0] as (typeof runs)[0]), false, "a run already stored is not written again");
    const back = await store.runs();
    assert.equal(back.length, 3);
    const [conformance] = runs;
    const stored = back.find((run) => run.kind === "test");
    assert.ok(conformance?.rows[1]?.exchange?.includes('"status":500'), "the deciding exchange is recorded");
    assert.deepEqual(stored, {
      ...conformance,
      rows: conformance?.rows.map((row) => ({ ...row, reason: null, scenario: null, exchange: null })),
    });
    // What a row said beyond its verdict is read for the rows asked for.
    const notes = await store.notes([{ run: conformance?.id ?? "", row: "DIG-2" }]);
    const { reason, scenario, exchange } = conformance?.rows[1] ?? {};
    assert.deepEqual([...notes], [[noteKey(conformance?.id ?? "", "DIG-2"), { reason, scenario, exchange }]]);
    assert.deepEqual(back.find((run) => run.kind === "limits")?.points, runs[1]?.points);
    assert.deepEqual(back.find((run) => run.kind === "interop")?.cells, runs[2]?.cells);
    assert.deepEqual(
      (await store.runs({ label: "a1b2c3d" })).map((run) => run.kind),
      ["test"],
    );
  } finally {
    await store.close();
  }
});

test("a file that is not a database is refused in one line", async () => {
  const file = freshFile();
  writeFileSync(file, "these are notes, not a database\n".repeat(200));
  await assert.rejects(openStore(file), (error: Error) => {
    assert.ok(error instanceof StoreError);
    assert.equal(error.message, `${file} is not a database (not a SQLite file)`);
    return true;
  });
});

test("a store written by a newer sxd is refused, saying so, and left as it was", async () => {
  const file = freshFile();
  await (await openStore(file)).close();
  const db = new Database(file);
  db.prepare("UPDATE sxd_meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
  db.close();
  await assert.rejects(
    openStore(file),
    /was written by a newer sxd \(its schema is version 2; this sxd knows up to 1\)/,
  );
  const after = new Database(file);
  assert.deepEqual(after.prepare("SELECT value FROM sxd_meta").all(), [{ value: String(SCHEMA_VERSION + 1) }]);
  after.close();
});

test("another program's SQLite database is not made a store", async () => {
  const file = freshFile();
  const db = new Database(file);
  db.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
  db.close();
  await assert.rejects(
    openStore(file),
    /is a SQLite database of something else \(tables invoices\), not a store of sxd/,
  );
});

test("a writer killed in its transaction leaves no part of its run; the runs before it stay whole", async () => {
  const file = freshFile();
  // A child records small runs, then one of many rows, and is killed while that one is written.
  const child = spawn(process.execPath, storeWriterArgs([file, "small", "3", "big"]), {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let said = "";
  // SQLite keeps a rollback journal beside the file for as long as a write transaction is open.
  const journal = `${file}-journal`;
  const watch = setInterval(() => {
    if (said.includes("writing the big run") && existsSync(journal)) child.kill("SIGKILL");
  }, 2);
  child.stdout.on("data", (chunk) => {
    said += String(chunk);
  });
  const [, signal] = await new Promise<unknown[]>((resolve) => child.once("exit", (...end) => resolve(end)));
  clearInterval(watch);
  assert.equal(signal, "SIGKILL", `the writer ended before it was killed, having said: ${said}`);
  // The kill came inside the transaction: its journal is still there for the next opening to roll back.
  assert.ok(existsSync(journal), "killed while writing");
  const store = await openStore(file);
  try {
    const runs = await store.runs();
    assert.deepEqual(
      runs.map((run) => run.rows.length),
      [2, 2, 2],
      "the three small runs whole, the big one absent",
    );
  } finally {
    await store.close();
  }
});

test("a PostgreSQL URL's password is never shown, an @ in it included; a URL pg cannot read is refused in one line", async () => {
  assert.equal(shownUrl("postgres://sxd:pa@ss@127.0.0.1:5432/runs"), "postgres://sxd:•••@127.0.0.1:5432/runs");
  assert.equal(shownUrl("postgresql://sxd:secret@db/runs?x=a@b"), "postgresql://sxd:•••@db/runs?x=a@b");
  assert.equal(shownUrl("/var/lib/sxd/runs.db"), "/var/lib/sxd/runs.db");
  const opening = openStore("postgres://u:s3cr%t@127.0.0.1:notaport/db");
  await assert.rejects(opening, (error: Error) => {
    assert.ok(error instanceof StoreError, String(error));
    assert.match(
      error.message,
      /^the store postgres:\/\/u:•••@127\.0\.0\.1:notaport\/db is not a PostgreSQL URL pg can read: /,
    );
    assert.doesNotMatch(error.message, /s3cr/);
    return true;
  });
});
