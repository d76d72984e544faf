import assert from "node:assert/strict";
import { test } from "node:test";
import { headersFor, resolveDescription, stated, unstatedKeys, unstatedReason } from "./target.ts";
import { parseDescription, validateDescription } from "./target-check.ts";

test("a description's silence is not the reference's choice: the keys left out are named, never filled in", () => {
  const parsed = parseDescription(
    '{"baseUrl":"http://h:1/","digest":{"path":"/me","username":"u","password":"p"}}',
    "t.json",
  );
  assert.ok(parsed.ok);
  const resolved = resolveDescription([parsed.value]);
  assert.ok(resolved.ok);
  const target = resolved.value;
  assert.equal(target.baseUrl, "http://h:1");
  assert.deepEqual(target.snapshots, {});
  assert.deepEqual(unstatedKeys(target, "digest"), []);
  assert.equal(unstatedReason(target, "digest"), undefined);
  assert.equal(stated(target, "digest").path, "/me");
  // A digest server that serves no entries: the snapshot rows are not run, naming the key.
  assert.deepEqual(unstatedKeys(target, "snapshots"), ["snapshots.collection"]);
  assert.match(unstatedReason(target, "snapshots") ?? "", /state snapshots\.collection \(or snapshots\.resources/);
  // The export rows need both servers' URLs too: the spec fixes the paths on them, not where they are.
  assert.deepEqual(unstatedKeys(target, "export"), ["contactsUrl", "messagingUrl", "export.user"]);
  assert.throws(() => stated(target, "export"), /state contactsUrl, messagingUrl, export\.user/);
  // A base URL alone states nothing else; a resource list stands in for a collection.
  const bare = resolveDescription([{ baseUrl: "http://h" }, { digest: { path: "/p" } }]);
  assert.ok(bare.ok);
  assert.deepEqual(unstatedKeys(bare.value, "digest"), ["digest.username", "digest.password"]);
  assert.match(unstatedReason(bare.value, "digest") ?? "", /state digest\.username, digest\.password$/);
  const fixed = resolveDescription([{ baseUrl: "http://h", snapshots: { resources: [{ path: "/n/1" }] } }]);
  assert.ok(fixed.ok);
  assert.deepEqual(unstatedKeys(fixed.value, "snapshots"), []);
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
    ['{"snapshots":{"resources":[]}}', /snapshots.resources must be a non-empty list/],
    ['{"snapshots":{"resources":[{"path":"notes/1"}]}}', /snapshots.resources\[0\].path must be a path/],
    ['{"snapshots":{"resources":[{"delete":true}]}}', /snapshots.resources\[0\].path is required/],
    ['{"snapshots":{"resources":[{"path":"/n/1","remove":true}]}}', /unknown key "snapshots.resources\[0\].remove"/],
    ['{"digest":{"nonceLifetime":0}}', /nonceLifetime must be a whole number/],
    ['{"digest":{"cookies":"yes"}}', /cookies must be true or false/],
  ];
  for (const [text, message] of cases) {
    const parsed = parseDescription(text, "t.json");
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.error, message);
  }
  assert.equal(parseDescription('{"digest":{"noncePolicy":{"uses":3}}}', "t").ok, true);
  assert.equal(
    parseDescription('{"snapshots":{"resources":[{"path":"/n/1"},{"path":"/n/2","delete":true}]}}', "t").ok,
    true,
  );
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

test("export.result and export.outage are checked", () => {
  const good = ['"location"', "false", '"/api/users/{user}/contacts"'];
  for (const result of good) assert.equal(parseDescription(`{"export":{"result":${result}}}`, "t").ok, true, result);
  const cases: Array<[string, RegExp]> = [
    ['{"export":{"result":true}}', /export.result must be "location", a path/],
    ['{"export":{"result":"user/{user}"}}', /export.result must be/],
    ['{"export":{"outage":{"stop":"x"}}}', /export.outage.start is required/],
    ['{"export":{"outage":"docker stop c"}}', /export.outage must be an object/],
    ['{"export":{"outage":{"stop":"a","start":"b","timeoutMs":0}}}', /export.outage.timeoutMs must be a whole number/],
    ['{"export":{"outage":{"stop":"a","start":"b","wait":1}}}', /unknown key "export.outage.wait"/],
  ];
  for (const [text, message] of cases) {
    const parsed = parseDescription(text, "t.json");
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.error, message);
  }
  const outage = parseDescription('{"export":{"outage":{"stop":"a","start":"b","timeoutMs":5000}}}', "t");
  assert.ok(outage.ok);
});

test("a description file may start with a byte order mark", () => {
  const parsed = parseDescription('\uFEFF{"baseUrl":"http://x:1"}', "bom.json");
  assert.deepEqual(parsed, { ok: true, value: { baseUrl: "http://x:1" } });
});

test("a JSON syntax error names its line and column", () => {
  const cases: Array<[string, string]> = [
    ['{\n  "digest": {,}\n}', "t.json:2:14:"],
    ['{"a":}', "t.json:1:6:"],
    ['{\n  "a": 1,\n  "b" 2\n}', "t.json:3:7:"],
  ];
  for (const [text, place] of cases) {
    const parsed = parseDescription(text, "t.json");
    assert.ok(!parsed.ok);
    assert.ok(parsed.error.startsWith(`${place} not valid JSON (`), parsed.error);
    assert.doesNotMatch(parsed.error, /\n/);
  }
});

test("extra headers are those of the server a URL lies on", () => {
  const target = resolveDescription([
    {
      baseUrl: "http://h:1/api",
      contactsUrl: "http://h:1/api/contacts",
      headers: { base: { "X-Key": "b" }, contacts: { "X-Key": "c" } },
    },
  ]);
  assert.ok(target.ok);
  assert.deepEqual(headersFor(target.value, "http://h:1/api/entries/x"), { "X-Key": "b" });
  assert.deepEqual(headersFor(target.value, "http://h:1/api/contacts/user/a"), { "X-Key": "c" });
  assert.deepEqual(headersFor(target.value, "http://h:1/apiary"), {});
  assert.equal(validateDescription({ headers: { base: { "Bad Name": "x" } } }).ok, false);
  // One server at the base URL and the contacts URL (--peer messaging without a base URL).
  const shared = resolveDescription([
    {
      baseUrl: "http://h:1",
      contactsUrl: "http://h:1",
      headers: { base: { "X-Key": "b", "X-Base": "1" }, contacts: { "X-Key": "c" } },
    },
  ]);
  assert.ok(shared.ok);
  assert.deepEqual(headersFor(shared.value, "http://h:1/user/a/contacts"), { "X-Key": "c", "X-Base": "1" });
});
