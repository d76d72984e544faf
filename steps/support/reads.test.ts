import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered } from "../../harness/evidence/exchange.ts";
import { getEach } from "./reads.ts";
import type { SxdWorld } from "./world.ts";

/** A world whose GETs answer after `ms` with status 200, 404 for a URL ending in "gone", or no reply for "dead". */
function fakeWorld(ms: number) {
  const log = { sent: [] as string[], most: 0, underWay: 0 };
  const send = async (_method: string, url: string) => {
    log.sent.push(url);
    log.most = Math.max(log.most, ++log.underWay);
    await new Promise((resolve) => setTimeout(resolve, ms));
    log.underWay--;
    if (url.endsWith("dead")) throw new Error(`no reply from ${url}`);
    return { url, response: { status: url.endsWith("gone") ? 404 : 200 } } as unknown as Answered;
  };
  return { world: { http: { send } } as unknown as SxdWorld, log };
}

const urls = (n: number) => Array.from({ length: n }, (_, i) => `/s${i + 1}`);

test("the reads go out in order, a few at once, and are judged in order", async () => {
  const { world, log } = fakeWorld(5);
  const judged: string[] = [];
  await getEach(world, urls(10), (reply, url) => judged.push(`${url} ${reply.response.status}`));
  assert.deepEqual(log.sent, urls(10));
  assert.ok(log.most > 1 && log.most <= 6, String(log.most));
  assert.deepEqual(
    judged,
    urls(10).map((u) => `${u} 200`),
  );
});

test("the first read in order that fails its check, or got no reply, is the one reported", async () => {
  const { world } = fakeWorld(1);
  const expect200 = (reply: Answered, url: string) => {
    if (reply.response.status !== 200) throw new Error(`${url}: ${reply.response.status}`);
  };
  await assert.rejects(getEach(world, ["/a", "/b-gone", "/c-dead"], expect200), /\/b-gone: 404/);
  await assert.rejects(getEach(world, ["/a", "/c-dead", "/b-gone"], expect200), /no reply from \/c-dead/);
});
