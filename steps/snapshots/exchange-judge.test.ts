// The snapshots judge of `sxd interop`, row by row: a reply that breaks the row, and the same
// exchange with that reply right, which breaks nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import type { ServerExchange } from "../../harness/interop/judging.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { judgeServerExchange } from "./exchange-judge.ts";

const described = resolveDescription([{ baseUrl: "http://b.test" }]);
if (!described.ok) throw new Error(described.error);
const target = described.value;
const PATH = "/entries/e1";
const DATE = "Thu, 26 Nov 2026 11:47:50 GMT";

interface EntryParts {
  title?: string;
  author?: boolean;
  self?: string | null;
  previous?: string | null;
  next?: string | null;
}

function entry({ title = "Third", author = true, self, previous = null, next = null }: EntryParts): string {
  const link = (rel: string, href: string | null | undefined) => (href ? `<link rel="${rel}" href="${href}"/>` : "");
  return `<?xml version="1.0"?>
<entry xmlns="http://www.w3.org/2005/Atom">
  <id>urn:uuid:1</id><title>${title}</title><updated>2026-11-26T11:47:50Z</updated>
  ${author ? "<author><name>sxd</name></author>" : ""}<content type="text">${title}</content>
  ${link("self", self === undefined ? `http://b.test${PATH}` : self)}${link("previous", previous)}${link("next", next)}
</entry>`;
}

function get(target: string, body: string, headers: Record<string, string> = {}): RecordedRequest {
  return {
    server: "base",
    method: "GET",
    target,
    headers: {},
    body: "",
    at: "",
    reply: { status: 200, headers: { "content-type": ATOM_ENTRY_TYPE, "last-modified": DATE, ...headers }, body },
  };
}

const current = (parts: EntryParts = {}, headers: Record<string, string> = {}) => get(PATH, entry(parts), headers);
const snapshot = (parts: EntryParts) => get(`${PATH}/s2`, entry({ self: `http://b.test${PATH}/s2`, ...parts }));

function put(status: number, title: string, replyBody = "", conditions = { "if-unmodified-since": DATE }) {
  return {
    server: "base",
    method: "PUT",
    target: PATH,
    headers: { "content-type": ATOM_ENTRY_TYPE, ...conditions },
    body: entry({ title }),
    at: "",
    reply: { status, headers: {}, body: replyBody },
  } satisfies RecordedRequest;
}

const judged = (task: ServerExchange["task"], requests: RecordedRequest[]) =>
  judgeServerExchange({ task, requests, target, subjectPath: PATH, proxied: { base: "http://127.0.0.1:1" } }).map(
    (row) => row.id,
  );

const withPrevious = { previous: `http://b.test${PATH}/s2` };
const snapshotLinks = { previous: `http://b.test${PATH}/s1`, next: `http://b.test${PATH}` };

describe("the snapshots judge of sxd interop", () => {
  it("finds nothing in right exchanges, and judges no other task", () => {
    assert.deepEqual(judged("update", [current(), put(204, "New"), current({ title: "New" })]), []);
    assert.deepEqual(judged("history", [current(withPrevious), snapshot(snapshotLinks)]), []);
    assert.deepEqual(judged("export", [current({}, { "content-type": "text/plain" })]), []);
  });

  it("SNAP-1: the current entry is an Atom entry with Last-Modified, title, id, author, content and an absolute self link", () => {
    assert.deepEqual(judged("update", [current({}, { "content-type": "application/xml" })]), ["SNAP-1"]);
    assert.deepEqual(judged("update", [get(PATH, "not xml")]), ["SNAP-1"]);
    assert.deepEqual(judged("update", [current({ author: false })]), ["SNAP-1"]);
    assert.deepEqual(judged("update", [current({ self: "/entries/e1" })]), ["SNAP-1"]);
    const noDate = current();
    delete noDate.reply.headers["last-modified"];
    assert.deepEqual(judged("update", [noDate]), ["SNAP-1"]);
    assert.deepEqual(judged("update", [current()]), []);
  });

  it("SNAP-4: an entry of several versions has an absolute previous link", () => {
    assert.deepEqual(judged("history", [current()]), ["SNAP-4"]);
    assert.deepEqual(judged("history", [current({ previous: "/entries/e1/s2" })]), ["SNAP-4"]);
    assert.deepEqual(judged("history", [current(withPrevious)]), []);
  });

  it("SNAP-5: a snapshot is an Atom entry with self and next links", () => {
    assert.deepEqual(judged("history", [current(withPrevious), snapshot({ ...snapshotLinks, next: null })]), [
      "SNAP-5",
    ]);
    assert.deepEqual(judged("history", [current(withPrevious), snapshot({ ...snapshotLinks, self: null })]), [
      "SNAP-5",
    ]);
    const untyped = get(`${PATH}/s2`, entry(snapshotLinks), { "content-type": "text/xml" });
    assert.deepEqual(judged("history", [current(withPrevious), untyped]), ["SNAP-5"]);
  });

  it("SNAP-2: a conditional PUT of an entry is answered 204 (or 412), without a body", () => {
    assert.deepEqual(judged("update", [current(), put(200, "New")]), ["SNAP-2"]);
    assert.deepEqual(judged("update", [current(), put(204, "New", "<entry/>")]), ["SNAP-2"]);
    assert.deepEqual(judged("update", [current(), put(412, "New")]), []);
    // Not conditional on the date the server sent: the server may refuse it as it likes.
    assert.deepEqual(judged("update", [current(), put(428, "New", "", { "if-unmodified-since": "" })]), []);
    // An entry whose id is not the one read breaks CSNAP-3: refusing it is right; the same with the id kept is not.
    const changedId = { ...put(409, "New"), body: entry({ title: "New" }).replace("urn:uuid:1", "urn:uuid:2") };
    assert.deepEqual(judged("update", [current(), changedId]), []);
    assert.deepEqual(judged("update", [current(), put(409, "New")]), ["SNAP-2"]);
  });

  it("SNAP-8: a read after a granted PUT serves the title put", () => {
    assert.deepEqual(judged("update", [current(), put(204, "New"), current({ title: "Third" })]), ["SNAP-8"]);
    assert.deepEqual(judged("update", [current(), put(412, "New"), current({ title: "Third" })]), []);
  });
});
