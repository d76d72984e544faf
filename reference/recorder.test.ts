import assert from "node:assert/strict";
import { after, test } from "node:test";
import { parseChallenges } from "../lib/auth-params.ts";
import { hashA1, responseDigest } from "../lib/digest-math.ts";
import { REALM } from "./digest/routes.ts";
import { CLIENT_CONTACT_LIST_PATH, CLIENT_PROTECTED_PATH, startRecordingReference } from "./index.ts";

const bench = await startRecordingReference({ host: "127.0.0.1" });
after(() => bench.close());
const url = `${bench.urls.base}${CLIENT_PROTECTED_PATH}`;

/** Answers the challenge of a 401 rightly, with MD5 and qop auth. */
async function answer(challenged: Response, method = "GET", body?: string): Promise<Response> {
  const items = parseChallenges(challenged.headers.get("www-authenticate") ?? "");
  assert.ok(items.ok);
  const md5 = items.value.find((item) => item.params.get("algorithm") === "MD5");
  const nonce = md5?.params.get("nonce") ?? "";
  const { username, password } = bench.user;
  const input = { algorithm: "MD5" as const, ha1: hashA1("MD5", username, REALM, password), nonce, method };
  const digest = { ...input, uri: CLIENT_PROTECTED_PATH, qop: "auth" as const, nc: "00000001", cnonce: "c1" };
  const opaque = md5?.params.get("opaque");
  const authorization = `Digest username="${username}", realm="${REALM}", nonce="${nonce}", uri="${CLIENT_PROTECTED_PATH}", response="${responseDigest(digest)}", algorithm=MD5, qop=auth, nc=00000001, cnonce="c1", opaque="${opaque}"`;
  return fetch(url, { method, body, headers: { authorization } });
}

test("every request is recorded with its reply, and a take starts the recording again", async () => {
  const challenged = await fetch(url);
  assert.equal(challenged.status, 401);
  const granted = await answer(challenged, "POST", "hello");
  assert.equal(granted.status, 200);
  assert.match(await granted.text(), /<received>hello<\/received>/);
  const recorded = bench.takeRecording();
  assert.deepEqual(
    recorded.map((r) => [r.server, r.method, r.target, r.reply.status, r.body]),
    [
      ["base", "GET", CLIENT_PROTECTED_PATH, 401, ""],
      ["base", "POST", CLIENT_PROTECTED_PATH, 200, "hello"],
    ],
  );
  assert.match(String(recorded[1]?.headers.authorization), /^Digest username="demo"/);
  assert.deepEqual(bench.takeRecording(), []);
});

test("staged: a right answer is refused once without stale, then once as stale", async () => {
  bench.stage({ condition: "wrong-credentials" });
  const refused = await answer(await fetch(url));
  assert.equal(refused.status, 401);
  assert.doesNotMatch(refused.headers.get("www-authenticate") ?? "", /stale/);
  assert.equal((await answer(refused)).status, 200);
  bench.stage({ condition: "stale-nonce" });
  const stale = await answer(await fetch(url));
  assert.equal(stale.status, 401);
  assert.match(stale.headers.get("www-authenticate") ?? "", /stale=true/);
  assert.equal((await answer(stale)).status, 200);
  bench.stage({});
  bench.takeRecording();
});

test("each challenge of a 401 has a nonce of its own; an offer staged with a condition; auth-int alone", async () => {
  const offered = async () => {
    const items = parseChallenges((await fetch(url)).headers.get("www-authenticate") ?? "");
    assert.ok(items.ok);
    return items.value.map((item) => [item.params.get("algorithm"), item.params.get("qop"), item.params.get("nonce")]);
  };
  const plain = await offered();
  assert.deepEqual(
    plain.map(([algorithm, qop]) => [algorithm, qop]),
    [
      ["SHA-256", "auth, auth-int"],
      ["MD5", "auth, auth-int"],
    ],
  );
  assert.notEqual(plain[0]?.[2], plain[1]?.[2]);
  bench.stage({ condition: "wrong-credentials", offer: "md5-first" });
  assert.deepEqual(
    (await offered()).map(([algorithm]) => algorithm),
    ["MD5", "SHA-256"],
  );
  const refused = await answer(await fetch(url));
  assert.equal(refused.status, 401);
  assert.equal((await answer(refused)).status, 200);
  bench.stage({ condition: "auth-int-only" });
  assert.deepEqual(
    (await offered()).map(([, qop]) => qop),
    ["auth-int", "auth-int"],
  );
  bench.stage({});
  bench.takeRecording();
});

test("an entry made for a task has its versions; links name the host as localhost; a staged 412 acts once", async () => {
  const url = bench.prepareEntry(["one", "two"]);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/entries\/client-/);
  const current = await fetch(url);
  const body = await current.text();
  assert.match(body, /<title>two<\/title>/);
  assert.match(body, /<link rel="previous" href="http:\/\/localhost:\d+\/entries\/client-[^"]+\/s1"\/>/);
  bench.stage({ condition: "precondition-failed" });
  const lastModified = current.headers.get("last-modified") ?? "";
  const put = () =>
    fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/atom+xml;type=entry;charset=UTF-8", "if-unmodified-since": lastModified },
      body,
    });
  assert.equal((await put()).status, 412);
  assert.equal((await put()).status, 204);
  bench.stage({});
  assert.deepEqual(
    bench.takeRecording().map((r) => [r.method, r.reply.status]),
    [
      ["GET", 200],
      ["PUT", 412],
      ["PUT", 204],
    ],
  );
});

test("staged for a whole run: the contact list without its export link, and every import answered 503", async () => {
  const list = `${bench.urls.contacts}${CLIENT_CONTACT_LIST_PATH}`;
  const served = await (await fetch(list)).text();
  const href = /<atom:link rel="(?!self")[^"]*" href="([^"]*)"/.exec(served)?.[1] ?? "";
  assert.match(href, /\/user\/alice\/import;t=/);
  bench.stage({ condition: "no-export-link" });
  for (const _ of [1, 2]) {
    const bare = await (await fetch(list)).text();
    assert.doesNotMatch(bare, /import;t=/);
    assert.match(bare, /rel="self"/);
    assert.equal(bare.match(/<contact>/g)?.length, served.match(/<contact>/g)?.length);
  }
  bench.stage({ condition: "import-fails" });
  for (const _ of [1, 2])
    assert.equal((await fetch(href.replace("localhost", "127.0.0.1"), { method: "POST" })).status, 503);
  bench.stage({});
  assert.equal(
    (await fetch(href.replace("localhost", "127.0.0.1"), { method: "POST", redirect: "manual" })).status,
    303,
  );
  bench.takeRecording();
});
