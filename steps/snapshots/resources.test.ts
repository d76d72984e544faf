import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import type { WorldParameters } from "../../harness/run/world-parameters.ts";
import { closeConnections } from "../support/suite-client.ts";
import type { SxdWorld } from "../support/world.ts";
import { dropEarlyResource, makeEarlyResource, takeEarlyResource } from "./resources.ts";
import { resourceOf } from "./snapshots.ts";

/**
 * A target that answers every PUT with `putStatus` (after `putDelayMs`) and every other
 * request 204, and logs them.
 */
async function recordingTarget(
  putStatus: number,
  putDelayMs = 0,
): Promise<{ url: string; log: string[]; answered: () => number; server: Server }> {
  const log: string[] = [];
  let answered = 0;
  const server = createServer((request, response) => {
    log.push(`${request.method} ${request.url}`);
    request.resume();
    setTimeout(
      () => {
        answered++;
        response.writeHead(request.method === "PUT" ? putStatus : 204).end();
      },
      request.method === "PUT" ? putDelayMs : 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, answered: () => answered, server };
}

function parametersFor(baseUrl: string, layer: object = {}): WorldParameters {
  const target = resolveDescription([{ baseUrl, snapshots: { collection: "/entries/" } }, layer]);
  assert.ok(target.ok);
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-early-"));
  return {
    target: target.value,
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    limits: { stateDir, deadlineAt: Date.now() + 60_000, deadlineSeconds: 60, failuresInARow: 3 },
    rate: { stateDir },
  };
}

/** What takeEarlyResource uses of a scenario's world. */
function fakeWorld(): SxdWorld & { cleanups: Array<() => Promise<unknown>> } {
  const world = {
    http: { exchanges: [] as Exchange[] },
    cleanups: [] as Array<() => Promise<unknown>>,
    onCleanup(task: () => Promise<unknown>) {
      world.cleanups.push(task);
    },
  };
  return world as unknown as SxdWorld & { cleanups: Array<() => Promise<unknown>> };
}

const servers: Server[] = [];
afterEach(async () => {
  await dropEarlyResource();
  await closeConnections();
  for (const server of servers.splice(0)) server.close();
});

test("a resource made early and taken by no scenario is deleted after the run", async () => {
  const target = await recordingTarget(201);
  servers.push(target.server);
  makeEarlyResource(parametersFor(target.url), "test");
  await dropEarlyResource();
  assert.equal(target.log.length, 2);
  assert.match(target.log[0], /^PUT \/entries\/sxd-/);
  assert.equal(target.log[1], target.log[0].replace("PUT", "DELETE"));
});

test("the scenario that takes it gets its creation first in its transcript, and deletes it itself", async () => {
  const target = await recordingTarget(201);
  servers.push(target.server);
  makeEarlyResource(parametersFor(target.url), "test");
  const world = fakeWorld();
  assert.equal(await takeEarlyResource(world), true);
  const [made] = world.http.exchanges;
  assert.equal(made.method, "PUT");
  assert.equal(made.requestHeaders["if-none-match"], "*");
  assert.match(made.note ?? "", /before the run's first scenario/);
  assert.equal(resourceOf(world).url, made.url);
  // Taken once: a second scenario, and the end of the run, find nothing.
  assert.equal(await takeEarlyResource(fakeWorld()), false);
  await dropEarlyResource();
  assert.equal(target.log.length, 1);
  assert.equal(world.cleanups.length, 1);
});

test("a refused creation leaves nothing to take: the scenario makes its own", async () => {
  const target = await recordingTarget(405);
  servers.push(target.server);
  makeEarlyResource(parametersFor(target.url), "test");
  assert.equal(await takeEarlyResource(fakeWorld()), false);
  await dropEarlyResource();
  assert.deepEqual(
    target.log.map((line) => line.split(" ")[0]),
    ["PUT"],
  );
});

test("a target that does not answer leaves nothing to take, and the hook does not throw", async () => {
  const target = await recordingTarget(201);
  target.server.close();
  makeEarlyResource(parametersFor(target.url), "test");
  assert.equal(await takeEarlyResource(fakeWorld()), false);
});

test("a description that names its resources has none made", async () => {
  const target = await recordingTarget(201);
  servers.push(target.server);
  makeEarlyResource(parametersFor(target.url, { snapshots: { resources: [{ path: "/entries/a" }] } }), "test");
  assert.deepEqual(target.log, []);
  assert.equal(await takeEarlyResource(fakeWorld()), false);
});

test("the hook does not wait for the reply: the scenario that takes the resource does", async () => {
  const target = await recordingTarget(201, 300);
  servers.push(target.server);
  makeEarlyResource(parametersFor(target.url), "test");
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(target.answered(), 0);
  assert.equal(await takeEarlyResource(fakeWorld()), true);
  assert.equal(target.answered(), 1);
});
