import assert from "node:assert/strict";
import { test } from "node:test";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import { hashA1, type Qop, responseDigest } from "../../lib/digest-math.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { gradeAlgorithmChoice } from "./client-algorithms.ts";
import { gradeBodyDigest, gradeDirectives, gradeResponse } from "./client-grades.ts";
import { gradeNonceCount, gradeNoRetryOfWrongCredentials, gradeQuoting, gradeSecretKept } from "./client-habits.ts";
import { gradeRspauthChecked, gradeStaleRetry } from "./client-stale.ts";

const user = { username: "demo", password: "s3cret" };
const REALM = "r";
const TARGET = "/client/protected";

function challenge(nonce: string, stale = false): RecordedRequest["reply"] {
  const value = `Digest realm="${REALM}", qop="auth, auth-int", algorithm=MD5, nonce="${nonce}", opaque="op"${stale ? ", stale=true" : ""}`;
  return { status: 401, headers: { "www-authenticate": [value] }, body: "" };
}

function request(authorization: string | undefined, reply: RecordedRequest["reply"], body = ""): RecordedRequest {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return { server: "base", method: body ? "POST" : "GET", target: TARGET, headers, body, at: "", reply };
}

interface Answer {
  nonce: string;
  nc?: string;
  qop?: Qop | "none";
  password?: string;
  quote?: boolean;
  hashedBody?: string;
}

function answer(a: Answer, body = ""): string {
  const qop = a.qop === "none" ? undefined : (a.qop ?? "auth");
  const nc = a.nc ?? "00000001";
  const ha1 = hashA1("MD5", user.username, REALM, a.password ?? user.password);
  const method = body ? "POST" : "GET";
  const input = {
    algorithm: "MD5" as const,
    ha1,
    nonce: a.nonce,
    method,
    uri: TARGET,
    qop,
    nc,
    cnonce: "c",
    body: a.hashedBody ?? body,
  };
  const q = (v: string) => (a.quote ? `"${v}"` : v);
  const base = `Digest username="demo", realm="${REALM}", nonce="${a.nonce}", uri="${TARGET}", response="${responseDigest(qop ? input : { ...input, nc: undefined, cnonce: undefined })}", opaque="op", algorithm=${q("MD5")}`;
  return qop ? `${base}, qop=${q(qop)}, nc=${nc}, cnonce="c"` : base;
}

const OK = { status: 200, headers: {}, body: "<ok/>" };

function run(requests: RecordedRequest[], exitCode = 0): TaskRun {
  return {
    task: "digest-get",
    environment: {},
    exitCode,
    timedOut: false,
    stdout: "",
    stderr: "",
    durationMs: 5,
    requests,
  };
}

const good = run([
  request(undefined, challenge("n1")),
  request(answer({ nonce: "n1" }), OK),
  request(answer({ nonce: "n1", nc: "00000002" }), OK),
]);

test("a correct client passes CDIG-1, -2, -3, -5 and -9", () => {
  for (const grade of [
    gradeDirectives([good], user),
    gradeResponse([good], user),
    gradeSecretKept([good], user),
    gradeNonceCount([good]),
    gradeQuoting([good]),
  ])
    assert.equal(grade.status, "passed", grade.reason);
  assert.match(gradeNonceCount([good]).reason, /2 answer\(s\) over 1 nonce/);
});

test("a client that sends nothing passes nothing", () => {
  const silent = [run([])];
  assert.deepEqual(gradeDirectives(silent, user), {
    status: "failed",
    reason: "the client sent no request (exit 0 after 5 ms): it never answered the challenge",
  });
  assert.equal(gradeResponse(silent, user).status, "failed");
  for (const grade of [gradeSecretKept(silent, user), gradeNonceCount(silent), gradeQuoting(silent)])
    assert.equal(grade.status, "not run");
  assert.match(
    gradeDirectives([run([request(undefined, challenge("n1"))], 1), run([])], user).reason,
    /^the client sent 1 request\(s\) in 2 runs of the task, none with Authorization: Digest \(exit 1/,
  );
});

test("CDIG-1: the RFC 2069 form, a nonce never issued and a uri not the target fail", () => {
  const rfc2069 = run([request(undefined, challenge("n1")), request(answer({ nonce: "n1", qop: "none" }), OK)]);
  assert.match(gradeDirectives([rfc2069], user).reason, /request 2: no qop, cnonce or nc: the RFC 2069 form/);
  const foreign = run([request(undefined, challenge("n1")), request(answer({ nonce: "n9" }), OK)]);
  assert.match(gradeDirectives([foreign], user).reason, /nonce "n9" is not one sxd challenged with/);
});

test("CDIG-2: a response from a wrong secret fails with the expected digest", () => {
  const wrong = run([
    request(undefined, challenge("n1")),
    request(answer({ nonce: "n1", password: "nope" }), challenge("n2")),
  ]);
  assert.match(
    gradeResponse([wrong], user).reason,
    /^request 2: response \w+ is not the digest of demo's secret .*expected \w{32}$/,
  );
});

test("CDIG-3: Basic credentials or the password anywhere fail", () => {
  const basic = `Basic ${Buffer.from("demo:s3cret").toString("base64")}`;
  assert.match(
    gradeSecretKept([run([request(basic, OK)])], user).reason,
    /request 1: Basic credentials, header authorization/,
  );
  const inUrl = run([{ ...request(answer({ nonce: "n1" }), OK), target: "/x?password=s3cret" }]);
  assert.match(
    gradeSecretKept([good, { ...inUrl, condition: "md5-first" }], user).reason,
    /request 1 \(staged: md5-first\): the target/,
  );
});

test("CDIG-4: auth-int must hash the body sent; a client on qop auth is not concerned", () => {
  const body = "hello";
  const right = run([request(answer({ nonce: "n1", qop: "auth-int" }, body), OK, body)]);
  assert.equal(gradeBodyDigest([right], user).status, "passed");
  const empty = run([request(answer({ nonce: "n1", qop: "auth-int", hashedBody: "" }, body), OK, body)]);
  assert.match(gradeBodyDigest([empty], user).reason, /covers an empty body, not the 5 byte\(s\) sent/);
  assert.equal(gradeResponse([empty], user).status, "passed");
  assert.equal(gradeBodyDigest([good], user).status, "not applicable");
  // A client on qop auth that hashes an empty body where auth-int is all there is: seen in the staged run.
  const forced = { ...empty, condition: "auth-int-only" as const };
  assert.match(gradeBodyDigest([good, forced], user).reason, /^request 1 \(staged: auth-int-only\): with qop=auth-int/);
});

test("CDIG-4: a wrong secret fails CDIG-2 alone; CDIG-4 is not run, pointing at it", () => {
  const body = "x".repeat(50);
  const wrongSecret = run([request(answer({ nonce: "n1", qop: "auth-int", password: "nope" }, body), OK, body)]);
  assert.equal(gradeResponse([wrongSecret], user).status, "failed");
  const grade = gradeBodyDigest([wrongSecret], user);
  assert.equal(grade.status, "not run");
  assert.match(
    grade.reason,
    /^request 1: no answer of the client is the digest of the user's secret, so whether its auth-int response covers the 50 byte\(s\) sent cannot be shown \(see CDIG-2\)$/,
  );
  // Where another answer shows the secret right, a response that misses the body misses it for the body.
  const otherBody = run([request(answer({ nonce: "n1", qop: "auth-int", hashedBody: "y" }, body), OK, body)]);
  assert.match(
    gradeBodyDigest([good, otherBody], user).reason,
    /^request 1: with qop=auth-int the response does not cover the 50 byte\(s\) sent$/,
  );
  assert.equal(gradeBodyDigest([good, otherBody], user).status, "failed");
});

test("CDIG-5: a nonce reused with the same nc fails", () => {
  const repeated = run([
    request(undefined, challenge("n1")),
    request(answer({ nonce: "n1" }), OK),
    request(answer({ nonce: "n1" }), OK),
  ]);
  assert.match(gradeNonceCount([repeated]).reason, /request 3: nc 00000001 on use 2 of its nonce; expected 00000002/);
  // Each run counts its own nonces: the same nonce text in another run starts again.
  assert.equal(gradeNonceCount([good, { ...good, condition: "md5-first" }]).status, "passed");
});

test("CDIG-9: quoted tokens fail", () => {
  const quoted = run([request(undefined, challenge("n1")), request(answer({ nonce: "n1", quote: true }), OK)]);
  assert.match(
    gradeQuoting([quoted]).reason,
    /^request 2: quotes algorithm, qop, which RFC 7616 §3.4 sends as tokens$/,
  );
});

test("CDIG-10: after a 401 without stale, no more credentials from the same secret; the refusal is its own control", () => {
  const refusedThenStopped = run(
    [request(undefined, challenge("n1")), request(answer({ nonce: "n1" }), challenge("n2"))],
    1,
  );
  assert.equal(gradeNoRetryOfWrongCredentials(refusedThenStopped, user).status, "passed");
  const loops = run([
    ...refusedThenStopped.requests,
    request(answer({ nonce: "n2" }), challenge("n3")),
    request(answer({ nonce: "n3" }), OK),
  ]);
  assert.match(
    gradeNoRetryOfWrongCredentials(loops, user).reason,
    /from the same secret 2 more time\(s\) \(requests 3, 4;/,
  );
  const afterStale = run([
    request(undefined, challenge("n1")),
    request(answer({ nonce: "n1" }), challenge("n2", true)),
    request(answer({ nonce: "n2" }), OK),
  ]);
  assert.equal(gradeNoRetryOfWrongCredentials(afterStale, user).status, "not run");
  // A client whose own answer is flawed (the RFC 2069 form here, with a wrong secret) still shows its retry.
  const flawed = (nonce: string) => answer({ nonce, qop: "none", password: "typo" });
  const flawedLoop = run([
    request(undefined, challenge("n1")),
    request(flawed("n1"), challenge("n2")),
    request(flawed("n2"), challenge("n3")),
  ]);
  assert.match(gradeNoRetryOfWrongCredentials(flawedLoop, user).reason, /1 more time\(s\) \(requests 3;/);
  assert.equal(gradeNoRetryOfWrongCredentials(run([]), user).status, "not run");
});

test("CDIG-6: a retry with the new nonce after stale=true takes the option; giving up is not applicable, never failed", () => {
  const staled = [request(undefined, challenge("n1")), request(answer({ nonce: "n1" }), challenge("n2", true))];
  const retried = run([...staled, request(answer({ nonce: "n2" }), OK)]);
  assert.match(gradeStaleRetry(retried, user).reason, /answered again with the new nonce \(request 3, answered 200\)/);
  const gaveUp = gradeStaleRetry(run(staled, 1), user);
  assert.equal(gaveUp.status, "not applicable");
  assert.match(
    gaveUp.reason,
    /^after the 401 with stale=true to request 2, the client did not answer again with the new nonce \(exit 1/,
  );
  // Nothing called stale: a pointer only to a row that fails on the same requests.
  assert.match(gradeStaleRetry(run([request(undefined, challenge("n1"))], 1), user).reason, /\(see CDIG-1\)$/);
  const wrongSecret = run([
    request(undefined, challenge("n1")),
    request(answer({ nonce: "n1", password: "x" }), challenge("n2")),
  ]);
  assert.match(gradeStaleRetry(wrongSecret, user).reason, /\(see CDIG-2\)$/);
});

test("CDIG-7: the first offered algorithm the client is seen to support, never one not offered", () => {
  const offering = (algorithms: string[]): RecordedRequest["reply"] => ({
    status: 401,
    headers: {
      "www-authenticate": algorithms.map((a) => `Digest realm="r", nonce="n${a}", algorithm=${a}, qop="auth"`),
    },
    body: "",
  });
  const answering = (offered: string[], chosen: string, condition?: TaskRun["condition"]): TaskRun => ({
    ...run([
      request(undefined, offering(offered)),
      request(`Digest username="demo", algorithm=${chosen}, nonce="n${chosen}"`, OK),
    ]),
    ...(condition ? { condition } : {}),
  });
  const plain = answering(["SHA-256", "MD5"], "SHA-256");
  const right = gradeAlgorithmChoice(
    [plain, answering(["MD5", "SHA-256"], "MD5", "md5-first"), answering(["MD5"], "MD5", "md5-only")],
    {},
  );
  assert.equal(right.reason, "offered SHA-256, MD5: SHA-256; offered MD5, SHA-256: MD5; offered MD5: MD5");
  const last = gradeAlgorithmChoice(
    [answering(["SHA-256", "MD5"], "MD5"), answering(["MD5", "SHA-256"], "SHA-256", "md5-first")],
    {},
  );
  assert.match(
    last.reason,
    /^request 2: offered SHA-256, MD5, the client answered MD5, though it answered SHA-256 in request 2 \(staged: md5-first\): not the first/,
  );
  assert.match(
    gradeAlgorithmChoice([answering(["MD5"], "SHA-512-256")], {}).reason,
    /algorithm SHA-512-256 was not offered \(MD5\)/,
  );
  assert.equal(gradeAlgorithmChoice([run([])], user).status, "not run");
  // With the secret known, an answer whose response does not prove it shows no support (a name written over another hash).
  assert.equal(
    gradeAlgorithmChoice(
      [answering(["SHA-256", "MD5"], "MD5"), answering(["MD5", "SHA-256"], "SHA-256", "md5-first")],
      user,
    ).status,
    "passed",
  );
  // Gives up where SHA-256 comes first, answers MD5 where MD5 does: not the first it supports.
  const gaveUp = { ...run([request(undefined, offering(["SHA-256", "MD5"]))], 1) };
  assert.match(
    gradeAlgorithmChoice([gaveUp, answering(["MD5", "SHA-256"], "MD5", "md5-first")], {}).reason,
    /^task digest-get: offered SHA-256, MD5, the client answered none of them, though it answered MD5 in request 2 \(staged: md5-first\)/,
  );
  // One exchange shows it alone where MD5 was offered (every client computes MD5): a recording of sxd interop.
  assert.match(
    gradeAlgorithmChoice([gaveUp], user).reason,
    /^task digest-get: offered SHA-256, MD5, the client answered none of them, though MD5 was among them/,
  );
  // Offered no MD5, answering none shows nothing of what the client supports.
  const noMd5 = run([request(undefined, offering(["SHA-512-256", "SHA-256"]))], 1);
  assert.equal(gradeAlgorithmChoice([noMd5], user).status, "not run");
});

test("CDIG-8: failing on a wrong rspauth takes the option; accepting it is not applicable, never failed", () => {
  const granted = run(
    [
      request(undefined, challenge("n1")),
      request(answer({ nonce: "n1" }), { ...OK, headers: { "authentication-info": 'rspauth="00"' } }),
    ],
    1,
  );
  assert.equal(
    gradeRspauthChecked(granted, good, user).reason,
    "the client treated the reply with a wrong rspauth as a failure (exit 1 after 5 ms)",
  );
  assert.equal(gradeRspauthChecked({ ...granted, exitCode: 0 }, good, user).status, "not applicable");
  assert.equal(gradeRspauthChecked(granted, run([], 1), user).status, "not run");
});

test("CDIG-1: the realm, nonce and algorithm of one challenge; answers in any run are judged, silence in one is not wrong", () => {
  const two: RecordedRequest["reply"] = {
    status: 401,
    headers: {
      "www-authenticate": [
        `Digest realm="${REALM}", qop="auth", algorithm=SHA-256, nonce="nS", opaque="op"`,
        `Digest realm="${REALM}", qop="auth", algorithm=MD5, nonce="nM", opaque="op"`,
      ],
    },
    body: "",
  };
  const own = run([request(undefined, two), request(answer({ nonce: "nM" }), OK)]);
  assert.equal(gradeDirectives([own], user).status, "passed");
  const mixed = run([request(undefined, two), request(answer({ nonce: "nS" }), OK)]);
  assert.match(
    gradeDirectives([mixed], user).reason,
    /^request 2: algorithm MD5 with the nonce of the SHA-256 challenge: the realm, nonce and algorithm must come from one challenge$/,
  );
  const silent = run([request(undefined, two)], 1);
  for (const grade of [
    gradeDirectives([silent, { ...own, condition: "md5-first" }], user),
    gradeResponse([silent, own], user),
  ])
    assert.equal(grade.status, "passed", grade.reason);
});

test("without the user's secret (a recording): what needs it is not run, naming the flags; Basic still fails", () => {
  const unknown = {};
  assert.equal(gradeDirectives([good], unknown).status, "passed");
  for (const grade of [gradeResponse([good], unknown), gradeSecretKept([good], unknown)]) {
    assert.equal(grade.status, "not run");
    assert.match(grade.reason, /give --username and --password/);
  }
  const body = "hello";
  const authInt = run([request(answer({ nonce: "n1", qop: "auth-int" }, body), OK, body)]);
  assert.equal(gradeBodyDigest([authInt], unknown).status, "not run");
  const basic = `Basic ${Buffer.from("demo:s3cret").toString("base64")}`;
  assert.match(gradeSecretKept([run([request(basic, OK)])], unknown).reason, /request 1: Basic credentials/);
});
