// Targets that misbehave at the transport level: the probe answers, then the server hangs,
// resets, talks garbage, serves HTML, or goes down halfway. Every run must finish within its
// timeouts, report the target not conformant (exit 1), and print no stack trace. The runs take
// the command's code in this process (support/cli.ts sxdHere: an sxd process each cost about
// 1.4 s of CPU, mostly loading), but the one that ends in a usage error, run as a user runs it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Finished, referenceDescriptionFile, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { type Behaviour, hostile, PROBE_REPLY } from "./support/hostile.ts";

const behaviours: Record<string, Behaviour> = {
  "hangs after the first reply": (socket, n) => {
    if (n === 1) socket.end(PROBE_REPLY);
  },
  "resets every connection after the first reply": (socket, n) => {
    if (n === 1) socket.end(PROBE_REPLY);
    else socket.resetAndDestroy();
  },
  "answers with bytes that are not HTTP": (socket, n) => {
    socket.end(n === 1 ? PROBE_REPLY : "HELLO THERE\r\n\r\n");
  },
  "answers every request with an HTML page": (socket) => {
    const body = "<html><body>it works</body></html>";
    socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  },
};

function sxdTest(url: string, where: "here" | "process" = "here"): Promise<Finished> {
  return (where === "here" ? sxdHere : sxd)([
    "test",
    ...["--config", referenceDescriptionFile()],
    "--base-url",
    url,
    "--tags",
    "@SNAP-1 or @SNAP-8 or @DIG-1",
    "--timeout",
    "400",
    "--report-dir",
    tempDir(),
  ]);
}

function assertCleanFailure(run: Finished) {
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /verdict: not conformant/);
  assert.doesNotMatch(run.stdout + run.stderr, /^\s+at .+:\d+:\d+\)?$/m, "no stack trace");
}

for (const [name, behaviour] of Object.entries(behaviours)) {
  test(`a target that ${name} is reported not conformant, cleanly`, async () => {
    const server = await hostile(behaviour);
    try {
      const run = await sxdTest(server.url);
      assertCleanFailure(run);
      assert.match(run.stdout, /FAILED: SNAP-1 \(MUST\)/);
      if (name.includes("not HTTP")) assert.match(run.stdout, /the reply is not HTTP \(is the target HTTPS\?\)/);
    } finally {
      server.close();
    }
  });
}

test("a target that goes down halfway is reported not conformant, cleanly", async () => {
  const server = await hostile((socket) => socket.end(PROBE_REPLY));
  server.stopAfter(3);
  try {
    const run = await sxdTest(server.url);
    assertCleanFailure(run);
    assert.match(run.stdout, /connection refused|closed before a complete reply/);
  } finally {
    server.close();
  }
});

test("a target that never answers ends the run with one line and exit 2 once the limit has passed", async () => {
  const server = await hostile(() => undefined);
  try {
    const run = await sxdTest(server.url, "process");
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stderr.trim(), `sxd: cannot reach ${server.url}: no complete reply within 400 ms`);
  } finally {
    server.close();
  }
});
