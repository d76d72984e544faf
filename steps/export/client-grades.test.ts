import assert from "node:assert/strict";
import { test } from "node:test";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { gradeLinkAsServed, gradeSeeOther } from "./client-grades.ts";

const LINK = "http://m.test/user/alice/import;t=abc";
const BUILT = "http://127.0.0.1/user/alice/import;t=abc";
const RESULT = "http://m.test/user/alice";
const LIST = `<contacts xmlns:atom="http://www.w3.org/2005/Atom"><atom:link rel="urn:export" href="${LINK}"/></contacts>`;

/** A request to `url` with a reply of `status`; a 303 names the export result in Location. */
function request(server: RecordedRequest["server"], method: string, url: string, status = 200): RecordedRequest {
  const { host, pathname } = new URL(url);
  const headers: Record<string, string> = status === 303 ? { location: RESULT } : {};
  return {
    server,
    method,
    target: pathname,
    headers: { host },
    body: "",
    at: "",
    reply: { status, headers, body: "" },
  };
}

const readList: RecordedRequest = {
  ...request("contacts", "GET", "http://c.test/user/alice/contacts"),
  reply: { status: 200, headers: {}, body: LIST },
};

const PLAIN = { task: "export", environment: {}, exitCode: 0, timedOut: false, stdout: "", stderr: "", durationMs: 5 };
const run = (...requests: RecordedRequest[]): TaskRun => ({ ...PLAIN, requests });

test("CEXP-3: a 303 followed with GET passes, whether the POST went to the link as served or to a built address", () => {
  const asServed = run(readList, request("messaging", "POST", LINK, 303), request("messaging", "GET", RESULT));
  assert.equal(gradeSeeOther(asServed).status, "passed");
  const built = run(readList, request("messaging", "POST", BUILT, 303), request("messaging", "GET", RESULT));
  assert.equal(gradeLinkAsServed(built).status, "failed", "the built address is CEXP-1's failure");
  const grade = gradeSeeOther(built);
  assert.equal(grade.status, "passed", grade.reason);
  assert.equal(grade.reason, `request 3: GET ${RESULT}, the Location of the 303`);
});

test("CEXP-3: the Location requested with POST, or the POST sent again, fails with what the client did", () => {
  const postedOn = run(readList, request("messaging", "POST", BUILT, 303), request("messaging", "POST", RESULT));
  assert.equal(
    gradeSeeOther(postedOn).reason,
    `request 3: POST on the Location ${RESULT} of the 303 of request 2, not GET`,
  );
  const again = run(readList, request("messaging", "POST", BUILT, 303), request("messaging", "POST", BUILT, 303));
  assert.equal(gradeSeeOther(again).reason, "request 3: the export POST sent again after the 303 of request 2");
});

test("CEXP-3: where no POST got a 303 there is nothing to follow, and the reason says so", () => {
  const refused = run(readList, request("messaging", "POST", BUILT, 403));
  const grade = gradeSeeOther(refused);
  assert.equal(grade.status, "not run");
  assert.match(grade.reason, /^no POST to the messaging server got a 303 \(.*\): nothing to follow \(see CEXP-1\)$/);
});
