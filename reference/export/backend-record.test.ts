import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BackendSent } from "../../lib/export-backend.ts";
import { recordingFetcher } from "./backend-record.ts";
import { BACKEND_USER_AGENT, fetchContacts } from "./import-store.ts";

const LIST = "<contacts><contact><name>A</name></contact></contacts>";
const POST = {
  method: "POST",
  target: "/user/alice/import;t=abc",
  headers: { "x-sxd-scenario": "EXP-5: the export" },
};

describe("recordingFetcher", () => {
  it("records the backend request, the reply as read, and the request that made the server ask", async () => {
    const kept: BackendSent[] = [];
    const fetcher = recordingFetcher(
      (sent) => kept.push(sent),
      POST,
      async () => new Response(LIST),
    );
    const outcome = await fetchContacts("http://contacts.test", "alice", {
      timeoutMs: 1000,
      fetcher,
      path: "/internal/alice?t=abc",
      headers: { "x-export-token": "abc" },
    });
    assert.equal(outcome.ok, true);
    const [sent] = kept;
    assert.equal(kept.length, 1);
    assert.equal(sent.url, "http://contacts.test/internal/alice?t=abc");
    assert.deepEqual(sent.headers, {
      accept: "application/xml",
      "user-agent": BACKEND_USER_AGENT,
      "x-export-token": "abc",
    });
    assert.equal(sent.status, 200);
    assert.equal(sent.body, LIST);
    assert.equal(sent.responseHeaders?.["content-type"], "text/plain;charset=UTF-8");
    assert.deepEqual(sent.cause, { method: "POST", target: POST.target, scenario: "EXP-5: the export" });
  });

  it("records a request that got no reply, and fails as the fetcher did", async () => {
    const kept: BackendSent[] = [];
    const fetcher = recordingFetcher(
      (sent) => kept.push(sent),
      POST,
      async () => {
        throw new Error("connect ECONNREFUSED");
      },
    );
    const outcome = await fetchContacts("http://contacts.test", "alice", { timeoutMs: 1000, fetcher });
    assert.equal(outcome.ok, false);
    assert.equal(kept[0]?.error, "connect ECONNREFUSED");
    assert.equal(kept[0]?.status, undefined);
  });

  it("says in words that a request that never got its reply ran out of time", async () => {
    const kept: BackendSent[] = [];
    const fetcher = recordingFetcher(
      (sent) => kept.push(sent),
      POST,
      (_url, init) =>
        new Promise((_resolve, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason))),
    );
    // The backend's own timer does not hold the process open; this one does, until the end.
    const holding = setTimeout(() => undefined, 5000);
    const outcome = await fetchContacts("http://contacts.test", "alice", { timeoutMs: 30, fetcher });
    clearTimeout(holding);
    assert.equal(outcome.ok, false);
    assert.equal(kept[0]?.error, "no reply in the time the backend request is given");
  });
});
