/**
 * `sxd test-client` against real digest clients, through adapters kept here, each graded as a
 * careful reader of RFC 7616 grades it: curl --digest is clean (qop auth, so CDIG-4 does not
 * concern it); Python requests quotes algorithm and qop, which §3.4 sends as tokens (CDIG-9,
 * a warning); wget answers a qop challenge in the RFC 2069 form (CDIG-1); Python's urllib
 * reads only the first challenge and so never answers (CDIG-1); the example client
 * (examples/clients/node) passes every row, auth-int included. A client that sends
 * nothing, fails, says it does no task or hangs ends in bounded time with no row passed.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { sxd, tempDir } from "./support/cli.ts";

interface Report {
  overall: string;
  rows: Array<{ id: string; verdict: string; reason?: string }>;
  client: { runs: Array<{ task: string; condition?: string; exitCode: number | null; requests: unknown[] }> };
}

async function testClient(
  command: string,
  ...args: string[]
): Promise<{ code: number | null; report: Report; verdicts: Record<string, string> }> {
  const dir = tempDir();
  const tasks = args.includes("--tasks") ? [] : ["--tasks", "digest-get,digest-post"];
  const run = await sxd(["test-client", "--run", command, "--report-dir", dir, ...tasks, ...args]);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
  const verdicts = Object.fromEntries(report.rows.filter((r) => r.id.startsWith("CDIG")).map((r) => [r.id, r.verdict]));
  return { code: run.code, report, verdicts };
}

const reason = (report: Report, id: string) => report.rows.find((r) => r.id === id)?.reason ?? "";

/** Why a client cannot be tried here, or undefined when it can. */
function missing(probe: string[]): string | undefined {
  try {
    execFileSync(probe[0] ?? "", probe.slice(1), { stdio: "ignore" });
    return undefined;
  } catch {
    return `${probe.join(" ")} failed: the client is not installed here`;
  }
}

const CURL = `case $SXD_TASK in
  digest-get) curl -sS --fail --digest -u "$SXD_USERNAME:$SXD_PASSWORD" "$SXD_URL" ;;
  digest-post) curl -sS --fail --digest -u "$SXD_USERNAME:$SXD_PASSWORD" --data-binary "$SXD_BODY" "$SXD_URL" ;;
  *) exit 127 ;;
esac`;

const REQUESTS = `python3 -c '
import os, sys, requests
from requests.auth import HTTPDigestAuth
auth = HTTPDigestAuth(os.environ["SXD_USERNAME"], os.environ["SXD_PASSWORD"])
task, url = os.environ["SXD_TASK"], os.environ["SXD_URL"]
if task == "digest-get": reply = requests.get(url, auth=auth)
elif task == "digest-post": reply = requests.post(url, data=os.environ["SXD_BODY"].encode(), auth=auth)
else: sys.exit(127)
print(reply.text)
sys.exit(0 if reply.ok else 1)
'`;

const WGET = `case $SXD_TASK in
  digest-get) wget -q -O - --user="$SXD_USERNAME" --password="$SXD_PASSWORD" "$SXD_URL" ;;
  *) exit 127 ;;
esac`;

const URLLIB = `python3 -c '
import os, sys, urllib.request, urllib.error
task, url = os.environ["SXD_TASK"], os.environ["SXD_URL"]
if task != "digest-get": sys.exit(127)
passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
passwords.add_password(None, url, os.environ["SXD_USERNAME"], os.environ["SXD_PASSWORD"])
opener = urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(passwords))
try: print(opener.open(url).read().decode())
except urllib.error.HTTPError as error: sys.exit(1)
'`;

const EXAMPLE = `sh ${new URL("../examples/clients/node/adapter.sh", import.meta.url).pathname}`;

describe("sxd test-client grades real digest clients", () => {
  it("curl --digest: clean, and retries on stale=true; qop auth, so auth-int does not concern it; rspauth unchecked", async (t: TestContext) => {
    if (missing(["curl", "--version"])) return t.skip(missing(["curl", "--version"]));
    const { code, report, verdicts } = await testClient(CURL);
    const clean = {
      "CDIG-1": "passed",
      "CDIG-2": "passed",
      "CDIG-3": "passed",
      "CDIG-5": "passed",
      "CDIG-9": "passed",
      "CDIG-6": "passed",
      "CDIG-7": "passed",
      "CDIG-10": "passed",
    };
    assert.deepEqual(verdicts, { ...clean, "CDIG-4": "not applicable", "CDIG-8": "not applicable" });
    assert.match(
      reason(report, "CDIG-8"),
      /^the client accepted a reply whose rspauth does not prove the secret \(exit 0/,
    );
    assert.match(reason(report, "CDIG-6"), /^$/);
    assert.equal(reason(report, "CDIG-4"), "the client answered with qop auth, not auth-int");
    assert.equal(code, 0);
  });

  it("Python requests: quotes algorithm and qop (CDIG-9), takes the last challenge (CDIG-7); refused, it does not retry; stale, it gives up", async (t: TestContext) => {
    if (missing(["python3", "-c", "import requests"])) return t.skip(missing(["python3", "-c", "import requests"]));
    const { code, report, verdicts } = await testClient(REQUESTS);
    assert.equal(verdicts["CDIG-9"], "warning");
    assert.match(reason(report, "CDIG-9"), /^request 2 quotes algorithm, qop, which RFC 7616 §3.4 sends as tokens/);
    for (const id of ["CDIG-1", "CDIG-2", "CDIG-3", "CDIG-5", "CDIG-10"]) assert.equal(verdicts[id], "passed", id);
    // Offered several challenges, it answers the last one: SHA-256 where MD5 came first, MD5 where SHA-256 did.
    assert.equal(verdicts["CDIG-7"], "warning");
    assert.match(
      reason(report, "CDIG-7"),
      /^task digest-get, request 2: offered SHA-256, MD5, the client answered MD5, though it answered SHA-256 in task digest-get \(staged: md5-first\)/,
    );
    // Called stale, it gives up: reported, never failed (RFC 7616 §3.3 leaves the retry to the client).
    assert.equal(verdicts["CDIG-6"], "not applicable");
    assert.equal(verdicts["CDIG-8"], "not applicable");
    assert.match(
      reason(report, "CDIG-6"),
      /^after the 401 with stale=true to request 2, the client did not answer again with the new nonce/,
    );
    assert.equal(report.overall, "conformant with warnings");
    assert.equal(code, 0);
  });

  it("wget: answers a qop challenge without qop, cnonce and nc, and so never gets in", async (t: TestContext) => {
    if (missing(["wget", "--version"])) return t.skip(missing(["wget", "--version"]));
    const { code, report, verdicts } = await testClient(WGET, "--tasks", "digest-get");
    assert.equal(verdicts["CDIG-1"], "failed");
    assert.match(
      reason(report, "CDIG-1"),
      /^request 2: no qop, cnonce or nc: the RFC 2069 form, though the challenge offered qop auth, auth-int/,
    );
    assert.equal(verdicts["CDIG-5"], "not run");
    assert.match(reason(report, "CDIG-10"), /the same task without the condition did not succeed .*see CDIG-2/);
    assert.equal(code, 1);
  });

  it("Python urllib: reads only the first challenge (SHA-256, unknown to it) and never answers", async () => {
    const { code, report, verdicts } = await testClient(URLLIB, "--tasks", "digest-get");
    assert.equal(verdicts["CDIG-1"], "failed");
    assert.match(
      reason(report, "CDIG-1"),
      /^the client sent 1 request\(s\), none with Authorization: Digest \(exit 1 after \d+ ms\): it never answered the challenge$/,
    );
    assert.ok(["CDIG-3", "CDIG-5", "CDIG-9", "CDIG-10"].every((id) => verdicts[id] === "not run"));
    assert.equal(code, 1);
  });

  it("the example client passes every row, auth-int included", async () => {
    const { code, verdicts } = await testClient(EXAMPLE);
    const all = ["CDIG-1", "CDIG-2", "CDIG-3", "CDIG-4", "CDIG-5", "CDIG-6", "CDIG-7", "CDIG-8", "CDIG-9", "CDIG-10"];
    assert.deepEqual(verdicts, Object.fromEntries(all.map((id) => [id, "passed"])));
    assert.equal(code, 0);
  });
});

describe("sxd test-client against clients that do nothing useful", () => {
  const ALL = ["--tasks", "digest-get,digest-post,update,history"];
  const noPass = (report: Report) =>
    assert.deepEqual(
      report.rows.filter((r) => r.verdict === "passed" || r.verdict === "warning"),
      [],
    );

  it("a client that sends nothing passes nothing: the rows that demand an answer fail", async () => {
    const { code, report, verdicts } = await testClient("true", ...ALL);
    noPass(report);
    assert.match(
      reason(report, "CDIG-1"),
      /^the client sent no request \(exit 0 after \d+ ms\): it never answered the challenge/,
    );
    assert.equal(verdicts["CDIG-3"], "not run");
    assert.equal(code, 1);
  });

  it("a client that fails every task: no row passed, and no condition staged without a control", async () => {
    const { code, report } = await testClient("exit 1", ...ALL);
    noPass(report);
    assert.deepEqual(
      report.client.runs.map((r) => [r.task, r.exitCode]),
      [
        ["digest-get", 1],
        ["digest-post", 1],
        ["update", 1],
        ["history", 1],
      ],
    );
    assert.equal(code, 1);
  });

  it("exit 127: the client does no task, its rows are not run, never failed", async () => {
    const { code, report, verdicts } = await testClient("exit 127");
    assert.ok(Object.values(verdicts).every((v) => v === "not run"));
    assert.equal(reason(report, "CDIG-1"), "the client does not do the task digest-get (it exited 127)");
    // Incomplete, and as for sxd test, a run in which no scenario executed exits 1.
    assert.equal(report.overall, "incomplete");
    assert.equal(code, 1);
  });

  it("a client that hangs is killed after --task-timeout, with everything it started", async () => {
    const started = Date.now();
    const { code, report } = await testClient("sleep 30 & sleep 30", "--task-timeout", "400", ...ALL);
    noPass(report);
    assert.match(reason(report, "CDIG-1"), /killed after \d+ ms without exiting/);
    assert.ok(Date.now() - started < 15_000);
    assert.equal(code, 1);
  });
});
