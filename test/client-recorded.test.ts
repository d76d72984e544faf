/**
 * `sxd test-client --manual` and `--har`: clients met without a command per task. A person
 * (here, this test) reads the tasks sxd prints and uses the client (the example client, one
 * task at a time), then presses Enter; the recording of that session, written as a HAR file,
 * is graded again with --har, as it is and with one thing changed per row. The rows of staged
 * conditions are not run either way, saying a recording cannot show them.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { runCommand } from "../harness/client/command.ts";
import type { RecordedRequest } from "../lib/recording.ts";
import { EXAMPLE_CLIENT, finished, SXD, sxdHere, tempDir } from "./support/cli.ts";

interface Report {
  overall: string;
  rows: Array<{ id: string; verdict: string; reason?: string; scenarios?: unknown[] }>;
  client?: { recorded?: string; runs: Array<{ task: string; requests: RecordedRequest[] }> };
}

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as Report;
const verdicts = (report: Report) => Object.fromEntries(report.rows.map((row) => [row.id, row.verdict]));
const reasonOf = (report: Report, id: string) => report.rows.find((row) => row.id === id)?.reason ?? "";

const ADAPTER = EXAMPLE_CLIENT;
const PLAIN_ROWS = ["CDIG-1", "CDIG-2", "CDIG-3", "CDIG-4", "CDIG-5", "CDIG-9", "CEXP-1", "CEXP-2", "CEXP-3"];
const STAGED_ROWS = ["CDIG-6", "CDIG-7", "CDIG-8", "CDIG-10", "CSNAP-4"];
const SNAPSHOT_ROWS = ["CSNAP-1", "CSNAP-2", "CSNAP-3", "CSNAP-5"];

/** A manual session: sxd's instructions, each task done with the example client, then Enter. */
async function manualSession(dir: string): Promise<{ code: number | null; stdout: string; password: string }> {
  const child = spawn(process.execPath, [SXD, "test-client", "--manual", "--report-dir", dir]);
  const done = finished(child);
  let printed = "";
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk) => {
      printed += chunk;
      if (printed.includes("press Enter")) resolve();
    });
    child.on("exit", () => resolve());
  });
  const [, username = "", password = ""] = /the user: (\S+), password (\S+)/.exec(printed) ?? [];
  const messaging = /\(contacts\), (\S+) \(messaging\)/.exec(printed)?.[1] ?? "";
  for (const [, task = "", url = "", title = ""] of printed.matchAll(
    /\d\. ([\w-]+): .*?(http:\/\/\S+)(?: to "(.*)")?/g,
  )) {
    const environment = {
      SXD_TASK: task,
      SXD_URL: url,
      SXD_USERNAME: username,
      SXD_PASSWORD: password,
      SXD_TITLE: title,
      SXD_BODY: "<note>sent by hand</note>",
      SXD_MESSAGING_URL: messaging,
    };
    const ran = await runCommand(ADAPTER, environment, 10_000);
    assert.equal(ran.exitCode, 0, `${task}: ${ran.stderr}`);
  }
  child.stdin.end("\n");
  const { code, stdout } = await done;
  return { code, stdout: printed + stdout, password };
}

/** The session's requests as a browser's HAR 1.2 would hold them. */
function harOf(requests: RecordedRequest[]): string {
  const pairs = (fields: RecordedRequest["headers"]) =>
    Object.entries(fields).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
  const entries = requests.map((request) => ({
    startedDateTime: request.at,
    request: {
      method: request.method,
      url: `http://${request.headers.host}${request.target}`,
      headers: pairs(request.headers),
      ...(request.body ? { postData: { text: request.body } } : {}),
    },
    response: {
      status: request.reply.status,
      headers: pairs(request.reply.headers),
      content: { text: Buffer.from(request.reply.body).toString("base64"), encoding: "base64" },
    },
  }));
  return JSON.stringify({ log: { version: "1.2", entries } });
}

describe("sxd test-client grades a client it cannot run", () => {
  const dir = tempDir();
  let session: Awaited<ReturnType<typeof manualSession>>;
  let requests: RecordedRequest[];
  before(async () => {
    session = await manualSession(dir);
    // The digest tasks of a recording share their requests: each goes into the HAR once.
    const all = (readReport(dir).client?.runs ?? []).flatMap((run) => run.requests).filter((r) => !r.bySxd);
    requests = [...new Map(all.map((r) => [JSON.stringify(r), r])).values()].sort((a, b) => a.at.localeCompare(b.at));
  });

  it("--manual grades what a person's client sent: the plain rows pass, the staged ones are not run", () => {
    const report = readReport(dir);
    assert.match(session.stdout, /ended by Enter; grading what arrived/);
    assert.equal(report.client?.recorded, "done by hand (--manual)");
    const seen = verdicts(report);
    for (const id of [...PLAIN_ROWS, ...SNAPSHOT_ROWS])
      assert.equal(seen[id], "passed", `${id}: ${reasonOf(report, id)}`);
    for (const id of STAGED_ROWS) {
      assert.equal(seen[id], "not run", id);
      assert.match(reasonOf(report, id), /done by hand \(--manual\) cannot show that: run the client with --run/);
    }
    assert.equal(report.overall, "incomplete");
    assert.equal(session.code, 3);
  });

  it("--har grades the same session recorded elsewhere alike", async () => {
    const file = join(dir, "session.har");
    writeFileSync(file, harOf(requests));
    const out = tempDir();
    const run = await sxdHere(["test-client", "--har", file, "--report-dir", out, "--allow-incomplete"], {
      SXD_USERNAME: "demo",
      SXD_PASSWORD: session.password,
    });
    const report = readReport(out);
    assert.deepEqual(verdicts(report), verdicts(readReport(dir)));
    assert.match(reasonOf(report, "CDIG-10"), /recorded in session\.har cannot show that/);
    assert.equal(run.code, 0, run.stderr);
  });

  it("a recording changed in one place fails that row only", async () => {
    const changes: Array<[string, (r: RecordedRequest) => RecordedRequest]> = [
      [
        "CDIG-2",
        (r) =>
          r.method === "GET"
            ? tamper(r, "authorization", (v) =>
                v.replace(/response="(.)/, (_, c) => `response="${c === "0" ? "1" : "0"}`),
              )
            : r,
      ],
      ["CSNAP-2", (r) => (r.method === "PUT" ? tamper(r, "if-unmodified-since", () => "") : r)],
      ["CEXP-2", (r) => (r.method === "POST" && r.target.includes("import") ? { ...r, body: "<contacts/>" } : r)],
    ];
    for (const [row, change] of changes) {
      const file = join(tempDir(), "changed.har");
      writeFileSync(file, harOf(requests.map(change)));
      const out = tempDir();
      // Graded in this process (support/cli.ts sxdHere): only the recording differs.
      const run = await sxdHere([
        "test-client",
        "--har",
        file,
        "--username",
        "demo",
        "--password",
        session.password,
        "--report-dir",
        out,
      ]);
      const failed = readReport(out)
        .rows.filter((r) => r.verdict === "failed")
        .map((r) => r.id);
      assert.deepEqual(failed, [row], `${row}: ${run.stdout}`);
      assert.equal(run.code, 1);
    }
  });

  it("--har without the user's secret grades what needs none; the rows that need it are not run, naming the flags", async () => {
    const file = join(dir, "session.har");
    const out = tempDir();
    const run = await sxdHere(["test-client", "--har", file, "--report-dir", out], {
      SXD_USERNAME: "",
      SXD_PASSWORD: "",
    });
    const report = readReport(out);
    const seen = verdicts(report);
    for (const id of ["CDIG-1", "CDIG-5", "CDIG-9", ...SNAPSHOT_ROWS])
      assert.equal(seen[id], "passed", `${id}: ${reasonOf(report, id)}`);
    for (const id of ["CDIG-2", "CDIG-3", "CDIG-4"]) {
      assert.equal(seen[id], "not run", id);
      assert.match(reasonOf(report, id), /give --username and --password/, id);
    }
    assert.equal(report.overall, "incomplete");
    assert.equal(run.code, 3, run.stderr);
  });

  it("a recording of reads only passes CDIG-1 on what it holds, and says which task it holds nothing of", async () => {
    const file = join(tempDir(), "reads.har");
    writeFileSync(file, harOf(requests.filter((r) => r.method === "GET" && r.target.startsWith("/client/"))));
    const out = tempDir();
    const run = await sxdHere(["test-client", "--har", file, "--report-dir", out, "--allow-incomplete"], {
      SXD_USERNAME: "demo",
      SXD_PASSWORD: session.password,
    });
    const report = readReport(out);
    const cdig1 = report.rows.find((r) => r.id === "CDIG-1");
    assert.equal(cdig1?.verdict, "passed");
    assert.match(
      JSON.stringify(cdig1?.scenarios),
      /what was recorded in reads\.har holds no request of the task digest-post/,
    );
    assert.equal(verdicts(report)["CSNAP-1"], "not applicable");
    assert.equal(run.code, 0, run.stderr);
  });

  it("--har of a file that is no HAR, or with the credentials left out: one line, exit 2", async () => {
    const file = join(dir, "session.har");
    const notHar = join(dir, "not.har");
    writeFileSync(notHar, '{"entries": []}');
    const wrong = await sxdHere(["test-client", "--har", notHar]);
    assert.equal(wrong.stderr, `sxd: ${notHar}: not a HAR file (no log.entries list)\n`);
    const both = await sxdHere(["test-client", "--har", file, "--manual"]);
    assert.match(both.stderr, /give one/);
    const stripped = join(dir, "stripped.har");
    writeFileSync(stripped, harOf(requests.map((r) => tamper(r, "authorization", () => ""))));
    const noCredentials = await sxdHere(["test-client", "--har", stripped, "--username", "demo", "--password", "x"]);
    assert.match(
      noCredentials.stderr,
      /^sxd: .*stripped\.har: GET \/client\/protected was granted after a Digest challenge, but the recording shows no Authorization/,
    );
    const tooLong = await sxdHere(["test-client", "--manual", "--manual-timeout", "9999999"]);
    assert.equal(tooLong.stderr, 'sxd: --manual-timeout must be at most 2147483, got "9999999"\n');
    assert.deepEqual([wrong.code, both.code, noCredentials.code, tooLong.code], [2, 2, 2, 2]);
  });

  it("a manual session in which nothing arrives passes no row; closed input waits for Ctrl-C", async () => {
    const out = tempDir();
    const child = spawn(process.execPath, [SXD, "test-client", "--manual", "--report-dir", out]);
    const done = finished(child);
    child.stdin.end();
    child.stdout.once("data", () => setTimeout(() => child.kill("SIGINT"), 500));
    const { code, stdout } = await done;
    assert.match(stdout, /sxd: ended by SIGINT; grading what arrived/);
    const passed = readReport(out).rows.filter((r) => r.verdict === "passed");
    assert.deepEqual(passed, []);
    assert.match(
      readFileSync(join(out, "conformance.json"), "utf8"),
      /what was done by hand \(--manual\) holds no request of the task digest-get/,
    );
    // Exit 3, incomplete, as for any run in which nothing ran: nothing failed.
    assert.equal(code, 3);
  });
});

/** The request with one header's value changed ("" removes it). */
function tamper(request: RecordedRequest, name: string, change: (value: string) => string): RecordedRequest {
  const value = request.headers[name];
  if (typeof value !== "string") return request;
  const { [name]: _, ...rest } = request.headers;
  const changed = change(value);
  return { ...request, headers: changed ? { ...rest, [name]: changed } : rest };
}
