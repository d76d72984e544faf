// `sxd report merge` over client runs: two real `sxd test-client` runs (the example client and
// one that fails every task), each column headed by its command, the client rows its lines;
// with a server's run beside them, the server rows come first and each run shows a dash on
// the other side's rows. The same runs' junit.xml and conformance.html list the client rows.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import type { ConformanceDocument } from "../harness/evidence/conformance-document.ts";
import { EXAMPLE_CLIENT, sxdHere, tempDir } from "./support/cli.ts";

const EXAMPLE = EXAMPLE_CLIENT;

/** A client's run, graded through sxd test-client's code in this process (support/cli.ts). */
async function clientRun(command: string): Promise<string> {
  const dir = tempDir();
  await sxdHere(["test-client", "--run", command, "--tasks", "digest-get", "--report-dir", dir]);
  return join(dir, "conformance.json");
}

/** A server's run of one row, as `sxd test` writes it. */
function serverRun(): string {
  const doc: ConformanceDocument = {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl: "http://server.example:8080" },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall: "conformant",
    rows: [
      {
        id: "DIG-1",
        level: "must",
        rule: "r",
        verdict: "passed",
        scenarios: [{ name: "s", location: "l", status: "passed", exchanges: [] }],
      },
    ],
  };
  const file = join(tempDir(), "conformance.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const exampleRun = clientRun(EXAMPLE);

test("report merge: several clients side by side, and beside a server", async () => {
  const [example, failing] = await Promise.all([exampleRun, clientRun("exit 1")]);
  const out = join(tempDir(), "matrix.html");
  const merged = await sxdHere(["report", "merge", example, failing, "--out", out]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.equal(merged.stdout, `wrote ${out}: 0 servers, 2 clients\n`);
  const html = readFileSync(out, "utf8");
  assert.match(
    html,
    /<th>client <code title="[^"]*sh [^"]*adapter\.sh">[^<]*<\/code><br><small>conformant<\/small><\/th>/,
  );
  assert.match(html, /<th>client <code title="exit 1">exit 1<\/code><br><small>not conformant<\/small><\/th>/);
  assert.match(html, /<tr><th>CDIG-1<\/th><td>MUST<\/td><td class="passed"[^>]*>passed<\/td><td class="failed"/);
  assert.doesNotMatch(html, /<tr><th>DIG-/, "no server row without a server's run");

  const both = join(tempDir(), "both.html");
  const mixed = await sxdHere(["report", "merge", example, serverRun(), "--out", both]);
  assert.equal(mixed.code, 0, mixed.stderr);
  assert.equal(mixed.stdout, `wrote ${both}: 1 server, 1 client\n`);
  const lines = [...readFileSync(both, "utf8").matchAll(/<tr><th>([A-Z]+-\d+)<\/th>.*<\/tr>/g)];
  assert.equal(lines[0]?.[1], "DIG-1", "the server rows first");
  assert.match(lines[0]?.[0] ?? "", /<td class="other-side"[^>]*>–<\/td><td class="passed"/);
  assert.match(
    lines[1]?.[0] ?? "",
    /^<tr><th>CDIG-1<\/th><td>MUST<\/td><td class="passed"[^>]*>passed<\/td><td class="other-side"/,
  );
});

test("a client run's junit.xml and conformance.html: the client rows, and conformance.html each task's requests", async () => {
  const html = readFileSync(join(dirname(await exampleRun), "conformance.html"), "utf8");
  const junit = readFileSync(join(dirname(await exampleRun), "junit.xml"), "utf8");
  for (const id of ["CDIG-1", "CDIG-2", "CDIG-10"]) {
    assert.ok(html.includes(id), `conformance.html lists ${id}`);
    assert.match(junit, new RegExp(`<testcase [^>]*classname="${id} \\(MUST\\)"`), `junit.xml has ${id}`);
  }
  assert.doesNotMatch(junit, /classname="(DIG|EXP|SNAP)-/, "no server row in a client run");
  assert.match(html, /sent by the client: task digest-get/);
  assert.match(html, /authorization: Digest username=&quot;demo&quot;/);
});

test("report merge of a file that is no whole conformance.json, or to a folder that is not there: one line, exit 2", async () => {
  const dir = tempDir();
  const torn = join(dir, "torn.json");
  writeFileSync(torn, JSON.stringify({ rows: [], target: {} }));
  const bad = await sxdHere(["report", "merge", torn, "--out", join(dir, "m.html")]);
  assert.equal(bad.stderr, `sxd: cannot read ${torn}: ${torn} is not a conformance.json of sxd\n`);
  const nowhere = join(dir, "missing", "m.html");
  const unwritable = await sxdHere(["report", "merge", serverRun(), "--out", nowhere]);
  assert.equal(unwritable.stderr, `sxd: cannot write ${nowhere}: no such file\n`);
  assert.deepEqual([bad.code, unwritable.code], [2, 2]);
});
