/**
 * EXP-6's forgeries on a server unlike the reference: link tokens that are JWTs (HS256),
 * checked properly. Every forgery a JWT allows is made and refused, so the row passes with
 * those cases run, not left not applicable.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { startJwtExportPair } from "./export-targets/jwt-servers.ts";
import { runAgainstTarget } from "./support/suite.ts";

it("a server that checks its JWT tokens properly passes EXP-6, every JWT forgery tried and refused", async (t) => {
  const pair = await startJwtExportPair();
  try {
    const resolved = resolveDescription([{ baseUrl: pair.description.messagingUrl ?? "", ...pair.description }]);
    assert.ok(resolved.ok);
    const run = await runAgainstTarget(resolved.value as TargetDescription, { tags: "@EXP-6", strict: true });
    const row = run.judgement.rows.find((r) => r.row.id === "EXP-6");
    assert.ok(row);
    t.diagnostic(row.scenarios.map((s) => `${s.status}: ${s.name}`).join("\n"));
    assert.equal(row.verdict, "passed", row.reason);
    const forged = row.scenarios.filter((s) => s.name.startsWith("A token forged as"));
    assert.equal(forged.length, 8);
    assert.deepEqual(
      forged.filter((s) => s.status !== "passed").map((s) => s.name),
      [],
      "a JWT shows a user name, numbers, claims and a signature: every forgery applies",
    );
  } finally {
    await pair.close();
  }
});
