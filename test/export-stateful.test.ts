/**
 * EXP-6 against export servers that keep state (issue 21): single-use tokens. The control
 * POST spends its token, so each flawed POST is built on a link read after it; a server that
 * has no fresh link to give leaves the case not run, never passed.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import type { RowResult } from "../harness/judging/verdicts.ts";
import { startExportPair, type TokenRules } from "./export-targets/export-servers.ts";
import { runAgainstTarget } from "./support/suite.ts";

async function exp6Of(t: TestContext, rules: Partial<TokenRules>): Promise<RowResult> {
  const pair = await startExportPair(rules);
  try {
    const resolved = resolveDescription([{ baseUrl: pair.description.messagingUrl ?? "", ...pair.description }]);
    assert.ok(resolved.ok);
    const run = await runAgainstTarget(resolved.value as TargetDescription, { tags: "@EXP-6", strict: true });
    const row = run.judgement.rows.find((r) => r.row.id === "EXP-6");
    assert.ok(row);
    t.diagnostic(`${JSON.stringify(rules)}: ${row.scenarios.map((s) => `${s.status}: ${s.name}`).join("; ")}`);
    return row;
  } finally {
    await pair.close();
  }
}

const statusesOf = (row: RowResult) => row.scenarios.map((s) => s.status);

describe("EXP-6 against servers with single-use tokens", () => {
  it("single-use tokens bound to their user pass: every flawed POST had a link the control did not spend", async (t) => {
    const row = await exp6Of(t, {});
    assert.equal(row.verdict, "passed", row.reason);
    // A random token shows nothing to decode: of the forgeries, only the tail cut applies.
    const forged = (s: RowResult["scenarios"][number]) => s.name.startsWith("A token forged as");
    assert.deepEqual(
      new Set(statusesOf({ ...row, scenarios: row.scenarios.filter((s) => !forged(s)) })),
      new Set(["passed"]),
    );
    for (const s of row.scenarios.filter(forged)) {
      if (s.name.includes("tail cut")) assert.equal(s.status, "passed", s.name);
      else assert.match(`${s.status}: ${s.message}`, /^not applicable: nothing to forge: /, s.name);
    }
  });

  it("single-use tokens not bound to their user fail on another user's address, whether a link comes per read or after a spent one", async (t) => {
    for (const issue of ["per-read", "after-spent"] as const) {
      const row = await exp6Of(t, { issue, boundToUser: false });
      assert.equal(row.verdict, "failed", issue);
      const failed = row.scenarios.filter((s) => s.status === "failed");
      assert.deepEqual(
        failed.map((s) => s.name),
        [
          "A POST with its token on another user's import address does not export",
          "A user's token used on another user's import address is refused and imports nothing there",
        ],
        issue,
      );
      assert.match(failed[0].message ?? "", /no export: neither 303 nor 2xx\nbut got status 303/);
    }
  });

  it("one single-use link per user, spent by the control: every case is not run, with the reason", async (t) => {
    const row = await exp6Of(t, { issue: "once-per-user" });
    assert.equal(row.verdict, "not run");
    // The first case's control spends the user's only link; every later control is refused.
    const [first, ...later] = row.scenarios;
    assert.equal(first.status, "not run");
    assert.match(first.message ?? "", /served again the link the control had used, and it no longer exports/);
    for (const s of later) {
      assert.equal(s.status, "not run", s.name);
      assert.match(s.message ?? "", /the same request without the defect was refused too \(status 403\)/, s.name);
    }
  });

  it("the same, not bound to the user: not run too, for the list gives no fresh link to stand on", async (t) => {
    const row = await exp6Of(t, { issue: "once-per-user", boundToUser: false });
    assert.equal(row.verdict, "not run");
    assert.ok(statusesOf(row).every((status) => status === "not run"));
  });

  it("a list that shows its export link on the first read only: the flawed POST has no fresh link, so not run, pointing at EXP-1 and EXP-3", async (t) => {
    const row = await exp6Of(t, { issue: "first-read-only" });
    assert.notEqual(row.verdict, "passed");
    const [first] = row.scenarios;
    assert.equal(first.status, "not run");
    assert.match(
      first.message ?? "",
      /offers no usable export link, so the flawed POST has no fresh link: .*see EXP-1 and EXP-3/,
    );
  });
});
