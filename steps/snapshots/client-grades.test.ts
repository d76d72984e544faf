import assert from "node:assert/strict";
import { test } from "node:test";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { gradeIdKept, gradeRereadAfter412, gradeUnmodifiedSince, gradeUpdateForm } from "./client-grades.ts";
import { gradeWalk } from "./client-history.ts";

const HOST = "127.0.0.1:8080";
const PATH = "/entries/e";
const MONDAY = "Mon, 02 Mar 2026 10:00:00 GMT";

function entry(title: string, id = "urn:x:1", links: Record<string, string> = {}): string {
  const linked = Object.entries(links).map(([rel, href]) => `<link rel="${rel}" href="http://${HOST}${href}"/>`);
  return `<entry xmlns="http://www.w3.org/2005/Atom"><id>${id}</id><title>${title}</title><author><name>a</name></author><content>c</content>${linked.join("")}</entry>`;
}

function request(
  method: string,
  target: string,
  status: number,
  extra: Partial<RecordedRequest> = {},
): RecordedRequest {
  return {
    server: "base",
    method,
    target,
    headers: { host: HOST },
    body: "",
    at: "",
    reply: { status, headers: {}, body: "" },
    ...extra,
  };
}

const read = (title = "old", lastModified = MONDAY) =>
  request("GET", PATH, 200, { reply: { status: 200, headers: { "last-modified": lastModified }, body: entry(title) } });

function put(status: number, headers: Record<string, string> = {}, body = entry("new")): RecordedRequest {
  const sent = { host: HOST, "content-type": ATOM_ENTRY_TYPE, "if-unmodified-since": MONDAY, ...headers };
  return request("PUT", PATH, status, { headers: sent, body });
}

function run(requests: RecordedRequest[], task = "update", stdout = ""): TaskRun {
  const environment = { SXD_URL: `http://${HOST}${PATH}` };
  return { task, environment, exitCode: 0, timedOut: false, stdout, stderr: "", durationMs: 3, requests };
}

const good = run([read(), put(204)]);

test("a right update passes CSNAP-1, -2 and -3", () => {
  for (const grade of [gradeUpdateForm(good), gradeUnmodifiedSince(good), gradeIdKept(good)])
    assert.equal(grade.status, "passed", grade.reason);
});

test("an update without a PUT fails; a wrong type, a blind PUT, a stale date and a new id each fail their row", () => {
  assert.match(gradeUpdateForm(run([read()])).reason, /^the client sent no PUT to \/entries\/e \(exit 0 after 3 ms\)/);
  assert.match(
    gradeUpdateForm(run([read(), put(415, { "content-type": "application/xml" })])).reason,
    /request 2: Content-Type application\/xml, not/,
  );
  assert.match(
    gradeUpdateForm(run([read(), put(400, {}, "<entry/>")])).reason,
    /request 2: the body is not an Atom entry/,
  );
  assert.match(gradeUnmodifiedSince(run([put(428)])).reason, /request 1: a PUT without a read of the entry before it/);
  const stale = run([read("old", "Mon, 02 Mar 2026 11:00:00 GMT"), put(412)]);
  assert.match(
    gradeUnmodifiedSince(stale).reason,
    /If-Unmodified-Since Mon, 02 Mar 2026 10:00:00 GMT, but the read in request 1 said Last-Modified Mon, 02 Mar 2026 11:00:00 GMT/,
  );
  assert.match(
    gradeIdKept(run([read(), put(409, {}, entry("new", "urn:x:2"))])).reason,
    /request 2: entry id urn:x:2, but the entry has urn:x:1/,
  );
});

test("CSNAP-4: after a 412, a read before the next PUT; the refused PUT is the control", () => {
  assert.equal(gradeRereadAfter412(run([read(), put(412), read(), put(204)])).status, "passed");
  assert.match(
    gradeRereadAfter412(run([read(), put(412), put(204)])).reason,
    /request 3 is a PUT with no read of the entry before it/,
  );
  assert.match(gradeRereadAfter412(run([read(), put(412)])).reason, /sent no other PUT .*: it overwrote nothing/);
  assert.equal(gradeRereadAfter412(run([read(), put(400)])).status, "not run");
});

test("CSNAP-5: each version by a link as served, not past the end of the chain", () => {
  const current = request("GET", PATH, 200, {
    reply: { status: 200, headers: {}, body: entry("3", "urn:x:1", { previous: `${PATH}/s2` }) },
  });
  const s2 = request("GET", `${PATH}/s2`, 200, {
    reply: { status: 200, headers: {}, body: entry("2", "urn:x:1", { previous: `${PATH}/s1` }) },
  });
  const s1 = request("GET", `${PATH}/s1`, 200, { reply: { status: 200, headers: {}, body: entry("1") } });
  const walked = { ...run([current, s2, s1], "history", "3\n2\n1\n"), expectedOutput: ["3", "2", "1"] };
  assert.equal(
    gradeWalk(walked).reason,
    "3 read(s) of the entry and its snapshots, each by a link as served, and printed every title, newest first",
  );
  assert.match(
    gradeWalk(run([current, s1], "history")).reason,
    /^request 2: GET \/entries\/e\/s1 is no link sxd served before it/,
  );
  const past = request("GET", `${PATH}/s0`, 404);
  assert.match(
    gradeWalk(run([current, s2, s1, past], "history")).reason,
    /^request 4: GET \/entries\/e\/s0 is no link/,
  );
  assert.equal(gradeWalk(run([current], "history")).status, "not run");
});
