import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { formatParams, parseChallenges, parseParamList } from "../../lib/auth-params.ts";
import {
  type Algorithm,
  formatNc,
  hashA1,
  hashOf,
  type Qop,
  responseDigest,
  rspauthDigest,
} from "../../lib/digest-math.ts";
import type { ReferenceContext } from "../context.ts";
import type { FaultName } from "../faults.ts";
import type { Reply, ServerRequest } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { DEMO_USER, digestRoutes, pathPrefix, REALM } from "./routes.ts";

function server(
  variant: ReferenceContext["variant"] = "standard",
  faults: FaultName[] = [],
  more: Partial<ReferenceContext> = {},
) {
  const route = digestRoutes({
    urls: { base: "http://x", contacts: "", messaging: "" },
    faults: new Set(faults),
    variant,
    ...more,
  });
  return (authorization?: string, target = "/protected", body = "", method = "GET") => {
    const request: ServerRequest = {
      method,
      target,
      path: target.split("?")[0],
      headers: authorization ? { authorization } : {},
      body: async () => Buffer.from(body),
    };
    return dispatch([route], request);
  };
}

function challengeOf(reply: Reply) {
  const field = reply.headers?.["www-authenticate"];
  const parsed = parseChallenges(Array.isArray(field) ? field : String(field));
  assert.ok(parsed.ok);
  return parsed.value;
}

interface Answer {
  algorithm?: Algorithm;
  qop?: Qop;
  password?: string;
  nc?: string;
  uri?: string;
  body?: string;
  method?: string;
}

function answer(challenge: Reply, options: Answer = {}) {
  const [first] = challengeOf(challenge);
  const algorithm = options.algorithm ?? "SHA-256";
  const input = {
    algorithm,
    ha1: hashA1(hashOf(algorithm), DEMO_USER.username, REALM, options.password ?? DEMO_USER.password),
    nonce: first.params.get("nonce") ?? "",
    method: options.method ?? "GET",
    uri: options.uri ?? "/protected",
    qop: options.qop ?? "auth",
    nc: options.nc ?? "00000001",
    cnonce: "c0ffee",
    body: options.body,
  };
  const directives = [
    ["username", DEMO_USER.username],
    ["realm", REALM],
    ["nonce", input.nonce],
    ["uri", input.uri],
    ["algorithm", algorithm],
    ["response", responseDigest(input)],
    ["qop", input.qop],
    ["nc", input.nc],
    ["cnonce", input.cnonce],
    ["opaque", first.params.get("opaque") ?? ""],
  ].map(([name, value]) => ({ name, value, quoted: false }));
  return { header: `Digest ${formatParams(directives)}`, input };
}

describe("the digest-protected resource", () => {
  it("challenges with SHA-256 then MD5, one nonce, and the XML error body", async () => {
    const reply = await server()();
    assert.equal(reply.status, 401);
    const challenges = challengeOf(reply);
    assert.deepEqual(
      challenges.map((c) => c.params.get("algorithm")),
      ["SHA-256", "MD5"],
    );
    assert.equal(challenges[0].params.get("qop"), "auth, auth-int");
    assert.equal(challenges[0].params.get("nonce"), challenges[1].params.get("nonce"));
    assert.match(String(reply.body), /<error><message>/);
  });

  it("refuses an algorithm it did not offer, even of a hash it offers", async () => {
    const ask = server();
    const { header } = answer(await ask(), { algorithm: "MD5-sess" });
    assert.equal((await ask(header)).status, 400);
  });

  it("grants every algorithm offered and qop, with an Authentication-Info that proves the server over its reply", async () => {
    const ask = server();
    for (const algorithm of ["SHA-256", "MD5"] as const) {
      for (const qop of ["auth", "auth-int"] as const) {
        const { header, input } = answer(await ask(), { algorithm, qop, body: "<x/>" });
        const reply = await ask(header, "/protected", "<x/>");
        assert.equal(reply.status, 200, `${algorithm} ${qop}`);
        const info = parseParamList(String(reply.headers?.["authentication-info"]));
        assert.ok(info.ok);
        // auth-int's rspauth covers the reply's body, which is not the one sent.
        assert.equal(info.value.get("rspauth"), rspauthDigest(input, String(reply.body)));
        if (qop === "auth-int") assert.notEqual(info.value.get("rspauth"), rspauthDigest(input, "<x/>"));
        assert.equal(info.value.get("nc"), "00000001");
        assert.ok(info.value.get("nextnonce"));
      }
    }
  });

  it("hands out the next nonce only where the one used is spent: every time with one-time nonces, not with reused ones", async () => {
    for (const { policy, nextnonce } of [
      { policy: "one-time", nextnonce: [true] },
      { policy: "unlimited", nextnonce: [false, false, false] },
      { policy: { uses: 2 }, nextnonce: [false, true] },
    ] as const) {
      const ask = server("standard", [], { noncePolicy: policy });
      const challenge = await ask();
      const given = [];
      for (let nc = 1; nc <= nextnonce.length; nc++) {
        const reply = await ask(answer(challenge, { nc: formatNc(nc) }).header);
        assert.equal(reply.status, 200, `${JSON.stringify(policy)}, use ${nc}`);
        const info = parseParamList(String(reply.headers?.["authentication-info"]));
        assert.ok(info.ok);
        given.push(info.value.has("nextnonce"));
      }
      assert.deepEqual(given, nextnonce, JSON.stringify(policy));
    }
  });

  it("refuses a wrong secret with a fresh challenge, and a spent nonce with stale=true", async () => {
    const ask = server();
    const challenge = await ask();
    const wrong = await ask(answer(challenge, { password: "nope" }).header);
    assert.equal(wrong.status, 401);
    assert.equal(challengeOf(wrong)[0].params.get("stale"), undefined);
    assert.equal((await ask(answer(challenge).header)).status, 200);
    const again = await ask(answer(challenge, { nc: "00000002" }).header);
    assert.equal(again.status, 401);
    assert.equal(challengeOf(again)[0].params.get("stale"), "true");
  });

  it("takes POST as it takes GET: the digest covers the method, and auth-int the body posted", async () => {
    const ask = server();
    const posted = answer(await ask(), { qop: "auth-int", body: "<note/>", method: "POST" });
    assert.equal((await ask(posted.header, "/protected", "<note/>", "POST")).status, 200);
    const forGet = answer(await ask(), { qop: "auth-int", body: "<note/>" });
    assert.equal((await ask(forGet.header, "/protected", "<note/>", "POST")).status, 401);
    assert.equal((await ask(undefined, "/protected", "", "DELETE")).status, 405);
  });

  it("refuses a changed auth-int body", async () => {
    const ask = server();
    const { header } = answer(await ask(), { qop: "auth-int", body: "<a/>" });
    assert.equal((await ask(header, "/protected", "<b/>")).status, 401);
  });

  it("answers malformed credentials with 400; the alternative with 401, except a uri mismatch", async () => {
    for (const [variant, malformed] of [
      ["standard", 400],
      ["alternative", 401],
    ] as const) {
      const ask = server(variant);
      const { header } = answer(await ask(), { algorithm: "MD5", nc: "1" });
      assert.equal((await ask(header)).status, malformed, variant);
      const elsewhere = answer(await ask(), { algorithm: "MD5", uri: "/protected?x" }).header;
      assert.equal((await ask(elsewhere)).status, 400, variant);
      assert.equal((await ask('Digest username="unterminated')).status, malformed, variant);
    }
  });

  it("offers only MD5 and auth in the alternative variant", async () => {
    const challenges = challengeOf(await server("alternative")());
    assert.equal(challenges.length, 1);
    assert.equal(challenges[0].params.get("algorithm"), "MD5");
    assert.equal(challenges[0].params.get("qop"), "auth");
    assert.equal(challenges[0].params.get("opaque"), undefined);
  });

  it("offers the hashes and qop values it is told to, in that order", async () => {
    const challenges = challengeOf(
      await server("standard", [], { digestHashes: ["MD5", "SHA-256"], digestQops: ["auth"] })(),
    );
    assert.deepEqual(
      challenges.map((c) => c.params.get("algorithm")),
      ["MD5", "SHA-256"],
    );
    assert.equal(challenges[0].params.get("qop"), "auth");
  });

  it("offers only the hashes every user of the users file has, and refuses to offer others", () => {
    const dir = mkdtempSync(join(tmpdir(), "sxd-users-"));
    const md5Only = join(dir, "md5.htdigest");
    writeFileSync(md5Only, `alice:${REALM}:${hashA1("MD5", "alice", REALM, "pw")}\n`);
    const ask = server("standard", [], { digestUsersFile: md5Only });
    return ask().then((reply) => {
      assert.deepEqual(
        challengeOf(reply).map((c) => c.params.get("algorithm")),
        ["MD5"],
      );
      assert.throws(() => server("standard", [], { digestUsersFile: md5Only, digestHashes: ["SHA-256"] }), /SHA-256/);
      const shaOnly = join(dir, "sha.htdigest");
      writeFileSync(shaOnly, `alice:${REALM}:${hashA1("MD5", "alice", REALM, "pw")}\nbob:${REALM}:${"a".repeat(64)}\n`);
      assert.throws(() => server("standard", [], { digestUsersFile: shaOnly }), /no hash is stored for every user/);
      const broken = join(dir, "broken.htdigest");
      writeFileSync(broken, "alice\n");
      assert.throws(() => server("standard", [], { digestUsersFile: broken }), /line 1/);
    });
  });

  it("compares the uri with the target as the client sent it, behind a proxy that strips a path prefix", async () => {
    const ask = server("standard", [], { urls: { base: "http://proxy.test/api/", contacts: "", messaging: "" } });
    const { header } = answer(await ask(), { uri: "/api/protected" });
    assert.equal((await ask(header)).status, 200);
    const unprefixed = answer(await ask()).header;
    assert.equal((await ask(unprefixed)).status, 400);
    assert.equal(pathPrefix("http://host"), "");
    assert.equal(pathPrefix("http://host/a/b/"), "/a/b");
    assert.equal(pathPrefix("not a url"), "");
  });

  it("ignores other paths", async () => {
    const route = digestRoutes({
      urls: { base: "", contacts: "", messaging: "" },
      faults: new Set(),
      variant: "standard",
    });
    const request: ServerRequest = {
      method: "GET",
      target: "/x",
      path: "/x",
      headers: {},
      body: async () => Buffer.alloc(0),
    };
    assert.equal(await route(request), undefined);
  });
});
