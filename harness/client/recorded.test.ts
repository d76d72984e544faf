import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecordedRequest } from "../../lib/recording.ts";
import { credentialsLeftOut, readHar } from "./har.ts";
import { runsOfRecording } from "./recorded.ts";

const ATOM = "http://www.w3.org/2005/Atom";

function request(method: string, target: string, status: number, more: Partial<RecordedRequest> = {}): RecordedRequest {
  return {
    server: "base",
    method,
    target,
    headers: { host: "h" },
    body: "",
    at: "2026-11-25T10:00:00.000Z",
    reply: { status, headers: {}, body: "" },
    ...more,
  };
}

const entry = (previous?: string) =>
  `<entry xmlns="${ATOM}"><id>urn:x</id><title>t</title>${previous ? `<link rel="previous" href="${previous}"/>` : ""}</entry>`;

describe("a recording split into the tasks it shows", () => {
  it("digest requests make one run in order; digest-post only where one is not a GET", () => {
    const challenged = request("GET", "/p", 401, {
      reply: { status: 401, headers: { "www-authenticate": 'Digest realm="r", nonce="n"' }, body: "" },
    });
    const answered = request("GET", "/p", 200, { headers: { host: "h", authorization: 'Digest username="u"' } });
    const plain = request("GET", "/other", 200);
    const runs = runsOfRecording([challenged, plain, answered], "recorded in a.har");
    // Every request of the client, in order: the secret is looked for in all of them.
    assert.deepEqual(
      runs.map((run) => [run.task, run.requests.map((r) => r.target), run.environment.SXD_URL, run.recorded]),
      [["digest-get", ["/p", "/other", "/p"], "http://h/p", "recorded in a.har"]],
    );
    const posted = request("POST", "/p", 200, { headers: { host: "h", authorization: "Digest x=1" } });
    assert.deepEqual(
      runsOfRecording([challenged, posted], "r").map((run) => [run.task, run.requests.length]),
      [
        ["digest-get", 2],
        ["digest-post", 2],
      ],
    );
  });

  it("an update is the reads and PUTs of the first entry put; a history the walk of the first entry whose previous link was followed", () => {
    const runs = runsOfRecording(
      [
        request("GET", "/e/1", 200, { reply: { status: 200, headers: {}, body: entry() } }),
        request("PUT", "/e/1", 204),
        request("GET", "/e/2", 200, { reply: { status: 200, headers: {}, body: entry("http://h/e/2/s1") } }),
        request("GET", "/e/2/s1", 200, { reply: { status: 200, headers: {}, body: entry() } }),
        request("PUT", "/e/3", 204),
      ],
      "r",
    );
    assert.deepEqual(
      runs.map((run) => [run.task, run.requests.map((r) => `${r.method} ${r.target}`)]),
      [
        ["update", ["GET /e/1", "PUT /e/1"]],
        ["history", ["GET /e/2", "GET /e/2/s1"]],
      ],
    );
  });

  it("a PUT of something that is no entry is not the update", () => {
    const runs = runsOfRecording(
      [request("PUT", "/settings", 204, { body: '{"theme":"dark"}' }), request("PUT", "/e/9", 204, { body: entry() })],
      "r",
    );
    assert.deepEqual(
      runs.map((run) => [run.task, run.environment.SXD_URL]),
      [["update", "http://h/e/9"]],
    );
  });

  it("a recording of nothing the tasks know shows no task", () => {
    assert.deepEqual(runsOfRecording([request("GET", "/", 200)], "r"), []);
  });
});

describe("a HAR file read as a recording", () => {
  const list = `<contacts xmlns:atom="${ATOM}"><atom:link rel="self" href="https://c.example/user/a/contacts"/><atom:link rel="urn:export" href="https://m.example/user/a/import;t=1"/></contacts>`;
  const har = (entries: unknown[]) => JSON.stringify({ log: { entries } });
  const entryOf = (method: string, url: string, status: number, text = "") => ({
    startedDateTime: "2026-11-25T10:00:00.000Z",
    request: { method, url, headers: [{ name: ":authority", value: new URL(url).host }] },
    response: { status, headers: [], content: { text } },
  });

  it("tells the servers apart by the contact list and its links, keeps https, and reads :authority as Host", () => {
    const read = readHar(
      har([
        entryOf("GET", "https://c.example/user/a/contacts", 200, list),
        entryOf("POST", "https://m.example/user/a/import;t=1", 303),
        entryOf("GET", "https://m.example/user/a", 200, `<contacts xmlns:atom="${ATOM}"/>`),
        entryOf("GET", "https://e.example/entries/1", 200),
        entryOf("GET", "https://e.example/gone", 0),
      ]),
      "a.har",
    );
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.map((r) => [r.server, r.method, r.origin, r.headers.host, r.target]),
      [
        ["contacts", "GET", "https://c.example", "c.example", "/user/a/contacts"],
        ["messaging", "POST", "https://m.example", "m.example", "/user/a/import;t=1"],
        ["messaging", "GET", "https://m.example", "m.example", "/user/a"],
        ["base", "GET", "https://e.example", "e.example", "/entries/1"],
      ],
    );
  });

  it("orders the entries by their time, whatever its form, and leaves out what was not sent", () => {
    const at = (time: string, url: string, more: object = {}) => ({
      ...entryOf("GET", url, 200),
      startedDateTime: time,
      ...more,
    });
    const read = readHar(
      har([
        at("2026-11-25T11:00:00.5+01:00", "https://e.example/b"),
        at("2026-11-25T10:00:00Z", "https://e.example/a"),
        at("2026-11-25T10:00:00.2Z", "https://e.example/cached", { _fromCache: "memory" }),
        at("2026-11-25T10:00:00.3Z", "https://e.example/failed", { response: { status: -1 } }),
      ]),
      "a.har",
    );
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.map((r) => r.target),
      ["/a", "/b"],
    );
  });

  it("tells a recording that left the credentials out", () => {
    const challenge = { name: "WWW-Authenticate", value: 'Digest realm="r", nonce="n"' };
    const read = readHar(
      har([
        { ...entryOf("GET", "https://e.example/p", 401), response: { status: 401, headers: [challenge] } },
        entryOf("GET", "https://e.example/p", 200),
      ]),
      "a.har",
    );
    assert.ok(read.ok);
    assert.equal(credentialsLeftOut(read.value)?.reply.status, 200);
    assert.equal(credentialsLeftOut(read.value.slice(0, 1)), undefined);
  });

  it("says what is wrong with a file that is not one, naming the entry", () => {
    assert.match((readHar("{", "a.har") as { error: string }).error, /^a\.har(:\d+:\d+)?: not JSON/);
    // A long file cut short: the place is its end, found without parsing every prefix.
    const cut = `{"log":{"entries":[${'{"x":1},'.repeat(50_000)}`;
    assert.equal(
      (readHar(cut, "big.har") as { error: string }).error,
      "big.har:1:400020: not JSON: Unexpected end of JSON input",
    );
    assert.deepEqual(readHar("[]", "a.har"), { ok: false, error: "a.har: not a HAR file (no log.entries list)" });
    assert.deepEqual(readHar(har([{ request: { method: "GET", url: "/x" }, response: { status: 200 } }]), "a.har"), {
      ok: false,
      error: 'a.har: entry 1: the url "/x" is not absolute',
    });
  });
});
