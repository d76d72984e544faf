// `sxd interop` with real clients: curl, wget, Python requests and urllib, and nc-zero (a client
// of the tests' own that counts from nc=00000000), against the reference, the reference with two
// faults, and six small servers of the tests' own unlike it, two answering 401 with an HTML page,
// one taking GET only (test/fixtures/interop/matrix.json). Each cell's result and blame, the rows that explain where
// each failure stopped and those also broken, must be what test/fixtures/interop/expected.json
// says, whose results were observed by running each client directly against each server, without
// sxd (observe.ts there): a cell blamed on a row shows that row, a 401's HTML body is also broken
// and never blamed, a refusal of nc=00000000 is no DIG-4, no algorithm in common is `neither`,
// and a POST answered 405 is a task not served (not applicable).
// One run of the matrix serves every assertion. The own verdicts are given (conformance.json
// written from expected.json's), so the run is the cells alone; the small servers start from
// one compiled bundle rather than through tsx. A client this machine lacks is skipped, by name.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import type { InteropCell, InteropDocument } from "../harness/evidence/interop-document.ts";
import { SXD, sxd, tempDir } from "./support/cli.ts";
import { missingClient, REAL_CLIENTS, type RealClientName } from "./support/real-clients.ts";

const FOLDER = new URL("./fixtures/interop/", import.meta.url).pathname;
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(FOLDER, name), "utf8")) as T;

interface ExpectedCell {
  client: RealClientName;
  server: string;
  task: string;
  result: string;
  blame: string | null;
  rows: { client: string[]; server: string[] };
  alsoBroken?: { client: string[]; server: string[] };
  notBroken?: string[];
  reason?: string;
}
interface Expected {
  clients: RealClientName[];
  servers: string[];
  tasks: string[];
  verdicts: { servers: Record<string, string[]>; clients: Record<string, string[]> };
  cells: ExpectedCell[];
}
interface Matrix {
  servers: Record<string, { start: string; config: string; wait?: number }>;
  clients: Record<string, { run: string }>;
}

const expected = fixture<Expected>("expected.json");
const matrix = fixture<Matrix>("matrix.json");
const levels = new Map(
  fixture<{ rows: Array<{ id: string; level: string }> }>("../../../catalogue/rows.json").rows.map((row) => [
    row.id,
    row.level,
  ]),
);
const missing = new Map(
  expected.clients.flatMap((name) => {
    const why = missingClient(REAL_CLIENTS[name]);
    return why ? [[name, why] as const] : [];
  }),
);
const clients = expected.clients.filter((name) => !missing.has(name));
const dir = tempDir();

/** A conformance.json with the rows an implementation does not pass: a MUST failed, a SHOULD warned. */
function conformance(name: string, rows: string[], side: "server" | "client"): string {
  const file = join(dir, "conformance", `${side}-${name}.json`);
  const verdicts = rows.map((id) => ({
    id,
    level: levels.get(id) ?? "must",
    rule: "",
    verdict: levels.get(id) === "should" ? "warning" : "failed",
    scenarios: [],
  }));
  writeFileSync(
    file,
    JSON.stringify({
      suite: { name: "sxd", version: "0" },
      target: { baseUrl: side === "client" ? `client: ${name}` : "http://127.0.0.1:1" },
      date: "2026-01-01T00:00:00Z",
      strict: false,
      overall: rows.length === 0 ? "conformant" : "not conformant",
      rows: verdicts,
    }),
  );
  return file;
}

/**
 * The fixtures' matrix, run from a folder of the test's own: the reference through the built
 * sxd, the small servers from one bundle of server.ts (a tenth of what tsx spends starting
 * each), every path absolute, and each implementation's verdict given.
 */
function matrixFile(): string {
  mkdirSync(join(dir, "conformance"));
  const bundle = join(dir, "server.mjs");
  // esbuild comes with tsx, which compiles the project's TypeScript for the tests already.
  const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx"))("esbuild") as {
    buildSync(options: object): unknown;
  };
  esbuild.buildSync({
    entryPoints: [join(FOLDER, "server.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: bundle,
    logLevel: "warning",
  });
  const servers = Object.fromEntries(
    Object.entries(matrix.servers).map(([name, server]) => [
      name,
      {
        start: server.start
          .replace("node --import tsx ./server.ts", `env -u NODE_V8_COVERAGE node '${bundle}'`)
          .replace("node ../../../bin/sxd.js", `node '${SXD}'`),
        config: join(FOLDER, server.config),
        wait: server.wait ?? 30,
        conformance: conformance(name, expected.verdicts.servers[name] ?? [], "server"),
      },
    ]),
  );
  const given = Object.fromEntries(
    clients.map((name) => [
      name,
      {
        run: REAL_CLIENTS[name].command,
        conformance: conformance(name, expected.verdicts.clients[name] ?? [], "client"),
      },
    ]),
  );
  const file = join(dir, "matrix.json");
  writeFileSync(file, JSON.stringify({ servers, clients: given }));
  return file;
}

const report = join(dir, "report");
const started = Date.now();
const run =
  clients.length === 0
    ? undefined
    : sxd([
        "interop",
        matrixFile(),
        "--tasks",
        expected.tasks.join(","),
        "--parallel",
        String(expected.servers.length),
        "--report-dir",
        report,
      ]).then((finished) => ({ ...finished, seconds: (Date.now() - started) / 1000 }));

async function document(): Promise<InteropDocument> {
  const finished = await run;
  assert.ok(finished);
  // A cell failed: exit 1, and never a crash of sxd's own.
  assert.equal(finished.code, 1, finished.stderr);
  return JSON.parse(readFileSync(join(report, "interop.json"), "utf8")) as InteropDocument;
}

const key = (cell: { client: string; server: string; task: string }) => `${cell.client} × ${cell.server} ${cell.task}`;
const ids = (cell: InteropCell, side: "client" | "server") => cell.rows[side].map((row) => row.id);
const also = (cell: InteropCell, side: "client" | "server") => cell.alsoBroken[side].map((row) => row.id);

for (const name of expected.clients)
  test(`${name}: each cell's result, blame and explaining rows, against every server, as observed without sxd`, async (t) => {
    const why = missing.get(name);
    if (why) return t.skip(`${name} is not tried: ${why}`);
    const doc = await document();
    const found = new Map(doc.cells.map((cell) => [key(cell), cell]));
    const mine = expected.cells.filter((cell) => cell.client === name);
    assert.equal(mine.length, expected.servers.length * expected.tasks.length);
    for (const want of mine) {
      const cell = found.get(key(want));
      assert.ok(cell, `${key(want)}: no such cell`);
      const seen = `${key(want)}: ${cell.result}, blame ${cell.blame}, client [${ids(cell, "client")}], server [${ids(cell, "server")}], also broken [${[...also(cell, "client"), ...also(cell, "server")]}] (${cell.why})`;
      assert.equal(cell.result, want.result, seen);
      assert.equal(cell.blame, want.blame, seen);
      for (const side of ["client", "server"] as const) {
        for (const id of want.rows[side]) assert.ok(ids(cell, side).includes(id), `${seen}: no ${side} row ${id}`);
        for (const id of want.alsoBroken?.[side] ?? []) {
          assert.ok(also(cell, side).includes(id), `${seen}: ${side} row ${id} is not also broken`);
          assert.ok(!ids(cell, side).includes(id), `${seen}: ${side} row ${id} is blamed`);
        }
      }
      for (const id of want.notBroken ?? [])
        for (const side of ["client", "server"] as const)
          assert.ok(![...ids(cell, side), ...also(cell, side)].includes(id), `${seen}: ${id} is broken`);
      // neither: no row of either side in the exchange, and the cell says why none counts.
      if (want.blame === "neither") {
        assert.deepEqual([ids(cell, "client"), ids(cell, "server")], [[], []], seen);
        assert.match(cell.why, /no MD5 .*no algorithm in common/, seen);
      }
    }
  });

test("the matrix holds every pair and task once, and each implementation's given verdict beside its name", async (t) => {
  const doc = await document();
  const finished = await run;
  t.diagnostic(`the matrix ran in ${finished?.seconds.toFixed(1)} s (${doc.cells.length} cells)`);
  assert.equal(doc.cells.length, clients.length * expected.servers.length * expected.tasks.length);
  assert.equal(new Set(doc.cells.map(key)).size, doc.cells.length);
  assert.deepEqual(
    doc.servers.map((server) => server.problem),
    expected.servers.map(() => undefined),
  );
  const broken = (verdict: { failedRows: string[]; warnedRows: string[] }) =>
    [...verdict.failedRows, ...verdict.warnedRows].sort();
  for (const server of doc.servers) {
    assert.equal(server.verdict.source, "given", server.name);
    assert.deepEqual(broken(server.verdict), [...(expected.verdicts.servers[server.name] ?? [])].sort(), server.name);
  }
  for (const client of doc.clients)
    assert.deepEqual(broken(client.verdict), [...(expected.verdicts.clients[client.name] ?? [])].sort(), client.name);
  // The summary leads with the matrix (a neither cell is marked N); the gaps follow, one line per pair and reason.
  if (clients.includes("requests")) {
    const summary = readFileSync(join(report, "summary.md"), "utf8");
    assert.match(summary, /\| requests \|.*`NN`/);
    assert.ok(summary.indexOf("| client \\ server |") < summary.indexOf("### "), summary);
    assert.match(summary, /requests × sha-512-256-only, digest-get and digest-post: /);
  }
});

test("a client's fault and a server's are each shown with the row and the exchange in the cell's page", async (t) => {
  const shown: Array<[RealClientName, string, string, RegExp]> = [
    // wget answers in the RFC 2069 form where qop is offered, and the reference refuses it.
    ["wget", "reference", "CDIG-1", /<pre class="request">GET \/protected\s/g],
    // cookie-required refuses curl's right answer, which carries no cookie.
    ["curl", "cookie-required", "DIG-4", /<pre class="request">GET \/account\s/g],
  ];
  const doc = await document();
  for (const [client, server, row, requestLine] of shown) {
    if (missing.has(client)) {
      t.diagnostic(`${client} × ${server} not shown: ${missing.get(client)}`);
      continue;
    }
    const cell = doc.cells.find((c) => c.client === client && c.server === server && c.task === "digest-get");
    assert.ok(cell);
    const page = readFileSync(join(report, cell.evidence, "index.html"), "utf8");
    assert.ok(page.includes(row), `${cell.evidence}index.html names ${row}`);
    // The challenge and the answer: both requests of the exchange as sent, each with its reply.
    assert.equal(page.match(requestLine)?.length, 2, `${cell.evidence}index.html shows both requests`);
    assert.match(page, /401/);
    assert.match(page, /Authorization: Digest|authorization: Digest/i);
  }
  // urllib gives up on SHA-256 first (CDIG-7, blamed); the 401's HTML body is on the page, also broken.
  if (!missing.has("urllib")) {
    const cell = doc.cells.find(
      (c) => c.client === "urllib" && c.server === "html-body-get-only" && c.task === "digest-get",
    );
    assert.ok(cell);
    const page = readFileSync(join(report, cell.evidence, "index.html"), "utf8");
    const [blamed, alsoBroken] = page.split('id="also-broken"');
    assert.match(blamed ?? "", /CDIG-7/);
    assert.match(alsoBroken ?? "", /DIG-2[\s\S]*text\/html/);
  }
});
