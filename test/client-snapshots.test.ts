/**
 * `sxd test-client` on the update and history tasks: the example client (examples/clients/node)
 * passes every CSNAP row; the faulty ones, kept here as shell adapters over curl, each fail
 * their own row with its reason: an update that is not conditional (CSNAP-2; the server's 428
 * means the staged 412 has no control), and a history that builds snapshot addresses from
 * SXD_URL instead of following the links (CSNAP-5 warns). A walk that follows the links, in
 * Python, passes. Graded in this process (support/cli.ts sxdHere).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EXAMPLE_CLIENT, sxdHere, tempDir } from "./support/cli.ts";
import { PYTHON } from "./support/real-clients.ts";

interface Report {
  rows: Array<{ id: string; verdict: string; reason?: string }>;
}

async function graded(
  command: string,
  tasks: string,
): Promise<{ code: number | null; rows: Map<string, { verdict: string; reason?: string }> }> {
  const dir = tempDir();
  const run = await sxdHere(["test-client", "--run", command, "--tasks", tasks, "--report-dir", dir]);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
  return { code: run.code, rows: new Map(report.rows.filter((r) => r.id.startsWith("CSNAP")).map((r) => [r.id, r])) };
}

const EXAMPLE = EXAMPLE_CLIENT;
const ATOM = "application/atom+xml;type=entry;charset=UTF-8";

/** Reads the entry, sets the title, PUTs it back without If-Unmodified-Since. */
const BLIND_UPDATE = `[ "$SXD_TASK" = update ] || exit 127
body=$(curl -sS "$SXD_URL" | sed "s#<title>[^<]*</title>#<title>$SXD_TITLE</title>#")
curl -sS --fail -X PUT -H "Content-Type: ${ATOM}" --data-binary "$body" "$SXD_URL"`;

/** Builds the snapshot addresses from SXD_URL instead of following the previous links. */
const BUILT_HISTORY = `[ "$SXD_TASK" = history ] || exit 127
for version in "" /s2 /s1; do curl -sS "$SXD_URL$version" | sed -n "s#.*<title>\\(.*\\)</title>.*#\\1#p"; done`;

const FOLLOWED_HISTORY = `[ "$SXD_TASK" = history ] || exit 127
'${PYTHON}' -c '
import os, re, urllib.request
url = os.environ["SXD_URL"]
while url:
    text = urllib.request.urlopen(url).read().decode()
    print(re.search(r"<title>(.*?)</title>", text).group(1))
    link = re.search(r"<link rel=\\"previous\\" href=\\"([^\\"]+)\\"", text)
    url = link and link.group(1)
'`;

describe("sxd test-client grades snapshot clients", () => {
  it("the example client passes every CSNAP row, the staged 412 included", async () => {
    const { code, rows } = await graded(EXAMPLE, "update,history");
    assert.deepEqual(
      [...rows.values()].map((r) => r.verdict),
      ["passed", "passed", "passed", "passed", "passed"],
    );
    assert.match(rows.get("CSNAP-4")?.reason ?? "", /^$/);
    assert.equal(code, 0);
  });

  it("an update without If-Unmodified-Since fails CSNAP-2 only; stopping at a 412 passes CSNAP-4", async () => {
    const { code, rows } = await graded(BLIND_UPDATE, "update");
    assert.equal(rows.get("CSNAP-1")?.verdict, "passed");
    assert.equal(rows.get("CSNAP-3")?.verdict, "passed");
    assert.equal(rows.get("CSNAP-2")?.verdict, "failed");
    assert.match(
      rows.get("CSNAP-2")?.reason ?? "",
      /^request 2: If-Unmodified-Since \(none\), but the read in request 1 said Last-Modified \w{3}, /,
    );
    // Its refused PUT is the control: it stops at the 412 and so overwrites nothing.
    assert.equal(rows.get("CSNAP-4")?.verdict, "passed");
    assert.equal(code, 1);
  });

  it("a history built from SXD_URL warns on CSNAP-5; one that follows the links passes", async () => {
    const built = await graded(BUILT_HISTORY, "history");
    assert.equal(built.rows.get("CSNAP-5")?.verdict, "warning");
    assert.match(
      built.rows.get("CSNAP-5")?.reason ?? "",
      /^request 2: GET \/entries\/client-[\w-]+\/s2 is no link sxd served before it: an address the client built/,
    );
    assert.equal(built.code, 0);
    const followed = await graded(FOLLOWED_HISTORY, "history");
    assert.equal(followed.rows.get("CSNAP-5")?.verdict, "passed");
  });
});
