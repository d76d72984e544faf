import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { formatNc, hashA1, parseAlgorithm, type ResponseInput, responseDigest, rspauthDigest } from "./digest.ts";

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
    assert.equal(rspauthDigest(spec), responseDigest({ ...spec, method: "" }));
  });

  it("computes rspauth with an empty method in A2", () => {
    const input: ResponseInput = { ...rfc7616, algorithm: "SHA-256", ha1: "00" };
    assert.equal(rspauthDigest(input), responseDigest({ ...input, method: "" }));
    assert.notEqual(rspauthDigest(input), responseDigest(input));
  });
});

describe("helpers", () => {
  it("names algorithms case-insensitively, MD5 when absent", () => {
    assert.equal(parseAlgorithm(undefined), "MD5");
    assert.equal(parseAlgorithm("sha-256-SESS"), "SHA-256-sess");
    assert.equal(parseAlgorithm("SHA-512-256"), undefined);
  });

  it("writes nc as eight hex digits", () => {
    assert.equal(formatNc(1), "00000001");
    assert.equal(formatNc(255), "000000ff");
  });
});
