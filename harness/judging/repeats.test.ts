import assert from "node:assert/strict";
import { test } from "node:test";
import type { Row } from "./catalogue.ts";
import type { ScenarioOutcome } from "./outcomes.ts";
import { groupVerdict, judgeRepeats, keptForEvidence, repeatsShare } from "./repeats.ts";
import { conclude, type JudgeOptions, type RepeatCounts, type RowVerdict } from "./verdicts.ts";

const rows: Row[] = [
  { id: "DIG-6", level: "must", rule: "wrong secrets refused" },
  { id: "DIG-11", level: "should", rule: "rspauth" },
  { id: "DIG-9", level: "may", rule: "replay" },
];

/** A scenario of the run, so that each row counts as selected. */
const scenario: ScenarioOutcome = {
  name: "s",
  location: "f.feature:1",
  rows: [],
  level: "must",
  status: "passed",
  attachments: [],
};

/** One repeat, judged: each row's verdict as given (passed unless told), its reason naming it. */
const repeat = (verdicts: Record<string, RowVerdict>, options: JudgeOptions = { strict: false }) =>
  conclude(
    rows.map((row) => {
      const verdict = verdicts[row.id] ?? "passed";
      return {
        row,
        verdict,
        reason: verdict === "passed" ? undefined : `${row.id} went ${verdict}`,
        scenarios: [scenario],
      };
    }),
    rows.length,
    options,
  );

const rowOf = (judgement: ReturnType<typeof conclude>, id: string) => judgement.rows.find((r) => r.row.id === id);

test("a row is the worst of its repeats, intermittent where they disagree, its evidence the first repeat that gave it", () => {
  const group = groupVerdict(["passed", "failed", "passed", "failed"]);
  assert.deepEqual(group, { verdict: "failed", counts: { passed: 2, failed: 2 }, intermittent: true, evidence: 1 });
  assert.deepEqual(groupVerdict(["warning", "passed"]).verdict, "warning");
  assert.equal(groupVerdict(["failed", "warning"]).verdict, "failed");
  assert.equal(groupVerdict(["failed", "warning"]).intermittent, true);
  assert.equal(groupVerdict(["expected failure", "fixed"]).verdict, "expected failure");
  assert.equal(groupVerdict(["expected failure", "fixed"]).intermittent, true);
});

test("a row that gives the same verdict every time is not intermittent, whatever the verdict", () => {
  for (const verdict of ["passed", "failed", "warning", "not run", "not applicable"] as RowVerdict[]) {
    const group = groupVerdict([verdict, verdict, verdict]);
    assert.deepEqual(group, { verdict, counts: { [verdict]: 3 }, intermittent: false, evidence: 0 }, verdict);
  }
});

test("not run says nothing of the target: the repeats that judged the row decide, and it is not intermittent", () => {
  assert.deepEqual(groupVerdict(["passed", "not run", "passed"]), {
    verdict: "passed",
    counts: { passed: 2, "not run": 1 },
    intermittent: false,
    evidence: 0,
  });
  const failedOnce = groupVerdict(["not run", "failed"]);
  assert.equal(failedOnce.verdict, "failed");
  assert.equal(failedOnce.intermittent, false, "one repeat judged it, and it failed");
  assert.equal(groupVerdict(["not run", "not applicable"]).verdict, "not applicable");
});

test("not applicable beside passed holds the rule (passed, not intermittent); beside failed it is intermittent", () => {
  assert.deepEqual(groupVerdict(["not applicable", "passed"]), {
    verdict: "passed",
    counts: { "not applicable": 1, passed: 1 },
    intermittent: false,
    evidence: 1,
  });
  assert.equal(groupVerdict(["not applicable", "failed"]).intermittent, true);
});

test("the group's verdict and exit code are the worst row's: a MUST row failed once fails the group", () => {
  const group = judgeRepeats([repeat({}), repeat({ "DIG-6": "failed" }), repeat({})]);
  assert.equal(group.overall, "not conformant");
  assert.equal(group.exitCode, 1);
  const dig6 = rowOf(group, "DIG-6");
  assert.equal(dig6?.verdict, "failed");
  assert.equal(dig6?.reason, "DIG-6 went failed");
  assert.equal(dig6?.evidenceRepeat, 2);
  assert.deepEqual(dig6?.repeats, { passed: 2, failed: 1 });
  assert.equal(dig6?.intermittent, true);
  assert.equal(rowOf(group, "DIG-11")?.intermittent, false);
  assert.deepEqual(group.repeated, { asked: 3, ran: 3 });
  assert.equal(group.executed, 9, "each repeat's scenarios that ran, added up");
});

test("a SHOULD row that warned in one repeat warns the group, which passes the gate", () => {
  const group = judgeRepeats([repeat({ "DIG-11": "warning" }), repeat({})]);
  assert.equal(group.overall, "conformant with warnings");
  assert.equal(group.exitCode, 0);
  assert.equal(rowOf(group, "DIG-11")?.verdict, "warning");
  assert.equal(rowOf(group, "DIG-11")?.intermittent, true);
});

test("the group keeps the options its repeats were judged with: an incomplete group that --allow-incomplete accepts exits 0", () => {
  const accepted = judgeRepeats([repeat({}, { strict: false, allowIncomplete: true })], 2);
  assert.equal(accepted.overall, "incomplete");
  assert.equal(accepted.exitCode, 0);
});

test("a group that ran fewer repeats than asked is incomplete, unless a row failed", () => {
  const short = judgeRepeats([repeat({}), repeat({})], 5);
  assert.equal(short.overall, "incomplete");
  assert.equal(short.exitCode, 3);
  assert.deepEqual(short.repeated, { asked: 5, ran: 2 });
  assert.equal(judgeRepeats([repeat({ "DIG-6": "failed" })], 5).overall, "not conformant");
});

test("a MUST row not run in every repeat leaves the group incomplete; not run in one of them does not", () => {
  assert.equal(judgeRepeats([repeat({ "DIG-9": "not run" }), repeat({})]).overall, "conformant");
  const never = judgeRepeats([repeat({ "DIG-6": "not run" }), repeat({ "DIG-6": "not run" })]);
  assert.equal(rowOf(never, "DIG-6")?.verdict, "not run");
  assert.equal(never.overall, "incomplete");
});

test("one repeat is a group of one: the run's own verdicts, each counted once", () => {
  const single = repeat({ "DIG-6": "failed" });
  const group = judgeRepeats([single]);
  assert.deepEqual(
    group.rows.map((r) => [r.row.id, r.verdict, r.reason]),
    single.rows.map((r) => [r.row.id, r.verdict, r.reason]),
  );
  assert.deepEqual(rowOf(group, "DIG-6")?.repeats, { failed: 1 });
  assert.equal(group.overall, single.overall);
});

test("the share says whether the row is intermittent, the group's verdict first, then the others", () => {
  const share = (verdict: RowVerdict, repeats?: RepeatCounts, intermittent = false) =>
    repeatsShare({ verdict, repeats, intermittent });
  assert.equal(
    share("failed", { passed: 17, failed: 3 }, true),
    "intermittent, failed in 3 of 20 repeats, passed in 17",
  );
  assert.equal(share("failed", { failed: 3 }), "failed in 3 of 3 repeats");
  assert.equal(
    share("warning", { passed: 1, warning: 1, "not run": 1 }, true),
    "intermittent, warned in 1 of 3 repeats, passed in 1, was not run in 1",
  );
  assert.equal(share("passed", { passed: 1 }), undefined, "a single run has no share");
  assert.equal(share("not applicable", { "not applicable": 3 }), undefined, "nothing to look at");
  assert.equal(share("passed", { passed: 2, "not run": 1 }), "passed in 2 of 3 repeats, was not run in 1");
  assert.equal(share("passed"), undefined);
});

test("a repeat keeps a row's scenarios only where no earlier repeat gave the row its verdict: the group's evidence stays whole", () => {
  const kept: ReturnType<typeof conclude>[] = [];
  for (const verdicts of [{}, { "DIG-6": "failed" }, { "DIG-6": "failed" }, {}] as Record<string, RowVerdict>[])
    kept.push(keptForEvidence(repeat(verdicts), kept));
  const scenariosKept = kept.map((judgement) =>
    judgement.rows.filter((r) => r.scenarios.length > 0).map((r) => r.row.id),
  );
  assert.deepEqual(scenariosKept, [["DIG-6", "DIG-11", "DIG-9"], ["DIG-6"], [], []]);
  const group = judgeRepeats(kept);
  assert.deepEqual(
    group.rows.map((r) => [r.row.id, r.verdict, r.evidenceRepeat, r.scenarios.length]),
    [
      ["DIG-6", "failed", 2, 1],
      ["DIG-11", "passed", 1, 1],
      ["DIG-9", "passed", 1, 1],
    ],
  );
  assert.deepEqual(rowOf(group, "DIG-6")?.repeats, { passed: 2, failed: 2 });
});
