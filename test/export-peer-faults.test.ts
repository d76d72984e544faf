// The reference's export fault modes run one-sided: the faulty server is the team's, sxd plays
// the other side (--peer), and the run fails the rows the fault names, less those of the side
// sxd played, and no other. Both halves run in this process, so they share the token key.
import assert from "node:assert/strict";
import { test } from "node:test";
import { peerUrl } from "../cli/peer-options.ts";
import { rowsBindingOnly } from "../harness/description/peer.ts";
import { resolveDescription } from "../harness/description/target.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { FAULTS, type FaultName, REFERENCE_DESCRIPTION, startReference } from "../reference/index.ts";
import { freePort } from "./support/ports.ts";
import { behaviourTags, rowsWith, runAgainstTarget } from "./support/suite.ts";

/** Faults of the list and its link, which the contacts server makes. */
const CONTACTS_SIDE = ["exp-list-wrong-type", "exp-no-self-link", "exp-relative-self", "exp-link-no-title"];
/**
 * Faults both servers make together (a query token the messaging server also reads; a token
 * the contacts server mints without the user, or in a weak scheme, and the messaging server
 * checks so; numbered tokens the messaging server looks up in the contacts server's table):
 * one side alone does not have them.
 */
const BOTH_SIDES = [
  "exp-link-query-token",
  "exp-token-not-user-bound",
  "exp-token-unsigned-user",
  "exp-token-unsigned-expiry",
  "exp-token-escaped-unsigned-expiry",
  "exp-token-jwt-alg-none",
  "exp-token-jwt-unverified",
  "exp-token-counter",
  "exp-token-escaped-counter",
];
/**
 * Rows not applicable on the whole reference too, whoever plays which side: its standard
 * tokens are not new on each read, so there is no sample of them to judge (EXP-10).
 */
const NOT_APPLICABLE_ON_THE_REFERENCE = ["EXP-10"];

const tags = behaviourTags(
  "EXP",
  loadRows().map((r) => r.id),
);
const exportFaults = (Object.keys(FAULTS) as FaultName[]).filter(
  (name) => name.startsWith("exp-") && !BOTH_SIDES.includes(name),
);

test("each export fault of one server fails its rows with sxd playing the other server", async (t) => {
  for (const fault of exportFaults) {
    await t.test(fault, async () => {
      const team = CONTACTS_SIDE.includes(fault) ? "contacts" : "messaging";
      const side = team === "contacts" ? "messaging" : "contacts";
      const port = await freePort();
      const half = await startReference({
        host: "127.0.0.1",
        ports: { base: 0, contacts: 0, messaging: 0 },
        servers: [team],
        publicUrls: { [side]: peerUrl(port) },
        faults: [fault],
      });
      try {
        const teamUrl = half.urls[team];
        const resolved = resolveDescription([
          REFERENCE_DESCRIPTION,
          { baseUrl: teamUrl, [`${team}Url`]: teamUrl, [`${side}Url`]: peerUrl(port) },
        ]);
        assert.ok(resolved.ok);
        const run = await runAgainstTarget(resolved.value, {
          tags,
          strict: true,
          peer: { side, port, host: "127.0.0.1" },
        });
        const expected = FAULTS[fault].breaks.filter((row) => !rowsBindingOnly(side).includes(row));
        assert.deepEqual(rowsWith(run, "failed"), expected.sort(), `${fault} on the ${team} server alone`);
        const notApplicable = new Set([...rowsBindingOnly(side), ...NOT_APPLICABLE_ON_THE_REFERENCE]);
        assert.deepEqual(rowsWith(run, "not applicable"), [...notApplicable].sort());
      } finally {
        await half.close();
      }
    });
  }
});
