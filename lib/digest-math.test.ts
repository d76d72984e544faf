import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import {
  formatNc,
  hashA1,
  hashUsername,
  parseAlgorithm,
  type ResponseInput,
  responseDigest,
  rspauthDigest,
} from "./digest-math.ts";

// RFC 7616 §3.9.1. (The §3.9.2 SHA-512-256 example is left out: its published numbers do not reproduce.)
const rfc7616 = {
  nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
  method: "GET",
  uri: "/dir/index.html",
  qop: "auth",
  nc: "00000001",
  cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
} as const;

describe("responseDigest", () => {
  it("reproduces RFC 2617 §3.5 (MD5, qop=auth)", () => {
    const response = responseDigest({
      algorithm: "MD5",
      ha1: hashA1("MD5", "Mufasa", "testrealm@host.com", "Circle Of Life"),
      nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
      method: "GET",
      uri: "/dir/index.html",
      qop: "auth",
      nc: "00000001",
      cnonce: "0a4f113b",
    });
    assert.equal(response, "6629fae49393a05397450978507c4ef1");
  });

  it("reproduces RFC 7616 §3.9.1 with MD5 and with SHA-256", () => {
    const realm = "http-auth@example.org";
    const md5 = responseDigest({ ...rfc7616, algorithm: "MD5", ha1: hashA1("MD5", "Mufasa", realm, "Circle of Life") });
    const sha = responseDigest({
      ...rfc7616,
      algorithm: "SHA-256",
      ha1: hashA1("SHA-256", "Mufasa", realm, "Circle of Life"),
    });
    assert.equal(md5, "8ca523f5e9506fed4657c9700eebdbec");
    assert.equal(sha, "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1");
  });

  it("covers the body with auth-int, the cnonce with -sess, and leaves nc and cnonce out without qop", () => {
    const base: ResponseInput = { ...rfc7616, algorithm: "MD5", ha1: hashA1("MD5", "u", "r", "p") };
    const intOf = (body: string) => responseDigest({ ...base, qop: "auth-int", body });
    assert.notEqual(intOf("a"), intOf("b"));
    assert.equal(intOf(""), responseDigest({ ...base, qop: "auth-int" }));
    const sess = (cnonce: string) => responseDigest({ ...base, algorithm: "MD5-sess", cnonce });
    assert.notEqual(sess("x"), sess("y"));
    const legacy = { ...base, qop: undefined, nc: undefined, cnonce: undefined };
    assert.equal(responseDigest(legacy), responseDigest({ ...legacy, nc: "00000009", cnonce: "z" }));
  });

  it("computes SPEC.md's literal formula, which leaves nc, cnonce, qop and the body out", () => {
    const ha1 = hashA1("MD5", "u", "r", "p");
    const spec: ResponseInput = { ...rfc7616, algorithm: "MD5", ha1, formula: "spec" };
    const ha2 = createHash("md5").update("GET:/dir/index.html").digest("hex");
    const expected = createHash("md5").update(`${ha1}:${rfc7616.nonce}:${ha2}`).digest("hex");
    assert.equal(responseDigest(spec), expected);
    assert.equal(responseDigest({ ...spec, qop: "auth-int", nc: "00000002", cnonce: "z", body: "b" }), expected);
    assert.notEqual(responseDigest({ ...spec, formula: "rfc7616" }), expected);
    assert.equal(rspauthDigest(spec, "<reply/>"), responseDigest({ ...spec, method: "" }));
  });

  it("computes rspauth with an empty method in A2", () => {
    const input: ResponseInput = { ...rfc7616, algorithm: "SHA-256", ha1: "00" };
    assert.equal(rspauthDigest(input, "<reply/>"), responseDigest({ ...input, method: "" }));
    assert.notEqual(rspauthDigest(input, ""), responseDigest(input));
  });

  it("computes auth-int's rspauth over the reply's body, not the request's (RFC 2617 §3.2.3)", () => {
    const md5 = (text: string) => createHash("md5").update(text).digest("hex");
    const ha1 = hashA1("MD5", "Mufasa", "testrealm@host.com", "Circle Of Life");
    const input: ResponseInput = {
      algorithm: "MD5",
      ha1,
      nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
      method: "POST",
      uri: "/dir/index.html",
      qop: "auth-int",
      nc: "00000001",
      cnonce: "0a4f113b",
      body: "<sent/>",
    };
    const ha2 = md5(`:/dir/index.html:${md5("<reply/>")}`);
    const expected = md5(`${ha1}:${input.nonce}:00000001:0a4f113b:auth-int:${ha2}`);
    assert.equal(rspauthDigest(input, "<reply/>"), expected);
    assert.equal(rspauthDigest({ ...input, body: "<other/>" }, Buffer.from("<reply/>")), expected);
    assert.notEqual(rspauthDigest(input, "<sent/>"), expected);
    const auth: ResponseInput = { ...input, qop: "auth" };
    assert.equal(rspauthDigest(auth, "<reply/>"), rspauthDigest(auth, ""));
  });

  it("gives each method, uri and hash its own H(A2), however many pairs came before (they are kept for reuse)", () => {
    const input: ResponseInput = { ...rfc7616, algorithm: "MD5", ha1: "00" };
    const first = responseDigest(input);
    const others = Array.from({ length: 200 }, (_, i) => responseDigest({ ...input, uri: `/page/${i}` }));
    assert.equal(new Set([first, ...others]).size, 201);
    assert.equal(responseDigest(input), first);
    const ha2 = createHash("md5").update("GET:/page/7").digest("hex");
    const expected = createHash("md5")
      .update(`00:${rfc7616.nonce}:${rfc7616.nc}:${rfc7616.cnonce}:auth:${ha2}`)
      .digest("hex");
    assert.equal(others[7], expected);
    assert.notEqual(responseDigest({ ...input, algorithm: "SHA-256" }), first);
    assert.notEqual(responseDigest({ ...input, method: "HEAD" }), first);
  });
});

// RFC 7616 §3.9.2, with the values of its erratum 4897: the RFC printed values computed with
// SHA-512 cut to 256 bits (userhash 488869477bf2...), not SHA-512/256, which the algorithm names.
describe("SHA-512-256 and userhash (RFC 7616 §3.9.2)", () => {
  const username = "J\u00e4s\u00f8n Doe";
  const realm = "api@example.org";
  it("hashes the username with the realm", () => {
    assert.equal(
      hashUsername("SHA-512-256", username, realm),
      "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b",
    );
    assert.notEqual(
      hashUsername("SHA-512-256", username, realm),
      "488869477bf257147b804c45308cd62ac4e25eb717b12b298c79e62dcea254ec",
    );
  });

  it("computes the response of the example", () => {
    const input: ResponseInput = {
      algorithm: "SHA-512-256",
      ha1: hashA1("SHA-512-256", username, realm, "Secret, or not?"),
      nonce: "5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK",
      method: "GET",
      uri: "/doe.json",
      qop: "auth",
      nc: "00000001",
      cnonce: "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v",
    };
    assert.equal(responseDigest(input), "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5");
  });
});

describe("helpers", () => {
  it("names algorithms case-insensitively, MD5 when absent", () => {
    assert.equal(parseAlgorithm(undefined), "MD5");
    assert.equal(parseAlgorithm("sha-256-SESS"), "SHA-256-sess");
    assert.equal(parseAlgorithm("sha-512-256-sess"), "SHA-512-256-sess");
    assert.equal(parseAlgorithm("SHA-1"), undefined);
  });

  it("writes nc as eight hex digits", () => {
    assert.equal(formatNc(1), "00000001");
    assert.equal(formatNc(255), "000000ff");
  });
});
