/**
 * EXP-5 and EXP-7 compare contacts as whole elements (issue 38): two contacts whose text is the
 * same but whose attributes differ are two contacts, each to arrive once. A messaging server
 * that keeps them both, re-indented, passes; one that strips their attributes, or keeps one of
 * the two, has lost a contact.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { type ContactRules, startExportPair } from "./export-targets/export-servers.ts";
import { rowsWith, runAgainstTarget } from "./support/suite.ts";

const SAM = (id: string, type: string) =>
  `<contact id="${id}"><name>Sam Lee</name><email type="${type}">sam@example.org</email></contact>`;
const CONTACTS = { ada: [SAM("1", "work"), SAM("2", "home")], lin: [SAM("3", "work")] };

async function judge(keep: ContactRules["keep"]) {
  const pair = await startExportPair({ singleUse: false }, { contacts: CONTACTS, keep });
  try {
    const resolved = resolveDescription([{ baseUrl: pair.description.messagingUrl ?? "", ...pair.description }]);
    assert.ok(resolved.ok);
    return await runAgainstTarget(resolved.value as TargetDescription, { tags: "@EXP-5 or @EXP-7", strict: true });
  } finally {
    await pair.close();
  }
}

const reason = (run: Awaited<ReturnType<typeof judge>>, id: string) =>
  run.judgement.rows.find((r) => r.row.id === id)?.scenarios.find((s) => s.status === "failed")?.message ?? "";

test("a messaging server that keeps each contact whole, re-indented, passes EXP-5 and EXP-7", async () => {
  const run = await judge((contacts) => contacts.map((c) => c.replaceAll("><", ">\n  <")));
  assert.deepEqual(rowsWith(run, "passed"), ["EXP-5", "EXP-7"]);
});

test("one that strips the attributes, or keeps one of two contacts of the same text, loses a contact", async () => {
  const stripped = await judge((contacts) => contacts.map((c) => c.replace(/ \w+="[^"]*"/g, "")));
  assert.deepEqual(rowsWith(stripped, "failed"), ["EXP-5", "EXP-7"]);
  assert.match(reason(stripped, "EXP-5"), /2 of 2 missing, e\.g\. <contact id="1">.*, held only as <contact><name>/);
  const text = (c: string) => c.replace(/<[^>]*>/g, "");
  const oneOfTwo = await judge((contacts) =>
    contacts.filter((c, i) => contacts.findIndex((o) => text(o) === text(c)) === i),
  );
  assert.deepEqual(rowsWith(oneOfTwo, "failed"), ["EXP-5", "EXP-7"]);
  assert.match(reason(oneOfTwo, "EXP-5"), /1 of 2 missing, e\.g\. <contact id="2">/);
});
