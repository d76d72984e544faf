import assert from "node:assert/strict";
import { test } from "node:test";
import type { TargetDescription } from "../../harness/description/target.ts";
import type { RunExchange } from "../../harness/run/whole-run.ts";
import { EVERY_LAST_MODIFIED_BY_ITS_DATE, runChecks, snapshotAddresses } from "./run-judge.ts";

const NOON = "Mon, 07 Dec 2026 12:00:00 GMT";
const LATER = "Mon, 07 Dec 2026 12:00:02 GMT";
const check = runChecks[EVERY_LAST_MODIFIED_BY_ITS_DATE];

function read(url: string, lastModified: string, date: string | undefined, method = "GET", status = 200): RunExchange {
  const headers: Record<string, string[]> = { "last-modified": [lastModified], ...(date ? { date: [date] } : {}) };
  return {
    exchange: {
      method,
      url,
      requestHeaders: {},
      response: { status, headers, body: "" },
      startedAt: "",
      durationMs: 1,
    },
    scenario: `a scenario reading ${url}`,
  };
}

const created = { baseUrl: "http://t", snapshots: { collection: "/entries/" } } as TargetDescription;
const named = { baseUrl: "http://t", snapshots: { resources: [{ path: "/notes/a" }] } } as TargetDescription;

test("SNAP-1: a run's reads of resources and snapshots dated ahead of their reply are evidence, wherever they were", () => {
  const found = check(
    [
      read("http://t/entries/x", NOON, NOON),
      read("http://t/entries/x/s2", LATER, NOON),
      read("http://t/entries/x", LATER, NOON, "HEAD"),
    ],
    created,
  );
  assert.ok(found);
  assert.deepEqual(
    found.evidence.map((e) => `${e.exchange.method} ${e.exchange.url}`),
    ["GET http://t/entries/x/s2", "HEAD http://t/entries/x"],
  );
  assert.match(found.got, /^Last-Modified: Mon, 07 Dec 2026 12:00:02 GMT in a reply dated .*\n\(2 of the 3 replies/);
});

test("SNAP-1: other addresses, refusals, updates and replies without a Date are not its evidence", () => {
  const elsewhere = [
    read("http://t/protected", LATER, NOON),
    read("http://t/entries/x", LATER, NOON, "GET", 412),
    read("http://t/entries/x", LATER, NOON, "PUT"),
    read("http://t/entries/x", LATER, undefined),
    read("http://t/entries/x", NOON, LATER),
  ];
  assert.equal(check(elsewhere, created), undefined);
});

test("the snapshot addresses of a description: its collection, or the resources it names and their snapshots", () => {
  const ofCreated = snapshotAddresses(created);
  assert.deepEqual(
    ["http://t/entries/x", "http://t/entries/x/s1", "http://t/entry", "http://t/protected"].map(ofCreated),
    [true, true, false, false],
  );
  const ofNamed = snapshotAddresses(named);
  assert.deepEqual(["http://t/notes/a", "http://t/notes/a/s3", "http://t/notes/ab", "http://t/notes/b"].map(ofNamed), [
    true,
    true,
    false,
    false,
  ]);
});
