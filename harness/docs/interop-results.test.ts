// The spec site given an interop.json: under each row, where each implementation of the row's
// side stands by its own verdict and the pairs whose failed cells broke the row (evidence as
// text, no link leaving the site); the interop score on the index and on the behaviour's pages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { interopDocument, sampleInterop } from "../../test/support/interop-document.ts";
import type { Row } from "../catalogue.ts";
import { interopDocumentOf, standingOn } from "./interop-results.ts";
import { buildSite } from "./site.ts";

const ROWS: Row[] = [
  { id: "DIG-14", level: "should", rule: "The challenge's algorithm is a token." },
  { id: "EXP-1", level: "must", rule: "The contact list links to its export." },
  { id: "CDIG-3", level: "must", rule: "The client answers an offered algorithm.", side: "client" },
];
const site = buildSite({
  rows: ROWS,
  features: [],
  recorded: new Map(),
  results: [],
  interop: [{ doc: sampleInterop(), label: "runs/interop.json" }],
});
const page = (name: string) => site.get(name) ?? assert.fail(`no ${name}`);
const section = (name: string, id: string) =>
  page(name).match(new RegExp(`<section[^>]* id="${id}"[\\s\\S]*?</section>`))?.[0] ?? assert.fail(`no ${id}`);
const standings = (html: string) =>
  [...html.matchAll(/<tr><th scope="row">([^<]+)<\/th><td[^>]*><span class="verdict [^"]+">([^<]+)<\/span>/g)].map(
    (m) => `${m[1]}: ${m[2]}`,
  );

test("under a server row: each server by its own verdict, and the pairs whose failed cells broke it", () => {
  const dig14 = section("digest.html", "DIG-14");
  assert.deepEqual(standings(dig14), ["strict: passes", "quoting: fails"]);
  const pairs = [...dig14.matchAll(/<li>([^:]+):/g)].map((m) => m[1]);
  assert.deepEqual(pairs, ["wget × quoting, digest-get (blame", "wget × quoting, export (blame"]);
  assert.match(dig14, /evidence: <code>cells\/wget\/quoting\/digest-get\/<\/code>/);
  assert.match(dig14, /the challenge says algorithm=&quot;sha-256&quot;/);
});

test("under a client row: the clients, and a server's row no client cell broke", () => {
  const cdig3 = section("client-digest.html", "CDIG-3");
  assert.deepEqual(standings(cdig3), ["curl: fails", "wget: passes"]);
  assert.match(cdig3, /curl × strict, digest-get \(blame: client\)/);
  assert.match(cdig3, /wget × quoting, export \(blame: both\)/);
  assert.match(section("export.html", "EXP-1"), /No pair's failed cell broke EXP-1 in runs\/interop\.json/);
});

test("a server that serves none of a behaviour's tasks does not take part in its rows", () => {
  assert.deepEqual(standings(section("export.html", "EXP-1")), ["strict: does not take part", "quoting: passes"]);
  const given = {
    source: "given" as const,
    exitCode: null,
    verdict: "incomplete" as const,
    failedRows: [],
    warnedRows: ["X-1"],
  };
  assert.equal(standingOn(given, "X-1", true).text, "warns");
  assert.equal(standingOn(given, "X-2", true).text, "not known (incomplete)");
});

test("the interop score: every behaviour on the index, its own on a behaviour's pages", () => {
  const scores = (html: string) =>
    [...html.matchAll(/<tr data-behaviour="([^"]+)">[\s\S]*?<td class="score">([^<]+)<\/td>/g)].map(
      (m) => `${m[1]}: ${m[2]}`,
    );
  assert.deepEqual(scores(page("index.html")), [
    "digest: 1 of 4 (25%)",
    "snapshots: 2 of 2 (100%)",
    "export: 1 of 2 (50%)",
  ]);
  assert.deepEqual(scores(page("digest.html")), ["digest: 1 of 4 (25%)"]);
  assert.deepEqual(scores(page("client-digest.html")), ["digest: 1 of 4 (25%)"]);
  assert.deepEqual(scores(page("snapshots.html")), ["snapshots: 2 of 2 (100%)"]);
});

test("the site links nothing of the interop run: its pages link only to each other", () => {
  for (const [name, html] of site) {
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
    assert.deepEqual(
      hrefs.filter((href) => !/^(#|[a-z-]+\.(html|css)(#|$))/.test(href)),
      [],
      name,
    );
  }
});

test("an interop.json is told from a conformance.json, and one that is not whole is refused", () => {
  assert.equal(interopDocumentOf({ target: { baseUrl: "x" }, rows: [] }, "c.json"), undefined);
  assert.equal(interopDocumentOf(sampleInterop(), "i.json")?.cells.length, 12);
  assert.throws(() => interopDocumentOf({ ...interopDocument(), version: 2 }, "i.json"), /version 2, not 1/);
  assert.throws(
    () => interopDocumentOf({ ...interopDocument(), cells: [{ client: "a" }] }, "i.json"),
    /not a whole interop\.json/,
  );
});
