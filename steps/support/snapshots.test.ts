import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { HttpClient } from "./http.ts";
import { type ScratchResource, snapshotUrl, untilServerSecondAfter, versionNumbered } from "./snapshots.ts";
import type { SxdWorld } from "./world.ts";

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

for (const { name, dates, gets } of [
  { name: "asks the server's clock until its second is past Last-Modified", dates: [READ, READ, READ, NEXT], gets: 4 },
  { name: "goes on at once where the server's clock is already past it", dates: [NEXT], gets: 1 },
  { name: "asks once and waits a fixed time where the server sends no Date", dates: [undefined], gets: 1 },
  { name: "asks once and waits a fixed time where the Date is before Last-Modified", dates: [EARLIER], gets: 1 },
]) {
  test(`the wait for a later second ${name}`, async () => {
    const server = await clockServer(dates);
    const http = new HttpClient({ timeoutMs: 5000 });
    try {
      await untilServerSecondAfter({ http } as unknown as SxdWorld, server.url, READ);
      assert.equal(server.asked(), gets);
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
