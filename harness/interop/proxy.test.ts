// The recording proxy of an interop cell, in process against a small server of the test's own:
// a reply body over the limit and a server that never answers are each bounded (502, the
// exchange recorded, the proxy closes), a request body over the limit is refused, a forward
// request to an origin outside the cell is refused without reaching it, and one for the proxy's
// own URL (a client that honours http_proxy) goes to the server. Then which origins a client
// that ignores http_proxy may have reached past sxd.
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { bodyBytes } from "../../lib/body.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { holdProcess } from "../../test/support/hostile.ts";
import { type RecordingProxy, startRecordingProxy } from "./proxy.ts";
import { unseenOrigins } from "./unseen.ts";

const LIMIT = 1000;
/** A body in ISO-8859-1: its è is no UTF-8. */
const LATIN_1 = Buffer.from("<city>Genève</city>", "latin1");
let server: Server;
let outside: Server;
let outsideHits = 0;
let proxy: RecordingProxy;
let serverUrl = "";
let outsideUrl = "";

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const made = createServer(handler);
  await new Promise<void>((resolve) => made.listen(0, "127.0.0.1", resolve));
  const address = made.address();
  return { made, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
};

/** A request as a client sends it to a proxy: the path, or an absolute URL as the request-target. */
function send(path: string, body?: string): Promise<{ status: number; body: string }> {
  const to = new URL(proxy.proxyUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: to.hostname, port: to.port, path, method: body === undefined ? "GET" : "POST", agent: false },
      (reply) => {
        let text = "";
        reply.on("data", (chunk) => {
          text += chunk;
        });
        reply.on("end", () => resolve({ status: reply.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

before(async () => {
  const main = await listen((req, res) => {
    if (req.url === "/big") res.end("x".repeat(LIMIT + 1));
    else if (req.url === "/hang")
      req.resume(); // never answers
    else if (req.url === "/latin-1") res.end(LATIN_1);
    else if (req.url === "/then-held") {
      // Answers, then holds the process (the proxy's too) past the proxy's limit.
      res.end("answered");
      holdProcess(350);
    } else res.end(`ok ${req.headers.host}`);
  });
  server = main.made;
  serverUrl = main.url;
  const other = await listen((_req, res) => {
    outsideHits++;
    res.end("outside");
  });
  outside = other.made;
  outsideUrl = other.url;
  proxy = await startRecordingProxy({ base: serverUrl }, { timeoutMs: 300, maxBodyBytes: LIMIT });
});

after(async () => {
  await proxy.close();
  server.closeAllConnections();
  await Promise.all([server, outside].map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("the interop proxy", () => {
  it("passes a request on with its Host, and records it", async () => {
    proxy.take();
    const reply = await send("/ok");
    assert.deepEqual(reply, { status: 200, body: `ok ${new URL(proxy.proxyUrl).host}` });
    assert.deepEqual(
      proxy.take().map((r) => [r.server, r.method, r.target, r.reply.status]),
      [["base", "GET", "/ok", 200]],
    );
  });

  it("a reply body over the limit is not passed on: 502 with the reason, recorded", async () => {
    proxy.take();
    const reply = await send("/big");
    assert.equal(reply.status, 502);
    assert.match(reply.body, new RegExp(`the reply body is over ${LIMIT} bytes`));
    assert.deepEqual(
      proxy.take().map((r) => r.reply.status),
      [502],
    );
  });

  it("a server that never answers: 502 once the exchange's time is up", async () => {
    const reply = await send("/hang");
    assert.equal(reply.status, 502);
    assert.match(reply.body, /no whole reply within 300 ms/);
  });

  it("a reply that arrived counts, though the process was held up past the limit before reading it", async () => {
    assert.deepEqual(await send("/then-held"), { status: 200, body: "answered" });
  });

  it("a reply body that is not UTF-8 is recorded with its bytes as well as its text", async () => {
    proxy.take();
    await send("/latin-1");
    const [recorded] = proxy.take();
    assert.equal(recorded?.reply.body, "<city>Gen\uFFFDve</city>");
    assert.deepEqual(bodyBytes(recorded?.reply ?? { body: "" }), LATIN_1);
  });

  it("a request body over the limit is refused with 413", async () => {
    const reply = await send("/ok", "y".repeat(LIMIT + 1));
    assert.equal(reply.status, 413);
  });

  it("forwards to no origin outside the cell: 502, and the other server sees nothing", async () => {
    const reply = await send(`${outsideUrl}/secret`);
    assert.equal(reply.status, 502);
    assert.match(reply.body, /is none of this cell's servers/);
    assert.equal(outsideHits, 0);
    // The control: the same absolute form naming the cell's server is forwarded.
    const control = await send(`${serverUrl}/ok`);
    assert.equal(control.status, 200);
  });

  it("a request through http_proxy for the proxy's own URL goes to the server it stands for", async () => {
    proxy.take();
    const reply = await send(`${proxy.urls.base}/ok`);
    assert.equal(reply.status, 200);
    const [recorded] = proxy.take();
    assert.deepEqual([recorded?.server, recorded?.target, recorded?.origin], ["base", "/ok", proxy.proxyUrl]);
  });
});

describe("requests a client may have sent past sxd", () => {
  const real = { base: "http://127.0.0.1:8080", messaging: "http://127.0.0.1:8082" };
  const proxied = { base: "http://127.0.0.1:9080", messaging: "http://127.0.0.1:9082" };
  const exchange = (body: string, more: Partial<RecordedRequest> = {}): RecordedRequest[] => [
    {
      server: "base",
      method: "GET",
      target: "/entries/e1",
      headers: {},
      body: "",
      at: "",
      reply: { status: 200, headers: {}, body },
      ...more,
    },
  ];

  it("a link to a real origin's resource sxd saw no request for, and nothing through http_proxy", () => {
    const body = '<link rel="previous" href="http://127.0.0.1:8080/entries/e1/s2"/>';
    assert.deepEqual(unseenOrigins(exchange(body), real, proxied), ["http://127.0.0.1:8080"]);
    // The client used http_proxy: a link it followed would have been seen.
    assert.deepEqual(unseenOrigins(exchange(body, { origin: "http://127.0.0.1:9080" }), real, proxied), []);
  });

  it("not a link to the resource the client asked sxd for, to the proxy, or to a longer port", () => {
    const self = '<link rel="self" href="http://127.0.0.1:8080/entries/e1"/>';
    assert.deepEqual(unseenOrigins(exchange(self), real, proxied), []);
    const onProxy = '<link rel="previous" href="http://127.0.0.1:9080/entries/e1/s2"/>';
    assert.deepEqual(unseenOrigins(exchange(onProxy), real, proxied), []);
    const longer = '<link rel="previous" href="http://127.0.0.1:80800/entries/e1/s2"/>';
    assert.deepEqual(unseenOrigins(exchange(longer), real, proxied), []);
  });

  it("the links of a PUT's reply are not ones a client follows", () => {
    const body = '<link rel="previous" href="http://127.0.0.1:8080/entries/e1/s2"/>';
    assert.deepEqual(unseenOrigins(exchange(body, { method: "PUT" }), real, proxied), []);
  });

  it("a Location to a real origin counts as a link", () => {
    const redirected = exchange("", {
      reply: { status: 303, headers: { location: "http://127.0.0.1:8082/user/alice" }, body: "" },
    });
    assert.deepEqual(unseenOrigins(redirected, real, proxied), ["http://127.0.0.1:8082"]);
  });
});
