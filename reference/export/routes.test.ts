// The export behind a rate-limiting gateway: the messaging server's backend request meets 429s
// from a real contacts server (the reference's own, behind a route that refuses first).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ReferenceContext } from "../context.ts";
import type { Reply, Route } from "../http/reply.ts";
import { dispatch, type Listening, listen } from "../http/serve.ts";
import { BACKEND_TRIES } from "./import-store.ts";
import { contactsRoutes, messagingRoutes } from "./routes.ts";

describe("an export whose contacts server is behind a rate limit", () => {
  const gateway = { refuseNext: 0, requests: 0 };
  /** Answers 429 to as many requests as it is told to, and lets the others through. */
  const rateLimit: Route = async () => {
    gateway.requests++;
    if (gateway.refuseNext <= 0) return undefined;
    gateway.refuseNext--;
    return { status: 429, headers: { "retry-after": "0" }, body: "" };
  };
  const context: ReferenceContext = {
    urls: { base: "", contacts: "", messaging: "http://messaging.test" },
    faults: new Set(),
    variant: "standard",
    tokenKey: "a key the two servers share",
  };
  let contacts: Listening;

  before(async () => {
    contacts = await listen([rateLimit, contactsRoutes(context)], { host: "127.0.0.1", port: 0 });
    context.urls.contacts = contacts.boundUrl;
  });
  after(() => contacts.close());

  const send = (routes: Route[], method: string, target: string): Promise<Reply> =>
    dispatch(routes, { method, target, path: target.split("?")[0], headers: {}, body: async () => Buffer.alloc(0) });

  /** POSTs the export link of alice's list (fetched past the gateway) to a messaging server. */
  async function exportAlice(messaging: Route[], refusals: number): Promise<Reply> {
    gateway.refuseNext = 0;
    const list = await send([contactsRoutes(context)], "GET", "/user/alice/contacts");
    const href = /href="([^"]*\/import[^"]*)"/.exec(String(list.body))?.[1];
    assert.ok(href, String(list.body));
    gateway.refuseNext = refusals;
    gateway.requests = 0;
    return send(messaging, "POST", new URL(href.replaceAll("&amp;", "&")).pathname);
  }

  it("exports after a few 429s: 303, and the list is held", async () => {
    const messaging = [messagingRoutes(context)];
    const reply = await exportAlice(messaging, BACKEND_TRIES - 1);
    assert.equal(reply.status, 303, String(reply.body));
    assert.equal(gateway.requests, BACKEND_TRIES);
    const held = await send(messaging, "GET", "/user/alice");
    assert.equal(held.status, 200);
    assert.match(String(held.body), /<name>Bob Marsh<\/name>/);
  });

  it("answers 503 with Retry-After when the 429s do not stop, and holds nothing", async () => {
    const messaging = [messagingRoutes(context)];
    const reply = await exportAlice(messaging, Number.POSITIVE_INFINITY);
    assert.equal(reply.status, 503, String(reply.body));
    assert.equal(reply.headers?.["retry-after"], "1");
    assert.match(String(reply.body), /<error><message>the contacts server answered 429/);
    assert.equal(gateway.requests, BACKEND_TRIES);
    assert.equal((await send(messaging, "GET", "/user/alice")).status, 404);
  });
});
