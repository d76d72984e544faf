/**
 * `sxd test-client` against real digest clients, through the adapters of support/real-clients.ts, each graded as a
 * careful reader of RFC 7616 grades it, on every answer it sent in every run of a task: curl
 * --digest is clean until auth-int is all there is, where it hashes an empty body (CDIG-4);
 * Python requests quotes algorithm and qop, which §3.4 sends as tokens, and answers the last
 * challenge (CDIG-9, CDIG-7, warnings); wget answers a qop challenge in the RFC 2069 form and
 * names SHA-256 over an MD5 hash (CDIG-1, CDIG-2); Python's urllib reads only the first
 * challenge, so answers where MD5 comes first and not where SHA-256 does (CDIG-7), and tries a
 * refused secret again (CDIG-10); the example client (examples/clients/node) passes every row,
 * and doing the digest tasks only it is conformant over every task, as is curl reading only. A
 * client that sends nothing, fails, says it does no task or hangs ends in bounded time with no
 * row passed and a non-zero exit.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { EXAMPLE_CLIENT, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { missingClient, REAL_CLIENTS } from "./support/real-clients.ts";

interface Report {
  overall: string;
  rows: Array<{ id: string; verdict: string; reason?: string }>;
  client: {
    runs: Array<{ task: string; condition?: string; offer?: string; exitCode: number | null; requests: unknown[] }>;
  };
}

/**
 * `sxd test-client --run command`, through the command's code in this process (support/cli.ts
 * sxdHere): the gradings share their step definitions. What only an sxd process shows
 * (its environment, a usage error's line) is asked of one below.
 */
async function testClient(
  command: string,
  ...args: string[]
): Promise<{ code: number | null; report: Report; verdicts: Record<string, string>; stdout: string }> {
  const dir = tempDir();
  const tasks = args.includes("--tasks") ? [] : ["--tasks", "digest-get,digest-post"];
  const { code, stdout } = await sxdHere(["test-client", "--run", command, "--report-dir", dir, ...tasks, ...args]);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
  const verdicts = Object.fromEntries(report.rows.filter((r) => r.id.startsWith("CDIG")).map((r) => [r.id, r.verdict]));
  return { code, report, verdicts, stdout };
}

const reason = (report: Report, id: string) => report.rows.find((r) => r.id === id)?.reason ?? "";

const { curl, requests, urllib, wget } = REAL_CLIENTS;

const EXAMPLE = EXAMPLE_CLIENT;

const EXAMPLE_DESCRIPTION = new URL("../examples/clients/node/client.json", import.meta.url).pathname;
/** The example client doing the digest tasks only: 127 for the others. */
const EXAMPLE_DIGEST_ONLY = `case $SXD_TASK in digest-*) ${EXAMPLE} ;; *) exit 127 ;; esac`;
/** curl as a browser uses it: it reads the resource, and does no other task. */
const CURL_READS_ONLY = `case $SXD_TASK in digest-get) ${curl.command} ;; *) exit 127 ;; esac`;
const EVERY_TASK = ["--tasks", "digest-get,digest-post,update,history,export"];

const CLEAN = Object.fromEntries(
  ["CDIG-1", "CDIG-2", "CDIG-3", "CDIG-5", "CDIG-6", "CDIG-7", "CDIG-9", "CDIG-10"].map((id) => [id, "passed"]),
);

describe("sxd test-client grades real digest clients as a careful reader of RFC 7616 does", () => {
  it("curl --digest: clean, but where qop auth-int is all that is offered it hashes an empty body (CDIG-4)", async (t: TestContext) => {
    if (missingClient(curl)) return t.skip(missingClient(curl));
    const { code, report, verdicts } = await testClient(curl.command);
    assert.deepEqual(verdicts, { ...CLEAN, "CDIG-4": "failed", "CDIG-8": "not applicable" });
    assert.match(
      reason(report, "CDIG-4"),
      /^request 2 \(staged: auth-int-only\): with qop=auth-int the response covers an empty body, not the \d+ byte\(s\) sent/,
    );
    assert.match(
      reason(report, "CDIG-8"),
      /^the client accepted a reply whose rspauth does not prove the secret \(exit 0/,
    );
    assert.equal(code, 1);
  });

  it("curl reading only (as a browser does): every task it does passes, the others are not applicable, exit 0", async (t: TestContext) => {
    if (missingClient(curl)) return t.skip(missingClient(curl));
    const { code, report, verdicts } = await testClient(CURL_READS_ONLY, ...EVERY_TASK);
    assert.deepEqual(verdicts, { ...CLEAN, "CDIG-4": "not applicable", "CDIG-8": "not applicable" });
    assert.equal(reason(report, "CDIG-4"), "the client does not do the task digest-post (exit 127)");
    for (const id of ["CSNAP-1", "CSNAP-5", "CEXP-1", "CEXP-4"])
      assert.equal(report.rows.find((r) => r.id === id)?.verdict, "not applicable", id);
    assert.equal(reason(report, "CSNAP-1"), "the client does not do the task update (exit 127)");
    assert.equal(report.overall, "conformant");
    assert.equal(code, 0);
  });

  it("Python requests: quotes algorithm and qop (CDIG-9), takes the last challenge (CDIG-7); refused, it does not retry; stale, it gives up", async (t: TestContext) => {
    if (missingClient(requests)) return t.skip(missingClient(requests));
    const { code, report, verdicts } = await testClient(requests.command);
    assert.deepEqual(verdicts, {
      ...CLEAN,
      "CDIG-4": "not applicable",
      "CDIG-6": "not applicable",
      "CDIG-7": "warning",
      "CDIG-8": "not applicable",
      "CDIG-9": "warning",
    });
    assert.match(
      reason(report, "CDIG-9"),
      /^request 2; .*: quotes algorithm, qop, which RFC 7616 §3.4 sends as tokens/,
    );
    // Offered several challenges, it answers the last one: MD5 where SHA-256 came first, SHA-256 where MD5 did.
    assert.match(
      reason(report, "CDIG-7"),
      /^request 2: offered SHA-256, MD5, the client answered MD5, though it answered SHA-256 in request 2 \(staged: md5-first\)/,
    );
    // It knows qop auth only: offered auth-int alone it does not answer, which is no wrong answer.
    assert.equal(reason(report, "CDIG-4"), "the client answered with qop auth, never auth-int");
    // Called stale, it gives up: reported, never failed (RFC 7616 §3.3 leaves the retry to the client).
    assert.match(
      reason(report, "CDIG-6"),
      /^after the 401 with stale=true to request 2, the client did not answer again with the new nonce/,
    );
    assert.equal(report.overall, "conformant with warnings");
    assert.equal(code, 0);
  });

  it("wget: the RFC 2069 form where qop is offered (CDIG-1), SHA-256 named over an MD5 hash (CDIG-2); refused, it stops", async (t: TestContext) => {
    if (missingClient(wget)) return t.skip(missingClient(wget));
    const { code, report, verdicts } = await testClient(wget.command);
    assert.equal(verdicts["CDIG-1"], "failed");
    assert.match(
      reason(report, "CDIG-1"),
      /^request 2; request 2 \(staged: md5-first\); .*: no qop, cnonce or nc: the RFC 2069 form, though the challenge offered qop auth, auth-int/,
    );
    assert.equal(verdicts["CDIG-2"], "failed");
    assert.match(
      reason(report, "CDIG-2"),
      /^request 2 \(staged: md5-first\): response \w{32} is not the digest of demo's secret \(RFC 7616 §3.4.1, SHA-256, qop none\)/,
    );
    // Its answers are flawed, but the refusal shows what it does after one: it stops (the weakest control).
    assert.equal(verdicts["CDIG-10"], "passed");
    assert.equal(verdicts["CDIG-7"], "warning");
    assert.equal(verdicts["CDIG-9"], "warning");
    // Not run where nothing was seen, and a pointer only to a row that failed.
    assert.equal(verdicts["CDIG-5"], "not run");
    assert.doesNotMatch(reason(report, "CDIG-8"), /see CDIG/);
    assert.equal(code, 1);
  });

  it("Python urllib: answers MD5 where it comes first (CDIG-1, 2 pass), gives up where SHA-256 does (CDIG-7); refused, it tries the same secret again (CDIG-10)", async (t: TestContext) => {
    if (missingClient(urllib)) return t.skip(missingClient(urllib));
    const { code, report, verdicts } = await testClient(urllib.command);
    assert.deepEqual(verdicts, {
      ...CLEAN,
      "CDIG-4": "not applicable",
      "CDIG-7": "warning",
      "CDIG-8": "not applicable",
      "CDIG-9": "warning",
      "CDIG-10": "failed",
    });
    assert.match(
      reason(report, "CDIG-7"),
      /^task digest-get: offered SHA-256, MD5, the client answered none of them, though it answered MD5 in request 2 \(staged: md5-first\)/,
    );
    // Its refused-secret run is staged on the offer it answers: MD5 first.
    assert.ok(
      report.client.runs.some((r) => r.condition === "wrong-credentials" && r.offer === "md5-first"),
      "wrong-credentials staged on md5-first",
    );
    assert.match(
      reason(report, "CDIG-10"),
      /^after the 401 without stale=true to request 2, the client sent credentials from the same secret 1 more time\(s\)/,
    );
    assert.equal(code, 1);
  });

  it("the example client passes every row, auth-int included", async () => {
    const { code, verdicts, stdout } = await testClient(EXAMPLE);
    const all = ["CDIG-1", "CDIG-2", "CDIG-3", "CDIG-4", "CDIG-5", "CDIG-6", "CDIG-7", "CDIG-8", "CDIG-9", "CDIG-10"];
    assert.deepEqual(verdicts, Object.fromEntries(all.map((id) => [id, "passed"])));
    // It checks auth-int's rspauth over sxd's reply (RFC 2617 §3.2.3): every plain run succeeds.
    assert.doesNotMatch(stdout, /note: the client failed/);
    assert.equal(code, 0);
  });

  it("the example client doing the digest tasks only, asked for every task: conformant, exit 0", async () => {
    const { code, report } = await testClient(EXAMPLE_DIGEST_ONLY, ...EVERY_TASK, "--config", EXAMPLE_DESCRIPTION);
    assert.deepEqual(
      report.rows.filter((r) => r.verdict !== "passed" && r.verdict !== "not applicable").map((r) => r.id),
      [],
    );
    assert.ok(
      report.rows
        .filter((r) => r.id.startsWith("C") && !r.id.startsWith("CDIG"))
        .every((r) => r.verdict === "not applicable"),
    );
    assert.equal(report.overall, "conformant");
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
      /^the client sent no request in 3 runs of the task \(exit 0 after \d+ ms\): it never answered the challenge/,
    );
    assert.equal(verdicts["CDIG-3"], "not run");
    assert.equal(code, 1);
  });

  it("a client that fails every task: no row passed; only the conditions that need no answer are staged", async () => {
    const { code, report, stdout } = await testClient("exit 1", ...ALL);
    noPass(report);
    // Each plain run it failed against sxd's own servers gets a line of the summary; a staged one does not.
    const notes = stdout.split("\n").filter((line) => line.startsWith("note: the client failed the plain run"));
    assert.deepEqual(
      notes.map((line) => /of task (\S+)/.exec(line)?.[1]),
      ["digest-get", "digest-post", "update", "history"],
    );
    assert.deepEqual(
      report.client.runs.map((r) => [r.task, r.condition ?? "", r.exitCode]),
      [
        ["digest-get", "", 1],
        ["digest-get", "md5-first", 1],
        ["digest-get", "md5-only", 1],
        ["digest-post", "", 1],
        ["digest-post", "md5-first", 1],
        ["digest-post", "md5-only", 1],
        ["update", "", 1],
        ["update", "precondition-failed", 1],
        ["history", "", 1],
      ],
    );
    assert.match(
      reason(report, "CDIG-10"),
      /^sxd stages this on an offer the client answered, and the client sent .*: see CDIG-1$/,
    );
    assert.equal(report.rows.find((r) => r.id === "CDIG-1")?.verdict, "failed");
    assert.equal(code, 1);
  });

  it("exit 127: the client does no task; every scenario is not applicable, and a run that judged nothing exits 3, incomplete", async () => {
    const { code, report } = await testClient("exit 127", ...ALL);
    assert.ok(
      report.rows.every((r) => r.verdict === "not applicable" || r.id.startsWith("CEXP")),
      JSON.stringify(report.rows.map((r) => [r.id, r.verdict])),
    );
    assert.equal(reason(report, "CDIG-1"), "the client does not do the task digest-get (exit 127)");
    assert.equal(reason(report, "CSNAP-5"), "the client does not do the task history (exit 127)");
    // Nothing staged for a task the client does not do.
    assert.deepEqual(
      report.client.runs.map((r) => r.task),
      ["digest-get", "digest-post", "update", "history"],
    );
    assert.notEqual(report.overall, "conformant");
    assert.equal(code, 3);
  });

  it("a client run writes the reports a server run writes, replacing a whole earlier run's; a --report-dir that is a file is one line, exit 2", async () => {
    const dir = tempDir();
    for (const leftover of ["cucumber.html", "messages.ndjson"]) writeFileSync(join(dir, leftover), "an earlier run");
    const run = await sxdHere(["test-client", "--run", "exit 127", "--tasks", "digest-get", "--report-dir", dir]);
    assert.deepEqual(readdirSync(dir).sort(), [
      "conformance.html",
      "conformance.json",
      "cucumber.html",
      "junit.xml",
      "messages.ndjson",
      "summary.md",
    ]);
    for (const own of ["cucumber.html", "messages.ndjson"])
      assert.notEqual(readFileSync(join(dir, own), "utf8"), "an earlier run", own);
    assert.equal(run.code, 3);
    const file = join(dir, "junit.xml");
    const refused = await sxdHere(["test-client", "--run", "exit 127", "--report-dir", file]);
    assert.equal(refused.stderr, `sxd: --report-dir ${file} is a file, not a directory\n`);
    assert.equal(refused.code, 2);
  });

  it("the client runs in the environment sxd was given: sxd's own loader is not in its NODE_OPTIONS", async () => {
    const dir = tempDir();
    const command = 'echo "[$NODE_OPTIONS][$SXD_LAUNCHER_NODE_OPTIONS]"; exit 127';
    for (const given of ["", "--no-warnings"]) {
      await sxd(["test-client", "--run", command, "--tasks", "digest-get", "--report-dir", dir], {
        NODE_OPTIONS: given,
      });
      const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as {
        client: { runs: Array<{ stdout: string }> };
      };
      assert.equal(report.client.runs[0]?.stdout, `[${given}][]\n`);
    }
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
