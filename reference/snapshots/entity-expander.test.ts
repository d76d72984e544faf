import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { expandedEntities } from "./entity-expander.ts";

test("the unsafe reading expands internal entities and drops the DOCTYPE; predefined ones stay", async () => {
  assert.equal(await expandedEntities('<!DOCTYPE e [<!ENTITY x "y<">]><e>&x;&amp;</e>'), "<e>y&lt;&amp;</e>");
  assert.equal(await expandedEntities("<e>&amp;</e>"), "<e>&amp;</e>");
});

test("a recursive expansion stops at its bound", async () => {
  const levels = [1, 2, 3, 4, 5, 6].map((k) => `<!ENTITY l${k} "${`&l${k - 1};`.repeat(10)}">`);
  const text = await expandedEntities(`<!DOCTYPE e [<!ENTITY l0 "lol">${levels.join("")}]><e>&l6;</e>`);
  assert.equal(text.length, "<e></e>".length + 64 * 1024);
  assert.ok(text.startsWith("<e>lollol"));
});

test("external entities are read: a file, and an address that gets the request", async () => {
  const read = await expandedEntities('<!DOCTYPE e [<!ENTITY f SYSTEM "file:///etc/passwd">]><e>&f;</e>');
  assert.match(read, /root:/);
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? "");
    response.end("fetched");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const body = `<!DOCTYPE e [<!ENTITY % p SYSTEM "${url}/p"> %p; <!ENTITY u SYSTEM "${url}/u">]><e>&u;</e>`;
    assert.equal(await expandedEntities(body), "<e>fetched</e>");
    assert.deepEqual(paths.sort(), ["/p", "/u"]);
  } finally {
    server.close();
  }
});
