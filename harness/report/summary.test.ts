import assert from "node:assert/strict";
import { test } from "node:test";
import type { Row } from "../judging/catalogue.ts";
import type { ScenarioOutcome } from "../judging/outcomes.ts";
import { judge } from "../judging/verdicts.ts";
import { summaryText } from "./summary.ts";

const rows: Row[] = [
  { id: "DIG-12", level: "should", rule: "defects" },
  { id: "SNAP-2", level: "must", rule: "204" },
  { id: "EXP-1", level: "must", rule: "list" },
];

const scenario = (name: string, row: string, status: ScenarioOutcome["status"], message?: string): ScenarioOutcome => ({
  name,
  location: `features/${row}.feature:7`,
  rows: [row],
  level: rows.find((r) => r.id === row)?.level,
  status,
  message,
  attachments: [],
});

const exchange = (status: number) => `in the exchange:\n    > GET /protected\n    < ${status}`;
const outcomes = [
  scenario(
    "A defect is refused (nc too short)",
    "DIG-12",
    "failed",
    `expected 400 or 401\nbut got 200\n${exchange(200)}`,
  ),
  scenario(
    "A defect is refused (unknown algorithm)",
    "DIG-12",
    "failed",
    `expected 401\nbut got 202\n${exchange(202)}`,
  ),
  scenario("A defect is refused (uri)", "DIG-12", "passed"),
  scenario("An update answers 204", "SNAP-2", "failed", `expected status 204\nbut got status 200\n${exchange(299)}`),
  scenario("The list is served", "EXP-1", "not run", "no contacts URL was given"),
];

test("the summary lists every failed and warned case of a row, one line each", () => {
  const text = summaryText(judge(rows, outcomes, { strict: false }), "http://t.example", "out");
  assert.match(text, /^ {2}WARNING: DIG-12 \(SHOULD\) expected 400 or 401$/m);
  assert.match(text, /^ {4}1\) warning: A defect is refused \(nc too short\): expected 400 or 401$/m);
  assert.match(text, /^ {4}2\) warning: A defect is refused \(unknown algorithm\): expected 401$/m);
  assert.match(text, /^ {2}FAILED: SNAP-2 \(MUST\) expected status 204$/m);
  assert.match(text, /^ {4}3\) failed: An update answers 204: expected status 204$/m);
  assert.match(text, /^ {2}NOT RUN: EXP-1 \(MUST\) no contacts URL was given$/m);
  assert.doesNotMatch(text, /refused \(uri\)/);
  assert.match(text, /verdict: not conformant \(reports in out\/\)/);
});

test("rows not run for one reason share a line, with their levels; a run where nothing ran exits 3 and says why", () => {
  const reason = "the target description does not say where: state snapshots.collection";
  const silent = [
    scenario("An update answers 204", "SNAP-2", "not run", reason),
    scenario("Defects are refused", "DIG-12", "not run", reason),
    scenario("The list is served", "EXP-1", "not run", "state contactsUrl"),
  ];
  const judgement = judge(rows, silent, { strict: false, allowIncomplete: true });
  const text = summaryText(judgement, "http://t.example", "out");
  assert.match(text, /^ {2}NOT RUN: DIG-12, SNAP-2 \(1 MUST, 1 SHOULD\) the target description does not say where: /m);
  assert.match(text, /^ {2}NOT RUN: EXP-1 \(MUST\) state contactsUrl$/m);
  assert.equal(text.split("NOT RUN:").length - 1, 2);
  assert.match(text, /^verdict: incomplete \(reports in out\/\)\nexit 3: no scenario ran/m);
  assert.equal(judgement.exitCode, 3);
});

test("each failure's message and exchange is printed once, under its number", () => {
  const text = summaryText(judge(rows, outcomes, { strict: false }), "http://t.example", "out");
  for (const status of [200, 202, 299]) {
    assert.equal(text.split(`< ${status}`).length - 1, 1, `the exchange answered ${status} once`);
  }
  assert.match(
    text,
    /^3\) FAILED SNAP-2 \(MUST\): An update answers 204\n {3}features\/SNAP-2\.feature:7\n {3}expected/m,
  );
});

test("an incomplete run says why it exits 3, and that --allow-incomplete accepts it", () => {
  const holes = [scenario("An update answers 204", "SNAP-2", "passed"), outcomes[4]];
  const refused = summaryText(judge(rows, holes, { strict: false }), "http://t.example", "out");
  assert.match(refused, /^verdict: incomplete \(reports in out\/\)\nexit 3: a MUST or MAY row above could not be run/m);
  assert.doesNotMatch(refused, /Failures and warnings/);
  const accepted = summaryText(judge(rows, holes, { strict: false, allowIncomplete: true }), "http://t.example", "o");
  assert.match(
    accepted,
    /^verdict: incomplete \(reports in o\/\)\nexit 0: incomplete, accepted by --allow-incomplete$/m,
  );
});

test("a rate-limited run counts the refusals, its waits against their bound, and the pace it settled on; it is incomplete, not empty", () => {
  const reason = "GET http://t/: the target kept answering 429 for 24 s (rate-limited; see --rate)";
  const refusedAlways = { ...scenario("The list is served", "EXP-1", "not run", reason), rateLimited: true };
  const judgement = judge(rows, [refusedAlways], { strict: false });
  const text = summaryText(judgement, "http://t", "reports", {
    rateLimited: { refused: 12, waitedMs: 31_500, boundMs: 300_000, suggestedRate: 4 },
  });
  assert.match(text, /NOT RUN: EXP-1 \(MUST\) GET http:\/\/t\/: the target kept answering 429 for 24 s/);
  assert.match(
    text,
    /rate-limited: 12 requests were refused .*; sxd settled on 4 requests a second \(--rate 4 may stay/,
  );
  assert.match(text, /the run spent 31\.5 s waiting after refusals, of the 300 s it may \(--refusal-wait\)/);
  assert.equal(judgement.exitCode, 3, "the scenario ran into the gateway: incomplete, not 'no scenario executed'");
  assert.doesNotMatch(summaryText(judgement, "http://t", "reports"), /rate-limited:/);
  const none = summaryText(judgement, "http://t", "reports", {
    rateLimited: { refused: 3, waitedMs: 1000, boundMs: 60_000 },
  });
  assert.match(none, /and sent again; no request got through; the run spent 1\.0 s waiting .* of the 60 s/);
});
