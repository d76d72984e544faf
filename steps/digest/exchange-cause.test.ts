// Where a digest exchange between a real client and a real server stopped, and which breach
// explains it: the cases of issue 37, each beside the same exchange with the one thing right.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import type { BrokenRow } from "../../harness/evidence/interop-document.ts";
import type { ServerExchange } from "../../harness/interop/judging.ts";
import { type Algorithm, hashA1, hashOf, responseDigest } from "../../lib/digest-math.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { digestStop, rightAnswers } from "./exchange-cause.ts";
import { excusedClientRows, judgeServerExchange } from "./exchange-judge.ts";

const USER = { username: "carol", password: "kept-by-carol-only" };
const REALM = "accounts@t.test";
const PATH = "/account";
const NONCE = "n0nce-1";
const described = resolveDescription([{ baseUrl: "http://t.test", digest: { path: PATH, ...USER } }]);
if (!described.ok) throw new Error(described.error);
const target = described.value;

const HTML = { "content-type": "text/html" };

/** The 401 to a request without credentials, offering `algorithms` with one nonce. */
function challenged(algorithms: string[], headers: Record<string, string> = HTML): RecordedRequest {
  const challenges = algorithms.map((a) => `Digest realm="${REALM}", qop="auth", algorithm=${a}, nonce="${NONCE}"`);
  return {
    server: "base",
    method: "GET",
    target: PATH,
    headers: {},
    body: "",
    at: "",
    reply: { status: 401, headers: { ...headers, "www-authenticate": challenges }, body: "<html>log in</html>" },
  };
}

/** An answer with qop=auth, the right secret unless `password` says otherwise, and the server's status. */
function answer(
  status: number,
  { algorithm = "SHA-256", nc = "00000001", password = USER.password } = {},
): RecordedRequest {
  const ha1 = hashA1(hashOf(algorithm as Algorithm), USER.username, REALM, password);
  const input = {
    algorithm: algorithm as Algorithm,
    ha1,
    nonce: NONCE,
    method: "GET",
    uri: PATH,
    qop: "auth" as const,
  };
  const response = responseDigest({ ...input, nc, cnonce: "c1" });
  const authorization = `Digest username="${USER.username}", realm="${REALM}", nonce="${NONCE}", uri="${PATH}", algorithm=${algorithm}, response="${response}", qop=auth, nc=${nc}, cnonce="c1"`;
  return {
    ...challenged([]),
    headers: { authorization },
    reply: {
      status,
      headers: status === 200 ? { "authentication-info": "qop=auth" } : ({} as Record<string, string>),
      body: "",
    },
  };
}

const row = (id: string): BrokenRow => ({ id, level: "must", reason: id });
const sides = (client: string[], server: string[]) => ({ client: client.map(row), server: server.map(row) });
const exchange = (requests: RecordedRequest[]): ServerExchange => ({
  task: "digest-get",
  requests,
  target,
  subjectPath: PATH,
  proxied: { base: "http://localhost:1" },
});
const serverRows = (requests: RecordedRequest[]) => judgeServerExchange(exchange(requests)).map((r) => r.id);

describe("a right answer: the one a refusal of which breaks DIG-4", () => {
  it("the digest of the secret, the challenge's algorithm and qop, nc 00000001 on first use: right", () => {
    const requests = [challenged(["SHA-256", "MD5"]), answer(401)];
    assert.equal(rightAnswers(requests, USER).size, 1);
    assert.deepEqual(serverRows(requests), ["DIG-2", "DIG-4"]);
  });
  it("nc=00000000 on first use breaks CDIG-5: refusing it breaks no server row", () => {
    const requests = [challenged(["SHA-256", "MD5"]), answer(401, { nc: "00000000" })];
    assert.equal(rightAnswers(requests, USER).size, 0);
    assert.deepEqual(serverRows(requests), ["DIG-2"]);
  });
  it("an MD5 digest to the nonce of a SHA-512-256 challenge breaks CDIG-1: refusing it breaks no server row", () => {
    const requests = [challenged(["SHA-512-256"]), answer(401, { algorithm: "MD5" })];
    assert.equal(rightAnswers(requests, USER).size, 0);
    assert.deepEqual(serverRows(requests), ["DIG-2"]);
    // The control: the same answer to an MD5 challenge is right, and refusing it breaks DIG-4.
    assert.deepEqual(serverRows([challenged(["MD5"]), answer(401, { algorithm: "MD5" })]), ["DIG-2", "DIG-4"]);
  });
  it("the second use of a nonce must count 00000002", () => {
    const twice = [challenged(["MD5"]), answer(200, { algorithm: "MD5" })];
    assert.equal(rightAnswers([...twice, answer(401, { algorithm: "MD5", nc: "00000001" })], USER).size, 1);
    assert.equal(rightAnswers([...twice, answer(401, { algorithm: "MD5", nc: "00000002" })], USER).size, 2);
  });
});

describe("where a failed digest exchange stopped, and the breach that explains it", () => {
  it("no answer to the challenge: the client's CDIG-7, not the 401's HTML body (DIG-2)", () => {
    const stop = digestStop([challenged(["SHA-256", "MD5"])], PATH, sides(["CDIG-7", "CDIG-9"], ["DIG-2"]));
    assert.deepEqual(stop, { at: "no answer to the challenge", explaining: ["CDIG-7"] });
  });
  it("no answer to a challenge written unlike RFC 7616: DIG-14 explains it", () => {
    const stop = digestStop([challenged(["MD5"])], PATH, sides([], ["DIG-2", "DIG-14"]));
    assert.deepEqual(stop.explaining, ["DIG-14"]);
  });
  it("no algorithm in common: nothing explains it (neither), and the client's answering rows are excused", () => {
    const requests = [challenged(["SHA-512-256"])];
    assert.deepEqual(digestStop(requests, PATH, sides([], ["DIG-2"])).explaining, []);
    const excused = excusedClientRows(exchange(requests), [row("DIG-2")]);
    assert.match(excused?.why ?? "", /no algorithm in common/);
  });
  it("an answer refused: the answer's breach (CDIG-5), or the server's refusal of a right one (DIG-4)", () => {
    const refused = [challenged(["MD5"]), answer(401, { algorithm: "MD5", nc: "00000000" })];
    const stop = digestStop(refused, PATH, sides(["CDIG-5", "CDIG-9"], ["DIG-2", "DIG-14"]));
    assert.deepEqual(stop, { at: "an answer refused", explaining: ["CDIG-5"] });
    assert.deepEqual(digestStop(refused, PATH, sides(["CDIG-9"], ["DIG-2", "DIG-4"])).explaining, ["DIG-4"]);
  });
  it("a grant the client did not accept: the grant's Authentication-Info (DIG-5), not the challenge's body", () => {
    const requests = [challenged(["MD5"]), answer(200, { algorithm: "MD5" })];
    assert.deepEqual(digestStop(requests, PATH, sides([], ["DIG-2", "DIG-5"])), {
      at: "a grant the client did not accept",
      explaining: ["DIG-5"],
    });
  });
  it("no challenge at all: DIG-1", () => {
    const silent = { ...challenged([]), reply: { status: 200, headers: {}, body: "" } };
    assert.deepEqual(digestStop([silent], PATH, sides([], ["DIG-1"])), { at: "no challenge", explaining: ["DIG-1"] });
  });
});
