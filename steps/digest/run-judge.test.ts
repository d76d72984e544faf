import assert from "node:assert/strict";
import { test } from "node:test";
import type { TargetDescription } from "../../harness/description/target.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import type { RunExchange } from "../../harness/run/whole-run.ts";
import { formatParams } from "../../lib/auth-params.ts";
import { type Algorithm, type Qop, rspauthDigest } from "../../lib/digest-math.ts";
import { answerChallenge, authorizationOf, digestChallenges } from "./digest-client.ts";
import * as judge from "./run-judge.ts";

const user = { username: "rosa", password: "s3cret" };
const target = { baseUrl: "http://t", digest: { path: "/protected", ...user } } as TargetDescription;
const BODY = "<protected/>";

interface Grant {
  algorithm: Algorithm;
  qop?: Qop;
  /** The Authentication-Info sent: the right one, none, or one with a wrong rspauth. */
  info?: "right" | "none" | "wrong rspauth";
  secret?: string;
  status?: number;
}

/** A reply to a digest answer of the description's user (or another secret), as a run records it. */
function granted({
  algorithm,
  qop = "auth",
  info = "right",
  secret = user.password,
  status = 200,
}: Grant): RunExchange {
  const field = `Digest realm="r", qop="${qop}", algorithm=${algorithm}, nonce="n0nce"`;
  const parsed = digestChallenges(field);
  assert.ok(parsed.ok && parsed.value[0]);
  const challenge = parsed.value[0];
  const answer = answerChallenge(
    challenge,
    algorithm,
    { method: "GET", uri: "/protected" },
    { ...user, password: secret, qop },
  );
  const rspauth = rspauthDigest(answer.input, BODY);
  const directives = [
    {
      name: "rspauth",
      value: info === "wrong rspauth" ? rspauth.replace(/^./, (c) => (c === "0" ? "1" : "0")) : rspauth,
      quoted: true,
    },
    { name: "qop", value: qop, quoted: false },
    { name: "cnonce", value: answer.input.cnonce ?? "", quoted: true },
    { name: "nc", value: answer.input.nc ?? "", quoted: false },
  ];
  const exchange: Exchange = {
    method: "GET",
    url: "http://t/protected",
    requestHeaders: { authorization: authorizationOf(answer.directives) },
    response: {
      status,
      headers: info === "none" ? {} : { "authentication-info": [formatParams(directives)] },
      body: BODY,
    },
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
  };
  return { exchange, scenario: `"${algorithm} ${info}" (f.feature:1)` };
}

const grantsCheck = judge.runChecks[judge.EVERY_GRANT_CARRIES_INFO];
const rspauthCheck = judge.runChecks[judge.EVERY_RSPAUTH_PROVES_THE_SECRET];

test("DIG-5 over the run: a grant to the right credentials without Authentication-Info, in any scenario, is the evidence, counted by algorithm", () => {
  const run = [
    granted({ algorithm: "SHA-256" }),
    granted({ algorithm: "MD5", info: "none" }),
    granted({ algorithm: "MD5", info: "none", qop: "auth-int" }),
    granted({ algorithm: "MD5", info: "none", status: 401 }),
    // A wrong secret let in is DIG-6's breach, which blames it: no evidence for DIG-5.
    granted({ algorithm: "SHA-256", info: "none", secret: "wrong" }),
  ];
  const found = grantsCheck(run, target);
  assert.equal(found?.got, "grants without it, to requests with MD5\n(1 of the run's 2 grants: MD5 ×1)");
  assert.equal(found?.evidence[0], run[1]);
  assert.equal(grantsCheck([granted({ algorithm: "MD5", info: "none", secret: "wrong" })], target), undefined);
  assert.equal(grantsCheck([granted({ algorithm: "SHA-256" }), granted({ algorithm: "MD5" })], target), undefined);
});

test("DIG-11 over the run: a wrong rspauth on a right answer is the evidence; a wrong answer, auth-int, or no header is not judged", () => {
  const wrong = granted({ algorithm: "MD5", info: "wrong rspauth" });
  const found = rspauthCheck([granted({ algorithm: "SHA-256" }), wrong], target);
  assert.equal(found?.evidence[0], wrong);
  assert.match(
    found?.got ?? "",
    /^grants whose Authentication-Info does not, to requests with MD5, the first: rspauth [0-9a-f]+ instead of [0-9a-f]+\n\(1 of the run's 2 such grants: MD5 ×1\)$/,
  );
  const unjudged = [
    granted({ algorithm: "MD5", info: "wrong rspauth", secret: "another" }),
    granted({ algorithm: "SHA-256", info: "wrong rspauth", qop: "auth-int" }),
    granted({ algorithm: "MD5", info: "none" }),
    granted({ algorithm: "SHA-256-sess" }),
  ];
  assert.equal(rspauthCheck(unjudged, target), undefined);
});

/** A 401 of the protected resource with one Digest challenge per algorithm, all with `nonce`, answering `credentials`. */
function challenged(nonce: string, credentials?: string, basic = false, url = "http://t/protected"): RunExchange {
  const offered = ["SHA-256", "MD5"].map(
    (algorithm) => `Digest realm="r", qop="auth", algorithm=${algorithm}, nonce="${nonce}"`,
  );
  const exchange: Exchange = {
    method: "GET",
    url,
    requestHeaders: credentials === undefined ? {} : { authorization: credentials },
    response: {
      status: 401,
      headers: { "www-authenticate": basic ? [...offered, 'Basic realm="r"'] : offered },
      body: "",
    },
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
  };
  return { exchange, scenario: `"${nonce}" (f.feature:2)` };
}

const md5Answer = (nonce: string) =>
  `Digest username="rosa", realm="r", nonce="${nonce}", uri="/protected", algorithm=MD5, response="00", qop=auth, nc=00000001, cnonce="c"`;

test("DIG-3 over the run: a 401 that carries a nonce another 401 carried is the evidence, named by what it answered", () => {
  const check = judge.runChecks[judge.EVERY_401_NONCE_IS_NEW];
  // One reply gives its nonce to each of its challenges: no repeat.
  assert.equal(check([challenged("a"), challenged("b"), challenged("c", md5Answer("b"))], target), undefined);
  const echo = challenged("b", md5Answer("b"));
  const found = check([challenged("a"), challenged("b"), echo, granted({ algorithm: "MD5" })], target);
  assert.equal(found?.evidence[0], echo);
  assert.match(found?.got ?? "", /of the run's 3[ :]/);
  assert.equal(
    found?.got,
    `401 replies that carry a nonce another 401 carried, to requests with MD5\n(1 of the run's 3: MD5 ×1); the first shares it with a 401 of the scenario "b" (f.feature:2)`,
  );
  assert.match(
    check([challenged("a"), challenged("a")], target)?.got ?? "",
    /to requests with no credentials\n\(1 of the run's 2: no credentials ×1\)/,
  );
});

test("DIG-7 over the run: a reply of the protected resource with a Basic challenge is the evidence; other resources are not judged", () => {
  const check = judge.runChecks[judge.NO_REPLY_ASKS_FOR_THE_SECRET];
  const basic = challenged("b", md5Answer("a"), true);
  const found = check([challenged("a"), basic, granted({ algorithm: "SHA-256" })], target);
  assert.equal(found?.evidence[0], basic);
  assert.equal(
    found?.got,
    "replies with a Basic challenge, to requests with MD5\n(1 of the run's 3 replies of the protected resource: MD5 ×1)",
  );
  assert.match(found?.got ?? "", /of the run's 3[ :]/);
  assert.equal(check([challenged("a"), challenged("b", undefined, true, "http://t/elsewhere")], target), undefined);
});
