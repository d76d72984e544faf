// EXP-8 and EXP-6 on an external target: contacts and messaging servers started apart from
// sxd, the contacts server stopped and started by the description's commands (a pid file and
// a shell line, as a deployment script would), other rows of the run left untouched.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Exchange } from "../harness/evidence/exchange.ts";
import { probe } from "../harness/wire/probe.ts";
import { runCommand, succeeded } from "../steps/support/commands.ts";
import { SXD, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { freePort } from "./support/ports.ts";

const TOKEN_KEY = "sxd-outage-test-key";
const dir = tempDir();
const pidFile = join(dir, "contacts.pid");
const ports = { contacts: 0, messaging: 0 };
const url = (port: number) => `http://127.0.0.1:${port}`;
let messaging: { process: ChildProcess; faults: string } | undefined;

async function untilAnswers(target: string): Promise<void> {
  for (let i = 0; i < 100 && (await probe(target, 1000)); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * The servers started here write no coverage: their reports of reference/ came with
 * another transpilation of the same files, which c8 merged into garbled totals.
 */
const NO_COVERAGE = "env -u NODE_V8_COVERAGE";
const withoutCoverage = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, SXD_TOKEN_KEY: TOKEN_KEY };
  delete env.NODE_V8_COVERAGE;
  return env;
};

const commands = () => ({
  start: `${NO_COVERAGE} SXD_TOKEN_KEY=${TOKEN_KEY} "${process.execPath}" "${SXD}" serve contacts --contacts-port ${ports.contacts} --messaging-url ${url(ports.messaging)} > "${join(dir, "contacts.log")}" 2>&1 & echo $! > "${pidFile}"`,
  stop: `kill "$(cat "${pidFile}")"`,
  timeoutMs: 20000,
});

/** (Re)starts the messaging server with these faults, unless it already runs with them. */
async function startMessaging(faults: string[]): Promise<void> {
  if (messaging?.faults === faults.join()) return;
  // The old server gone first: still answering as it dies, it passed for the new one, which was
  // then refused a moment later (a clean clone's npm test: "cannot reach").
  const old = messaging?.process;
  if (old && old.exitCode === null && old.signalCode === null) {
    const gone = once(old, "exit");
    old.kill();
    await gone;
  }
  const args = [
    "serve",
    "messaging",
    "--messaging-port",
    String(ports.messaging),
    "--contacts-url",
    url(ports.contacts),
  ];
  const child = spawn(process.execPath, [SXD, ...args, ...faults.flatMap((f) => ["--fault", f])], {
    env: withoutCoverage(),
    stdio: "ignore",
  });
  messaging = { process: child, faults: faults.join() };
  await untilAnswers(url(ports.messaging));
}

/** Runs `sxd test` against the separately started servers and returns the row verdicts. */
async function run(tags: string, description: object, extra: string[] = []) {
  const config = join(dir, "target.json");
  writeFileSync(
    config,
    JSON.stringify({
      // The probe needs an answer only; the base server's rows are not selected.
      baseUrl: url(ports.messaging),
      contactsUrl: url(ports.contacts),
      messagingUrl: url(ports.messaging),
      export: { user: "alice", ...description },
    }),
  );
  const reportDir = tempDir();
  const args = ["--config", config, "--tags", tags, "--report-dir", reportDir, ...extra];
  // In this process (sxdHere) but for --parallel, whose workers a process of its own forks.
  const finished = extra.includes("--parallel") ? await sxd(["test", ...args]) : await sxdHere(["test", ...args]);
  assert.notEqual(finished.code, 2, finished.stderr);
  const report = JSON.parse(readFileSync(join(reportDir, "conformance.json"), "utf8"));
  const rows = new Map<
    string,
    {
      verdict: string;
      reason?: string;
      scenarios: { name: string; status: string; message?: string; exchanges: Exchange[] }[];
    }
  >(report.rows.map((r: { id: string }) => [r.id, r]));
  return { finished, rows, messages: readFileSync(join(reportDir, "messages.ndjson"), "utf8") };
}

before(async () => {
  ports.contacts = await freePort();
  ports.messaging = await freePort();
  assert.ok(succeeded(await runCommand(commands().start, 5000)));
  await untilAnswers(url(ports.contacts));
});

after(async () => {
  messaging?.process.kill();
  await runCommand(commands().stop, 5000);
});

test("the description's commands stage the outage: EXP-8 passes, and the contacts server answers again", {
  timeout: 120000,
}, async () => {
  await startMessaging([]);
  const { finished, rows, messages } = await run("@EXP-6 or @EXP-8", { outage: commands() }, ["--parallel", "2"]);
  assert.equal(rows.get("EXP-8")?.verdict, "passed", finished.stdout);
  // The failed export was judged against a copy the messaging server held before it.
  const [outage] = rows.get("EXP-8")?.scenarios ?? [];
  const reads = outage.exchanges.filter((e) => e.method === "GET" && e.url.endsWith("/user/alice"));
  assert.deepEqual(
    reads.map((e) => [e.response?.status, (e.response?.body.match(/<contact[\s>]/g) ?? []).length]),
    [
      [200, 3],
      [200, 3],
    ],
  );
  // No other scenario ran while the contacts server was down (they all read the contact list):
  // every EXP-6 case passed but the other user's, which this description cannot stage, and the
  // forgeries the reference's opaque token gives nothing to make.
  const tokenCases = rows.get("EXP-6")?.scenarios ?? [];
  const notRun = tokenCases.filter((s) => s.status === "not run");
  const others = tokenCases.filter((s) => s.status !== "passed" && s.status !== "not run");
  assert.ok(notRun.length > 0 && notRun.length < tokenCases.length, finished.stdout);
  for (const s of notRun) assert.match(s.message ?? "", /state export.otherUser/, s.name);
  for (const s of others) assert.match(s.message ?? "", /^nothing to forge: /, `${s.status}: ${s.name}`);
  // A MUST case not run leaves the row not run, never passed on the strength of the others.
  assert.equal(rows.get("EXP-6")?.verdict, "not run", finished.stdout);
  // The commands' output is in the report.
  for (const command of [commands().stop, commands().start]) {
    assert.ok(messages.includes(JSON.stringify(`$ ${command}`).slice(1, -1)), `${command} in messages.ndjson`);
  }
  assert.equal(await probe(`${url(ports.contacts)}/user/alice/contacts`, 2000), undefined);
  // Without export.otherUser, the other user's case is not run, and says what to state.
  const otherUser = rows.get("EXP-6")?.scenarios.find((s) => s.name.includes("another user"));
  assert.equal(otherUser?.status, "not run");
  assert.equal(otherUser?.message, "state export.otherUser to check that a token is bound to its user");
  assert.equal(finished.stderr.includes("    at "), false, finished.stderr);
});

test("without outage commands EXP-8 is not run, with the reason", { timeout: 60000 }, async () => {
  await startMessaging([]);
  const { rows } = await run("@EXP-8", {});
  assert.equal(rows.get("EXP-8")?.verdict, "not run");
  assert.match(rows.get("EXP-8")?.reason ?? "", /state export\.outage/);
});

test("a start command that does not bring the contacts server back leaves EXP-8 not run, saying so", {
  timeout: 120000,
}, async () => {
  await startMessaging([]);
  try {
    const { rows } = await run("@EXP-8", { outage: { ...commands(), start: "echo not starting", timeoutMs: 3000 } });
    assert.equal(rows.get("EXP-8")?.verdict, "not run");
    assert.match(
      rows.get("EXP-8")?.reason ?? "",
      /does not answer again within 3000 ms after export\.outage\.start \(.*exit code 0 \(not starting\)\)/,
    );
  } finally {
    await runCommand(commands().start, 5000);
    await untilAnswers(url(ports.contacts));
  }
});

test("a messaging server that answers 303 in the outage fails EXP-8; one that stores nothing fails EXP-5", {
  timeout: 120000,
}, async () => {
  await startMessaging(["exp-outage-303", "exp-import-stores-nothing"]);
  const { finished, rows } = await run("@EXP-5 or @EXP-8", { outage: commands() }, ["--strict"]);
  assert.equal(finished.code, 1);
  assert.equal(rows.get("EXP-8")?.verdict, "failed");
  assert.match(rows.get("EXP-8")?.reason ?? "", /a 5xx status/);
  assert.equal(rows.get("EXP-5")?.verdict, "failed");
  assert.equal(await probe(`${url(ports.contacts)}/user/alice/contacts`, 2000), undefined);
});
