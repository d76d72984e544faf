import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { failed, passed } from "../evidence/client-evidence.ts";
import { packageFile } from "../package.ts";
import { asClaimed, parseClientDescription, unclaimed } from "./description.ts";

const schema = JSON.parse(readFileSync(packageFile("schema/client.schema.json"), "utf8"));
const schemaAccepts = new Ajv2020({ allErrors: true }).compile(schema);

test("the schema and the checker agree on good and bad descriptions; the example client's is good", () => {
  const example = readFileSync(packageFile("examples/clients/node/client.json"), "utf8");
  const good = [
    {},
    { $schema: "x", $comment: "ours", digest: { checksRspauth: true }, export: { fallback: false } },
    { digest: { retriesStale: false, $comment: "we never retry" } },
    JSON.parse(example),
  ];
  for (const description of good) {
    assert.ok(schemaAccepts(description), JSON.stringify(description));
    assert.ok(parseClientDescription(JSON.stringify(description), "client.json").ok, JSON.stringify(description));
  }
  const bad = [
    [],
    { digest: { checksRspauth: "yes" } },
    { export: { fallback: 1 } },
    { digest: { rspauth: true } },
    { run: {} },
  ];
  for (const description of bad) {
    assert.ok(!schemaAccepts(description), JSON.stringify(description));
    assert.ok(!parseClientDescription(JSON.stringify(description), "client.json").ok, JSON.stringify(description));
  }
});

test("a bad description is one line that names the key", () => {
  const typo = parseClientDescription('{"digest": {"checksRspAuth": true}}', "client.json");
  assert.deepEqual(typo, {
    ok: false,
    error: 'client.json: unknown key "digest.checksRspAuth" (known: checksRspauth, retriesStale)',
  });
  const wrong = parseClientDescription('{"export": {"fallback": "no"}}', "client.json");
  assert.deepEqual(wrong, { ok: false, error: 'client.json: export.fallback must be true or false, got "no"' });
  const broken = parseClientDescription("{", "client.json");
  assert.ok(!broken.ok && /^client\.json.*not valid JSON/.test(broken.error) && !broken.error.includes("\n"));
});

test("a MAY row as described: claimed, it fails where the option is not taken; disclaimed, it does not apply; unstated, observed with the key", () => {
  const notTaken = { status: "not applicable" as const, reason: "the client accepted a wrong rspauth" };
  const key = "digest.checksRspauth";
  assert.equal(asClaimed(notTaken, { digest: { checksRspauth: true } }, key).status, "failed");
  assert.equal(asClaimed(passed("it failed"), { digest: { checksRspauth: true } }, key).status, "passed");
  assert.equal(asClaimed(passed("it failed"), { digest: { checksRspauth: false } }, key).status, "not applicable");
  const observed = asClaimed(notTaken, {}, key);
  assert.equal(observed.status, "not applicable");
  assert.match(observed.reason, /does not state digest\.checksRspauth; set it to true or false/);
  assert.equal(asClaimed(failed("x"), {}, key).status, "failed");
});

test("a row only a claim stages is not run where the description is silent, not applicable where it says no", () => {
  assert.equal(unclaimed({ export: { fallback: true } }, "export.fallback"), undefined);
  assert.equal(unclaimed({ export: { fallback: false } }, "export.fallback")?.status, "not applicable");
  const silent = unclaimed({}, "export.fallback");
  assert.equal(silent?.status, "not run");
  assert.match(silent?.reason ?? "", /does not state export\.fallback: set it to true or false/);
});
