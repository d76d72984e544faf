import assert from "node:assert/strict";
import { test } from "node:test";
import { type ConformanceDocument, documentSide, documentSubject } from "../evidence/conformance-document.ts";
import { subjectHtml } from "../evidence/presentation.ts";
import type { RowVerdict } from "../judging/verdicts.ts";
import { matrixCellHtml, matrixRows, mergedMatrixHtml } from "./matrix.ts";

function run(baseUrl: string, verdicts: Record<string, RowVerdict>, command?: string): ConformanceDocument {
  return {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall: Object.values(verdicts).includes("failed") ? "not conformant" : "conformant",
    ...(command === undefined ? {} : { client: { command, runs: [] } }),
    rows: Object.entries(verdicts).map(([id, verdict]) => ({
      id,
      level: id.endsWith("-2") ? "should" : "must",
      rule: "r",
      verdict,
      reason: verdict === "failed" ? `${id} went wrong` : undefined,
      scenarios: [{ name: "s", location: "l", status: verdict, exchanges: [] }],
    })),
  };
}

const server = run("http://server.example", { "DIG-1": "passed", "DIG-2": "failed" });
const curl = run("client: curl --digest", { "CDIG-1": "passed", "CDIG-2": "warning" }, "curl --digest");
const wget = run("client: wget", { "CDIG-1": "failed" }, "wget");

test("a run's side and subject: the client's command, from its client section or its target", () => {
  assert.equal(documentSide(server), "server");
  assert.equal(documentSubject(server), "http://server.example");
  assert.equal(documentSide(curl), "client");
  assert.equal(documentSubject(curl), "curl --digest");
  // A document written without the client section still reads as a client run by its target.
  const bare: ConformanceDocument = { ...wget, client: undefined };
  assert.equal(documentSide(bare), "client");
  assert.equal(documentSubject(bare), "wget");
});

test("a client's heading: 'client' and its command, cut where long with the whole command as title", () => {
  assert.equal(subjectHtml(curl), 'client <code title="curl --digest">curl --digest</code>');
  assert.equal(subjectHtml(server, "a/b.html"), '<a href="a/b.html">http://server.example</a>');
  const long = `sh -c 'node client.mjs --user "$SXD_USERNAME" --password "$SXD_PASSWORD" --url "$SXD_URL"'`;
  const html = subjectHtml(run(`client: ${long}`, {}, long));
  assert.ok(html.includes(`title="${long.replaceAll('"', "&quot;").replaceAll("'", "&apos;")}"`), html);
  assert.match(html, />sh -c &apos;node client\.mjs [^<]{30,}…<\/code>$/);
});

test("several client runs: one line per client row, one column per client, each its own verdicts", () => {
  assert.deepEqual(
    matrixRows([curl, wget]).map((r) => `${r.id} ${r.level} ${r.side}`),
    ["CDIG-1 must client", "CDIG-2 should client"],
  );
  const html = mergedMatrixHtml([curl, wget]);
  assert.match(
    html,
    /<th>client <code title="curl --digest">curl --digest<\/code><br><small>conformant<\/small><\/th>/,
  );
  assert.match(html, /<th>client <code title="wget">wget<\/code><br><small>not conformant<\/small><\/th>/);
  assert.match(
    html,
    /<tr><th>CDIG-1<\/th><td>MUST<\/td><td class="passed" title="">passed<\/td><td class="failed" title="CDIG-1 went wrong">failed<\/td><\/tr>/,
  );
  // wget's run did not include CDIG-2.
  assert.match(html, /<tr><th>CDIG-2<\/th><td>SHOULD<\/td><td class="warning"[^>]*>warning<\/td><td class="not-run"/);
  assert.doesNotMatch(html, /client: /, "the heading shows the command, not the target's 'client: ' form");
});

test("servers and clients together: the server rows first, each run a dash on the other side's rows", () => {
  const rows = matrixRows([curl, server, wget]);
  assert.deepEqual(
    rows.map((r) => r.id),
    ["DIG-1", "DIG-2", "CDIG-1", "CDIG-2"],
  );
  const [dig1, , cdig1] = rows;
  assert.ok(dig1 && cdig1);
  assert.match(
    matrixCellHtml(curl, dig1),
    /^<td class="other-side" title="a client run judges no server row">–<\/td>$/,
  );
  assert.match(
    matrixCellHtml(server, cdig1),
    /^<td class="other-side" title="a server run judges no client row">–<\/td>$/,
  );
  assert.match(matrixCellHtml(server, dig1), /^<td class="passed"/);
  const html = mergedMatrixHtml([curl, server, wget]);
  assert.match(
    html,
    /<tr><th>DIG-2<\/th><td>SHOULD<\/td><td class="other-side"[^>]*>–<\/td><td class="failed"[^>]*>failed<\/td><td class="other-side"/,
  );
});
