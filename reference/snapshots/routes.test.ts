import assert from "node:assert/strict";
import { test } from "node:test";
import { readAtomEntry } from "../../lib/atom.ts";
import { formatHttpDate, parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE, mediaTypeMatches } from "../../lib/media-type.ts";
import type { ReferenceContext, Variant } from "../context.ts";
import type { FaultName } from "../faults.ts";
import type { Reply } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { snapshotRoutes } from "./routes.ts";

const BASE = "http://ref.test:8080";
const START = Date.UTC(2026, 0, 1, 12, 0, 0) + 250;

function server(options: { variant?: Variant; faults?: FaultName[] } = {}) {
  const context: ReferenceContext = {
    urls: { base: BASE, contacts: "", messaging: "" },
    faults: new Set(options.faults ?? []),
    variant: options.variant ?? "standard",
  };
  const clock = { ms: START };
  const routes = [snapshotRoutes(context, { now: () => clock.ms })];
  const send = (
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body: string | Buffer = "",
  ): Promise<Reply> => dispatch(routes, { method, path, target: path, headers, body: async () => Buffer.from(body) });
  return { clock, send };
}

function entry(content: string, id = "urn:uuid:5d0c1f0e-0000-4000-8000-000000000001"): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>Ada</name></author><title>t</title><id>${id}</id><content type="html" xml:lang="en">${content}</content></entry>`;
}

const PUT_TYPE = { "content-type": ATOM_ENTRY_TYPE };

function headerValue(reply: Reply, name: string): string | undefined {
  const value = reply.headers?.[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function bodyOf(reply: Reply) {
  const read = readAtomEntry(String(reply.body));
  assert.ok(read.ok, String(reply.body));
  return read.entry;
}

function link(reply: Reply, rel: string): string | undefined {
  return bodyOf(reply).links.find((l) => l.rel === rel)?.href;
}

async function created(s: ReturnType<typeof server>, path = "/entries/a") {
  const reply = await s.send("PUT", path, { ...PUT_TYPE, "if-none-match": "*" }, entry("v1"));
  assert.equal(reply.status, 201);
  return reply;
}

async function update(s: ReturnType<typeof server>, content: string, path = "/entries/a") {
  const etag = headerValue(await s.send("GET", path), "etag") as string;
  return s.send("PUT", path, { ...PUT_TYPE, "if-match": etag }, entry(content));
}

test("creation answers 201 with an absolute Location and makes no snapshot", async () => {
  const s = server();
  const reply = await created(s);
  assert.equal(headerValue(reply, "location"), `${BASE}/entries/a`);
  const current = await s.send("GET", "/entries/a");
  assert.equal(current.status, 200);
  assert.ok(mediaTypeMatches(headerValue(current, "content-type"), ATOM_ENTRY_TYPE));
  assert.equal(headerValue(current, "last-modified"), formatHttpDate(new Date(START - 250)));
  assert.match(headerValue(current, "etag") ?? "", /^"[^"]+"$/);
  assert.equal(link(current, "self"), `${BASE}/entries/a`);
  assert.equal(link(current, "previous"), undefined);
  assert.equal((await s.send("GET", "/entries/a/s1")).status, 404);
});

test("an update with If-Unmodified-Since keeps the old state as s1 and answers 204", async () => {
  const s = server();
  await created(s);
  const lastModified = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  const reply = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": lastModified }, entry("v2"));
  assert.equal(reply.status, 204);
  assert.equal(reply.body, undefined);
  const current = await s.send("GET", "/entries/a");
  assert.equal(bodyOf(current).content?.text, "v2");
  assert.equal(link(current, "previous"), `${BASE}/entries/a/s1`);
  const s1 = await s.send("GET", "/entries/a/s1");
  assert.equal(s1.status, 200);
  assert.equal(bodyOf(s1).content?.text, "v1");
  assert.equal(link(s1, "self"), `${BASE}/entries/a/s1`);
  assert.equal(link(s1, "next"), `${BASE}/entries/a`);
  assert.equal(link(s1, "previous"), undefined);
});

test("a chain links previous and next both ways and keeps the id", async () => {
  const s = server();
  await created(s);
  for (const content of ["v2", "v3", "v4"]) assert.equal((await update(s, content)).status, 204);
  const s2 = await s.send("GET", "/entries/a/s2");
  assert.equal(link(s2, "previous"), `${BASE}/entries/a/s1`);
  assert.equal(link(s2, "next"), `${BASE}/entries/a/s3`);
  assert.equal(link(await s.send("GET", "/entries/a/s3"), "next"), `${BASE}/entries/a`);
  assert.equal(link(await s.send("GET", "/entries/a"), "previous"), `${BASE}/entries/a/s3`);
  for (const path of ["/entries/a", "/entries/a/s1", "/entries/a/s2", "/entries/a/s3"]) {
    assert.equal(bodyOf(await s.send("GET", path)).id, "urn:uuid:5d0c1f0e-0000-4000-8000-000000000001");
  }
  assert.equal((await s.send("GET", "/entries/a/s4")).status, 404);
});

test("no lost update within one second: a date read before the last update gets 412", async () => {
  const s = server();
  await created(s);
  const readByAlice = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  const readByBob = readByAlice;
  s.clock.ms += 300;
  const alice = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": readByAlice }, entry("alice"));
  assert.equal(alice.status, 204);
  s.clock.ms += 300;
  const bob = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": readByBob }, entry("bob"));
  assert.equal(bob.status, 412);
  // Never a Last-Modified later than now, even though the stored date is the next second.
  assert.equal(headerValue(await s.send("GET", "/entries/a"), "last-modified"), readByAlice);
  s.clock.ms += 1000;
  const reread = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  assert.notEqual(reread, readByAlice);
  const retry = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": reread }, entry("bob"));
  assert.equal(retry.status, 204);
  assert.equal(bodyOf(await s.send("GET", "/entries/a/s2")).content?.text, "alice");
});

test("If-Match allows a burst of updates within one second, which does not push dates ahead", async () => {
  const s = server();
  await created(s);
  const before = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  for (const content of ["v2", "v3", "v4", "v5"]) assert.equal((await update(s, content)).status, 204);
  assert.equal(link(await s.send("GET", "/entries/a"), "previous"), `${BASE}/entries/a/s4`);
  const stale = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": before }, entry("x"));
  assert.equal(stale.status, 412);
  s.clock.ms += 1000;
  const reread = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  const next = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": reread }, entry("v6"));
  assert.equal(next.status, 204);
});

test("DELETE removes the resource and every snapshot", async () => {
  const s = server();
  await created(s);
  await update(s, "v2");
  assert.equal((await s.send("DELETE", "/entries/a")).status, 204);
  for (const path of ["/entries/a", "/entries/a/s1"]) assert.equal((await s.send("GET", path)).status, 404);
  assert.equal((await s.send("DELETE", "/entries/a")).status, 404);
});

test("refused requests answer with an XML error and change nothing", async () => {
  const s = server();
  await created(s);
  const lm = headerValue(await s.send("GET", "/entries/a"), "last-modified") as string;
  const cases: Array<[string, string, Record<string, string>, string, number]> = [
    ["PUT", "/entries/a", PUT_TYPE, entry("x"), 428],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": "not a date" }, entry("x"), 428],
    ["PUT", "/entries/a", { "content-type": "text/plain", "if-unmodified-since": lm }, entry("x"), 415],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": lm }, "<entry", 400],
    [
      "PUT",
      "/entries/a",
      { ...PUT_TYPE, "if-unmodified-since": lm },
      "<feed xmlns='http://www.w3.org/2005/Atom'/>",
      400,
    ],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": lm }, entry("x", "urn:other"), 409],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-none-match": "*" }, entry("x"), 412],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-match": '"nope"' }, entry("x"), 412],
    ["POST", "/entries/a", PUT_TYPE, entry("x"), 405],
    ["PUT", "/entries/a/s1", PUT_TYPE, entry("x"), 405],
    ["DELETE", "/entries/a/s1", {}, "", 405],
    ["PUT", "/entries/a", { ...PUT_TYPE, "if-unmodified-since": lm }, "", 400],
    [
      "PUT",
      "/entries/a",
      { ...PUT_TYPE, "if-unmodified-since": lm },
      "<entry xmlns='http://www.w3.org/2005/Atom'><x:y/></entry>",
      400,
    ],
    ["PUT", "/entries/b", PUT_TYPE, entry("x"), 428],
    ["GET", "/entries/b", {}, "", 404],
  ];
  for (const [method, path, headers, body, status] of cases) {
    const reply = await s.send(method, path, headers, body);
    assert.equal(reply.status, status, `${method} ${path} ${JSON.stringify(headers)} ${body}`);
    assert.match(String(reply.body), /<error><message>.+<\/message><\/error>/);
    if (status === 405) assert.ok(headerValue(reply, "allow"));
  }
  assert.equal(bodyOf(await s.send("GET", "/entries/a")).content?.text, "v1");
  assert.equal((await s.send("GET", "/entries/a/s1")).status, 404);
});

test("a body that is not UTF-8 is refused with 400", async () => {
  const s = server();
  await created(s);
  const etag = headerValue(await s.send("GET", "/entries/a"), "etag") as string;
  const latin1 = Buffer.from(entry("caf\u00e9"), "latin1");
  const reply = await s.send("PUT", "/entries/a", { ...PUT_TYPE, "if-match": etag }, latin1);
  assert.equal(reply.status, 400);
  assert.match(String(reply.body), /not UTF-8/);
});

test("HEAD answers like GET, and unknown shapes under the collection are not found", async () => {
  const s = server();
  await created(s);
  const head = await s.send("HEAD", "/entries/a");
  assert.equal(head.status, 200);
  assert.ok(headerValue(head, "last-modified"));
  for (const path of ["/entries/a/s0", "/entries/a/x", "/entries/a/s1/more", "/entries/..", "/entries/"]) {
    assert.equal((await s.send("GET", path)).status, 404, path);
  }
});

test("precondition order: 404 and 415 before 412, 412 before a bad body", async () => {
  const s = server();
  assert.equal((await s.send("GET", "/entries/none", { "if-match": '"x"' })).status, 404);
  await created(s);
  const stale = { "if-unmodified-since": "Thu, 01 Jan 2026 11:00:00 GMT" };
  assert.equal((await s.send("PUT", "/entries/a", { "content-type": "text/plain", ...stale }, entry("x"))).status, 415);
  assert.equal((await s.send("PUT", "/entries/a", { ...PUT_TYPE, ...stale }, "<entry")).status, 412);
});

test("the alternative variant makes the other choices the spec leaves open", async () => {
  const s = server({ variant: "alternative" });
  await created(s);
  await update(s, "v2");
  // s1 links to s0, where no snapshot is: a walk back ends on its 404, never back in the chain.
  assert.equal(link(await s.send("GET", "/entries/a/s1"), "previous"), `${BASE}/entries/a/s0`);
  assert.equal((await s.send("GET", "/entries/a/s0")).status, 404);
  const stale = { "if-unmodified-since": "Thu, 01 Jan 2026 11:00:00 GMT" };
  assert.equal((await s.send("PUT", "/entries/a", { ...PUT_TYPE, ...stale }, entry("x"))).status, 409);
  const deleted = await s.send("DELETE", "/entries/a");
  assert.equal(deleted.status, 200);
  assert.match(String(deleted.body), /<deleted>/);
  for (const path of ["/entries/a", "/entries/a/s1"]) assert.equal((await s.send("GET", path)).status, 410);
  assert.equal((await s.send("GET", "/entries/a/s2")).status, 404);
});

test("Date and Last-Modified come from one reading of the clock, so Date is never before Last-Modified", async () => {
  const s = server();
  // START is 250 ms into a second: an update at 950 ms stores the next second; reads on either side follow.
  s.clock.ms = START + 700;
  await created(s);
  await update(s, "v2");
  const seen: string[] = [];
  for (const ms of [START + 720, START + 740, START + 760, START + 1250]) {
    s.clock.ms = ms;
    for (const path of ["/entries/a", "/entries/a/s1"]) {
      const reply = await s.send("GET", path);
      const date = parseHttpDate(headerValue(reply, "date"));
      const lastModified = parseHttpDate(headerValue(reply, "last-modified"));
      assert.ok(date && lastModified, `${path} at ${ms - START} ms: ${JSON.stringify(reply.headers)}`);
      assert.ok(date >= lastModified, `${path} at ${ms - START} ms: Date ${date} before Last-Modified ${lastModified}`);
      seen.push(`${date.getUTCSeconds()}/${lastModified.getUTCSeconds()}`);
    }
  }
  // The clock crossed a second between replies: both fields moved with it.
  assert.deepEqual(seen, ["0/0", "0/0", "0/0", "0/0", "1/1", "1/0", "1/1", "1/0"]);
});
