// The site's pages from hand-made inputs: a server row and a client row, each on its own page,
// each with its recorded run said to come from whom it came from, and other runs' results
// under the rows of their side only.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import type { Exchange } from "../evidence/exchange.ts";
import type { Row } from "../judging/catalogue.ts";
import { parseFeature } from "./features.ts";
import type { RecordedRun } from "./recorded.ts";
import { cellOf, type RunResults, rowResultsHtml } from "./results.ts";
import { buildSite } from "./site.ts";

const DIG_1: Row = { id: "DIG-1", level: "must", rule: "A challenge names the realm." };
const CDIG_1: Row = { id: "CDIG-1", level: "must", rule: "The client answers the challenge.", side: "client" };

const SERVER_FEATURE = parseFeature(
  "features/digest/challenge.feature",
  "Feature: Challenge\n  @DIG-1 @must\n  Scenario: A challenge\n    When a request comes without credentials\n",
);
const CLIENT_FEATURE = parseFeature(
  "features/clients/digest/answer.feature",
  'Feature: Answer\n  @CDIG-1 @must\n  Scenario: An answer\n    Given the client has done the task "digest-get"\n',
);

const EXCHANGE: Exchange = {
  method: "GET",
  url: "http://127.0.0.1:1/client/protected",
  requestHeaders: { authorization: 'Digest username="demo"' },
  response: { status: 200, headers: {}, body: "" },
  startedAt: "2026-01-01T00:00:00Z",
  durationMs: 1,
};

const recorded = new Map<string, RecordedRun>([
  ["features/digest/challenge.feature:3", { name: "A challenge", status: "passed", exchanges: [EXCHANGE] }],
  [
    "features/clients/digest/answer.feature:3",
    { name: "An answer", status: "failed", message: "no cnonce", exchanges: [EXCHANGE] },
  ],
]);

function results(baseUrl: string, row: Row, command?: string): RunResults {
  const doc: ConformanceDocument = {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall: "not conformant",
    ...(command ? { client: { command, runs: [] } } : {}),
    rows: [
      {
        ...row,
        verdict: "failed",
        reason: `${row.id} reason`,
        scenarios: [{ name: "s", location: "l", status: "failed", exchanges: [] }],
      },
    ],
  };
  return { doc };
}

const server = results("http://server.example", DIG_1);
const client = results("client: ./my-client", CDIG_1, "./my-client");

const site = buildSite({
  rows: [DIG_1, CDIG_1],
  features: [SERVER_FEATURE, CLIENT_FEATURE],
  recorded,
  results: [server, client],
});
const page = (name: string) => site.get(name) ?? assert.fail(`no ${name}`);

test("a client row has its section on its client page, never on the server's", () => {
  assert.match(
    page("client-digest.html"),
    /<section class="row filterable" id="CDIG-1"[^>]*data-behaviour="client-digest"/,
  );
  assert.doesNotMatch(page("digest.html"), /id="CDIG-1"/);
  assert.doesNotMatch(page("client-digest.html"), /id="DIG-1"/);
  assert.match(page("client-digest.html"), /<p class="intro">/);
  assert.ok(site.has("client-export.html") && site.has("client-snapshots.html"));
});

test("each recorded run says whose it is: the reference's for a server row, the example client's for a client row", () => {
  assert.match(page("digest.html"), /<summary>The exchange with the bundled reference: 1 request<\/summary>/);
  assert.match(
    page("client-digest.html"),
    /<summary>What the example client sent to sxd's servers: 1 request — its grade: failed: no cnonce<\/summary>/,
  );
  assert.doesNotMatch(page("client-digest.html"), /bundled reference/);
});

test("a run's results stand under the rows of its side only", () => {
  assert.deepEqual(cellOf(server, DIG_1), { verdict: "failed", reason: "DIG-1 reason" });
  assert.equal(cellOf(server, CDIG_1), undefined);
  assert.equal(cellOf(client, DIG_1), undefined);
  assert.deepEqual(cellOf(client, { ...CDIG_1, id: "CDIG-2" }), { verdict: "not run", reason: "not part of this run" });
  const under = rowResultsHtml(CDIG_1, [server, client]);
  assert.match(under, /<th scope="col">client<\/th>/);
  assert.match(under, /client <code title="\.\/my-client">\.\/my-client<\/code>/);
  assert.doesNotMatch(under, /server\.example/);
  assert.equal(rowResultsHtml(CDIG_1, [server]), "", "no table where no run speaks for the row");
});

test("the index: the rows in the order given, each run's column a dash on the other side's rows", () => {
  const index = page("index.html");
  assert.ok(index.indexOf('href="digest.html#DIG-1"') < index.indexOf('href="client-digest.html#CDIG-1"'));
  const line = (id: string) => index.slice(index.indexOf(`#${id}"`), index.indexOf("</tr>", index.indexOf(`#${id}"`)));
  assert.match(
    line("DIG-1"),
    /<span class="verdict failed">failed<\/span><\/td><td class="other-side" title="a client run judges no server row">–<\/td>$/,
  );
  assert.match(
    line("CDIG-1"),
    /<td class="other-side" title="a server run judges no client row">–<\/td><td title="CDIG-1 reason">/,
  );
});
