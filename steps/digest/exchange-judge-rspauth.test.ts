// DIG-11 in the digest judge of `sxd interop`: with qop=auth-int, rspauth hashes the reply's
// body (RFC 2617 §3.2.3), its bytes as sent, UTF-8 or not; one over the request's body, or a
// random one, breaks the row.
import assert from "node:assert/strict";
import { it } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import { formatParams } from "../../lib/auth-params.ts";
import { type KeptBody, keptBody } from "../../lib/body.ts";
import { rspauthDigest } from "../../lib/digest-math.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { answerChallenge, authorizationOf, digestChallenges } from "./digest-client.ts";
import { judgeServerExchange } from "./exchange-judge.ts";

const USER = { username: "alice", password: "kept-by-alice" };
const described = resolveDescription([{ baseUrl: "http://b.test", digest: { path: "/protected", ...USER } }]);
if (!described.ok) throw new Error(described.error);
const target = described.value;

const CHALLENGE = 'Digest realm="r", qop="auth, auth-int", algorithm=SHA-256, nonce="n0nce"';
const SENT = "<note>sent</note>";
const REPLY = "<protected><user>alice</user></protected>";
/** A grant's body in ISO-8859-1: its è is no UTF-8. */
const LATIN_1_REPLY = Buffer.from("<protected><city>Genève</city></protected>", "latin1");

function recorded(method: string, headers: Record<string, string>, body: string, reply: RecordedRequest["reply"]) {
  return { server: "base", method, target: "/protected", headers, body, at: "", reply } as const;
}

/**
 * A challenge, then a POST with qop=auth-int granted with the rspauth `rspauthOf` computes, the
 * grant's body recorded as the interop proxy keeps it.
 */
function exchange(
  rspauthOf: (answer: ReturnType<typeof answerChallenge>) => string,
  replyBody: KeptBody = { body: REPLY },
) {
  const challenge = digestChallenges(CHALLENGE);
  if (!challenge.ok || !challenge.value[0]) throw new Error("the test's challenge does not parse");
  const answer = answerChallenge(
    challenge.value[0],
    "SHA-256",
    { method: "POST", uri: "/protected", body: SENT },
    { ...USER, qop: "auth-int" },
  );
  const info = [{ name: "rspauth", value: rspauthOf(answer), quoted: true }];
  const requests: RecordedRequest[] = [
    recorded("GET", {}, "", { status: 401, headers: { "www-authenticate": CHALLENGE }, body: "" }),
    recorded("POST", { authorization: authorizationOf(answer.directives) }, SENT, {
      status: 200,
      headers: { "content-type": "application/xml;charset=UTF-8", "authentication-info": formatParams(info) },
      ...replyBody,
    }),
  ];
  const broken = judgeServerExchange({
    task: "digest-post",
    requests,
    target,
    subjectPath: "/protected",
    proxied: { base: "" },
  });
  return broken.filter((row) => row.id === "DIG-11");
}

it("DIG-11: auth-int's rspauth over the reply's body breaks nothing; over the request's body, or random, breaks the row", () => {
  assert.deepEqual(
    exchange((answer) => rspauthDigest(answer.input, REPLY)),
    [],
  );
  assert.equal(exchange((answer) => rspauthDigest(answer.input, SENT)).length, 1);
  assert.equal(exchange(() => "0".repeat(64)).length, 1);
});

it("DIG-11 on a reply body that is not UTF-8: rspauth over its bytes breaks nothing; over its text read as UTF-8, the row", () => {
  const kept = keptBody(LATIN_1_REPLY);
  assert.deepEqual(
    exchange((answer) => rspauthDigest(answer.input, LATIN_1_REPLY), kept),
    [],
  );
  assert.equal(exchange((answer) => rspauthDigest(answer.input, kept.body), kept).length, 1);
});
