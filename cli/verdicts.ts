/**
 * From scenario outcomes to row verdicts and one overall verdict. A row is only as good
 * as its scenarios: one failure fails it; a row none of whose scenarios ran is "not run",
 * never "passed".
 */
import type { ScenarioOutcome } from "./outcomes.ts";
import type { Level, Row } from "./rows.ts";

export type RowVerdict = "passed" | "failed" | "warning" | "not run" | "not applicable" | "expected failure" | "fixed";

export interface RowResult {
  row: Row;
  verdict: RowVerdict;
  /** Why: the first failure's message, or the reason it was not run. */
  reason?: string;
  scenarios: ScenarioOutcome[];
}

export type Overall = "conformant" | "conformant with warnings" | "not conformant" | "incomplete";

export interface Judgement {
  rows: RowResult[];
  overall: Overall;
  /** Scenarios that actually executed (passed or failed). */
  executed: number;
  exitCode: 0 | 1;
}

export interface JudgeOptions {
  strict: boolean;
  /** Rows known to fail, with the reason: reported, not counted against the target. */
  expectedFailures?: Map<string, string>;
}

export function judge(rows: Row[], outcomes: ScenarioOutcome[], options: JudgeOptions): Judgement {
  const results = rows.map((row) =>
    judgeRow(
      row,
      outcomes.filter((o) => o.rows.includes(row.id)),
      options,
    ),
  );
  const selected = results.filter((r) => r.scenarios.length > 0);
  const counts = (level: Level[], verdict: RowVerdict) =>
    selected.filter((r) => level.includes(r.row.level) && r.verdict === verdict).length;
  const executed = outcomes.filter((o) => o.status === "passed" || o.status === "failed").length;
  let overall: Overall;
  if (counts(["must", "may", "should"], "failed") > 0) overall = "not conformant";
  else if (executed === 0 || counts(["must"], "not run") > 0) overall = "incomplete";
  else if (counts(["must", "should"], "warning") > 0) overall = "conformant with warnings";
  else overall = "conformant";
  const exitCode = overall === "not conformant" || executed === 0 ? 1 : 0;
  return { rows: results, overall, executed, exitCode };
}

function judgeRow(row: Row, scenarios: ScenarioOutcome[], options: JudgeOptions): RowResult {
  const expected = options.expectedFailures?.get(row.id);
  if (scenarios.length === 0)
    return { row, verdict: "not run", reason: "no scenario of this row was selected", scenarios };
  // A scenario's own level decides: the @should part of a MUST row warns like a SHOULD row.
  const hard = scenarios.find((s) => s.status === "failed" && (s.level !== "should" || options.strict));
  const soft = scenarios.find((s) => s.status === "failed");
  const failure = hard ?? soft;
  if (failure) {
    if (expected !== undefined) return { row, verdict: "expected failure", reason: expected, scenarios };
    return { row, verdict: hard ? "failed" : "warning", reason: failure.message, scenarios };
  }
  const ran = scenarios.filter((s) => s.status === "passed");
  if (ran.length === 0) {
    const notRun = scenarios.find((s) => s.status === "not run");
    if (notRun) return { row, verdict: "not run", reason: notRun.message, scenarios };
    return { row, verdict: "not applicable", reason: scenarios[0]?.message, scenarios };
  }
  if (expected !== undefined)
    return { row, verdict: "fixed", reason: `listed as failing (${expected}) but passed`, scenarios };
  return { row, verdict: "passed", scenarios };
}
