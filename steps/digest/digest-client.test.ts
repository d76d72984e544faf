import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCredentials } from "../../lib/auth-params.ts";
import { hashA1, responseDigest, rspauthDigest } from "../../lib/digest-math.ts";
import {
  answerableAlgorithms,
  answerChallenge,
  authenticationInfoProblems,
  authorizationOf,
  chooseChallenge,
  chooseQop,
  digestChallenges,
} from "./digest-client.ts";

// The challenge of RFC 7616 §3.9.1, as one field with both challenges.
const RFC7616_CHALLENGES = [
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256,',
  'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",',
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5,',
  'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
].join(" ");
const CREDENTIALS = {
  username: "Mufasa",
  password: "Circle of Life",
  cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
};
const REQUEST = { method: "GET", uri: "/dir/index.html" };

function rfcChallenges() {
  const parsed = digestChallenges(RFC7616_CHALLENGES);
  assert.ok(parsed.ok);
  return parsed.value;
}

describe("the suite's digest client", () => {
  it("reads both challenges of RFC 7616 §3.9.1 and prefers SHA-256, then auth", () => {
    const challenges = rfcChallenges();
    assert.equal(challenges.length, 2);
    assert.deepEqual(challenges[0].qops, ["auth", "auth-int"]);
    const chosen = chooseChallenge(challenges);
    assert.equal(chosen?.algorithm, "SHA-256");
    assert.equal(chooseQop(challenges[0]), "auth");
    assert.equal(chooseChallenge(challenges, "MD5")?.challenge, challenges[1]);
    assert.equal(chooseChallenge(challenges, "MD5-sess"), undefined);
  });

  it("answers them with the responses the RFC publishes", () => {
    const challenges = rfcChallenges();
    const expected = {
      "SHA-256": "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
      MD5: "8ca523f5e9506fed4657c9700eebdbec",
    } as const;
    for (const [algorithm, response] of Object.entries(expected) as ["SHA-256" | "MD5", string][]) {
      const chosen = chooseChallenge(challenges, algorithm);
      assert.ok(chosen);
      const answer = answerChallenge(chosen.challenge, algorithm, REQUEST, CREDENTIALS);
      const parsed = parseCredentials(authorizationOf(answer.directives));
      assert.ok(parsed.ok);
      assert.deepEqual(Object.fromEntries(parsed.value.params), {
        username: "Mufasa",
        realm: "http-auth@example.org",
        nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
        uri: "/dir/index.html",
        algorithm,
        response,
        qop: "auth",
        nc: "00000001",
        cnonce: CREDENTIALS.cnonce,
        opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
      });
    }
  });

  it("draws a new client nonce for each answer: 24 hex digits, none twice, past the pool's refill", () => {
    const parsed = digestChallenges(RFC7616_CHALLENGES);
    assert.ok(parsed.ok);
    const [challenge] = parsed.value;
    const { cnonce: _, ...withoutCnonce } = CREDENTIALS;
    const cnonces = Array.from({ length: 200 }, () => {
      const answer = answerChallenge(challenge, "SHA-256", REQUEST, withoutCnonce);
      return answer.directives.find((d) => d.name === "cnonce")?.value ?? "";
    });
    for (const cnonce of cnonces) assert.match(cnonce, /^[0-9a-f]{24}$/);
    assert.equal(new Set(cnonces).size, cnonces.length);
  });

  it("answers the RFC 2617 §3.5 challenge with its published response", () => {
    const parsed = digestChallenges(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    assert.ok(parsed.ok);
    const [challenge] = parsed.value;
    assert.equal(challenge.algorithm, "MD5");
    const answer = answerChallenge(challenge, "MD5", REQUEST, {
      username: "Mufasa",
      password: "Circle Of Life",
      cnonce: "0a4f113b",
    });
    assert.equal(answer.directives.find((d) => d.name === "response")?.value, "6629fae49393a05397450978507c4ef1");
  });

  it("verifies rspauth and the echoed qop, cnonce and nc", () => {
    const [challenge] = rfcChallenges();
    const answer = answerChallenge(challenge, "SHA-256", REQUEST, CREDENTIALS);
    const rspauth = rspauthDigest(answer.input, "<reply/>");
    const good = `rspauth="${rspauth}", qop=auth, cnonce="${CREDENTIALS.cnonce}", nc=00000001`;
    assert.deepEqual(authenticationInfoProblems(good, answer, "<reply/>"), []);
    assert.equal(authenticationInfoProblems(good.replace("nc=00000001", "nc=00000002"), answer, "").length, 1);
    assert.equal(authenticationInfoProblems(good.replace(rspauth, answer.input.ha1), answer, "").length, 1);
    assert.deepEqual(authenticationInfoProblems(undefined, answer, ""), ["no Authentication-Info header"]);
  });

  it("expects auth-int's rspauth over the reply's body, and says so of one over the request's", () => {
    const [challenge] = rfcChallenges();
    const sent = { ...REQUEST, method: "POST", body: "<sent/>" };
    const answer = answerChallenge(challenge, "SHA-256", sent, { ...CREDENTIALS, qop: "auth-int" });
    const info = (rspauth: string) => `rspauth="${rspauth}", qop=auth-int, cnonce="${CREDENTIALS.cnonce}", nc=00000001`;
    const overReply = rspauthDigest(answer.input, "<reply/>");
    assert.deepEqual(authenticationInfoProblems(info(overReply), answer, "<reply/>"), []);
    const overRequest = authenticationInfoProblems(info(rspauthDigest(answer.input, "<sent/>")), answer, "<reply/>");
    assert.equal(overRequest.length, 1);
    assert.match(overRequest[0] ?? "", /it hashes the request's body; with auth-int, rspauth hashes the reply's/);
    const random = authenticationInfoProblems(info("0".repeat(64)), answer, "<reply/>");
    assert.equal(random.length, 1);
    assert.doesNotMatch(random[0] ?? "", /request's body/);
    // Where only the spec's formula got in, RFC 7616's rspauth still proves the secret, and so does the spec's.
    const spec = { ...answer, input: { ...answer.input, formula: "spec" as const } };
    assert.deepEqual(authenticationInfoProblems(info(overReply), spec, "<reply/>"), []);
    assert.deepEqual(authenticationInfoProblems(info(rspauthDigest(spec.input, "")), spec, "<reply/>"), []);
    assert.equal(authenticationInfoProblems(info(rspauthDigest(spec.input, "")), answer, "<reply/>").length, 1);
  });

  it("takes auth-int's rspauth over the reply's bytes where they are not UTF-8", () => {
    const [challenge] = rfcChallenges();
    const answer = answerChallenge(challenge, "SHA-256", REQUEST, { ...CREDENTIALS, qop: "auth-int" });
    const info = (rspauth: string) => `rspauth="${rspauth}", qop=auth-int, cnonce="${CREDENTIALS.cnonce}", nc=00000001`;
    const bytes = Buffer.from([0x3c, 0x61, 0xff, 0xfe, 0x2f, 0x3e]);
    const overBytes = rspauthDigest(answer.input, bytes);
    assert.deepEqual(authenticationInfoProblems(info(overBytes), answer, bytes), []);
    // The text sxd shows of them (U+FFFD for each bad byte) hashes to something else.
    assert.notEqual(rspauthDigest(answer.input, bytes.toString("utf8")), overBytes);
    assert.equal(authenticationInfoProblems(info(overBytes), answer, bytes.toString("utf8")).length, 1);
  });

  it("writes the RFC 2069 form when asked, without nc and cnonce", () => {
    const [challenge] = rfcChallenges();
    const answer = answerChallenge(challenge, "MD5", REQUEST, { ...CREDENTIALS, qop: null });
    assert.deepEqual(
      answer.directives.map((d) => d.name),
      ["username", "realm", "nonce", "uri", "algorithm", "response", "opaque"],
    );
    assert.equal(answer.input.ha1, hashA1("MD5", "Mufasa", "http-auth@example.org", "Circle of Life"));
  });

  it("computes the spec's literal formula when asked, still sending qop, nc and cnonce", () => {
    const [challenge] = rfcChallenges();
    const answer = answerChallenge(challenge, "MD5", REQUEST, { ...CREDENTIALS, formula: "spec" });
    const sent = new Map(answer.directives.map((d) => [d.name, d.value]));
    assert.deepEqual([sent.get("qop"), sent.get("nc")], ["auth", "00000001"]);
    assert.ok(sent.get("cnonce"));
    assert.equal(sent.get("response"), responseDigest({ ...answer.input, qop: undefined, formula: undefined }));
  });

  it("answers the SHA-512-256 challenge of RFC 7616 §3.9.2 with a hashed username (erratum 4897's values)", () => {
    const parsed = digestChallenges(
      'Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=true',
    );
    assert.ok(parsed.ok);
    const chosen = chooseChallenge(parsed.value);
    assert.equal(chosen?.algorithm, "SHA-512-256");
    assert.ok(chosen);
    const answer = answerChallenge(
      chosen.challenge,
      chosen.algorithm,
      { method: "GET", uri: "/doe.json" },
      {
        username: "J\u00e4s\u00f8n Doe",
        password: "Secret, or not?",
        cnonce: "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v",
      },
    );
    const sent = new Map(answer.directives.map((d) => [d.name, d.value]));
    assert.equal(sent.get("username"), "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b");
    assert.equal(sent.get("userhash"), "true");
    assert.equal(sent.get("response"), "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5");
  });

  it("lists the algorithms it can answer, strongest first, and ignores the others", () => {
    const parsed = digestChallenges(
      'Digest realm="r", nonce="n", algorithm=MD5-sess, Digest realm="r", nonce="n", algorithm=SHA-1, Digest realm="r", nonce="n", algorithm=SHA-512-256',
    );
    assert.ok(parsed.ok);
    assert.deepEqual(answerableAlgorithms(parsed.value), ["SHA-512-256", "MD5-sess"]);
  });
});
