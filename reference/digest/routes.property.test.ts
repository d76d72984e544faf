// The digest-protected resource in process (no socket), over thousands of generated
// Authorization headers a run (fast-check): never a 5xx, never access without the secret.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type Directive, formatParams, parseChallenges } from "../../lib/auth-params.ts";
import { hashA1, hashOf, responseDigest } from "../../lib/digest-math.ts";
import type { Reply } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { DEMO_USER, digestRoutes, REALM } from "./routes.ts";

const RUNS = 2000;
const route = digestRoutes({
  urls: { base: "http://x", contacts: "", messaging: "" },
  faults: new Set(),
  variant: "standard",
});
const ask = (authorization?: string): Promise<Reply> =>
  dispatch([route], {
    method: "GET",
    target: "/protected",
    path: "/protected",
    headers: authorization === undefined ? {} : { authorization },
    body: async () => Buffer.alloc(0),
  });

/** The directives of a correct answer to a fresh challenge (SHA-256, qop auth). */
async function rightAnswer(): Promise<Directive[]> {
  const challenge = await ask();
  const field = challenge.headers?.["www-authenticate"] ?? [];
  const parsed = parseChallenges(field);
  assert.ok(parsed.ok);
  const params = parsed.value[0].params;
  const nonce = params.get("nonce") ?? "";
  const ha1 = hashA1(hashOf("SHA-256"), DEMO_USER.username, REALM, DEMO_USER.password);
  const base = { algorithm: "SHA-256" as const, ha1, nonce, method: "GET", uri: "/protected", qop: "auth" as const };
  const response = responseDigest({ ...base, nc: "00000001", cnonce: "c0ffee" });
  return Object.entries({
    username: DEMO_USER.username,
    realm: REALM,
    nonce,
    uri: "/protected",
    algorithm: "SHA-256",
    response,
    qop: "auth",
    nc: "00000001",
    cnonce: "c0ffee",
    opaque: params.get("opaque") ?? "",
  }).map(([name, value]) => ({ name, value, quoted: !["algorithm", "qop", "nc"].includes(name) }));
}

const headerText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("Digest ", "Basic ", ", ", "=", '"', "\\", "username=", 'nonce="', "uri=/protected", "response="),
    fc.string({ unit: "grapheme-ascii", maxLength: 3 }),
    fc.string({ unit: "binary", maxLength: 2 }),
  ),
  maxLength: 30,
});

test("a malformed Authorization header gets 400 or 401: never a 5xx, never access", async () => {
  await fc.assert(
    fc.asyncProperty(headerText, async (header) => {
      const reply = await ask(header);
      assert.ok(reply.status === 400 || reply.status === 401, `${JSON.stringify(header)}: ${reply.status}`);
    }),
    { numRuns: RUNS },
  );
});

test("the right answer gets in, and the same answer with one character of one directive changed never does", async () => {
  const granted = await ask(`Digest ${formatParams(await rightAnswer())}`);
  assert.equal(granted.status, 200, String(granted.body));
  const change = fc.record({
    directive: fc.nat(),
    at: fc.nat(),
    replacement: fc.oneof(
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 2 }),
      fc.constantFrom('"', "\\", ",", ""),
    ),
  });
  await fc.assert(
    fc.asyncProperty(change, async ({ directive, at, replacement }) => {
      const directives = await rightAnswer();
      const target = directives[directive % directives.length];
      const position = at % (target.value.length + 1);
      const changed = target.value.slice(0, position) + replacement + target.value.slice(position + 1);
      // Directive values compare case-insensitively where the RFC says so (algorithm, qop, hex).
      fc.pre(changed.toLowerCase() !== target.value.toLowerCase());
      target.value = changed;
      const reply = await ask(`Digest ${formatParams(directives)}`);
      assert.ok(
        reply.status === 400 || reply.status === 401,
        `${target.name}=${JSON.stringify(changed)}: ${reply.status}`,
      );
    }),
    // Two requests and two digests a run.
    { numRuns: RUNS / 2 },
  );
});
