import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { BUNDLED_REFERENCE, parseDescription, REFERENCE_DEFAULTS, resolveDescription } from "./target.ts";

test("a description layers over the reference defaults, key by key", () => {
  const parsed = parseDescription('{"baseUrl":"http://h:1/","snapshots":{"collection":"/docs/"}}', "t.json");
  assert.ok(parsed.ok);
  const resolved = resolveDescription([parsed.value]);
  assert.ok(resolved.ok);
  assert.equal(resolved.value.baseUrl, "http://h:1");
  assert.equal(resolved.value.snapshots.collection, "/docs/");
  assert.deepEqual(resolved.value.digest, REFERENCE_DEFAULTS.digest);
});

test("later layers win", () => {
  const resolved = resolveDescription([{ baseUrl: "http://a" }, { baseUrl: "http://b" }]);
  assert.ok(resolved.ok);
  assert.equal(resolved.value.baseUrl, "http://b");
});

test("bad descriptions are refused with the offending key named", () => {
  const cases: Array<[string, RegExp]> = [
    ["not json", /not valid JSON/],
    ["[]", /JSON object/],
    ['{"snapshots":{"colection":"/x/"}}', /unknown key "snapshots.colection"/],
    ['{"baseUrl":"ftp://x"}', /baseUrl must be an http/],
    ['{"snapshots":{"collection":"entries"}}', /collection must be a path/],
    ['{"digest":{"noncePolicy":{"uses":0}}}', /noncePolicy/],
    ['{"digest":{"nonceLifetime":0}}', /nonceLifetime must be a whole number/],
    ['{"digest":{"cookies":"yes"}}', /cookies must be true or false/],
  ];
  for (const [text, message] of cases) {
    const parsed = parseDescription(text, "t.json");
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.error, message);
  }
  assert.equal(parseDescription('{"digest":{"noncePolicy":{"uses":3}}}', "t").ok, true);
  assert.equal(parseDescription('{"digest":{"noncePolicy":"nc-once","nonceLifetime":5,"cookies":true}}', "t").ok, true);
});

test("a base URL is required", () => {
  const resolved = resolveDescription([{ snapshots: { collection: "/x/" } }]);
  assert.equal(resolved.ok, false);
});

test("options a server may decline are stated, never defaulted, for an external target", () => {
  const resolved = resolveDescription([{ baseUrl: "http://h" }]);
  assert.ok(resolved.ok);
  assert.equal(resolved.value.digest.noncePolicy, undefined);
  assert.equal(resolved.value.export.upload, undefined);
  assert.equal(resolved.value.export.otherUser, undefined);
});

test("examples/reference.json describes the bundled reference as sxd runs it", () => {
  const text = readFileSync(new URL("../examples/reference.json", import.meta.url), "utf8");
  const parsed = parseDescription(text, "examples/reference.json");
  assert.ok(parsed.ok);
  const bundled = resolveDescription([BUNDLED_REFERENCE, { baseUrl: "http://h" }]);
  assert.ok(bundled.ok);
  assert.deepEqual(parsed.value.digest, bundled.value.digest);
  assert.deepEqual(parsed.value.export, bundled.value.export);
  assert.deepEqual(parsed.value.snapshots, bundled.value.snapshots);
});
