// `sxd interop` as a user runs it: the reference and the reference with a fault, each started
// by a command on the ports sxd chose, and a server that never answers; the example client, a
// client that does only digest-get, and a client that computes a wrong response. Each cell's
// result and blame, a shard of two merged into the whole, and the usage errors.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { InteropCell, InteropDocument } from "../harness/evidence/interop-document.ts";
import { EXAMPLE_CLIENT, exampleClient, SXD, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { cellFound, givenConformance } from "./support/interop-runs.ts";

const FAULTS = new URL("./fixtures/clients/faults.mjs", import.meta.url).pathname;
const dir = tempDir();
const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
// Given own verdicts keep the run to the cells: a conformance.json each, as sxd test writes one.
writeFileSync(
  join(dir, "conformance.json"),
  givenConformance("not conformant", [{ id: "DIG-14", level: "should", rule: "", verdict: "warning", scenarios: [] }]),
);
write("digest.json", { digest: { path: "/protected", username: "demo", password: "sxd-demo-secret" } });
const serve = (fault?: string) => `node ${SXD} serve base --port $SXD_PORT${fault ? ` --fault ${fault}` : ""}`;
const server = (start: string, wait = 20) => ({ start, wait, config: "digest.json", conformance: "conformance.json" });
write("matrix.json", {
  servers: {
    ref: server(serve()),
    quoted: server(serve("dig-algorithm-quoted-lower")),
    silent: server("sleep 30", 1),
  },
  clients: {
    example: { run: EXAMPLE_CLIENT, conformance: "conformance.json" },
    getonly: {
      run: `[ "$SXD_TASK" = digest-get ] && exec ${EXAMPLE_CLIENT}; exit 127`,
      conformance: "conformance.json",
    },
    wrong: {
      run: `CLIENT_FAULT=wrong-response ${exampleClient([FAULTS])}`,
      conformance: "conformance.json",
    },
  },
});
const matrix = join(dir, "matrix.json");
const tasks = ["--tasks", "digest-get,digest-post"];
const read = (folder: string) => JSON.parse(readFileSync(join(dir, folder, "interop.json"), "utf8")) as InteropDocument;

// The whole matrix, and a small one in two shards, at once.
const small = ["--servers", "ref,silent", "--clients", "getonly,wrong", "--tasks", "digest-get"];
const runs = Promise.all([
  sxd(["interop", matrix, ...tasks, "--report-dir", join(dir, "whole")]),
  sxd(["interop", matrix, ...small, "--shard", "1/2", "--report-dir", join(dir, "shards", "s1")]),
  sxd(["interop", matrix, ...small, "--shard", "2/2", "--report-dir", join(dir, "shards", "s2")]),
]);

test("each cell's result and blame, rows and own verdicts, in interop.json, junit.xml and the summary", async () => {
  const [whole] = await runs;
  assert.equal(whole.code, 1, whole.stderr);
  const doc = read("whole");
  const cells = new Map(doc.cells.map((cell) => [`${cell.client} ${cell.server} ${cell.task}`, cell]));
  const cell = (key: string) => cells.get(key) as InteropCell;
  assert.equal(doc.cells.length, 18);
  // The example client and the reference: both tasks go through.
  assert.equal(cell("example ref digest-get").result, "succeeded");
  assert.deepEqual(
    [cell("example ref digest-post").result, cell("example ref digest-post").blame],
    ["succeeded", null],
  );
  // A quoted, lower-case algorithm locks the example client out: the server broke DIG-14.
  const quoted = cell("example quoted digest-get");
  assert.deepEqual([quoted.result, quoted.blame], ["failed", "server"]);
  assert.deepEqual(
    quoted.rows.server.map((r) => r.id),
    ["DIG-14"],
  );
  assert.equal(quoted.rows.server[0]?.level, "should");
  // A wrong response is the client's fault, and the reference's refusal is right.
  const wrong = cell("wrong ref digest-get");
  assert.deepEqual([wrong.result, wrong.blame], ["failed", "client"]);
  assert.ok(
    wrong.rows.client.some((r) => r.id === "CDIG-2" && r.reason.includes("not the digest")),
    cellFound(wrong),
  );
  assert.deepEqual(wrong.rows.server, []);
  assert.deepEqual(
    [cell("getonly ref digest-post").result, cell("getonly ref digest-post").blame],
    ["unsupported", null],
  );
  // The server that never answers fails its column with the reason, and the run went on.
  for (const client of ["example", "getonly", "wrong"]) {
    const silent = cell(`${client} silent digest-get`);
    assert.equal(silent.result, "failed");
    assert.equal(silent.blame, null);
    assert.match(silent.why, /did not answer HTTP within 1 s/);
  }
  assert.match(doc.servers.find((s) => s.name === "silent")?.problem ?? "", /within 1 s/);
  assert.deepEqual(doc.servers.find((s) => s.name === "ref")?.verdict, {
    source: "given",
    exitCode: null,
    verdict: "non-conformant",
    failedRows: [],
    warnedRows: ["DIG-14"],
    judged: { "DIG-14": "warning" },
    report: "servers/ref/conformance.json",
  });
  // The evidence: the exchange as sxd saw it, the client's output, never the password.
  const evidence = join(dir, "whole", wrong.evidence);
  const exchange = JSON.parse(readFileSync(join(evidence, "exchange.json"), "utf8")) as { reply: { status: number } }[];
  assert.deepEqual(
    exchange.map((e) => e.reply.status),
    [401, 401],
  );
  const client = readFileSync(join(evidence, "client.json"), "utf8");
  assert.ok(
    !client.includes("sxd-demo-secret") &&
      !readFileSync(join(evidence, "exchange.json"), "utf8").includes("sxd-demo-secret"),
  );
  assert.equal((JSON.parse(client) as { exitCode: number }).exitCode, 1);
  const junit = readFileSync(join(dir, "whole", "junit.xml"), "utf8");
  assert.equal(junit.match(/<testcase /g)?.length, 18);
  assert.match(junit, /classname="wrong × ref" name="digest-get" time="0">\n {6}<failure message="blame client/);
  assert.match(whole.stdout, /^example +\+\+ +SS +xx/m);
  // The matrix to read, its cells' evidence pages, and the Markdown a CI job shows.
  const html = readFileSync(join(dir, "whole", "interop.html"), "utf8");
  assert.match(html, /<table[^>]*>[\s\S]*wrong[\s\S]*<\/table>/);
  assert.ok(html.includes(`${wrong.evidence}index.html`) || html.includes(encodeURI(`${wrong.evidence}index.html`)));
  assert.match(readFileSync(join(evidence, "index.html"), "utf8"), /CDIG-2/);
  const summary = readFileSync(join(dir, "whole", "summary.md"), "utf8");
  assert.match(summary, /^\| wrong \| `CC` \| `SS` \| `xx` \|$/m);
  // The failures follow the matrix, one line per pair and reason.
  assert.ok(summary.indexOf("| wrong |") < summary.indexOf("### "));
  // A wrong secret breaks CDIG-2 alone on both tasks (CDIG-4 is not run without the client's A1),
  // so the pair's two cells share a reason and are one line.
  assert.match(summary, /- wrong × ref, digest-get and digest-post: client \(client CDIG-2\): /);
});

test("shards 1/2 and 2/2, merged by sxd report merge, are the whole matrix; a cell in two shards is an error", async () => {
  const [whole, first, second] = await runs;
  assert.equal(first.code, 1, first.stderr);
  assert.ok(second.code === 0 || second.code === 1, second.stderr);
  const shard = (name: string) => join(dir, "shards", name, "interop.json");
  const merged = await sxd(["report", "merge", shard("s1"), shard("s2"), "--out", join(dir, "merged")]);
  assert.equal(merged.code, 0, merged.stderr);
  const cells = read("merged").cells;
  assert.equal(read("shards/s1").cells.length + read("shards/s2").cells.length, 4);
  const inSmall = (cell: InteropCell) =>
    ["ref", "silent"].includes(cell.server) && ["getonly", "wrong"].includes(cell.client) && cell.task === "digest-get";
  assert.equal(whole.code, 1);
  assert.deepEqual(cells.map(cellFound), read("whole").cells.filter(inSmall).map(cellFound));
  assert.match(readFileSync(join(dir, "merged", "summary.md"), "utf8"), /^\| getonly \| /m);
  assert.ok(readFileSync(join(dir, "merged", "interop.html"), "utf8").includes("getonly"));
  const twice = await sxd(["report", "merge", shard("s1"), shard("s1"), "--out", join(dir, "m2")]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /^sxd: the cell .* is in two of the documents\n$/);
});

test("report merge takes the shards' folders as a CI keeps them, links to their evidence, and names a missing shard", async () => {
  await runs;
  // A folder of the shards' folders (a matrix's artifacts downloaded into one place), and a glob
  // no shell expanded: the same matrix, its evidence copied beside it.
  const [folders, glob] = await Promise.all([
    sxdHere(["report", "merge", join(dir, "shards"), "--out", join(dir, "from-folders")]),
    sxdHere(["report", "merge", join(dir, "shards", "s*"), "--out", join(dir, "from-glob")]),
  ]);
  assert.equal(folders.code, 0, folders.stderr);
  assert.equal(glob.code, 0, glob.stderr);
  assert.match(folders.stdout, /: 4 cells of 2 shards\n$/);
  assert.deepEqual(read("from-glob").cells.map(cellFound), read("from-folders").cells.map(cellFound));
  // Every link of the merged page opens a file in the merged folder, and each cell's page shows its exchange.
  const merged = join(dir, "from-glob");
  const html = readFileSync(join(merged, "interop.html"), "utf8");
  const links = [...html.matchAll(/href="([^"#]+)/g)].map((m) => decodeURIComponent(m[1] as string));
  assert.ok(links.length >= 4, html);
  for (const link of links) assert.ok(existsSync(join(merged, link)), link);
  const wrong = read("from-glob").cells.find((cell) => cell.client === "wrong" && cell.server === "ref");
  assert.match(readFileSync(join(merged, wrong?.evidence ?? "", "index.html"), "utf8"), /CDIG-2/);
  assert.ok(existsSync(join(merged, wrong?.evidence ?? "", "exchange.json")));
  // One shard alone is not the matrix: the merge says which is missing, and writes nothing.
  const alone = await sxdHere(["report", "merge", join(dir, "shards", "s1"), "--out", join(dir, "alone")]);
  assert.equal(alone.code, 2);
  assert.equal(
    alone.stderr,
    `sxd: shard 2/2 is missing (given: 1/2 in ${join(dir, "shards", "s1", "interop.json")})\n`,
  );
  assert.ok(!existsSync(join(dir, "alone")));
  const nothing = await sxdHere(["report", "merge", join(dir, "shards", "t*"), "--out", join(dir, "none")]);
  assert.equal(nothing.stderr, `sxd: ${join(dir, "shards", "t*")} matches no file or folder\n`);
});

test("usage errors are one line and exit 2", async () => {
  const bad = join(dir, "bad.json");
  writeFileSync(
    bad,
    JSON.stringify({ servers: { a: { url: "http://127.0.0.1:1" } }, clients: { c: { run: "true" } } }),
  );
  const cases: [string[], RegExp][] = [
    [["interop"], /usage: sxd interop FILE \[options\]: give one matrix file/],
    [["interop", join(dir, "none.json")], /cannot read the matrix file .*none\.json: no such file/],
    [["interop", bad], /.*bad\.json: server "a" needs "config"/],
    [["interop", matrix, "--shard", "3/2"], /--shard 3\/2: give I\/N/],
    [["interop", matrix, "--servers", "nope"], /--servers: no "nope" in the matrix file/],
    [["interop", matrix, "--tasks", "dance"], /--tasks: unknown task "dance"/],
  ];
  const results = await Promise.all(cases.map(([args]) => sxd(args)));
  for (const [index, [args, message]] of cases.entries()) {
    const result = results[index];
    assert.equal(result?.code, 2, args.join(" "));
    assert.match(result?.stderr ?? "", new RegExp(`^sxd: ${message.source}[^\\n]*\\n$`));
  }
});
