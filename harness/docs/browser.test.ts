// The site's filter logic (browser.js, served as site.js: a classic browser script) run in node.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runInNewContext } from "node:vm";

interface Item {
  level: string;
  behaviour: string;
  text: string;
}
type Matches = (item: Item, filters: { levels: string[]; behaviours?: string[]; query: string }) => boolean;

function loadMatches(): Matches {
  const scope: { sxdDocs?: { matches: Matches } } = {};
  runInNewContext(readFileSync(new URL("./browser.js", import.meta.url), "utf8"), { globalThis: scope });
  return scope.sxdDocs?.matches ?? assert.fail("site.js did not define sxdDocs.matches");
}

const matches = loadMatches();
const must: Item = { level: "must", behaviour: "digest", text: "dig-4 repeating the request with correct digest" };
const should: Item = { level: "should", behaviour: "digest", text: "dig-10 a stale nonce gets stale=true" };
const ALL = { levels: ["must", "should", "may"], query: "" };

test("every item shows with no filter", () => {
  assert.ok(matches(must, ALL) && matches(should, ALL));
});

test("a level filter hides the other levels", () => {
  assert.ok(matches(must, { ...ALL, levels: ["must"] }));
  assert.ok(!matches(should, { ...ALL, levels: ["must"] }));
});

test("a behaviour filter hides the other behaviours; a page without one keeps all", () => {
  assert.ok(!matches(must, { ...ALL, behaviours: ["export", "snapshots"] }));
  assert.ok(matches(must, { ...ALL, behaviours: ["digest"] }));
});

test("search keeps the items holding every word, whatever the case", () => {
  assert.ok(matches(should, { ...ALL, query: "Stale" }));
  assert.ok(!matches(must, { ...ALL, query: "stale" }));
  assert.ok(matches(should, { ...ALL, query: "  nonce   STALE " }));
  assert.ok(!matches(should, { ...ALL, query: "stale export" }));
});
