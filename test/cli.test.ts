// sxd as a user runs it: its exit code and what it prints. sxd serve, the help and report merge
// run as processes; the runs of sxd test go through the command line's code in this process
// (sxdHere): the same parsing, output, reports and exit code, without loading sxd each time.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { referenceDescriptionFile, SXD, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { validateJunit } from "./support/junit-schema.ts";

/** Starts `sxd serve` with the given arguments and resolves with its printed URLs. */
function serve(args: string[]): Promise<{ child: ChildProcess; urls: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SXD, "serve", ...args]);
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const urls = [...out.matchAll(/http:\/\/\S+/g)].map((m) => m[0]);
      if (urls.length >= (args.includes("base") ? 1 : 3)) resolve({ child, urls });
    });
    child.on("error", reject);
    child.on("close", (code) => reject(new Error(`sxd serve exited ${code}: ${out}`)));
  });
}

test("--help explains the commands and every test option", async () => {
  const main = await sxd(["--help"]);
  assert.equal(main.code, 0);
  assert.match(main.stdout, /sxd test/);
  assert.match(main.stdout, /sxd serve/);
  const testHelp = await sxd(["test", "--help"]);
  for (const option of [
    "--base-url",
    "--config",
    "--tags",
    "--strict",
    "--allow-incomplete",
    "--report-dir",
    "--timeout",
    "--parallel",
  ]) {
    assert.match(testHelp.stdout, new RegExp(option));
  }
  assert.match(main.stdout, /^ {2}3 {2}incomplete/m);
  assert.match(testHelp.stdout, /3 incomplete/);
});

/** junit.xml of a run: valid against the junit schema (where xmllint is installed), and its counts. */
function junitOf(dir: string): { xml: string; failures: number; skipped: number; schema: string } {
  const file = join(dir, "junit.xml");
  const xml = readFileSync(file, "utf8");
  const validation = validateJunit(file);
  if ("valid" in validation) assert.ok(validation.valid, validation.output);
  const count = (name: string) => Number(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(xml)?.[1]);
  return {
    xml,
    failures: count("failures"),
    skipped: count("skipped"),
    schema: "missing" in validation ? validation.missing : "valid",
  };
}

test("usage errors and bad descriptions exit 2 with one line", async () => {
  const dir = tempDir();
  const bad = join(dir, "bad.json");
  writeFileSync(bad, '{"snapshots":{"colection":"/x/"}}');
  for (const args of [["test", "--bogus"], ["test", "--config", bad], ["frobnicate"], ["test", "--tags", "@NOPE-1"]]) {
    const run = await sxd(args);
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.match(run.stderr, /^sxd: /);
  }
});

test("a port where nothing listens exits 2 with one line naming the URL", async () => {
  const run = await sxdHere(["test", "--base-url", "http://127.0.0.1:9", "--report-dir", tempDir()]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim(), "sxd: cannot reach http://127.0.0.1:9: connection refused (is the server running?)");
});

test("a target that accepts connections but never answers exits 2 within the timeout", async () => {
  const sockets = new Set<import("node:net").Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const { port } = silent.address() as import("node:net").AddressInfo;
  try {
    const run = await sxdHere([
      "test",
      "--base-url",
      `http://127.0.0.1:${port}`,
      "--timeout",
      "300",
      "--report-dir",
      tempDir(),
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr.trim(), /^sxd: cannot reach http:\/\/127\.0\.0\.1:\d+: no complete reply within 300 ms$/);
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});

test("against a separately started reference described by examples/reference.json, every row that can run passes", async () => {
  const { child, urls } = await serve(["--port", "0", "--contacts-port", "0", "--messaging-port", "0"]);
  const dir = tempDir();
  const config = new URL("../examples/reference.json", import.meta.url).pathname;
  const [base, contacts, messaging] = urls;
  try {
    const run = await sxdHere([
      "test",
      ...["--config", config, "--base-url", base, "--contacts-url", contacts, "--messaging-url", messaging],
      ...["--strict", "--report-dir", dir],
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /verdict: conformant \(/);
    // The outage row needs commands that take the contacts server down (export.outage); the example has none.
    assert.match(run.stdout, /NOT RUN: EXP-8/);
    for (const file of ["cucumber.html", "junit.xml", "messages.ndjson", "conformance.json", "conformance.html"]) {
      assert.ok(existsSync(join(dir, file)), file);
    }
    const doc = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8"));
    const verdicts = new Set(doc.rows.map((r: { verdict: string }) => r.verdict));
    assert.deepEqual([...verdicts].sort(), ["not applicable", "not run", "passed"]);
    // The reference's tokens are not new on each read: no sample to judge for EXP-10.
    const notApplicable = doc.rows.filter((r: { verdict: string }) => r.verdict === "not applicable");
    assert.deepEqual(
      notApplicable.map((r: { id: string }) => r.id),
      ["EXP-10"],
    );
    const junit = junitOf(dir);
    assert.equal(junit.failures, 0);
    assert.match(
      junit.xml,
      /<testcase classname="EXP-8 \(SHOULD\)" name="[^"]+" time="[\d.]+">\n\s*<skipped message="not run: /,
    );
  } finally {
    child.kill("SIGTERM");
  }
});

test("a server that breaks a SNAP MUST row makes the run exit 1 and name the row", async () => {
  const { child, urls } = await serve(["base", "--port", "0", "--fault", "snap-update-200"]);
  try {
    const dir = tempDir();
    const config = referenceDescriptionFile();
    const run = await sxdHere([
      "test",
      "--config",
      config,
      "--base-url",
      urls[0],
      "--tags",
      "@SNAP-2",
      "--report-dir",
      dir,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /FAILED: SNAP-2 \(MUST\)/);
    assert.match(run.stdout, /verdict: not conformant/);
    // Progress, summary and junit.xml tell the same story: one failure, its exchange printed once.
    assert.match(run.stdout, /^F 1\/1\n1 scenarios: 1 failed$/m);
    assert.match(
      run.stdout,
      /^ {4}1\) failed: An update with If-Unmodified-Since answers 204 with no body: expected status 204$/m,
    );
    assert.equal(run.stdout.split("> PUT ").length - 1, 1, run.stdout);
    const junit = junitOf(dir);
    assert.equal(junit.failures, 1);
    assert.match(
      junit.xml,
      /<testcase classname="SNAP-2 \(MUST\)"[^>]*>\n\s*<failure type="MUST" message="expected status 204">/,
    );
  } finally {
    child.kill("SIGTERM");
  }
});

test("known failures and warnings do not fail the run, nor junit.xml; a listed row that passes is fixed; HAR", async () => {
  const dir = tempDir();
  const list = join(dir, "expected.json");
  writeFileSync(list, JSON.stringify({ "SNAP-2": "tracked as bug 7", "SNAP-8": "tracked as bug 9" }));
  const har = join(dir, "run.har");
  const run = await sxdHere([
    "test",
    ...["--reference-fault", "snap-update-200", "--reference-fault", "snap-stale-accepted"],
    "--tags",
    "@SNAP-2 or @SNAP-8 or @SNAP-11",
    "--expect-fail",
    list,
    "--har",
    har,
    "--report-dir",
    dir,
  ]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /EXPECTED FAILURE: SNAP-2/);
  assert.match(run.stdout, /FIXED: SNAP-8/);
  assert.match(run.stdout, /WARNING: SNAP-11 \(SHOULD\)/);
  assert.match(run.stdout, /^\d+ scenarios: .*1 expected failure/m);
  assert.match(run.stdout, /^\d+ scenarios: .*1 warned/m);
  assert.match(run.stdout, /verdict: conformant with warnings/);
  const junit = junitOf(dir);
  assert.equal(junit.failures, 0, junit.xml);
  assert.doesNotMatch(junit.xml, /<failure/);
  assert.match(junit.xml, /<property name="exit code" value="0"\/>/);
  assert.match(junit.xml, /classname="SNAP-11 \(SHOULD\)"[^>]*>\n\s*<system-out>warning/);
  assert.match(junit.xml, /<skipped type="expected failure" message="expected failure \(tracked as bug 7\)/);
  const log = JSON.parse(readFileSync(har, "utf8")).log;
  assert.equal(log.version, "1.2");
  assert.ok(log.entries.some((e: { request: { method: string } }) => e.request.method === "PUT"));
  assert.ok(log.entries.every((e: { response: { status: number } }) => e.response.status > 0));
});

test("report merge puts several runs side by side", async () => {
  const good = tempDir();
  const bad = tempDir();
  await sxdHere(["test", "--tags", "@SNAP-2", "--report-dir", good]);
  await sxdHere(["test", "--tags", "@SNAP-2", "--reference-fault", "snap-update-200", "--report-dir", bad]);
  const out = join(tempDir(), "matrix.html");
  const merge = await sxd([
    "report",
    "merge",
    join(good, "conformance.json"),
    join(bad, "conformance.json"),
    "--out",
    out,
  ]);
  assert.equal(merge.code, 0, merge.stderr);
  const html = readFileSync(out, "utf8");
  assert.match(html, /<th>SNAP-2<\/th><td>MUST<\/td><td class="passed"[^>]*>passed<\/td><td class="failed"/);
  const missing = await sxd(["report", "merge", join(good, "nope.json")]);
  assert.equal(missing.code, 2);
});

test("a run that could not check a MUST row exits 3, unless --allow-incomplete; --tags leaves no hole", async (t) => {
  const { child, urls } = await serve(["base", "--port", "0"]);
  try {
    const dir = tempDir();
    // Without a contacts URL the export rows cannot be run: a hole, whatever the rest says.
    const target = ["--config", referenceDescriptionFile(), "--base-url", urls[0]];
    const holes = await sxdHere(["test", ...target, "--tags", "@SNAP-2 or @EXP-1", "--report-dir", dir]);
    assert.equal(holes.code, 3, holes.stdout + holes.stderr);
    assert.match(holes.stdout, /NOT RUN: EXP-1 \(MUST\)/);
    assert.match(holes.stdout, /verdict: incomplete \(.*\nexit 3: a MUST or MAY row above could not be run/);
    const junit = junitOf(dir);
    if (junit.schema !== "valid") t.diagnostic(junit.schema);
    assert.equal(junit.failures, 0);
    assert.match(junit.xml, /<property name="exit code" value="3"\/>/);
    assert.match(junit.xml, /classname="EXP-1 \(MUST\)"[^>]*>\n\s*<skipped message="not run: /);
    const incomplete = ["--tags", "@SNAP-2 or @EXP-1", "--allow-incomplete"];
    const accepted = await sxdHere(["test", ...target, ...incomplete, "--report-dir", tempDir()]);
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stdout, /exit 0: incomplete, accepted by --allow-incomplete/);
    const deselected = await sxdHere(["test", ...target, "--tags", "@SNAP-2", "--report-dir", tempDir()]);
    assert.equal(deselected.code, 0, deselected.stdout + deselected.stderr);
    assert.match(deselected.stdout, /verdict: conformant \(/);
  } finally {
    child.kill("SIGTERM");
  }
});
