/**
 * The example client's HTTP (examples/clients/node/wire.mjs) does what the client relied on
 * fetch for: a body counted, a header sent twice read as fetch reads it, and redirects followed
 * as fetch follows them (a 303 becomes a GET without the body, a 307 sends the same again,
 * credentials stay behind on another origin, `redirect: "manual"` stops), with an end to them.
 * The client rows check the rest against sxd's servers (client-digest, client-export).
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
// @ts-expect-error: the example client is JavaScript, without declarations
import { wire as untyped } from "../examples/clients/node/wire.mjs";

interface Reply {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}
const wire = untyped as {
  send(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string; redirect?: "manual" },
  ): Promise<Reply>;
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A server that answers by `route`, keeping what each request was. */
async function server(
  route: (seen: Seen, reply: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[]; close: () => Promise<void>; server: Server }> {
  const seen: Seen[] = [];
  const s = createServer((request, reply) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const one = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
      seen.push(one);
      route(one, reply);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    server: s,
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

const redirect = (reply: ServerResponse, status: number, location: string) => {
  reply.writeHead(status, { location });
  reply.end();
};

describe("the example client's HTTP", () => {
  let here: Awaited<ReturnType<typeof server>>;
  let other: Awaited<ReturnType<typeof server>>;

  before(async () => {
    other = await server((seen, reply) => reply.end(`other ${seen.method}`));
    here = await server((seen, reply) => {
      const path = seen.url;
      if (path === "/303") return redirect(reply, 303, "/done");
      if (path === "/307") return redirect(reply, 307, "/done");
      if (path === "/302") return redirect(reply, 302, "/done");
      if (path === "/away") return redirect(reply, 302, `${other.url}/there`);
      if (path === "/loop") return redirect(reply, 302, "/loop");
      if (path === "/twice") {
        reply.setHeader("www-authenticate", ['Digest realm="a"', 'Digest realm="b"']);
        reply.statusCode = 401;
        return reply.end("no");
      }
      reply.end(`${seen.method} ${seen.body}`);
    });
  });

  after(async () => {
    here.server.closeAllConnections();
    other.server.closeAllConnections();
    await Promise.all([here.close(), other.close()]);
  });

  test("a body goes with its length; a header sent twice reads as fetch's Headers reads it", async () => {
    const reply = await wire.send(`${here.url}/echo`, { method: "POST", body: "héllo" });
    assert.deepEqual([reply.status, reply.ok, await reply.text()], [200, true, "POST héllo"]);
    assert.equal(here.seen.at(-1)?.headers["content-length"], "6");
    const refused = await wire.send(`${here.url}/twice`);
    assert.deepEqual([refused.status, refused.ok], [401, false]);
    assert.equal(refused.headers.get("WWW-Authenticate"), 'Digest realm="a", Digest realm="b"');
    assert.equal(refused.headers.get("x-not-sent"), null);
  });

  test("a 303 becomes a GET without the body; a 302 to a POST too; a 307 sends the same again", async () => {
    const post = { method: "POST", headers: { "content-type": "text/plain", authorization: "Digest x" }, body: "b" };
    assert.equal(await (await wire.send(`${here.url}/303`, post)).text(), "GET ");
    const afterSeeOther = here.seen.at(-1);
    assert.equal(afterSeeOther?.headers["content-type"], undefined);
    assert.equal(afterSeeOther?.headers.authorization, "Digest x", "credentials follow on the same origin");
    assert.equal(await (await wire.send(`${here.url}/302`, post)).text(), "GET ");
    assert.equal(await (await wire.send(`${here.url}/307`, post)).text(), "POST b");
    assert.equal(here.seen.at(-1)?.headers["content-type"], "text/plain");
  });

  test("credentials stay behind on another origin; manual stops at the redirect; a loop ends", async () => {
    const reply = await wire.send(`${here.url}/away`, { headers: { authorization: "Digest x", accept: "text/plain" } });
    assert.equal(await reply.text(), "other GET");
    assert.equal(other.seen.at(-1)?.headers.authorization, undefined);
    assert.equal(other.seen.at(-1)?.headers.accept, "text/plain");
    const manual = await wire.send(`${here.url}/303`, { method: "POST", redirect: "manual" });
    assert.deepEqual([manual.status, manual.headers.get("location")], [303, "/done"]);
    await assert.rejects(wire.send(`${here.url}/loop`), /more than 20 redirects/);
  });
});
