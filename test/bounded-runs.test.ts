// sxd finishes, in bounded time and memory, whatever the target sends: one-line XML with many
// quotes, a 100 MB reply, a body without end, a reply that drips a byte a second, bytes that
// are not HTTP. Each run is measured: wall time, peak memory of the whole process tree, the
// size of the reports. The node test timeout is a guard against a hang, not a claim on speed.
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { type Finished, referenceDescriptionFile, sxd, tempDir } from "./support/cli.ts";
import {
  drip,
  type HostileServer,
  hostile,
  httpHostile,
  PROBE_REPLY,
  stream,
  TLS_HANDSHAKE,
} from "./support/hostile.ts";
import { watchTree } from "./support/process-tree.ts";

const MB = 1024 * 1024;
const GUARD = { timeout: 120_000 };

interface Measured extends Finished {
  seconds: number;
  peakRss: number;
  reportBytes: number;
}

/** `sxd test` against every server URL at `url`, measured. */
async function measuredRun(url: string, extra: string[]): Promise<Measured> {
  const reportDir = tempDir();
  const args = ["test", "--config", referenceDescriptionFile(), "--base-url", url, "--contacts-url", url];
  args.push("--messaging-url", url);
  // One process: its memory is the run's, not the baseline of two more workers (see docs/test.md).
  args.push("--timeout", "2000", "--parallel", "1", "--report-dir", reportDir, ...extra);
  const started = performance.now();
  let watch: ReturnType<typeof watchTree> | undefined;
  const run = await sxd(args, {}, (child) => {
    watch = child.pid === undefined ? undefined : watchTree(child.pid);
  });
  const measured = {
    ...run,
    seconds: (performance.now() - started) / 1000,
    peakRss: watch?.stop() ?? 0,
    reportBytes: folderSize(reportDir),
  };
  console.log(
    `measured: ${(measured.seconds).toFixed(1)} s, peak RSS ${(measured.peakRss / MB).toFixed(0)} MB, reports ${(measured.reportBytes / MB).toFixed(2)} MB, exit ${run.code}`,
  );
  return measured;
}

function folderSize(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => statSync(join(dir, name)))
    .filter((s) => s.isFile())
    .reduce((sum, s) => sum + s.size, 0);
}

/**
 * `"not passed"`: any code but 0 and 2 (a usage error). An incomplete run's code is the
 * verdict's to choose; these runs only have to say that the target did not pass.
 */
function assertBounded(run: Measured, code: number | "not passed"): void {
  const output = run.stdout + run.stderr;
  if (code === "not passed") assert.ok(run.code !== 0 && run.code !== 2, `exit ${run.code}\n${output.slice(-4000)}`);
  else assert.equal(run.code, code, output.slice(-4000));
  assert.doesNotMatch(output, /^ {4}at /m, "no stack trace");
  assert.ok(run.peakRss < 400 * MB, `peak RSS of the process tree ${(run.peakRss / MB).toFixed(0)} MB`);
  assert.ok(run.reportBytes < 100 * MB, `reports ${(run.reportBytes / MB).toFixed(1)} MB`);
}

async function against<T>(server: Promise<HostileServer>, use: (url: string) => Promise<T>): Promise<T> {
  const running = await server;
  try {
    return await use(running.url);
  } finally {
    running.close();
  }
}

/** Every server of the interface on one port, each document on one line, quotes everywhere. */
function oneLineTarget(): Promise<HostileServer> {
  const contacts = Array.from(
    { length: 20 },
    (_, i) =>
      `<contact id="c${i}" kind="person"><name lang="en">Person "${i}"</name><phone type="work">+1 555 01${i}</phone></contact>`,
  ).join("");
  // The self link is relative, so the EXP-2 scenario fails and its message carries this line
  // (no "@" in it: the stack parser's expression backtracks hardest on a line without one).
  const list = `<?xml version="1.0" encoding="UTF-8"?><contacts xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="contacts"/>${contacts}</contacts>`;
  // No qop, so DIG-1 fails and its message carries the challenge's thousand quoted parameters.
  const parameters = Array.from({ length: 1000 }, (_, i) => `p${i}="${i}"`).join(", ");
  const error = `<?xml version="1.0"?><error xmlns="urn:example"><message lang="en">"no"</message></error>`;
  return httpHostile((path, reply) => {
    if (path.includes("/contacts")) {
      reply.writeHead(200, { "content-type": "application/xml" }).end(list);
    } else if (path.includes("/protected")) {
      reply.writeHead(401, {
        "content-type": "application/xml",
        "www-authenticate": `Digest realm="r", nonce="n", ${parameters}`,
      });
      reply.end(error);
    } else reply.writeHead(404, { "content-type": "application/xml" }).end(error);
  });
}

for (const tags of ["@EXP-2", "@DIG-1"]) {
  test(`one-line XML with many quotes fails ${tags} quickly, message in full`, GUARD, async () => {
    const run = await against(oneLineTarget(), (url) => measuredRun(url, ["--tags", tags]));
    assertBounded(run, 1);
    assert.match(run.stdout, new RegExp(`FAILED: ${tags.slice(1)} \\(MUST\\)`));
    // Cucumber shows the failure with its exchange, once, and no stack below it.
    assert.equal(run.stdout.split("in the exchange:").length - 1, 1, run.stdout);
  });
}

test("a 100 MB reply is not read: the scenarios fail with its size", GUARD, async () => {
  const run = await against(
    httpHostile((_path, reply) => {
      reply.writeHead(200, { "content-type": "application/xml", "content-length": 100 * MB });
      stream(reply, 100 * MB);
    }),
    (url) => measuredRun(url, []),
  );
  assertBounded(run, 1);
  assert.match(run.stdout, /reply larger than 8 MiB \(Content-Length: 104857600/);
});

test("a body without end is cut at the cap", GUARD, async () => {
  const run = await against(
    httpHostile((_path, reply) => {
      reply.writeHead(200, { "content-type": "application/xml" });
      stream(reply, Number.POSITIVE_INFINITY);
    }),
    (url) => measuredRun(url, []),
  );
  assertBounded(run, 1);
  assert.match(run.stdout, /reply larger than 8 MiB \(stopped reading after \d+ bytes/);
});

test("a target that drips a byte a second is given up on: the rest is not run", GUARD, async () => {
  const reply = `HTTP/1.1 200 OK\r\ncontent-type: application/xml\r\ncontent-length: 9\r\n\r\n<a>b</a>\n`;
  const run = await against(
    // The first three requests are the probes of the three URLs.
    hostile((socket, n) => (n <= 3 ? socket.end(PROBE_REPLY) : drip(socket, reply))),
    (url) => measuredRun(url, []),
  );
  assertBounded(run, "not passed");
  assert.match(run.stdout, /NOT RUN: .*the target stopped answering: 3 transport failures in a row/);
  assert.match(run.stdout, /no complete reply within 2000 ms/);
});

const notHttp: Record<string, string | Buffer> = {
  "bytes that are not HTTP": "HELLO THERE\r\n\r\n",
  "a TLS handshake": TLS_HANDSHAKE,
};
for (const [name, answer] of Object.entries(notHttp)) {
  test(`a target that answers the probe with ${name} ends the run at once with exit 2`, GUARD, async () => {
    const run = await against(
      hostile((socket) => socket.end(answer)),
      (url) => measuredRun(url, []),
    );
    assertBounded(run, 2);
    assert.match(run.stderr, /cannot reach .*: the reply is not HTTP \(is the target HTTPS\?\)/);
  });
}

test("past the run's deadline the scenarios left are not run, with the reason", GUARD, async () => {
  const run = await against(
    // Each reply takes longer than the whole deadline, so whatever scenario starts first, the
    // next one starts after the deadline, however fast cucumber itself starts.
    httpHostile((_path, reply) => {
      setTimeout(() => reply.writeHead(200, { "content-type": "text/html" }).end("<p>hello</p>"), 1200);
    }),
    (url) => measuredRun(url, ["--deadline", "1", "--tags", "@SNAP-1 or @DIG-1"]),
  );
  assertBounded(run, "not passed");
  // One row or both: on a busy machine the deadline can pass before the first scenario starts.
  assert.match(run.stdout, /NOT RUN: ((SNAP|DIG)-1|DIG-1, SNAP-1) \(MUST\) the run's deadline of 1 s had passed/);
});
