/**
 * `sxd test --repeat N` and `sxd test-client --repeat N`: the same target N times in a row, one
 * group. Against targets that break a rule in some attempts only, deterministically (a gateway
 * in front of a correct digest server whose cache is cold after it starts: the first refusal
 * it passes on becomes a grant; the first grant's rspauth is garbled), the row fails (or warns),
 * marked intermittent in every report, with its share and the failing exchange. A correct server
 * whose replies are sometimes slow, and the bundled reference itself, have no intermittent row:
 * that would be sxd's own flakiness. The runs take the command's code in this process (sxdHere).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import type { ConformanceDocument } from "../harness/evidence/conformance-document.ts";
import { startDigestServer } from "./digest-targets/digest-server.ts";
import { exampleClient, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { validateJunit } from "./support/junit-schema.ts";

interface Reply {
  status: number;
  /** As node gives them: name, value, name, value… */
  rawHeaders: string[];
  body: Buffer;
}

async function bodyOf(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A gateway in front of `upstream`: each request forwarded as it came, each reply through
 * `alter` (the request it answers beside it) on its way back. Returns its URL and how to close it.
 */
async function gateway(
  upstream: string,
  alter: (reply: Reply, asked: IncomingMessage) => Reply | Promise<Reply>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (asked, answer) => {
    const sent = await bodyOf(asked);
    const came = await new Promise<IncomingMessage>((resolve, reject) => {
      const forwarded = request(new URL(asked.url ?? "/", upstream), { method: asked.method, headers: asked.headers });
      forwarded.on("response", resolve).on("error", reject).end(sent);
    });
    const reply = await alter(
      { status: came.statusCode ?? 502, rawHeaders: came.rawHeaders, body: await bodyOf(came) },
      asked,
    );
    answer.writeHead(reply.status, withLength(reply.rawHeaders, reply.body.length)).end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers of the connection, not the message: the gateway's own connection sets them. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "date"]);

/** The raw headers of the message, Content-Length set to the body sent. */
function withLength(rawHeaders: string[], length: number): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!HOP_BY_HOP.has(rawHeaders[i]?.toLowerCase() ?? "")) kept.push(rawHeaders[i] ?? "", rawHeaders[i + 1] ?? "");
  return [...kept, "content-length", String(length)];
}

/** Once: true the first time it is asked, false ever after (a cache cold only after a start). */
function firstTimeOnly(): () => boolean {
  let cold = true;
  return () => {
    const first = cold;
    cold = false;
    return first;
  };
}

/** A correct digest server behind a gateway that alters its replies as told; the description file of the pair. */
async function digestTarget(alter: (reply: Reply, asked: IncomingMessage) => Reply | Promise<Reply>) {
  const server = await startDigestServer();
  const front = await gateway(server.url, alter);
  const config = join(tempDir(), "target.json");
  writeFileSync(config, JSON.stringify({ ...server.description, baseUrl: front.url }));
  return {
    config,
    close: async () => {
      await front.close();
      await server.close();
    },
  };
}

/** `sxd test` of the target `--repeat` times, one scenario at a time: the exit code, the output and the reports. */
async function repeated(config: string, tags: string, repeat: number) {
  const dir = tempDir();
  const args = ["--config", config, "--tags", tags, "--repeat", String(repeat), "--parallel", "1"];
  const finished = await sxdHere(["test", ...args, "--report-dir", dir]);
  return { ...finished, ...reports(dir) };
}

function reports(dir: string) {
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  const junit = validateJunit(join(dir, "junit.xml"));
  if ("valid" in junit) assert.ok(junit.valid, junit.output);
  const doc = JSON.parse(read("conformance.json")) as ConformanceDocument;
  const row = (id: string) => {
    const found = doc.rows.find((r) => r.id === id);
    assert.ok(found, `${id} is in conformance.json`);
    return found;
  };
  return { doc, row, html: read("conformance.html"), junit: read("junit.xml"), markdown: read("summary.md") };
}

const checked = (doc: ConformanceDocument) => doc.rows.filter((r) => r.scenarios.length > 0);

test("a MUST row broken in one repeat of three fails the group, marked intermittent in every report, with its share", async () => {
  const grantsOnce = firstTimeOnly();
  // The first refusal of credentials (a 401 to a request that carried them) is let through as a grant.
  const target = await digestTarget((reply, asked) =>
    reply.status === 401 && asked.headers.authorization !== undefined && grantsOnce()
      ? { status: 200, rawHeaders: ["content-type", "application/xml"], body: Buffer.from("<granted/>") }
      : reply,
  );
  try {
    const run = await repeated(target.config, "@DIG-6 and @must", 3);
    assert.equal(run.code, 1, run.stdout);
    const dig6 = run.row("DIG-6");
    assert.equal(dig6.verdict, "failed");
    assert.equal(dig6.intermittent, true);
    assert.deepEqual(dig6.repeats, { failed: 1, passed: 2 });
    assert.equal(dig6.evidenceRepeat, 1);
    assert.deepEqual(run.doc.repeated, { asked: 3, ran: 3 });
    // The failing exchange is kept: the wrong credentials, and the grant they got.
    const exchanges = dig6.scenarios.flatMap((s) => s.exchanges);
    assert.ok(exchanges.some((e) => e.response?.status === 200 && e.requestHeaders.authorization !== undefined));
    assert.match(run.stderr, /sxd: repeat 1 of 3\n[\s\S]*sxd: repeat 3 of 3\n/);
    const share = "intermittent, failed in 1 of 3 repeats, passed in 2";
    assert.match(run.stdout, new RegExp(`FAILED: DIG-6 \\(MUST\\) ${share}: `));
    assert.match(run.stdout, /intermittent \(verdicts that differ between repeats\): DIG-6\n/);
    assert.match(run.stdout, /rows checked against .*, 3 repeats\n/);
    assert.match(run.html, /data-row="DIG-6" data-verdict="failed" data-intermittent="true"/);
    assert.ok(run.html.includes(`${share}; the scenarios below are of repeat 1`));
    assert.match(run.junit, new RegExp(`<failure type="MUST" message="${share}: `));
    assert.match(run.junit, /<property name="intermittent rows" value="DIG-6"\/>/);
    assert.ok(run.markdown.includes(`| DIG-6 | MUST | failed (${share}) |`), run.markdown);
  } finally {
    await target.close();
  }
});

test("a SHOULD row broken in one repeat of three warns, intermittent, and the group passes the gate", async () => {
  const garblesOnce = firstTimeOnly();
  // The first grant's Authentication-Info carries a rspauth that proves nothing.
  const target = await digestTarget((reply) => {
    if (reply.status !== 200 || !garblesOnce()) return reply;
    const rawHeaders = reply.rawHeaders.map((value) =>
      value.replace(/rspauth="(\w+)"/, (_, h) => `rspauth="${"0".repeat(h.length)}"`),
    );
    return { ...reply, rawHeaders };
  });
  try {
    const run = await repeated(target.config, "@DIG-11", 3);
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.doc.overall, "conformant with warnings");
    const dig11 = run.row("DIG-11");
    assert.equal(dig11.verdict, "warning");
    assert.equal(dig11.intermittent, true);
    assert.deepEqual(dig11.repeats, { warning: 1, passed: 2 });
    assert.match(run.stdout, /WARNING: DIG-11 \(SHOULD\) intermittent, warned in 1 of 3 repeats, passed in 2: /);
  } finally {
    await target.close();
  }
});

test("a correct server whose replies are sometimes slow has no intermittent row over three repeats", async () => {
  let replies = 0;
  const target = await digestTarget(async (reply) => {
    replies++;
    // One reply in eight waits 50 ms: fifty times the others, well within the time allowed.
    if (replies % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    return reply;
  });
  try {
    const run = await repeated(target.config, "@DIG-4 or @DIG-5 or (@DIG-6 and @must) or @DIG-11", 3);
    assert.equal(run.code, 0, run.stdout);
    for (const row of checked(run.doc)) {
      assert.equal(row.intermittent, false, `${row.id}: ${JSON.stringify(row.repeats)}`);
      assert.deepEqual(row.repeats, { passed: 3 }, row.id);
    }
    assert.match(run.stdout, /intermittent \(verdicts that differ between repeats\): none\n/);
  } finally {
    await target.close();
  }
});

test("--deadline bounds the whole group: no repeat starts once it has passed, and the group is incomplete", async () => {
  // Every reply takes 300 ms: DIG-11's two scenarios one after the other, two requests each at least, outlast 1 s.
  const target = await digestTarget(async (reply) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return reply;
  });
  try {
    const dir = tempDir();
    const args = [
      "--config",
      target.config,
      "--tags",
      "@DIG-11",
      "--repeat",
      "3",
      "--deadline",
      "1",
      "--parallel",
      "1",
    ];
    const run = await sxdHere(["test", ...args, "--report-dir", dir]);
    assert.equal(run.code, 3, run.stdout);
    const { doc } = reports(dir);
    assert.deepEqual(doc.repeated, { asked: 3, ran: 1 });
    assert.equal(doc.overall, "incomplete");
    const stopped = "repeats 2 to 3 of 3 did not start: the run's deadline of 1 s had passed (see --deadline)";
    assert.deepEqual(doc.warnings, [stopped]);
    assert.match(run.stdout, /rows checked against .*, 1 of 3 repeats\n/);
    assert.ok(run.stdout.includes(`warning: ${stopped}`), run.stdout);
    assert.match(run.stdout, /exit 3: 1 of the 3 repeats asked for ran \(--allow-incomplete accepts that\)/);
    assert.doesNotMatch(run.stderr, /repeat 2 of 3/);
  } finally {
    await target.close();
  }
});

test("the bundled reference, the whole suite three times: every row gives the same verdict in every repeat", async () => {
  const dir = tempDir();
  const run = await sxdHere(["test", "--repeat", "3", "--report-dir", dir]);
  assert.equal(run.code, 0, run.stdout);
  const { doc } = reports(dir);
  assert.deepEqual(doc.repeated, { asked: 3, ran: 3 });
  const differing = checked(doc).filter((row) => Object.keys(row.repeats ?? {}).length !== 1 || row.intermittent);
  assert.deepEqual(
    differing.map((row) => `${row.id} ${JSON.stringify(row.repeats)}`),
    [],
    "sxd's own flakiness: a row whose verdict changed between repeats against its own reference",
  );
  for (const row of checked(doc)) assert.equal(row.repeats?.[row.verdict], 3, row.id);
});

test("with --parallel workers every repeat runs the step definitions the first one loaded (an sxd process)", async () => {
  const dir = tempDir();
  const args = ["--tags", "@SNAP-1 and @must", "--repeat", "2", "--parallel", "2", "--report-dir", dir];
  const run = await sxd(["test", ...args]);
  assert.equal(run.code, 0, run.stdout);
  const { row } = reports(dir);
  assert.deepEqual(row("SNAP-1").repeats, { passed: 2 });
});

test("sxd test-client --repeat runs the tasks again each repeat; a client broken in one repeat is intermittent there", async () => {
  const dir = tempDir();
  const client = firstRunBroken(dir);
  const run = await sxdHere([
    "test-client",
    "--run",
    client,
    "--tasks",
    "update",
    "--parallel",
    "1",
    "--repeat",
    "2",
    "--report-dir",
    dir,
  ]);
  assert.equal(run.code, 1, run.stdout);
  const { doc, row } = reports(dir);
  assert.deepEqual(doc.repeated, { asked: 2, ran: 2 });
  assert.equal(row("CSNAP-1").verdict, "failed");
  assert.equal(row("CSNAP-1").intermittent, true);
  assert.deepEqual(row("CSNAP-1").repeats, { failed: 1, passed: 1 });
  for (const other of checked(doc).filter((r) => r.id !== "CSNAP-1"))
    assert.deepEqual(other.repeats, { passed: 2 }, other.id);
  // The task ran in each repeat; the report keeps the runs of the repeat its evidence is from.
  const counted = readFileSync(join(dir, "runs"), "utf8").length;
  assert.ok(counted >= 4, `the client ran ${counted} times`);
  assert.deepEqual([...new Set(doc.client?.runs.map((r) => r.repeat))], [1]);
  assert.match(run.stderr, /sxd: repeat 2 of 2\n/);
});

test("sxd test-client --repeat takes a command to run again: not --har or --manual", async () => {
  const run = await sxdHere(["test-client", "--har", "x.har", "--repeat", "2", "--report-dir", tempDir()]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--repeat runs the client's command again: it takes --run/);
});

/**
 * The example client, its first run (of a task one at a time) typing its update as plain XML
 * (CSNAP-1), the later ones as the example does: each run counts itself in `<dir>/runs`.
 */
function firstRunBroken(dir: string): string {
  const counter = join(dir, "runs");
  const preload = join(dir, "first-run-broken.mjs");
  const faults = new URL("./fixtures/clients/faults.mjs", import.meta.url).pathname;
  writeFileSync(
    preload,
    [
      'import { appendFileSync, readFileSync } from "node:fs";',
      `appendFileSync(${JSON.stringify(counter)}, "r");`,
      `if (readFileSync(${JSON.stringify(counter)}, "utf8").length === 1) {`,
      '  process.env.CLIENT_FAULT = "untyped-put";',
      `  await import(${JSON.stringify(faults)});`,
      "}",
    ].join("\n"),
  );
  return exampleClient([preload]);
}
