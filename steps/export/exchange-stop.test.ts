// The export judge of `sxd interop` on cause: the messaging server named as a client resolves it,
// EXP-4 only for a POST of the link as served, and where a failed export stopped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveDescription } from "../../harness/description/target.ts";
import type { BrokenRow } from "../../harness/evidence/interop-document.ts";
import type { ServerExchange } from "../../harness/interop/judging.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { judgeServerExchange, stopOf } from "./exchange-judge.ts";

const described = resolveDescription([
  {
    baseUrl: "http://127.0.0.1:8080",
    contactsUrl: "http://127.0.0.1:8081",
    messagingUrl: "http://127.0.0.1:8082",
    export: { user: "alice", rel: "http://rel.test/export" },
  },
]);
if (!described.ok) throw new Error(described.error);
const target = described.value;
const XML = "application/xml;charset=UTF-8";

function listLinking(href: string): RecordedRequest {
  const body = `<?xml version="1.0"?>
<contacts xmlns:atom="http://www.w3.org/2005/Atom">
  <atom:link rel="self" href="http://127.0.0.1:8081/user/alice/contacts"/>
  <atom:link rel="http://rel.test/export" href="${href}" title="Export"/>
  <contact><name>Bob</name></contact>
</contacts>`;
  const reply = { status: 200, headers: { "content-type": XML }, body };
  return { server: "contacts", method: "GET", target: "/user/alice/contacts", headers: {}, body: "", at: "", reply };
}

function post(target: string, status: number): RecordedRequest {
  const headers = { "content-type": XML, location: "/user/alice" };
  return {
    server: "messaging",
    method: "POST",
    target,
    headers: {},
    body: "",
    at: "",
    reply: { status, headers, body: "" },
  };
}

const exchange = (requests: RecordedRequest[]): ServerExchange => ({
  task: "export",
  requests,
  target,
  subjectPath: "/user/alice/contacts",
  proxied: { base: "http://localhost:9080", contacts: "http://localhost:9081", messaging: "http://localhost:9082" },
});
const judged = (requests: RecordedRequest[]) => judgeServerExchange(exchange(requests)).map((row) => row.id);

describe("the export judge on cause", () => {
  it("a link to localhost:PORT is on the messaging server sxd knows as 127.0.0.1:PORT", () => {
    assert.deepEqual(judged([listLinking("http://localhost:8082/user/alice/import;t=abc")]), []);
    assert.deepEqual(judged([listLinking("http://localhost:8083/user/alice/import;t=abc")]), ["EXP-3"]);
  });
  it("EXP-4 only for a refused POST of the link as served: one with another token breaks CEXP-1", () => {
    const list = listLinking("http://127.0.0.1:8082/user/alice/import;t=abc");
    assert.deepEqual(judged([list, post("/user/alice/import;t=abc", 403)]), ["EXP-4"]);
    assert.deepEqual(judged([list, post("/user/alice/import;t=abd", 403)]), []);
  });
  it("where a failed export stopped, and the breach there that explains it", () => {
    const row = (id: string): BrokenRow => ({ id, level: "must", reason: id });
    const broken = { client: [row("CEXP-1")], server: [row("EXP-2"), row("EXP-4")] };
    const list = listLinking("http://127.0.0.1:8082/user/alice/import;t=abc");
    assert.deepEqual(stopOf(exchange([list]), broken), { at: "no export POST", explaining: ["EXP-2", "CEXP-1"] });
    assert.deepEqual(stopOf(exchange([list, post("/user/alice/import;t=abd", 403)]), broken), {
      at: "the export POST refused",
      explaining: ["CEXP-1", "EXP-4"],
    });
  });
});
