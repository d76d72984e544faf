import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { test } from "node:test";
import { holdProcess, hostile, PROBE_REPLY } from "../../test/support/hostile.ts";
import { firstUnreachable, probe, roundTrip, timeRoundTrips } from "./probe.ts";

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const options = { timeoutMs: 60_000, waitSeconds: 0, progress: () => undefined };

test("a URL that refuses is reported at once, while another still hangs (its probe would wait a minute)", {
  timeout: 20_000,
}, async () => {
  const sockets: Socket[] = [];
  const hanging = createServer((socket) => sockets.push(socket));
  const answering = createHttpServer((_, res) => res.end());
  const refusing = createServer();
  const refusingUrl = await listening(refusing);
  await new Promise((resolve) => refusing.close(resolve));
  const urls = [await listening(hanging), refusingUrl, await listening(answering)];
  try {
    const unreachable = await firstUnreachable(urls, options);
    assert.equal(unreachable?.url, refusingUrl);
    assert.match(unreachable?.problem ?? "", /refused/);
  } finally {
    for (const socket of sockets) socket.destroy();
    hanging.close();
    answering.close();
  }
});

test("URLs that all answer: none is reported; no URL at all: none either", async () => {
  const answering = createHttpServer((_, res) => res.end());
  const url = await listening(answering);
  try {
    assert.equal(await firstUnreachable([url, url], options), undefined);
    assert.equal(await firstUnreachable([], options), undefined);
  } finally {
    answering.close();
  }
});

test("the round trip is timed on a kept-alive connection; a target that stops answering leaves it untimed", async () => {
  let requests = 0;
  const answering = createHttpServer((_, res) => {
    requests++;
    res.end("hello");
  });
  // Answers the first request, then never again.
  const once = createHttpServer((_, res) => {
    if (requests++ === 0) res.end("hello");
  });
  const near = { timeoutMs: 2000, nearMs: 0 };
  try {
    const timed = await roundTrip(await listening(answering), near);
    const ms = "ms" in timed ? timed.ms : undefined;
    assert.ok(ms !== undefined && Number.isFinite(ms) && ms >= 0, JSON.stringify(timed));
    // Two that agree end the timing; else a third is taken.
    assert.ok(
      requests === 3 || requests === 4,
      `one request opens the connection, two or three are timed: ${requests}`,
    );
    requests = 0;
    assert.deepEqual(await roundTrip(await listening(once), { ...near, timeoutMs: 300 }), { ms: undefined });
  } finally {
    answering.close();
    once.closeAllConnections();
    once.close();
  }
});

test("round trips are timed for every URL that answers; one that refuses is left out, and its own timing says why", async () => {
  const closed = createServer();
  const refusing = await listening(closed);
  await new Promise((resolve) => closed.close(resolve));
  const timed = await roundTrip(refusing, { timeoutMs: 2000, nearMs: 5 });
  assert.ok("problem" in timed && /refused/.test(timed.problem), JSON.stringify(timed));
  const answering = createHttpServer((_, res) => res.end());
  const url = await listening(answering);
  try {
    const roundTrips = await timeRoundTrips([refusing, url], { timeoutMs: 2000 });
    assert.deepEqual([...roundTrips.keys()], [url]);
    assert.ok(Number.isFinite(roundTrips.get(url)), String(roundTrips.get(url)));
  } finally {
    answering.close();
  }
});

test("a reply that arrived counts, though the process was held up past the limit before reading it", async () => {
  const limitMs = 300;
  // Answers, then holds this process (the probe's too) past the probe's limit: its timer is
  // then due before the reply, already in the socket's buffer, is read.
  const answering = await hostile((socket) => {
    socket.end(PROBE_REPLY);
    holdProcess(limitMs + 50);
  });
  try {
    assert.equal(await probe(`${answering.url}/`, limitMs), undefined);
  } finally {
    answering.close();
  }
});

test("a server in this process held up with it past the limit, that answers after the hold: the hold is not counted against it", async () => {
  const limitMs = 300;
  // The hold comes before the server has read the request: without the held time left out, the
  // limit would pass before the server could even start its answer.
  const late = await hostile((socket) => {
    holdProcess(limitMs + 200);
    setTimeout(() => socket.end(PROBE_REPLY), 100);
  });
  try {
    assert.equal(await probe(`${late.url}/`, limitMs), undefined);
  } finally {
    late.close();
  }
});

test("a server that never answers, though the process was held up: the limit still passes, and says so", async () => {
  const silent = await hostile(() => holdProcess(400));
  try {
    assert.equal(await probe(`${silent.url}/`, 200), "no complete reply within 200 ms");
  } finally {
    silent.close();
  }
});

test("a server that never answers: the limit passes, and says so", async () => {
  const silent = await hostile(() => undefined);
  try {
    assert.equal(await probe(`${silent.url}/`, 200), "no complete reply within 200 ms");
  } finally {
    silent.close();
  }
});
