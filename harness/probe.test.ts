import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { test } from "node:test";
import { firstUnreachable } from "./probe.ts";

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
