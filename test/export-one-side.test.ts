// Small servers of the tests' own, one export server each and shaped unlike the reference
// (another backend path and method, the token in a header or a query, a relative Location),
// judged with sxd playing the other side: a correct one is conformant with exit 0, and each
// fault fails its own row.
import assert from "node:assert/strict";
import { test } from "node:test";
import { peerUrl } from "../cli/peer-options.ts";
import { resolveDescription } from "../harness/description/target.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import {
  type ContactsFault,
  DESCRIPTIONS,
  type MessagingFault,
  startSmallContacts,
  startSmallMessaging,
} from "./export-targets/one-side-servers.ts";
import { freePort } from "./support/ports.ts";
import { behaviourTags, rowsWith, runAgainstTarget } from "./support/suite.ts";

const tags = behaviourTags(
  "EXP",
  loadRows().map((r) => r.id),
);

/** Runs the export rows against the team's `team` server, sxd playing the other. */
async function judgeAlone(team: "messaging" | "contacts", fault?: MessagingFault | ContactsFault) {
  const side = team === "messaging" ? "contacts" : "messaging";
  const port = await freePort();
  const server =
    team === "messaging"
      ? await startSmallMessaging(peerUrl(port), fault as MessagingFault | undefined)
      : await startSmallContacts(peerUrl(port), fault as ContactsFault | undefined);
  try {
    const resolved = resolveDescription([
      DESCRIPTIONS[team],
      { baseUrl: server.url, [`${team}Url`]: server.url, [`${side}Url`]: peerUrl(port) },
    ]);
    assert.ok(resolved.ok);
    return await runAgainstTarget(resolved.value, { tags, strict: true, peer: { side, port, host: "127.0.0.1" } });
  } finally {
    await server.close();
  }
}

test("a correct messaging server alone and a correct contacts server alone are conformant", async () => {
  const messaging = await judgeAlone("messaging");
  assert.deepEqual(rowsWith(messaging, "passed"), ["EXP-4", "EXP-5", "EXP-6", "EXP-7", "EXP-8"]);
  // EXP-10 binds the contacts server, which sxd plays here.
  assert.deepEqual(rowsWith(messaging, "not applicable"), ["EXP-1", "EXP-10", "EXP-2", "EXP-3", "EXP-9"]);
  assert.equal(messaging.exitCode, 0);
  const contacts = await judgeAlone("contacts");
  // Its tokens are 9 random bytes, a new one per read: EXP-10 is judged, and passes.
  assert.deepEqual(rowsWith(contacts, "passed"), ["EXP-1", "EXP-10", "EXP-2", "EXP-3", "EXP-5", "EXP-6"]);
  assert.deepEqual(rowsWith(contacts, "not applicable"), ["EXP-4", "EXP-7", "EXP-8", "EXP-9"]);
  assert.equal(contacts.exitCode, 0);
});

test("each fault of a server alone fails its own row", async (t) => {
  for (const [team, fault, failed] of [
    // Never asking, it never presents the token to the contacts server either.
    ["messaging", "never-fetches", ["EXP-5", "EXP-6", "EXP-7", "EXP-8"]],
    // sxd's contacts server refuses the other user's list for this user's token.
    ["messaging", "fetches-other-user", ["EXP-4", "EXP-5", "EXP-7"]],
    ["messaging", "keeps-part", ["EXP-5", "EXP-7"]],
    ["messaging", "answers-302", ["EXP-4"]],
    ["messaging", "location-on-contacts", ["EXP-4"]],
    ["contacts", "any-token", ["EXP-6"]],
    ["contacts", "other-users-token", ["EXP-6"]],
    // No absolute link, nowhere to export to: the rows that start from the link fail with it.
    ["contacts", "relative-href", ["EXP-10", "EXP-3", "EXP-5", "EXP-6"]],
  ] as const) {
    await t.test(`${team}: ${fault}`, async () => {
      const run = await judgeAlone(team, fault);
      assert.deepEqual(rowsWith(run, "failed"), failed);
    });
  }
});
