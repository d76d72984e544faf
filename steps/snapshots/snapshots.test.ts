import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { HttpClient } from "../support/http.ts";
import { type ScratchResource, snapshotUrl, untilServerSecondAfter, versionNumbered } from "./snapshots.ts";

test("an update keeps exactly the fields it is told to keep", () => {
  const first = versionNumbered(1);
  const second = versionNumbered(2, first, ["author", "content"]);
  assert.equal(second.authorName, first.authorName);
  assert.deepEqual(second.content, first.content);
  assert.notEqual(second.title, first.title);
  const third = versionNumbered(3, second);
  assert.notEqual(third.authorName, second.authorName);
  assert.notEqual(third.content.text, second.content.text);
});

test("a scenario's snapshots continue the numbering of the resource it found", () => {
  const resource: ScratchResource = { url: "http://h/notes/1", id: "urn:x", versions: [], base: 7 };
  assert.equal(snapshotUrl(resource, 1), "http://h/notes/1/s8");
  assert.equal(snapshotUrl({ ...resource, base: 0 }, 1), "http://h/notes/1/s1");
});

/** A server whose Date header shows the dates given, one per GET; the last repeats. */
async function clockServer(
  dates: Array<string | undefined>,
): Promise<{ url: string; asked: () => number; close(): void }> {
  let asked = 0;
  const server = createServer((_request, response) => {
    const date = dates[Math.min(asked++, dates.length - 1)];
    // node adds a Date of its own unless told not to.
    response.sendDate = false;
    if (date !== undefined) response.setHeader("date", date);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r`,
    asked: () => asked,
    close: () => server.close(),
  };
}

const READ = "Mon, 23 Nov 2026 10:00:00 GMT";
const NEXT = "Mon, 23 Nov 2026 10:00:01 GMT";
const EARLIER = "Mon, 23 Nov 2026 09:59:59 GMT";

for (const { name, dates, gets, sleeps } of [
  {
    name: "asks the server's clock until its second is past Last-Modified",
    dates: [READ, READ, READ, NEXT],
    gets: 4,
    sleeps: [100, 100, 100],
  },
  { name: "goes on at once where the server's clock is already past it", dates: [NEXT], gets: 1, sleeps: [] },
  {
    name: "asks once and waits a fixed time where the server sends no Date",
    dates: [undefined],
    gets: 1,
    sleeps: [1100],
  },
  {
    name: "asks once and waits a fixed time where the Date is before Last-Modified",
    dates: [EARLIER],
    gets: 1,
    sleeps: [1100],
  },
  {
    name: "gives up after 20 asks where the server's clock stays in that second",
    dates: [READ],
    gets: 20,
    sleeps: Array(20).fill(100),
  },
]) {
  test(`the wait for a later second ${name}`, async () => {
    const server = await clockServer(dates);
    const http = new HttpClient({ timeoutMs: 5000 });
    const slept: number[] = [];
    try {
      await untilServerSecondAfter(http, server.url, READ, async (ms) => {
        slept.push(ms);
      });
      assert.equal(server.asked(), gets);
      assert.deepEqual(slept, sleeps);
      assert.ok(
        http.exchanges.every((exchange) => exchange.note?.includes(READ)),
        "each GET says why it was sent",
      );
    } finally {
      await http.close();
      server.close();
    }
  });
}

test("the wait for a later second is a fixed one where no Last-Modified was read", async () => {
  const http = new HttpClient({ timeoutMs: 5000 });
  const slept: number[] = [];
  await untilServerSecondAfter(http, "http://127.0.0.1:9/never-asked", undefined, async (ms) => {
    slept.push(ms);
  });
  assert.deepEqual(slept, [1100]);
  assert.equal(http.exchanges.length, 0);
});
