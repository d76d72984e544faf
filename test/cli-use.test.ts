// Errors of use and a real deployment: what a person who points sxd at their server meets.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { type Finished, finished, referenceDescriptionFile, SXD, sxd, sxdHere, tempDir } from "./support/cli.ts";

/** A stack trace has lines like "    at main (file:///…)". */
function assertOneLine(run: Finished, what: string): void {
  assert.equal(run.code, 2, `${what}: ${run.stderr}`);
  assert.equal(run.stderr.trim().split("\n").length, 1, `${what}: ${run.stderr}`);
  assert.match(run.stderr, /^sxd: /, what);
  assert.doesNotMatch(run.stderr, /^\s+at /m, what);
}

/** A server that records each request and answers 404 with an HTML page: a wrong target, or a proxy. */
async function recordingServer(tls?: { key: string; cert: string }): Promise<{
  server: Server;
  url: string;
  requests: IncomingMessage[];
}> {
  const requests: IncomingMessage[] = [];
  const answer = (req: IncomingMessage, res: import("node:http").ServerResponse) => {
    requests.push(req);
    req.resume();
    res.writeHead(404, { "content-type": "text/html" }).end("<html><body>Not here</body></html>");
  };
  const server = tls ? createHttpsServer(tls, answer) : createHttpServer(answer);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { server, url: `${tls ? "https" : "http"}://127.0.0.1:${port}`, requests };
}

// sxd runs in this process (sxdHere) where a process shows nothing more: the command line's
// code, its output and exit code are the same; bare sxd and --version run as processes.
test("every usage error exits 2 with one line, before the target is asked and without touching the reports", async () => {
  const dir = tempDir();
  const reports = join(dir, "reports");
  const earlier = join(reports, "conformance.json");
  await sxdHere(["test", "--report-dir", reports, "--tags", "@SNAP-3"]);
  const before = statSync(earlier).mtimeMs;
  const file = join(dir, "a-file");
  writeFileSync(file, "");
  const broken = join(dir, "broken.json");
  writeFileSync(broken, '{\n  "digest": { "path": "/p", }\n}');
  // Nothing listens on port 9: an error that came after the probe would say "cannot reach".
  const target = ["--base-url", "http://127.0.0.1:9", "--report-dir", reports];
  const cases: Array<[string[], RegExp, Record<string, string>?]> = [
    [["test", ...target, "--tags", "@SNAP-3 and"], /^sxd: --tags "@SNAP-3 and" is not a tag expression: /],
    [["test", ...target, "--tags", "@NOPE-1"], /^sxd: no scenario matches the tag expression @NOPE-1$/],
    [["test", "--base-url", "http://127.0.0.1:9", "--report-dir", file], /is a file, not a directory$/],
    [["test", "--base-url", "http://127.0.0.1:9", "--report-dir", join(file, "sub")], /not a directory$/],
    [["test", ...target, "--har", join(dir, "no-folder", "run.har")], /no-folder does not exist$/],
    [["test", ...target, "--config", join(dir, "gone.json")], /gone\.json: no such file$/],
    [["test", ...target, "--config", broken], /broken\.json:2:29: not valid JSON \(/],
    [["test", ...target, "--expect-fail", broken], /broken\.json:2:29: not valid JSON \(/],
    [["test", ...target], /^sxd: SXD_STRICT=maybe: say on\/off/, { SXD_STRICT: "maybe" }],
    [["test", ...target, "--tgas", "@must"], /^sxd: unknown option --tgas; did you mean --tags\?$/],
    [["tset"], /did you mean sxd test\?/],
  ];
  for (const [args, message, env] of cases) {
    const run = await sxdHere(args, env);
    assertOneLine(run, args.join(" "));
    assert.match(run.stderr.trim(), message);
  }
  assert.equal(statSync(earlier).mtimeMs, before, "an earlier run's reports are left as they were");
  const bare = await sxd([]);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /Usage:/);
  const version = await sxd(["--version"]);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^sxd \d+\.\d+\.\d+\n$/);
});

test("a description with a byte order mark and SXD_STRICT=on are accepted", async () => {
  const dir = tempDir();
  const config = join(dir, "target.json");
  writeFileSync(config, '\uFEFF{ "run": { "tags": "@SNAP-3" } }');
  const run = await sxdHere(["test", "--config", config, "--report-dir", dir], { SXD_STRICT: "on" });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /verdict: conformant/);
  assert.doesNotMatch(run.stdout, /every reply of this run/);
});

test("requests carry User-Agent, X-Sxd-Scenario and the extra headers; secret values never reach the reports", async () => {
  const { server, url, requests } = await recordingServer();
  const dir = tempDir();
  const config = join(dir, "target.json");
  const described = { baseUrl: url, snapshots: { collection: "/entries/" }, headers: { base: { "X-Tenant": "acme" } } };
  writeFileSync(config, JSON.stringify(described));
  try {
    const run = await sxdHere([
      "test",
      ...["--config", config, "--tags", "@SNAP-3", "--report-dir", dir],
      ...["--header", "Authorization: Bearer secret-token-123", "--header", "X-Api-Key: key-456"],
    ]);
    // Every path answers 404: the description fits nothing there, and nothing ran (exit 3).
    assert.equal(run.code, 3, run.stderr);
    const scenarioRequests = requests.filter((r) => r.headers["x-sxd-scenario"]);
    assert.ok(scenarioRequests.length > 0, "the scenarios' requests name their scenario");
    for (const r of scenarioRequests) {
      assert.match(r.headers["user-agent"] ?? "", /^sxd\/\d+\.\d+\.\d+$/);
      assert.match(String(r.headers["x-sxd-scenario"]), /^SNAP-3: /);
      assert.equal(r.headers.authorization, "Bearer secret-token-123");
      assert.equal(r.headers["x-api-key"], "key-456");
      assert.equal(r.headers["x-tenant"], "acme");
    }
    for (const name of ["conformance.json", "conformance.html", "cucumber.html", "messages.ndjson", "junit.xml"]) {
      const text = readFileSync(join(dir, name), "utf8");
      assert.doesNotMatch(text, /secret-token-123|key-456/, name);
    }
    assert.match(readFileSync(join(dir, "conformance.json"), "utf8"), /"Authorization": "Bearer •••"/);
    assert.doesNotMatch(run.stdout + run.stderr, /secret-token-123|key-456/);
    assert.match(run.stdout, /^every reply of this run \(\d+\) was status 404, HTML: /m);
  } finally {
    server.close();
  }
});

test("TLS: a self-signed certificate gets a hint; --ca trusts it; --insecure warns in the summary and the report", async (t) => {
  const dir = tempDir();
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const made = spawnSync("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
    ...["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
  ]);
  if (made.status !== 0) {
    t.skip("openssl is not installed: no certificate to test with");
    return;
  }
  const { server, url } = await recordingServer({ key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") });
  try {
    const common = ["test", "--config", referenceDescriptionFile(), "--base-url", url, "--tags", "@SNAP-3"];
    common.push("--report-dir", dir);
    const untrusted = await sxdHere(common);
    assertOneLine(untrusted, "self-signed");
    assert.match(untrusted.stderr, /self-signed .*--ca FILE, or --insecure$/m);
    // Past the probe, the run ends with a verdict: the 404 target fits no described path, so the
    // row is not run and the run is incomplete, exit 3, not 2.
    const trusted = await sxdHere([...common, "--ca", cert]);
    assert.equal(trusted.code, 3, trusted.stderr);
    const insecure = await sxdHere([...common, "--insecure"]);
    assert.equal(insecure.code, 3, insecure.stderr);
    assert.match(insecure.stdout, /^warning: TLS certificates were not checked \(--insecure\)$/m);
    const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8"));
    assert.deepEqual(report.warnings, ["TLS certificates were not checked (--insecure)"]);
  } finally {
    server.close();
  }
});

test("HTTP_PROXY carries the requests, NO_PROXY exempts a host", { timeout: 120_000 }, async () => {
  const { server, url, requests } = await recordingServer();
  const dir = tempDir();
  try {
    // The host does not resolve: only the proxy can reach it.
    const args = ["test", "--config", referenceDescriptionFile(), "--base-url", "http://sxd-target.invalid:8080"];
    args.push("--tags", "@SNAP-3", "--report-dir", dir);
    const run = await sxd(args, { HTTP_PROXY: url });
    assert.equal(run.code, 3, run.stderr);
    assert.ok(
      requests.some((r) => r.url?.startsWith("http://sxd-target.invalid:8080/")),
      "the proxy was asked for the target's absolute URLs",
    );
    const exempt = await sxd(args, { HTTP_PROXY: url, NO_PROXY: "sxd-target.invalid" });
    assertOneLine(exempt, "NO_PROXY");
    assert.match(exempt.stderr, /host name not found/);
  } finally {
    server.close();
  }
});

/** Starts `sxd test` against the bundled reference and sends `signal` once the first scenario is done. */
function interruptedRun(signal: NodeJS.Signals, parallel: string, reportDir: string): Promise<Finished> {
  const child = spawn(process.execPath, [SXD, "test", "--parallel", parallel, "--report-dir", reportDir]);
  child.stdout.once("data", () => child.kill(signal));
  return finished(child);
}

for (const [signal, parallel, code] of [
  ["SIGINT", "2", 130],
  ["SIGTERM", "1", 143],
] as const) {
  test(`${signal} stops the run, writes an incomplete report marked interrupted, prints the summary, exits ${code}`, async () => {
    const dir = tempDir();
    const run = await interruptedRun(signal, parallel, dir);
    assert.equal(run.code, code, run.stderr);
    assert.match(run.stderr, new RegExp(`^sxd: ${signal}: no further scenario starts`, "m"));
    assert.doesNotMatch(run.stderr, /^\s+at /m);
    assert.match(run.stdout, /^verdict: incomplete/m);
    assert.match(run.stdout, new RegExp(`^warning: the run was interrupted \\(${signal}\\)`, "m"));
    const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8"));
    assert.equal(report.interrupted, signal);
    assert.equal(report.overall, "incomplete");
    const notRun = report.rows.flatMap((r: { scenarios: Array<{ message?: string }> }) =>
      r.scenarios.filter((s) => s.message === `the run was interrupted (${signal})`),
    );
    assert.ok(notRun.length > 0, "the scenarios not started are not run, with the reason");
    // The whole set of reports is there, from this run.
    for (const name of ["conformance.html", "junit.xml", "cucumber.html", "messages.ndjson"]) {
      assert.ok(statSync(join(dir, name)).mtimeMs >= statSync(join(dir, "conformance.json")).mtimeMs - 5000, name);
    }
  });
}

test("the CI example of docs/ci.md runs as written against a server started in the background (--wait)", {
  timeout: 300_000,
}, async () => {
  const page = readFileSync(new URL("../docs/ci.md", import.meta.url), "utf8");
  const workflow = /# \.github\/workflows\/conformance\.yml\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
  const steps = [...workflow.matchAll(/- run: (.*)/g)].map((m) => (m[1] as string).trim());
  const baseUrl = /SXD_BASE_URL: (\S+)/.exec(workflow)?.[1];
  assert.equal(steps.length, 3, workflow);
  assert.ok(baseUrl);
  // A port of our own instead of 8080, which another program may hold.
  const free = await recordingServer();
  const port = (free.server.address() as AddressInfo).port;
  await new Promise((r) => free.server.close(r));
  const dir = tempDir();
  const described = { snapshots: { collection: "/entries/" }, run: { tags: "@SNAP-3" } };
  writeFileSync(join(dir, "sxd-target.json"), JSON.stringify(described));
  // The server comes up only once sxd has said it is waiting for it: a slow machine cannot
  // let it win the race and leave --wait untested.
  writeFileSync(
    join(dir, "start-my-server.sh"),
    `#!/bin/sh\necho $$ > server.pid\nwhile [ ! -f go ]; do sleep 0.2; done\nexec "${process.execPath}" "${SXD}" serve base --port ${port} > server.log\n`,
    { mode: 0o755 },
  );
  const root = new URL("..", import.meta.url).pathname;
  // The install step is ours: the package as it stands, instead of a packed tarball.
  const install = `mkdir -p node_modules/.bin && ln -s ${root}bin/sxd.js node_modules/.bin/sxd`;
  const script = steps
    .map((step) => (step.startsWith("npm install") ? install : step))
    .map((step) => step.replaceAll("8080", String(port)))
    .join("\n");
  const shell = spawn("bash", ["-c", script], {
    cwd: dir,
    env: { ...process.env, SXD_BASE_URL: baseUrl.replace("8080", String(port)) },
  });
  let said = "";
  shell.stderr.on("data", (d) => {
    said += d;
    if (/sxd: waiting up to/.test(said)) writeFileSync(join(dir, "go"), "");
  });
  const run = await finished(shell, "exit");
  try {
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stderr, /sxd: waiting up to 60 s for http:\/\/127\.0\.0\.1:\d+ \(connection refused/);
    assert.match(run.stderr, /answered after \d+\.\d s/);
    assert.equal(JSON.parse(readFileSync(join(dir, "sxd-reports", "conformance.json"), "utf8")).overall, "conformant");
  } finally {
    const pid = Number(readFileSync(join(dir, "server.pid"), "utf8"));
    process.kill(pid, "SIGTERM");
  }
});
