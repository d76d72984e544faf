/**
 * The published package, as a user gets it: `npm pack` (which builds dist/), installed into
 * an empty folder with `npm install --omit=dev` from the local npm cache, then `npx sxd test`
 * against the bundled reference, `sxd serve` briefly, `sxd rows`, `sxd docs` and `sxd init`,
 * from there. One pack and one install for the whole file: they are the slow part. The first
 * run goes through npx, as a user types it; the others run the bin npx found there
 * (node_modules/.bin/sxd), without npm's own start-up each time (about 0.65 s of CPU).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type Installed, packAndInstall, USER_ENV } from "../scripts/install-tarball.ts";

let installed: Installed;
let app = "";
let work = "";

/** The installed command, as npx runs it; `through: "npx"` as a user types it. */
function sxd(args: string[], through?: "npx") {
  const [command, before] = through === "npx" ? ["npx", ["--no-install", "sxd"]] : [installedBin(), []];
  return spawnSync(command, [...before, ...args], { cwd: app, env: USER_ENV, encoding: "utf8" });
}

const installedBin = () => join(app, "node_modules", ".bin", "sxd");

before(
  () => {
    installed = packAndInstall();
    ({ app, work } = installed);
  },
  { timeout: 240_000 },
);

after(() => installed && rmSync(installed.work, { recursive: true, force: true }));

test("the package carries the compiled tool and its data, and no tests, screenshots or TypeScript sources", () => {
  const sxdFolder = join(app, "node_modules", "sxd");
  for (const path of ["dist/cli/main.js", "dist/steps/support/world.js", "features", "catalogue/rows.json"])
    assert.ok(existsSync(join(sxdFolder, path)), `${path} is missing`);
  assert.ok(existsSync(join(sxdFolder, "examples/reference.json")));
  assert.ok(existsSync(join(sxdFolder, "schema/target.schema.json")));
  assert.ok(
    existsSync(join(sxdFolder, "ci/sxd-ci.sh")),
    "the CI step, which the GitLab template runs from the package",
  );
  const files = readdirSync(sxdFolder, { recursive: true }).map(String);
  assert.deepEqual(
    files.filter((f) => /\.(ts|png)$/.test(f) || f.startsWith("test") || f.startsWith(".ci")),
    [],
  );
  assert.equal(existsSync(join(app, "node_modules", "tsx")), false, "tsx is a development dependency");
});

test("npx sxd test runs the whole suite against the bundled reference, with the compiled steps", () => {
  const run = sxd(["test", "--report-dir", join(work, "reports")], "npx");
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /verdict: conformant/);
  const report = JSON.parse(readFileSync(join(work, "reports", "conformance.json"), "utf8"));
  assert.ok(report.rows.length > 30);
  // Every row passed, but EXP-10: the reference's tokens are not new on each read, nothing to sample.
  const rows = report.rows as Array<{ id: string; verdict: string }>;
  assert.deepEqual(
    rows.filter((row) => row.verdict !== "passed").map((row) => `${row.id} ${row.verdict}`),
    ["EXP-10 not applicable"],
  );
});

test("sxd rows prints the matrix from the installed features", () => {
  const run = sxd(["rows", "--check"]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^SNAP-1 +MUST +\d+ scenario/m);
});

test("sxd docs builds the site from the installed features, script, style sheet and example client", () => {
  const out = join(work, "site");
  const run = sxd(["docs", "--out", out]);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const digest = readFileSync(join(out, "digest.html"), "utf8");
  assert.match(digest, /id="DIG-4"/);
  const clientDigest = readFileSync(join(out, "client-digest.html"), "utf8");
  assert.match(clientDigest, /id="CDIG-2"[\s\S]*What the example client sent to sxd's servers/);
  assert.ok(existsSync(join(out, "index.html")));
  // The LIM cases with the bundled reference measured as the site was built.
  const limits = readFileSync(join(out, "lim-cases.html"), "utf8");
  assert.match(limits, /what <code>sxd limits<\/code> measured of http:\/\/127\.0\.0\.1:\d+/);
  const lim1 = limits.slice(limits.indexOf('id="LIM-1"'), limits.indexOf('id="LIM-2"'));
  assert.match(lim1, /<b>Measured:<\/b> [a-z]+/);
  assert.match(lim1, /<svg [^>]*aria-label="GET s1: ms against N \(versions\)"/);
});

test("sxd serve starts the reference servers, which answer", async () => {
  const server: ChildProcess = spawn(
    installedBin(),
    ["serve", "--port", "0", "--contacts-port", "0", "--messaging-port", "0"],
    {
      cwd: app,
      env: USER_ENV,
      detached: true,
    },
  );
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout?.on("data", (chunk) => {
        out += chunk;
        const found = /snapshots and protected resources\s+(http:\S+)/.exec(out);
        if (found?.[1]) resolve(found[1]);
      });
      server.on("exit", (code) => reject(new Error(`sxd serve exited with ${code}: ${out}`)));
    });
    const reply = await fetch(`${baseUrl}/protected`);
    assert.equal(reply.status, 401);
    assert.match(reply.headers.get("www-authenticate") ?? "", /^Digest /);
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
});

test("sxd --help needs neither cucumber nor a TypeScript loader", () => {
  const cucumber = join(app, "node_modules", "@cucumber", "cucumber");
  renameSync(cucumber, `${cucumber}.aside`);
  try {
    const run = sxd(["--help"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Usage:/m);
  } finally {
    renameSync(`${cucumber}.aside`, cucumber);
  }
});

test("sxd init writes a starter whose $schema is the installed schema", () => {
  const run = sxd(["init", "--base-url", "http://127.0.0.1:9000"]);
  assert.equal(run.status, 0, run.stderr);
  const starter = JSON.parse(readFileSync(join(app, "sxd-target.json"), "utf8"));
  assert.equal(starter.$schema, "./node_modules/sxd/schema/target.schema.json");
});
