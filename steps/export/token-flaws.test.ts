import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { signedJwt } from "../../lib/jwt.ts";
import { bytesOf, percentEncoded, textOfBytes } from "../../lib/percent.ts";
import { type ForgeryKind, forgeriesOf } from "../../lib/token-forgeries.ts";
import { isWellFormedUri } from "../../lib/uri.ts";
import { TOKEN_FLAWS, tokenOf, withToken } from "./token-flaws.ts";

const users = { user: "rosa-k", otherUser: "lin" };
const link = (token: string, parameter = ";") => `http://127.0.0.1:19112/user/rosa-k/import${parameter}t=${token}`;
const mac = createHmac("sha256", "k").update("rosa-k").digest();
const KINDS: ForgeryKind[] = [
  "other-user",
  "number-up",
  "number-down",
  "jwt-alg-none",
  "jwt-unsigned",
  "jwt-other-subject",
  "jwt-later-expiry",
  "tail-cut",
];

/** Every link EXP-6 sends for a served one: each flaw, and each forgery of what its token shows. */
function flawedLinks(href: string): string[] {
  const flawed = Object.values(TOKEN_FLAWS).map((flaw) => flaw({ href, ...users }));
  const forged = KINDS.flatMap((kind) => forgeriesOf(kind, tokenOf(href), users)).map((forgery) => {
    const url = withToken(href, () => forgery.token);
    assert.equal(tokenOf(url), forgery.token, "the forged link carries the forgery, as meant");
    return url;
  });
  return [...flawed.flatMap((f) => ("url" in f ? [f.url] : [])), ...forged];
}

const SERVED = {
  "base64 with its / and = escaped": link("m2%2Fdq0bZT2yQ%2Bk%3D%3D.NORS2DNSk9%2F%3D%3D"),
  "user, expiry and a hex MAC, escaped": link(`rosa-k%7C1796664198%7C${mac.toString("hex")}`),
  "user, expiry and the MAC's raw bytes, escaped": link(
    percentEncoded(`rosa-k|1796664198|${textOfBytes(mac)}`).replace(/%([0-9A-F]{2})/g, (e) => e.toLowerCase()),
  ),
  "a JWT": link(signedJwt({ sub: "rosa-k", exp: 1796664198 }, "k")),
  "a token in a query": link("a%2Bb%3D", "?"),
  "the reference's own": link("1kx2ab.Zk2lQ0xv8pX_aRt-3mN0cVbW1yH7uJ4sE6dF9gT2hA5"),
};

test("every flawed and forged link is a well-formed URI: no escape broken, nothing left unescaped", () => {
  for (const [shape, href] of Object.entries(SERVED)) {
    const links = flawedLinks(href);
    assert.ok(links.length >= 6, shape);
    for (const url of links) assert.ok(isWellFormedUri(url), `${shape}: ${url}`);
  }
});

test("a forged token of its shape changes the letters and digits the token means, not its escapes", () => {
  const href = SERVED["base64 with its / and = escaped"];
  const forged = TOKEN_FLAWS["a forged token of its shape"]({ href, ...users });
  assert.ok("url" in forged);
  assert.match(forged.url, /;t=[A-Za-z0-9]+%2F[A-Za-z0-9]+%2B[A-Za-z0-9]+%3D%3D\.[A-Za-z0-9]+%2F%3D%3D$/);
  assert.notEqual(tokenOf(forged.url), tokenOf(href));
});

test("the expiry that a user|expiry|MAC token shows is forged on its decoded text, the MAC's bytes kept", () => {
  const href = SERVED["user, expiry and the MAC's raw bytes, escaped"];
  const [up] = forgeriesOf("number-up", tokenOf(href), users);
  assert.equal(up.detail, 'the part "1796664198": 1796664198 → 1796664199');
  const url = withToken(href, () => up.token);
  assert.deepEqual(bytesOf(tokenOf(url)), Buffer.concat([Buffer.from("rosa-k|1796664199|"), mac]));
  assert.match(url, /;t=rosa-k%7c1796664199%7c/, "escaped as the served link escapes, in its case");
});

test("whatever bytes a served token holds, every link made from it is a URI", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 48 }), fc.constantFrom(";", "?"), (bytes, at) => {
      for (const url of flawedLinks(link(percentEncoded(`rosa-k|1796664198|${textOfBytes(bytes)}`), at)))
        assert.ok(isWellFormedUri(url), url);
    }),
    { numRuns: 200 },
  );
  assert.ok(flawedLinks(link(percentEncoded(textOfBytes(randomBytes(24))))).every(isWellFormedUri));
});
