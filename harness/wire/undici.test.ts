import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as undici from "undici";
import { Agent, EnvHttpProxyAgent, request } from "./undici.ts";

test("the classes are undici's own", () => {
  assert.equal(Agent, undici.Agent);
  assert.equal(EnvHttpProxyAgent, undici.EnvHttpProxyAgent);
});

test("request answers as undici's request does: status, headers, body, path and query", async () => {
  const server = createServer((req, res) => {
    res.writeHead(207, { "x-seen": `${req.method} ${req.url} ${req.headers["x-sent"]}` }).end("body");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a/b?c=d`;
  const dispatcher = new Agent();
  try {
    const options = { method: "PUT" as const, headers: { "x-sent": "yes" }, body: "x", dispatcher };
    for (const send of [request, undici.request]) {
      const reply = await send(url, options);
      assert.equal(reply.statusCode, 207);
      assert.equal(reply.headers["x-seen"], "PUT /a/b?c=d yes");
      assert.equal(await reply.body.text(), "body");
    }
  } finally {
    await dispatcher.close();
    server.close();
  }
});

test("loading it leaves undici's fetch layers and node's own undici unloaded", () => {
  const door = fileURLToPath(new URL("./undici.ts", import.meta.url));
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(door)});
       const internal = process.moduleLoadList.some((m) => m.includes("deps/undici"));
       const { createRequire } = await import("node:module");
       const cache = Object.keys(createRequire(import.meta.url).cache);
       console.log(JSON.stringify({ internal, fetch: cache.some((f) => f.includes("/undici/lib/web/")) }));`,
    ],
    { encoding: "utf8" },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim().split("\n").at(-1) ?? ""), { internal: false, fetch: false });
});
