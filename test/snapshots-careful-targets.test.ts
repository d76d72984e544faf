// Snapshot rows on servers written from SPEC.md alone that never let two versions share a
// second (snapshot-targets/careful-servers.ts): one holds an update until its clock has passed
// the version before, one dates the new version a second ahead of its clock (and so shows a
// Last-Modified later than its replies' Date, which SNAP-1's should part does not allow). Their replies to a
// race come in a later second than the date the updates carried (or, where Last-Modified runs
// ahead, in an earlier one): when to answer is their business, the race was sent, and their
// answers pass. The holding server that checks the precondition before its turn lets in
// updates sent at once, and fails. What stays not run is a race sxd could not send together:
// at --rate 2 it holds the updates back itself. (The holding server spends a second on most
// updates: its runs take the rows where that matters; the other server runs every SNAP row.)
import assert from "node:assert/strict";
import { type TestContext, test } from "node:test";
import { loadRows } from "../harness/judging/catalogue.ts";
import type { SuiteRun } from "../harness/run/run.ts";
import { type CarefulRules, type CarefulServer, startCarefulServer } from "./snapshot-targets/careful-servers.ts";
import { behaviourTags, exchangesOf, runAgainstReference, runAgainstTarget } from "./support/suite.ts";

const ROW_IDS = loadRows().map((r) => r.id);
const ENTRY_TYPE = "application/atom+xml;type=entry;charset=UTF-8";

/** A server for the test, closed when the test ends. */
async function started(t: TestContext, rules: CarefulRules): Promise<CarefulServer> {
  const server = await startCarefulServer(rules);
  t.after(() => server.close());
  return server;
}

/** Each row the run selected, with its verdict. */
function verdicts(run: SuiteRun): Record<string, string> {
  return Object.fromEntries(run.judgement.rows.filter((r) => r.scenarios.length > 0).map((r) => [r.row.id, r.verdict]));
}

/** The race's updates whose reply is dated in another second than the If-Unmodified-Since they sent. */
function answeredInAnotherSecond(run: SuiteRun): number {
  return exchangesOf(run, "SNAP-15").filter((e) => {
    const since = Date.parse(e.requestHeaders["if-unmodified-since"] ?? "");
    const date = Date.parse(e.response?.headers.date?.[0] ?? "");
    return e.method === "PUT" && !Number.isNaN(since) && date !== since;
  }).length;
}

test("a server that holds an update until its clock has passed the version before passes the updating rows, SNAP-15 included", async (t) => {
  const server = await started(t, { dates: "waits" });
  const tags = "@SNAP-1 or @SNAP-2 or @SNAP-11 or @SNAP-13 or @SNAP-15";
  const run = await runAgainstTarget(server.description, { tags, strict: true });
  const rows = ["SNAP-1", "SNAP-11", "SNAP-13", "SNAP-15", "SNAP-2"];
  assert.deepEqual(verdicts(run), Object.fromEntries(rows.map((id) => [id, "passed"])));
  assert.ok(answeredInAnotherSecond(run) > 0, "the server held updates into a later second");
});

test("a server that dates a version a second ahead of its clock passes every SNAP row but SNAP-1's should part; SNAP-15 too where Last-Modified runs seconds ahead", async (t) => {
  const server = await started(t, { dates: "dates ahead" });
  const all = await runAgainstTarget(server.description, { tags: behaviourTags("SNAP", ROW_IDS), strict: true });
  const rows = ROW_IDS.filter((id) => id.startsWith("SNAP-"));
  // RFC 9110 §8.8.2.1: a Last-Modified later than the reply's Date, after the quick updates.
  const expected = Object.fromEntries(rows.map((id) => [id, id === "SNAP-1" ? "failed" : "passed"]));
  assert.deepEqual(verdicts(all), expected);
  const failed = all.judgement.rows.find((r) => r.row.id === "SNAP-1")?.scenarios.filter((s) => s.status === "failed");
  assert.deepEqual(
    failed?.map((s) => s.level),
    ["should"],
  );
  assert.match(failed?.[0]?.message ?? "", /but got Last-Modified: .* in a reply dated /);

  // Five updates in a burst put a resource's Last-Modified five seconds ahead of the clock.
  const url = `${server.description.baseUrl}/notes/ahead`;
  const put = (headers: Record<string, string>) =>
    fetch(url, {
      method: "PUT",
      headers: { "content-type": ENTRY_TYPE, ...headers },
      body: `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>Ann</name></author><title>Note</title><id>urn:uuid:6d1f0e52-53c1-4a47-9a55-0a2f4b1b7c0d</id><content>text</content></entry>`,
    });
  assert.equal((await put({ "if-none-match": "*" })).status, 201);
  for (let k = 0; k < 5; k++) {
    const read = await fetch(url);
    assert.equal((await put({ "if-unmodified-since": read.headers.get("last-modified") ?? "" })).status, 204);
  }
  const read = await fetch(url);
  const ahead = Date.parse(read.headers.get("last-modified") ?? "") - Date.parse(read.headers.get("date") ?? "");
  assert.ok(ahead >= 2000, `Last-Modified ${ahead} ms ahead of Date`);
  const named = { ...server.description, snapshots: { resources: [{ path: "/notes/ahead" }] } };
  const race = await runAgainstTarget(named, { tags: "@SNAP-15", strict: true });
  assert.deepEqual(verdicts(race), { "SNAP-15": "passed" });
  assert.ok(answeredInAnotherSecond(race) > 0, "the replies' Date was never the second of the date sent");
});

test("a holding server that checks the precondition before its turn lets in updates sent at once: SNAP-15 fails", async (t) => {
  const server = await started(t, { dates: "waits", checkBeforeWait: true });
  const run = await runAgainstTarget(server.description, { tags: "@SNAP-15", strict: true });
  assert.deepEqual(verdicts(run), { "SNAP-15": "failed" });
  const scenarios = run.judgement.rows.find((r) => r.row.id === "SNAP-15")?.scenarios ?? [];
  const failed = scenarios.filter((s) => s.status === "failed");
  assert.ok(failed.length > 0 && failed.every((s) => /all at once/.test(s.name)), failed.map((s) => s.name).join("\n"));
  assert.match(
    failed[0]?.message ?? "",
    /a 2xx for more than one of them: one overwrote a version its client never read/,
  );
});

test("at --rate 2 the updates of a race do not leave together: on the reference SNAP-15 is not run, and says sxd held them back", async () => {
  const run = await runAgainstReference({ tags: "@SNAP-15", rate: 2 });
  const scenarios = run.judgement.rows.find((r) => r.row.id === "SNAP-15")?.scenarios ?? [];
  assert.deepEqual(verdicts(run), { "SNAP-15": "not run" });
  for (const scenario of scenarios) {
    assert.match(
      scenario.message ?? "",
      /^sxd held back \d+ of the race's \d+ requests \(up to \d+ ms\) to keep the pace of --rate 2: the updates did not leave together.*\(run @SNAP-15 without --rate\)$/,
      scenario.name,
    );
  }
});
