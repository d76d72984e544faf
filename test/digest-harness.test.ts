/**
 * The digest harness against the bundled reference, described in ways that stage what a real
 * server does: a password the description gets wrong (every login refused), a nonce lifetime
 * longer than sxd waits, the "each nc once" policy, and a server taking only the spec's
 * literal formula. Checked through the command a user runs (its code in this process, sxdHere),
 * from its JSON report.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadRows } from "../harness/judging/catalogue.ts";
import { sxdHere, tempDir } from "./support/cli.ts";
import { behaviourTags } from "./support/suite.ts";

interface ReportRow {
  id: string;
  verdict: string;
  reason?: string;
  scenarios: Array<{ name: string; status: string; message?: string; exchanges: Array<{ note?: string }> }>;
}

async function digestRun(digest: object, tags: string, faults: string[] = []): Promise<Map<string, ReportRow>> {
  const dir = tempDir();
  const config = join(dir, "target.json");
  writeFileSync(config, JSON.stringify({ digest }));
  const args = ["--config", config, "--tags", tags, "--report-dir", dir, "--timeout", "5000"];
  const run = await sxdHere(["test", ...args, ...faults.flatMap((fault) => ["--reference-fault", fault])]);
  // 3: incomplete, where the one scenario a tag picks is not run (a lifetime longer than sxd waits).
  assert.ok(run.code !== null && [0, 1, 3].includes(run.code), `exit ${run.code}: ${run.stderr}`);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as { rows: ReportRow[] };
  return new Map(report.rows.map((row) => [row.id, row]));
}

const ALL_DIGEST = behaviourTags(
  "DIG",
  loadRows().map((r) => r.id),
);

// Each case starts its own reference through the command; sxdHere takes them one at a time.
describe("the digest harness on a described reference", () => {
  it("a wrong password in the description fails DIG-4 alone, with a hint; the rest needing a login are not run", async () => {
    const rows = await digestRun({ password: "not-the-password" }, ALL_DIGEST);
    assert.equal(rows.get("DIG-4")?.verdict, "failed");
    assert.match(rows.get("DIG-4")?.reason ?? "", /digest\.username and digest\.password/);
    for (const id of ["DIG-5", "DIG-7", "DIG-11"]) {
      assert.equal(rows.get(id)?.verdict, "not run", id);
      assert.match(rows.get(id)?.reason ?? "", /needs a login: see DIG-4/, id);
    }
    for (const id of ["DIG-6", "DIG-8", "DIG-9", "DIG-10", "DIG-12"]) {
      assert.equal(rows.get(id)?.verdict, "not run", id);
      assert.match(rows.get(id)?.reason ?? "", /see DIG-4/, id);
    }
    for (const id of ["DIG-1", "DIG-2", "DIG-3"]) assert.equal(rows.get(id)?.verdict, "passed", id);
  });

  it("a nonce lifetime longer than a minute leaves DIG-10 not run, and more uses than sxd spends DIG-9", async () => {
    const long = await digestRun({ noncePolicy: "unlimited", nonceLifetime: 300 }, "@DIG-10");
    assert.equal(long.get("DIG-10")?.verdict, "not run");
    assert.match(long.get("DIG-10")?.reason ?? "", /300 s/);
    const many = await digestRun({ noncePolicy: { uses: 1000 } }, "@DIG-9");
    assert.equal(many.get("DIG-9")?.verdict, "not run");
    assert.match(many.get("DIG-9")?.reason ?? "", /1000 uses/);
  });

  it('the nc-once policy replays a used nc; DIG-10 waits out no 300 s lifetime, and with "unlimited" it is not applicable', async () => {
    const rows = await digestRun({ noncePolicy: "nc-once" }, "@DIG-9 or @DIG-10");
    assert.equal(rows.get("DIG-9")?.verdict, "passed");
    assert.equal(rows.get("DIG-10")?.verdict, "not run");
    assert.match(rows.get("DIG-10")?.reason ?? "", /lifetime of 300 s, longer than the 60 s/);
    const never = await digestRun({ noncePolicy: "nc-once", nonceLifetime: "unlimited" }, "@DIG-10");
    assert.equal(never.get("DIG-10")?.verdict, "not applicable");
  });

  it("a DIG-9 failure names the policy the description states and the use it was on", async () => {
    const replayed = await digestRun({ noncePolicy: { uses: 2 } }, "@DIG-9");
    assert.equal(
      replayed.get("DIG-9")?.verdict,
      "failed",
      "the one-time reference refuses the second use it was told of",
    );
    assert.match(
      replayed.get("DIG-9")?.reason ?? "",
      /use 2 of a nonce, where digest\.noncePolicy \{"uses":2\} allows 2 uses/,
    );
  });

  it("the retry with the spec's literal formula is marked in the report", async () => {
    const rows = await digestRun({}, "@DIG-5", ["dig-spec-formula-only"]);
    assert.equal(rows.get("DIG-5")?.verdict, "passed");
    const notes = (rows.get("DIG-5")?.scenarios ?? []).flatMap((s) => s.exchanges.flatMap((e) => e.note ?? []));
    assert.ok(
      notes.some((note) => /spec's literal formula.*refused with status 401/.test(note)),
      notes.join("\n"),
    );
  });
});
