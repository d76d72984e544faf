import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Agent } from "undici";
import { formatExchange, recordable } from "../../harness/evidence/transcript.ts";
import { RateLimited, RequestNotSent, TransportError } from "../../harness/judging/step-errors.ts";
import { RateLimits } from "../../harness/wire/rate-limits.ts";
import { bodyBytes } from "../../lib/body.ts";
import { holdProcess, hostile, httpHostile, stream } from "../../test/support/hostile.ts";
import { HttpClient } from "./http.ts";

const KIB = 1024;

async function withServer(body: { length: number; declared: boolean }, check: (url: string) => Promise<void>) {
  const server = await httpHostile((_path, reply) => {
    reply.writeHead(200, body.declared ? { "content-length": body.length } : {});
    stream(reply, body.length);
  });
  try {
    await check(server.url);
  } finally {
    server.close();
  }
}

test("a body up to the cap is read whole; the recorded copy keeps an excerpt", async () => {
  await withServer({ length: 64 * KIB, declared: false }, async (url) => {
    const client = new HttpClient({ timeoutMs: 5000, maxBodyBytes: 64 * KIB });
    const reply = await client.send("GET", url);
    assert.equal(reply.response.body.length, 64 * KIB);
    const kept = recordable(reply).response?.body ?? "";
    assert.ok(kept.length < 5000, `${kept.length} characters kept`);
    assert.match(kept, /… \(65536 characters in all\)$/);
    await client.close();
  });
});

test("a body that is not UTF-8 keeps its bytes for hashing; the recorded copy keeps its text alone", async () => {
  const latin1 = Buffer.from("<city>Genève</city>", "latin1");
  const server = await httpHostile((_path, reply) => reply.end(latin1));
  const client = new HttpClient({ timeoutMs: 5000 });
  try {
    const reply = await client.send("GET", server.url);
    assert.equal(reply.response.body, "<city>Gen\uFFFDve</city>");
    assert.deepEqual(bodyBytes(reply.response), latin1);
    assert.deepEqual(Object.keys(recordable(reply).response ?? {}).sort(), ["body", "headers", "status"]);
  } finally {
    await client.close();
    server.close();
  }
});

for (const declared of [true, false]) {
  test(`a body over the cap fails the request (${declared ? "declared" : "streamed"})`, async () => {
    await withServer({ length: 1024 * KIB, declared }, async (url) => {
      const client = new HttpClient({ timeoutMs: 5000, maxBodyBytes: 16 * KIB });
      await assert.rejects(client.send("GET", url), (error: Error) => {
        assert.ok(error instanceof TransportError);
        assert.match(
          error.message,
          declared
            ? /reply larger than 16 KiB \(Content-Length: 1048576;/
            : /reply larger than 16 KiB \(stopped reading/,
        );
        assert.equal(error.stack, "", "no stack for cucumber's parser to read");
        return true;
      });
      await client.close();
    });
  });
}

test("a whole reply that arrived counts, though the process was held up past the limit before reading it", async () => {
  const limitMs = 300;
  const body = "<entry/>";
  const answering = await hostile((socket) => {
    socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    holdProcess(limitMs + 50);
  });
  const client = new HttpClient({ timeoutMs: limitMs });
  try {
    const reply = await client.send("GET", `${answering.url}/`);
    assert.equal(reply.response.body, body);
  } finally {
    await client.close();
    answering.close();
  }
});

test("the time sxd's process was held up during an exchange is kept apart from the target's, and told", async () => {
  const body = "<entry/>";
  let hold = 0;
  const answering = await hostile((socket) => {
    holdProcess(hold);
    socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  });
  const client = new HttpClient({ timeoutMs: 5000 });
  try {
    const quick = await client.send("GET", `${answering.url}/`);
    // Nothing held this one up but the machine's other work.
    assert.ok((quick.stalledMs ?? 0) < 300, `held up ${quick.stalledMs} ms of ${quick.durationMs}`);
    hold = 400;
    const held = await client.send("GET", `${answering.url}/`);
    assert.ok((held.stalledMs ?? 0) >= 300, `held up ${held.stalledMs} ms of ${held.durationMs}`);
    assert.ok((held.stalledMs ?? 0) <= held.durationMs);
    assert.match(formatExchange(held), /\(\d+ ms, of which sxd's process was held up \d+ ms\)$/);
  } finally {
    await client.close();
    answering.close();
  }
});

test("a guard that refuses stops the request before it is sent, and hears of every answer", async () => {
  await withServer({ length: 10, declared: true }, async (url) => {
    const heard: boolean[] = [];
    let refusal: string | undefined;
    const client = new HttpClient({ timeoutMs: 5000, guard: { refusal: () => refusal, record: (a) => heard.push(a) } });
    await client.send("GET", url);
    refusal = "the target stopped answering";
    await assert.rejects(client.send("GET", url), new RequestNotSent("the target stopped answering"));
    assert.equal(client.exchanges[1].error, "not sent: the target stopped answering");
    assert.deepEqual(heard, [true]);
    await client.close();
  });
});

test("a 429 is no answer: the client waits as asked, sends the same request again, and the transcript keeps it", async () => {
  let calls = 0;
  const server = await httpHostile((_path, reply) => {
    calls++;
    if (calls <= 2) reply.writeHead(429, { "retry-after": "0" }).end();
    else if (calls === 3) reply.writeHead(503).end("down for maintenance");
    else reply.writeHead(200).end("late");
  });
  try {
    // Paced at 100 a second from the start: after a refusal the pace spaces the requests by
    // 14 ms, not by the second and more a run that finds its pace starts at.
    const rate = new RateLimits({ stateDir: mkdtempSync(join(tmpdir(), "sxd-http-")), rate: 100 });
    const client = new HttpClient({ timeoutMs: 5000, rate });
    const reply = await client.send("GET", server.url, { headers: { "x-try": "same" } });
    assert.equal(reply.response.status, 503, "a 503 without Retry-After is the server's answer");
    assert.deepEqual(
      reply.refusals?.map((r) => r.status),
      [429, 429],
    );
    const transcript = formatExchange(reply);
    assert.equal(transcript.match(/< 429/g)?.length, 2);
    assert.match(transcript, /not an answer: sxd waited 0 ms and sent it again[\s\S]*< 503/);
    await client.close();
  } finally {
    server.close();
  }
});

test("a request the pace held back records how long; one that went when asked records nothing", async () => {
  const server = await httpHostile((_path, reply) => reply.writeHead(200).end("ok"));
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-http-"));
  try {
    // --rate 20: a slot every 50 ms, so of two requests sent at once the second waits for its own.
    const client = new HttpClient({ timeoutMs: 5000, rate: new RateLimits({ stateDir, rate: 20 }) });
    const [first, second] = await Promise.all([client.send("GET", server.url), client.send("GET", server.url)]);
    assert.equal(first.heldMs, undefined);
    assert.ok((second.heldMs ?? 0) > 0 && (second.heldMs ?? 0) <= 50, `held ${second.heldMs} ms`);
    assert.match(formatExchange(second), /\(sxd held it back \d+ ms to keep its pace\)/);
    await client.close();
  } finally {
    server.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test("a retried Digest request answered 401 stale: not judged where the refused attempt may have spent the nonce", async () => {
  let calls = 0;
  const server = await httpHostile((_path, reply) => {
    calls++;
    if (calls % 2 === 1) reply.writeHead(429, { "retry-after": "0" }).end();
    else reply.writeHead(401, { "www-authenticate": 'Digest realm="r", nonce="fresh", stale=true' }).end();
  });
  try {
    // Paced at 100 a second from the start: after a refusal the pace spaces the requests by
    // 14 ms, not by the second and more a run that finds its pace starts at.
    const rate = new RateLimits({ stateDir: mkdtempSync(join(tmpdir(), "sxd-http-")), rate: 100 });
    const client = new HttpClient({ timeoutMs: 5000, rate });
    const credentials = { authorization: 'Digest username="u", nonce="n1", nc=00000001, response="x"' };
    await assert.rejects(client.send("GET", server.url, { headers: credentials }), (error: Error) => {
      assert.ok(error instanceof RateLimited);
      assert.match(error.message, /kept answering 429 for 0 s, then 401 stale: the refused attempt may have spent/);
      return true;
    });
    // The same nonce again (a replay): the server has seen it, so its 401 is an answer to judge.
    const replay = await client.send("GET", server.url, { headers: credentials });
    assert.equal(replay.response.status, 401);
    await client.close();
  } finally {
    server.close();
  }
});

test("clients given one dispatcher share its connections, and closing a client leaves it open", async () => {
  const connections: number[] = [];
  const server = createServer((_request, response) => response.end("ok"));
  server.on("connection", () => connections.push(1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dispatcher = new Agent();
  try {
    for (let scenario = 0; scenario < 6; scenario++) {
      const client = new HttpClient({ timeoutMs: 5000, dispatcher });
      assert.equal((await client.send("GET", url)).response.body, "ok");
      await client.close();
    }
    // A connection is handed back a moment after its reply is read, so a second may open.
    const shared = connections.length;
    assert.ok(shared <= 2, `${shared} connections for six clients in turn`);
    const own = new HttpClient({ timeoutMs: 5000 });
    await own.send("GET", url);
    await own.close();
    assert.equal(connections.length, shared + 1, "a client without a dispatcher opens its own");
  } finally {
    await dispatcher.destroy();
    server.close();
  }
});

test("closing a client ends its request still waiting on a shared dispatcher, and the breaker hears nothing of it", async () => {
  const server = createServer(() => undefined); // never answers
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dispatcher = new Agent();
  const heard: boolean[] = [];
  try {
    const client = new HttpClient({
      timeoutMs: 60_000,
      dispatcher,
      guard: { refusal: () => undefined, record: (answered) => heard.push(answered) },
    });
    const pending = client.send("GET", url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    await assert.rejects(pending, TransportError);
    assert.match(client.exchanges[0].error ?? "", /^abandoned: the scenario ended/);
    assert.deepEqual(heard, []);
  } finally {
    await dispatcher.destroy();
    server.closeAllConnections();
    server.close();
  }
});
