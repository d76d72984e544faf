/**
 * `sxd test-client` on the export task: the example client (examples/clients/node) passes
 * CEXP-1..3; faulty clients over curl, kept here, each fail their own rows with the reason:
 * one that posts the list it read as the body and does not follow the 303 (CEXP-2 fails,
 * CEXP-3 warns, its link is right), one that builds the import address from SXD_MESSAGING_URL
 * and the token (CEXP-1 fails). Graded in this process (support/cli.ts sxdHere); the
 * usage error is an sxd process's.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EXAMPLE_CLIENT, sxdHere, tempDir } from "./support/cli.ts";

interface Report {
  rows: Array<{ id: string; verdict: string; reason?: string }>;
}

async function graded(
  command: string,
  ...args: string[]
): Promise<{ code: number | null; rows: Map<string, { verdict: string; reason?: string }> }> {
  const dir = tempDir();
  const run = await sxdHere(["test-client", "--run", command, "--tasks", "export", "--report-dir", dir, ...args]);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
  return { code: run.code, rows: new Map(report.rows.filter((r) => r.id.startsWith("CEXP")).map((r) => [r.id, r])) };
}

const DESCRIPTION = new URL("../examples/clients/node/client.json", import.meta.url).pathname;
const EXAMPLE = EXAMPLE_CLIENT;

/** The export link's href, as the contact list serves it (the link that is not self). */
const LINK = `list=$(curl -sS "$SXD_URL")
href=$(printf '%s' "$list" | grep -o '<[a-z:]*link [^>]*>' | grep -v 'rel="self"' | sed 's/.*href="\\([^"]*\\)".*/\\1/' | sed 's/&amp;/\\&/g')`;

const POSTS_THE_LIST = `[ "$SXD_TASK" = export ] || exit 127
${LINK}
printf '%s' "$list" | curl -sS --fail -X POST -H "Content-Type: application/xml" --data-binary @- "$href"`;

const BUILDS_THE_ADDRESS = `[ "$SXD_TASK" = export ] || exit 127
${LINK}
curl -sS --fail -L -X POST "$SXD_MESSAGING_URL/user/alice/import;t=\${href##*;t=}"`;

describe("sxd test-client grades export clients", () => {
  it("the example client, with its description, passes CEXP-1 to -4", async () => {
    const { code, rows } = await graded(EXAMPLE, "--config", DESCRIPTION);
    assert.deepEqual(
      ["CEXP-1", "CEXP-2", "CEXP-3", "CEXP-4"].map((id) => rows.get(id)?.verdict),
      ["passed", "passed", "passed", "passed"],
    );
    assert.equal(code, 0);
  });

  it("posting the list as the body fails CEXP-2; not following the 303 warns on CEXP-3", async () => {
    const { rows } = await graded(POSTS_THE_LIST);
    assert.equal(rows.get("CEXP-1")?.verdict, "passed");
    assert.equal(rows.get("CEXP-2")?.verdict, "failed");
    assert.match(rows.get("CEXP-2")?.reason ?? "", /^request 3: the export POST carries \d+ byte\(s\) of body/);
    assert.equal(rows.get("CEXP-3")?.verdict, "warning");
    assert.match(
      rows.get("CEXP-3")?.reason ?? "",
      /^after the 303 of request 3, the client did not GET its Location http:\/\/localhost:\d+\/user\/alice/,
    );
  });

  it("an import address built from SXD_MESSAGING_URL fails CEXP-1", async () => {
    const { rows } = await graded(BUILDS_THE_ADDRESS);
    assert.equal(rows.get("CEXP-1")?.verdict, "failed");
    assert.match(
      rows.get("CEXP-1")?.reason ?? "",
      /^request 3: POST http:\/\/127\.0\.0\.1:\d+\/user\/alice\/import;t=\S+ is not the href of an export link/,
    );
    assert.equal(rows.get("CEXP-2")?.verdict, "passed");
  });
  it("CEXP-4 as described: silent, not run with the key to set (the run is incomplete); no fallback, not applicable", async () => {
    const silent = await graded(EXAMPLE);
    assert.equal(silent.rows.get("CEXP-4")?.verdict, "not run");
    assert.match(silent.rows.get("CEXP-4")?.reason ?? "", /does not state export\.fallback: set it to true or false/);
    assert.equal(silent.code, 3);
    const none = join(tempDir(), "client.json");
    writeFileSync(none, JSON.stringify({ export: { fallback: false } }));
    const without = await graded(EXAMPLE, "--config", none);
    assert.equal(without.rows.get("CEXP-4")?.verdict, "not applicable");
    assert.equal(without.code, 0);
  });
  it("--expect-fail lists a known failure of a client row; a server row there is a usage error", async () => {
    const dir = tempDir();
    const known = join(dir, "known.json");
    writeFileSync(known, JSON.stringify({ "CEXP-2": "the body goes away in 2.0" }));
    const noFallback = join(dir, "client.json");
    writeFileSync(noFallback, JSON.stringify({ export: { fallback: false } }));
    const { code, rows } = await graded(POSTS_THE_LIST, "--expect-fail", known, "--config", noFallback);
    assert.equal(rows.get("CEXP-2")?.verdict, "expected failure");
    assert.equal(code, 0);
    writeFileSync(known, JSON.stringify({ "EXP-2": "a server row" }));
    const refused = await sxdHere(["test-client", "--run", "true", "--expect-fail", known]);
    assert.equal(refused.code, 2);
    assert.equal(refused.stderr, `sxd: ${known}: "EXP-2" is not a row ID\n`);
  });
});
