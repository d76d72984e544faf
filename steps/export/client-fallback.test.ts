import assert from "node:assert/strict";
import { test } from "node:test";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { gradeFallback, gradeFallbackRun } from "./client-fallback.ts";

const BOB = "<contact><name>Bob</name><email>bob@example.org</email></contact>";
const CAROL = "<contact><name>Carol</name></contact>";
const list = (...contacts: string[]) =>
  `<contacts xmlns:atom="http://www.w3.org/2005/Atom">${contacts.join("")}</contacts>`;

function request(
  server: RecordedRequest["server"],
  method: string,
  target: string,
  extra: Partial<RecordedRequest> = {},
): RecordedRequest {
  return {
    server,
    method,
    target,
    headers: {},
    body: "",
    at: "",
    reply: { status: 200, headers: {}, body: "" },
    ...extra,
  };
}

const readList = request("contacts", "GET", "/user/alice/contacts", {
  reply: { status: 200, headers: {}, body: list(BOB, CAROL) },
});
const upload = (body: string) => request("messaging", "POST", "/user/alice/contacts", { body });

function run(requests: RecordedRequest[], condition: TaskRun["condition"] = "no-export-link"): TaskRun {
  return {
    task: "export",
    condition,
    environment: {},
    exitCode: 0,
    timedOut: false,
    stdout: "",
    stderr: "",
    durationMs: 5,
    requests,
  };
}

test("the list read and every contact uploaded once passes, whatever the upload's form", () => {
  assert.equal(gradeFallbackRun(run([readList, upload(list(BOB, CAROL))])).status, "passed");
  // One contact a request, in a document of the client's own, re-indented: the same contact arrives.
  const wrapped =
    '<u:upload xmlns:u="urn:x"><contact>\n  <name>Bob</name>\n  <email>bob@example.org</email>\n</contact></u:upload>';
  const grade = gradeFallbackRun(run([readList, upload(wrapped), upload(CAROL)]));
  assert.equal(grade.status, "passed", grade.reason);
  assert.match(grade.reason, /its 2 contact\(s\) uploaded once each in request\(s\) 2, 3/);
});

test("none, part, twice, or a contact the list does not hold fails", () => {
  const cases: Array<[RecordedRequest[], RegExp]> = [
    [[readList], /sent the messaging server no contact/],
    [[readList, upload(list(BOB))], /1 of the list's 2 contact\(s\) never uploaded/],
    [[readList, upload(list(BOB, CAROL)), upload(list(BOB, CAROL))], /2 contact\(s\) uploaded more than once/],
    [
      [readList, upload(list(BOB, CAROL, "<contact><name>Eve</name></contact>"))],
      /1 contact\(s\) the list does not hold/,
    ],
    [[upload(list(BOB, CAROL))], /did not download the contact list/],
    // A contact is its whole element: re-namespaced, it is not the one the list holds.
    [
      [
        readList,
        upload(
          list('<c:contact xmlns:c="urn:x"><c:name>Bob</c:name><c:email>bob@example.org</c:email></c:contact>', CAROL),
        ),
      ],
      /1 of the list's 2 contact\(s\) never uploaded, 1 contact\(s\) the list does not hold/,
    ],
  ];
  for (const [requests, reason] of cases) {
    const grade = gradeFallbackRun(run(requests));
    assert.equal(grade.status, "failed", String(reason));
    assert.match(grade.reason, reason);
  }
});

test("the list sxd's messaging server fetched does not count as the client's download", () => {
  const bySxd = { ...readList, bySxd: true as const };
  assert.equal(gradeFallbackRun(run([bySxd, upload(list(BOB, CAROL))])).status, "failed");
});

test("both staged runs must show the fallback; the one that does not names its condition", () => {
  const good = run([readList, upload(list(BOB, CAROL))]);
  const none = run([readList, request("messaging", "POST", "/user/alice/import;t=x")], "import-fails");
  assert.equal(gradeFallback([good, run(good.requests, "import-fails")]).status, "passed");
  const grade = gradeFallback([good, none]);
  assert.equal(grade.status, "failed");
  assert.match(grade.reason, /^task export \(staged: import-fails\): after reading the list \(request 1\)/);
});
