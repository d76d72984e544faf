// A cell's blame by cause, the time limit stretched by the load, the task a server does not
// serve, the real origin under another name, and the failures grouped by pair and reason.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecordedRequest } from "../../lib/recording.ts";
import type { BrokenRow, InteropCell } from "../evidence/interop-document.ts";
import { failureGroups, tasksText } from "../report/interop-cells.ts";
import { blameOf, type CellFindings, nothingExplains, notServed, outcomeOf, splitByCause } from "./blame.ts";
import { sameOriginNames } from "./origins.ts";
import { MOST_STRETCH, scaledLimitMs } from "./time-limit.ts";
import { unseenOrigins } from "./unseen.ts";

const row = (id: string): BrokenRow => ({ id, level: "must", reason: `${id} broken` });
const rows = { client: [row("CDIG-7"), row("CDIG-9")], server: [row("DIG-2")] };

describe("blame by cause", () => {
  it("the breach the stop names is blamed; every other is also broken", () => {
    const split = splitByCause(rows, { at: "no answer to the challenge", explaining: ["CDIG-7"] });
    assert.deepEqual(split.rows, { client: [row("CDIG-7")], server: [] });
    assert.deepEqual(split.alsoBroken, { client: [row("CDIG-9")], server: [row("DIG-2")] });
    assert.equal(blameOf(split.rows), "client");
  });
  it("a stop no breach explains is a gap: neither, though both sides broke rows elsewhere", () => {
    const split = splitByCause(rows, { at: "no answer to the challenge", explaining: [] });
    assert.equal(blameOf(split.rows), "neither");
    assert.equal(split.alsoBroken.client.length + split.alsoBroken.server.length, 3);
  });
  it("without a judge's stop, every breach explains (the blame of any row)", () => {
    assert.equal(blameOf(splitByCause(rows, undefined).rows), "both");
  });
  it("a cell that succeeded, or one a limit of the run ended, blames no row", () => {
    assert.deepEqual(nothingExplains(rows).rows, { client: [], server: [] });
  });
});

describe("a cell's outcome", () => {
  const found: CellFindings = {
    run: { exitCode: 1, timedOut: false },
    limit: "30000 ms (10000 ms by --task-timeout, stretched by a load of 6.0 on 2 cores)",
    effectProblem: undefined,
    notes: [undefined, undefined],
    unserved: undefined,
    stop: { at: "no answer to the challenge", explaining: ["CDIG-7"] },
    rows,
  };
  it("a failure is blamed on the breach where the exchange stopped", () => {
    const outcome = outcomeOf(found);
    assert.deepEqual(
      [outcome.result, outcome.blame, outcome.stopped],
      ["failed", "client", "no answer to the challenge"],
    );
  });
  it("a client killed for time, even after a grant, is nobody's fault: every breach is also broken", () => {
    const outcome = outcomeOf({ ...found, run: { exitCode: null, timedOut: true } });
    assert.deepEqual([outcome.result, outcome.blame], ["failed", null]);
    assert.match(outcome.why, /still running after 30000 ms \(10000 ms by --task-timeout, .*\).*nobody's fault/);
    assert.deepEqual(outcome.alsoBroken, rows);
  });
  it("a 405 to the task's method is not applicable; an exit 0 with the effect there succeeded, blaming nothing", () => {
    const unserved = outcomeOf({ ...found, unserved: "the server answers POST /p with 405" });
    assert.deepEqual([unserved.result, unserved.blame], ["not applicable", null]);
    const succeeded = outcomeOf({ ...found, run: { exitCode: 0, timedOut: false } });
    assert.deepEqual(
      [succeeded.result, succeeded.blame, succeeded.rows],
      ["succeeded", null, { client: [], server: [] }],
    );
  });
});

const request = (method: string, target: string, status: number): RecordedRequest => ({
  server: "base",
  method,
  target,
  headers: {},
  body: "",
  at: "",
  reply: { status, headers: {}, body: "" },
});

describe("a task the server does not serve", () => {
  it("405 to the task's method on the task's path: not served, with the reason", () => {
    const why = notServed("digest-post", [request("POST", "/account", 405)], "/account");
    assert.equal(why, "the server answers POST /account with 405: it does not serve digest-post");
    assert.match(notServed("update", [request("PUT", "/e/1", 501)], "/e/1") ?? "", /501/);
  });
  it("a 405 to another method, or on another path, says nothing of the task", () => {
    assert.equal(notServed("digest-get", [request("POST", "/account", 405)], "/account"), undefined);
    assert.equal(notServed("digest-post", [request("POST", "/other", 405)], "/account"), undefined);
    assert.equal(notServed("digest-post", [request("POST", "/account", 401)], "/account"), undefined);
  });
});

describe("the time limit does not depend on the machine's load", () => {
  it("a quiet machine keeps the limit given", () => {
    assert.equal(scaledLimitMs(10_000, { runnable: 0.3, cores: 2 }), 10_000);
    assert.equal(scaledLimitMs(10_000, { runnable: 2, cores: 2 }), 10_000);
  });
  it("two busy processes on each core beside the run's own stretch it as a core's share shrinks", () => {
    // Each process gets cores/runnable of a core: a client's run takes runnable/cores times longer.
    assert.equal(scaledLimitMs(10_000, { runnable: 6, cores: 2 }), 30_000);
    const quietShare = 1;
    const busyShare = 2 / 6;
    assert.equal(scaledLimitMs(10_000, { runnable: 6, cores: 2 }) * busyShare, 10_000 * quietShare);
  });
  it("it stays bounded, and a load the system cannot give does not unbound it", () => {
    assert.equal(scaledLimitMs(10_000, { runnable: 1000, cores: 2 }), 10_000 * MOST_STRETCH);
    assert.equal(scaledLimitMs(10_000, { runnable: 4, cores: 0 }), 10_000);
  });
});

describe("the real origin under another name", () => {
  it("localhost:PORT and 127.0.0.1:PORT are one origin to a client; another host is only itself", () => {
    assert.deepEqual(sameOriginNames("http://127.0.0.1:8082/user/a"), [
      "http://127.0.0.1:8082/user/a",
      "http://localhost:8082/user/a",
    ]);
    assert.deepEqual(sameOriginNames("http://localhost:8082"), ["http://localhost:8082", "http://127.0.0.1:8082"]);
    assert.deepEqual(sameOriginNames("http://example.test:8082"), ["http://example.test:8082"]);
  });
  it("a link to localhost:PORT, where sxd knows the server as 127.0.0.1:PORT, is a link to a real origin", () => {
    const list = {
      ...request("GET", "/user/a/contacts", 200),
      server: "contacts" as const,
      reply: { status: 200, headers: {}, body: '<link href="http://localhost:8082/user/a/import;t=x"/>' },
    };
    const real = { base: "http://127.0.0.1:8080", messaging: "http://127.0.0.1:8082" };
    const proxied = { base: "http://localhost:9080", messaging: "http://localhost:9082" };
    assert.deepEqual(unseenOrigins([list], real, proxied), ["http://localhost:8082"]);
    const elsewhere = { ...list, reply: { ...list.reply, body: '<link href="http://localhost:8083/x"/>' } };
    assert.deepEqual(unseenOrigins([elsewhere], real, proxied), []);
  });
});

describe("the failures grouped by pair and reason", () => {
  const failed = (task: InteropCell["task"], why: string): InteropCell => ({
    client: "urllib",
    server: "sha-512-256-only",
    task,
    result: "failed",
    blame: "neither",
    why,
    rows: { client: [], server: [] },
    alsoBroken: { client: [], server: [row("DIG-2")] },
    evidence: "",
  });
  it("one entry for a pair's tasks that failed for one reason, another for another reason", () => {
    const groups = failureGroups([
      failed("digest-get", "no algorithm in common"),
      failed("digest-post", "no algorithm in common"),
      failed("update", "the client exited 2"),
    ]);
    assert.deepEqual(
      groups.map((group) => `${tasksText(group.cells)}: ${group.why}`),
      ["digest-get and digest-post: no algorithm in common", "update: the client exited 2"],
    );
  });
});
