// The export judge of `sxd interop`, row by row: a reply that breaks the row, and the same
// exchange with that reply right, which breaks nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import type { ServerExchange } from "../../harness/interop/judging.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { judgeServerExchange } from "./exchange-judge.ts";

const described = resolveDescription([
  {
    baseUrl: "http://b.test",
    contactsUrl: "http://c.test",
    messagingUrl: "http://m.test",
    export: { user: "alice", rel: "http://rel.test/export" },
  },
]);
if (!described.ok) throw new Error(described.error);
const target = described.value;
const XML = "application/xml;charset=UTF-8";

function list(links: { self?: string; exportHref?: string; title?: string }): string {
  const { self = "http://c.test/user/alice/contacts", exportHref = "http://m.test/user/alice/import;t=abc" } = links;
  const title = links.title === undefined ? ' title="Export"' : links.title === "" ? "" : ` title="${links.title}"`;
  return `<?xml version="1.0"?>
<contacts xmlns:atom="http://www.w3.org/2005/Atom">
  ${self ? `<atom:link rel="self" href="${self}"/>` : ""}
  ${exportHref ? `<atom:link rel="http://rel.test/export" href="${exportHref}"${title}/>` : ""}
  <contact><name>Bob</name></contact>
</contacts>`;
}

function read(status: number, body: string, type = XML): RecordedRequest {
  return {
    server: "contacts",
    method: "GET",
    target: "/user/alice/contacts",
    headers: {},
    body: "",
    at: "",
    reply: { status, headers: { "content-type": type }, body },
  };
}

function exported(status: number, location: string | undefined, type = XML): RecordedRequest {
  return {
    server: "messaging",
    method: "POST",
    target: "/user/alice/import;t=abc",
    headers: {},
    body: "",
    at: "",
    reply: {
      status,
      headers: { "content-type": type, ...(location !== undefined ? { location } : {}) },
      body: "<contacts/>",
    },
  };
}

const judged = (requests: RecordedRequest[], more: Partial<ServerExchange> = {}) =>
  judgeServerExchange({
    task: "export",
    requests,
    target,
    subjectPath: "/user/alice/contacts",
    proxied: { base: "http://127.0.0.1:1", contacts: "http://127.0.0.1:2", messaging: "http://127.0.0.1:3" },
    ...more,
  }).map((row) => row.id);

const good = () => [read(200, list({})), exported(303, "/user/alice")];

describe("the export judge of sxd interop", () => {
  it("finds nothing in a right exchange, and judges no other task", () => {
    assert.deepEqual(judged(good()), []);
    assert.deepEqual(judged([read(500, "")], { task: "digest-get" }), []);
  });

  it("EXP-1: the list read is 200, application/xml;charset=UTF-8, a contact list", () => {
    assert.deepEqual(judged([read(404, "")]), ["EXP-1"]);
    assert.deepEqual(judged([read(200, list({}), "text/plain")]), ["EXP-1"]);
    assert.deepEqual(judged([read(200, "<html/>")]), ["EXP-1"]);
    assert.deepEqual(judged([read(200, list({}))]), []);
  });

  it("EXP-2: the list has a self link with an absolute href", () => {
    assert.deepEqual(judged([read(200, list({ self: "/user/alice/contacts" }))]), ["EXP-2"]);
    assert.deepEqual(judged([read(200, list({ self: "" }))]), ["EXP-2"]);
  });

  it("EXP-3: the export link is /user/<user>/import;t=<token> on the messaging server, with a title", () => {
    assert.deepEqual(judged([read(200, list({ exportHref: "" }))]), ["EXP-3"]);
    assert.deepEqual(judged([read(200, list({ title: "" }))]), ["EXP-3"]);
    assert.deepEqual(judged([read(200, list({ exportHref: "http://m.test/user/alice/import?t=abc" }))]), ["EXP-3"]);
    assert.deepEqual(judged([read(200, list({ exportHref: "http://elsewhere.test/user/alice/import;t=abc" }))]), [
      "EXP-3",
    ]);
    // On the proxy the client was given is on the messaging server too.
    assert.deepEqual(judged([read(200, list({ exportHref: "http://127.0.0.1:3/user/alice/import;t=abc" }))]), []);
  });

  it("EXP-4: a bodiless export POST is answered 303 to /user/<user>, application/xml;charset=UTF-8", () => {
    assert.deepEqual(judged([read(200, list({})), exported(302, "/user/alice")]), ["EXP-4"]);
    assert.deepEqual(judged([read(200, list({})), exported(303, "http://c.test/user/alice/contacts")]), ["EXP-4"]);
    assert.deepEqual(judged([read(200, list({})), exported(303, undefined)]), ["EXP-4"]);
    assert.deepEqual(judged([read(200, list({})), exported(303, "/user/alice", "text/html")]), ["EXP-4"]);
    assert.deepEqual(judged([read(200, list({})), exported(303, "http://m.test/user/alice")]), []);
  });

  it("EXP-5: after a 303, the contacts are on the messaging server; no 303, no EXP-5", () => {
    const missing = { effectProblem: "1 of 1 contacts are not on the messaging server" };
    assert.deepEqual(judged(good(), missing), ["EXP-5"]);
    assert.deepEqual(judged([read(200, list({})), exported(403, undefined)], missing), ["EXP-4"]);
    assert.deepEqual(judged(good()), []);
  });
});
