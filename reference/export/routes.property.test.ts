// The messaging server in process (no socket), over thousands of generated import paths and
// uploads a run (fast-check): never a 5xx, and no export without the token minted for its user.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { ReferenceContext } from "../context.ts";
import type { Reply } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { messagingRoutes, tokenKeyOf } from "./routes.ts";
import { mintToken, TOKEN_LIFETIME_SECONDS } from "./token.ts";

const RUNS = 3000;
// Nothing listens there: an export that got through would fetch, fail and answer 502, which fails the property.
const context: ReferenceContext = {
  urls: { base: "", contacts: "http://127.0.0.1:1", messaging: "http://messaging.test" },
  faults: new Set(),
  variant: "standard",
  tokenKey: "the key of this test",
};
const routes = [messagingRoutes(context)];
const send = (method: string, target: string, headers: Record<string, string> = {}, body = ""): Promise<Reply> =>
  dispatch(routes, { method, target, path: target.split("?")[0], headers, body: async () => Buffer.from(body) });

const pathText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("/", ";", "t=", "%", "%2F", "%00", "?", ".", "..", "alice", "bob", "import", "contacts"),
    fc.string({ unit: "grapheme-ascii", maxLength: 2 }),
  ),
  maxLength: 16,
});

test("an import path, user or token a client makes up gets neither a 5xx nor an export", async () => {
  await fc.assert(
    fc.asyncProperty(pathText, pathText, fc.constantFrom("POST", "GET", "PUT"), async (user, token, method) => {
      for (const target of [`/user/${user}/import;t=${token}`, `/user/alice/import;t=${token}`, `/user/${user}`]) {
        const reply = await send(method, target);
        assert.ok(reply.status < 500 && reply.status !== 303, `${method} ${target}: ${reply.status} ${reply.body}`);
      }
    }),
    // Three requests a run.
    { numRuns: RUNS / 2 },
  );
});

test("alice's token works only for alice, and with one character changed, not at all", async () => {
  const expiresAt = Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS;
  const token = mintToken(tokenKeyOf(context), "alice", expiresAt, "standard");
  // The right token passes the check, and meets the contacts server nobody runs.
  assert.equal((await send("POST", `/user/alice/import;t=${token}`)).status, 502);
  const change = fc.record({
    at: fc.nat(),
    replacement: fc.oneof(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 2 }), fc.constant("")),
    user: fc.constantFrom("alice", "bob", "Alice", "alice%20", "ALICE"),
  });
  await fc.assert(
    fc.asyncProperty(change, async ({ at, replacement, user }) => {
      const position = at % (token.length + 1);
      const changed = token.slice(0, position) + replacement + token.slice(position + 1);
      fc.pre(changed !== token || user !== "alice");
      const reply = await send("POST", `/user/${user}/import;t=${encodeURIComponent(changed)}`);
      assert.ok(reply.status < 500 && reply.status !== 303, `${user} ${changed}: ${reply.status} ${reply.body}`);
    }),
    // An HMAC a run.
    { numRuns: RUNS / 2 },
  );
});

test("no upload, whatever its Content-Type and body, gets a 5xx", async () => {
  const body = fc.oneof(
    fc.string({ unit: "grapheme-ascii", maxLength: 60 }),
    fc
      .tuple(fc.string({ unit: "grapheme", maxLength: 12 }), fc.nat(), fc.string({ maxLength: 4 }))
      .map(([name, at, splice]) => {
        const list = `<contacts><contact><name>${name}</name></contact></contacts>`;
        const start = at % (list.length + 1);
        return list.slice(0, start) + splice + list.slice(start);
      }),
  );
  const type = fc.constantFrom("application/xml", "text/xml;charset=UTF-8", "application/atom+xml", "text/plain", "");
  await fc.assert(
    fc.asyncProperty(pathText, type, body, async (user, contentType, text) => {
      const reply = await send("POST", `/user/${user}/contacts`, { "content-type": contentType }, text);
      assert.ok(reply.status < 500, `${user} ${contentType} ${JSON.stringify(text)}: ${reply.status} ${reply.body}`);
    }),
    { numRuns: RUNS },
  );
});
