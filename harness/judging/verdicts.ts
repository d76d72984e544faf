/**
 * From scenario outcomes to row verdicts and one overall verdict. A row is only as good
 * as its scenarios: one failure fails it; a row none of whose scenarios ran is "not run",
 * never "passed". A MUST (or stated MAY) row that sxd could not run leaves the run
 * incomplete, and an incomplete run does not pass the gate unless the user accepts it.
 */

import type { Level, Row } from "./catalogue.ts";
import type { ScenarioOutcome } from "./outcomes.ts";

export type RowVerdict = "passed" | "failed" | "warning" | "not run" | "not applicable" | "expected failure" | "fixed";

export interface RowResult {
  row: Row;
  verdict: RowVerdict;
  /** Why: the first failure's message, or the reason it was not run. */
  reason?: string;
  scenarios: ScenarioOutcome[];
  /**
   * Where the run was a group of repeats (repeats.ts; one run is a group of one): how many
   * repeats gave the row each verdict, whether they disagreed on it, and which repeat (1 first)
   * the reason and scenarios above come from.
   */
  repeats?: RepeatCounts;
  intermittent?: boolean;
  evidenceRepeat?: number;
}

/** How many repeats of a group gave a row each verdict: `{ failed: 3, passed: 17 }`. */
export type RepeatCounts = Partial<Record<RowVerdict, number>>;

/** A group of repeats: how many the user asked for and how many started (the deadline, the breaker or a signal stop the rest). */
export interface Repeated {
  asked: number;
  ran: number;
}

export type Overall = "conformant" | "conformant with warnings" | "not conformant" | "incomplete";

/** 0 passed the gate; 1 not conformant; 3 incomplete, nothing ran included (2 is the CLI's usage error). */
export type ExitCode = 0 | 1 | 3;

export interface Judgement {
  rows: RowResult[];
  overall: Overall;
  /** Scenarios that actually executed (passed or failed). */
  executed: number;
  exitCode: ExitCode;
  /** The options the verdicts were reached with, so every report reads them the same way. */
  options: JudgeOptions;
  /** Where the verdicts are a group's (repeats.ts). */
  repeated?: Repeated;
}

export interface JudgeOptions {
  strict: boolean;
  /** Rows known to fail, with the reason: reported, not counted against the target. */
  expectedFailures?: Map<string, string>;
  /** An incomplete run in which a scenario ran exits 0 instead of 3 (`--allow-incomplete`). */
  allowIncomplete?: boolean;
}

/** Levels whose rows, when sxd could not run them, leave the run incomplete. */
const GATING_LEVELS: Level[] = ["must", "may"];

export function judge(rows: Row[], outcomes: ScenarioOutcome[], options: JudgeOptions): Judgement {
  const results = rows.map((row) =>
    judgeRow(
      row,
      outcomes.filter((o) => o.rows.includes(row.id)),
      options,
    ),
  );
  // A scenario the target kept refusing with 429 did run: the run is incomplete, not empty.
  const executed = outcomes.filter((o) => o.status === "passed" || o.status === "failed" || o.rateLimited).length;
  return conclude(results, executed, options);
}

/**
 * The verdict of a run, or of a group of repeats, over its rows' verdicts. A group that ran
 * fewer repeats than asked is incomplete, as a run is whose rows were not all run.
 */
export function conclude(
  results: RowResult[],
  executed: number,
  options: JudgeOptions,
  repeated?: Repeated,
): Judgement {
  // A row with no scenario in the run was deselected (--tags): not a hole in the run.
  const selected = results.filter((r) => r.scenarios.length > 0);
  const counts = (level: Level[], verdict: RowVerdict) =>
    selected.filter((r) => level.includes(r.row.level) && r.verdict === verdict).length;
  const short = repeated !== undefined && repeated.ran < repeated.asked;
  let overall: Overall;
  if (counts(["must", "may", "should"], "failed") > 0) overall = "not conformant";
  else if (executed === 0 || counts(GATING_LEVELS, "not run") > 0 || short) overall = "incomplete";
  else if (counts(["must", "should"], "warning") > 0) overall = "conformant with warnings";
  else overall = "conformant";
  const exitCode = exitCodeOf(overall, executed, options);
  return { rows: results, overall, executed, exitCode, options, ...(repeated ? { repeated } : {}) };
}

/**
 * The code says what the verdict says. A run in which no scenario ran is incomplete too, and
 * exits 3 even with --allow-incomplete: that accepts rows left out of a run, not a run that
 * checked nothing.
 */
function exitCodeOf(overall: Overall, executed: number, options: JudgeOptions): ExitCode {
  if (overall === "not conformant") return 1;
  if (overall === "incomplete" && (!options.allowIncomplete || executed === 0)) return 3;
  return 0;
}

/**
 * What one scenario says about one row. The scenario's own level decides: the @should part
 * of a MUST row warns like a SHOULD row, unless the run is strict.
 */
export function caseVerdict(scenario: ScenarioOutcome, rowId: string, options: JudgeOptions): RowVerdict {
  const listed = options.expectedFailures?.has(rowId) ?? false;
  switch (scenario.status) {
    case "failed":
      if (listed) return "expected failure";
      return scenario.level !== "should" || options.strict ? "failed" : "warning";
    case "passed":
      return listed ? "fixed" : "passed";
    default:
      return scenario.status;
  }
}

/**
 * From the worst case of a row to the best; the row takes the first one any of its cases has,
 * except that a MUST or MAY case not run leaves a row of passes not run.
 */
const CASE_PRECEDENCE: RowVerdict[] = [
  "failed",
  "warning",
  "expected failure",
  "fixed",
  "passed",
  "not run",
  "not applicable",
];

/** What one scenario says, over every row it checks: the worst of its cases. */
export function scenarioVerdict(scenario: ScenarioOutcome, options: JudgeOptions): RowVerdict {
  const verdicts = scenario.rows.map((id) => caseVerdict(scenario, id, options));
  return CASE_PRECEDENCE.find((v) => verdicts.includes(v)) ?? caseVerdict(scenario, "", options);
}

function judgeRow(row: Row, scenarios: ScenarioOutcome[], options: JudgeOptions): RowResult {
  if (scenarios.length === 0)
    return { row, verdict: "not run", reason: "no scenario of this row was selected", scenarios };
  const cases = scenarios.map((scenario) => ({ scenario, verdict: caseVerdict(scenario, row.id, options) }));
  const worst = CASE_PRECEDENCE.find((v) => cases.some((c) => c.verdict === v)) ?? "not applicable";
  // What passed says nothing of a MUST or MAY case that could not be run: the row is unknown.
  const hole = cases.find((c) => c.verdict === "not run" && c.scenario.level !== "should");
  const unknown = hole !== undefined && (worst === "passed" || worst === "fixed");
  const verdict = unknown ? "not run" : worst;
  const first = unknown ? hole.scenario : cases.find((c) => c.verdict === verdict)?.scenario;
  const expected = options.expectedFailures?.get(row.id);
  switch (verdict) {
    case "expected failure":
      return { row, verdict, reason: expected, scenarios };
    case "fixed":
      return { row, verdict, reason: `listed as failing (${expected}) but passed`, scenarios };
    case "passed":
      return { row, verdict, scenarios };
    default:
      return { row, verdict, reason: first?.message, scenarios };
  }
}
