// interop.html and the cells' evidence pages from a hand-made interop.json: what comes from a
// target is escaped, the matrix comes first and the failures no row explains follow it, grouped
// by pair and reason, every mark links to its cell's
// evidence, the score counts only the cells where both sides do the task, and the filter's
// state survives a trip through the URL.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runInNewContext } from "node:vm";
import { cell, client, interopDocument, sampleInterop, server } from "../../test/support/interop-document.ts";
import { interopScores, scoreText } from "../evidence/interop-score.ts";
import { evidenceHref, interopHtml, ownVerdictHtml, writeInteropHtml } from "./interop-html.ts";

type State = Record<string, string[]>;
interface Filter {
  parseState(hash: string, search: string): State;
  encodeState(state: State, all: State): string;
  visible(item: Record<string, string>, state: State): boolean;
}
const scope: { sxdInterop?: Filter } = {};
runInNewContext(readFileSync(new URL("./interop-filter.js", import.meta.url), "utf8"), {
  globalThis: scope,
  URLSearchParams,
});
const loaded = scope.sxdInterop ?? assert.fail("interop-filter.js did not define sxdInterop");
// What the script builds belongs to its own context: compared here as plain data.
const filter: Filter = {
  ...loaded,
  parseState: (hash, search) => JSON.parse(JSON.stringify(loaded.parseState(hash, search))),
};

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sxd-interop-html-"));
  dirs.push(dir);
  return dir;
}

test("what came from a target is escaped, on the matrix and on the evidence page", () => {
  const hostile = '<img src=x onerror="alert(1)">';
  const doc = interopDocument({
    tasks: ["digest-get"],
    servers: [server(hostile, ["digest-get"])],
    clients: [client(hostile)],
    cells: [
      { ...cell(hostile, hostile, "digest-get", "failed", "neither"), why: "</script><script>alert(2)</script>" },
    ],
  });
  const html = interopHtml(doc);
  assert.ok(!html.includes("<img"), "a name is escaped");
  assert.ok(!html.includes("<script>alert"), "a reason is escaped");
  assert.match(html, /&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt;/);

  const dir = reportDir();
  const folder = join(dir, "cells", "x");
  mkdirSync(folder, { recursive: true });
  const reply = {
    status: 401,
    headers: { "www-authenticate": '<b>Digest realm="x"</b>' },
    body: "</pre><script>alert(3)</script>",
  };
  const request = {
    server: "base",
    method: "GET",
    target: "/<i>",
    headers: { "x-evil": ["<u>", "<s>"] },
    body: "",
    at: "t",
    reply,
  };
  writeFileSync(join(folder, "exchange.json"), JSON.stringify([request]));
  writeInteropHtml(dir, { ...doc, cells: [{ ...doc.cells[0], evidence: "cells/x/" }] });
  const page = readFileSync(join(folder, "index.html"), "utf8");
  for (const raw of ["<script>alert", "<b>Digest", "<i>", "<u>", "<img"])
    assert.ok(!page.includes(raw), `${raw} is escaped`);
  assert.match(page, /x-evil: &lt;u&gt;\nx-evil: &lt;s&gt;/, "a repeated header shows each value");
  assert.match(page, /no client\.json was written for this cell/);
});

test("the failures no row explains follow the matrix, a pair's alike tasks as one, with what else broke", () => {
  const doc = sampleInterop();
  const html = interopHtml(doc);
  const gaps = html.indexOf('id="gaps"');
  assert.ok(gaps > html.indexOf('id="matrix"'), "the matrix comes before the gaps");
  const items = [...html.matchAll(/<li class="gap[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[0]);
  assert.equal(items.length, 1, "one neither cell, and only it");
  assert.match(items[0] ?? "", /curl × quoting<\/b>, digest-get/);
  assert.match(items[0] ?? "", /href="cells\/curl\/quoting\/digest-get\/index\.html#exchange"/);
  assert.match(items[0] ?? "", /also broken by the server: no row broken/);
  assert.match(interopHtml(interopDocument()), /id="no-gaps"/);
  // The same pair failing two tasks for one reason is one entry naming both, linking to each exchange.
  const body = { id: "DIG-2", level: "must", reason: "the 401 body is text/html" };
  const twice = ["digest-get", "digest-post"] as const;
  const grouped = interopHtml({
    ...doc,
    cells: twice.map((task) => cell("urllib", "sha", task, "failed", "neither", {}, { server: [body] })),
  });
  const [entry, ...others] = [...grouped.matchAll(/<li class="gap[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[0]);
  assert.equal(others.length, 0);
  assert.match(entry ?? "", /urllib × sha<\/b>, digest-get and digest-post: /);
  assert.match(entry ?? "", /DIG-2[\s\S]*text\/html/);
  assert.equal(entry?.match(/#exchange"/g)?.length, 2);
});

test("every task of a pair is a mark linking to its cell's evidence, in the document's task order", () => {
  const html = interopHtml(sampleInterop());
  const marks = [
    ...html.matchAll(
      /<a class="mark[^"]*" data-task="([^"]+)" data-result="([^"]+)" data-blame="([^"]+)" data-client="([^"]+)" data-server="([^"]+)" href="([^"]+)"/g,
    ),
  ];
  assert.equal(marks.length, 12);
  for (const [, task, , , clientName, serverName, href] of marks)
    assert.equal(href, `cells/${clientName}/${serverName}/${task}/index.html`);
  const wgetQuoting = marks.filter((m) => m[4] === "wget" && m[5] === "quoting").map((m) => `${m[1]} ${m[2]} ${m[3]}`);
  assert.deepEqual(wgetQuoting, ["digest-get failed server", "update unsupported none", "export failed both"]);
  assert.equal(evidenceHref({ evidence: "cells/my client/a#b/update" }), "cells/my%20client/a%23b/update/index.html");
});

test("each implementation's own verdict stands beside its name, with its failed rows and a link to its report", () => {
  const html = interopHtml(sampleInterop());
  assert.match(
    html,
    /quoting<br><a class="own-verdict non-conformant" [^>]*href="servers\/quoting\/conformance\.json">non-conformant: fails DIG-14 \(computed\)<\/a>/,
  );
  assert.match(html, /wget<\/span><br><span class="own-verdict conformant"/);
  const given = ownVerdictHtml({
    source: "given",
    exitCode: null,
    verdict: "not run",
    failedRows: [],
    warnedRows: [],
    problem: "no report",
  });
  assert.equal(given, '<span class="own-verdict not-run" title="no report">not run (given)</span>');
});

test("the interop score counts only the cells where the client does the task and the server serves it", () => {
  const scores = interopScores(sampleInterop()).map((s) => [s.group.slug, s.succeeded, s.counted, scoreText(s)]);
  assert.deepEqual(scores, [
    ["digest", 1, 4, "1 of 4 (25%)"],
    ["snapshots", 2, 2, "2 of 2 (100%)"],
    ["export", 1, 2, "1 of 2 (50%)"],
  ]);
  assert.equal(scoreText(interopScores(interopDocument())[0] ?? assert.fail()), "no pair where both sides do it");
  assert.match(interopHtml(sampleInterop()), /<tr data-behaviour="digest">.*<td class="score">1 of 4 \(25%\)<\/td>/);
});

test("the filter's state goes into the URL and comes back from it", () => {
  const all = { task: ["digest-get", "update"], blame: ["client", "neither", "none"] };
  assert.equal(filter.encodeState({ task: ["digest-get", "update"], blame: ["neither"] }, all), "blame=neither");
  assert.equal(filter.encodeState({ task: ["digest-get", "update"], blame: ["client", "neither", "none"] }, all), "");
  assert.deepEqual(filter.parseState("#blame=neither&task=update,digest-get", ""), {
    task: ["update", "digest-get"],
    blame: ["neither"],
  });
  assert.deepEqual(filter.parseState("#result=failed", "?result=succeeded&client=a%20b"), {
    result: ["failed"],
    client: ["a b"],
  });
  assert.deepEqual(filter.parseState("#task=", ""), { task: [] }, "an empty list shows nothing");
});

test("an item shows where each of its attributes passes the filter; a cell without blame is blame none", () => {
  const failed = { task: "update", result: "failed", blame: "neither", client: "curl", server: "ours" };
  const succeeded = { task: "update", result: "succeeded", blame: "none", client: "curl", server: "ours" };
  assert.ok(filter.visible(failed, {}) && filter.visible(succeeded, {}));
  assert.ok(filter.visible(failed, { blame: ["neither"] }));
  assert.ok(!filter.visible(succeeded, { blame: ["neither"] }));
  assert.ok(filter.visible(succeeded, { blame: ["none"] }));
  assert.ok(!filter.visible(failed, { server: ["theirs"] }));
  assert.ok(filter.visible({ client: "curl" }, { server: ["theirs"] }), "a client's row is checked on the client only");
});

test("evidence pages go into each cell's folder, linking back, and never outside the report dir", () => {
  const dir = reportDir();
  const doc = sampleInterop();
  const outside = { ...cell("curl", "strict", "update", "succeeded"), evidence: "../escaped/" };
  mkdirSync(join(dir, "servers", "quoting"), { recursive: true });
  writeFileSync(join(dir, "servers", "quoting", "conformance.html"), "");
  const folder = join(dir, "cells", "wget", "quoting", "digest-get");
  mkdirSync(folder, { recursive: true });
  const run = {
    command: "./clients/wget.sh",
    environment: { SXD_TASK: "digest-get" },
    exitCode: 6,
    timedOut: false,
    stdout: "",
    stderr: "wget: Authentication Failed.",
    durationMs: 41.7,
  };
  writeFileSync(join(folder, "client.json"), JSON.stringify(run));
  writeFileSync(join(folder, "exchange.json"), "{not json");
  writeInteropHtml(dir, { ...doc, cells: [...doc.cells, outside] });
  assert.ok(!existsSync(join(dir, "..", "escaped")));
  assert.match(
    readFileSync(join(dir, "interop.html"), "utf8"),
    /href="servers\/quoting\/conformance\.html"/,
    "the report's page where it was written",
  );
  const page = readFileSync(join(folder, "index.html"), "utf8");
  assert.match(page, /<a href="\.\.\/\.\.\/\.\.\/\.\.\/interop\.html">/);
  assert.match(page, /<td class="failed" id="result">failed \(blame: server\)<\/td>/);
  assert.match(
    page,
    /<th scope="row">DIG-14<\/th><td>SHOULD<\/td><td class="reason">the challenge says algorithm=&quot;sha-256&quot;<\/td>/,
  );
  assert.match(page, /exchange\.json cannot be read/);
  assert.match(page, /<td id="exit">exit code 6<\/td>/);
  assert.match(page, /wget: Authentication Failed\./);
  for (const c of doc.cells) assert.ok(existsSync(join(dir, c.evidence, "index.html")), c.evidence);
});
