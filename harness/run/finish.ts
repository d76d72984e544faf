/**
 * What every run does once its scenarios ran, whichever side and wherever the exchanges came
 * from (sxd's requests to a server, a client's to sxd's servers, a recording): judge the rows
 * of its side (each repeat of a group, then the group), write every report into the run's
 * staging folder, put them in place together, and print the summary. One pipeline, so both
 * sides' reports and verdicts cannot drift apart.
 */
import { join } from "node:path";
import type { Writable } from "node:stream";
import { UsageError } from "../errors.ts";
import { publishReports, REPORT_FILES } from "../evidence/report-folder.ts";
import { loadRows, type Side } from "../judging/catalogue.ts";
import type { ScenarioOutcome } from "../judging/outcomes.ts";
import { judgeRepeats, keptForEvidence } from "../judging/repeats.ts";
import { type Judgement, type JudgeOptions, judge } from "../judging/verdicts.ts";
import type { ReportInput } from "../report/conformance-json.ts";
import { writeReports } from "../report/index.ts";
import { type RateSummary, summaryText } from "../report/summary.ts";

/** cucumber's own reports of the run, written into its staging folder beside sxd's. */
export function cucumberReports(staging: string): Array<[string, string]> {
  return [
    ["html", join(staging, REPORT_FILES.cucumberHtml)],
    ["message", join(staging, REPORT_FILES.messages)],
  ];
}

export interface Finishing {
  side: Side;
  /** Each repeat as judgedRepeat() judged it, in the order they ran: one for a run, more for a group (--repeat). */
  repeats: Judgement[];
  /** How many repeats were asked for; absent: as many as ran. */
  asked?: number;
  /** What the reports say besides the verdicts (written into `report.reportDir`, the staging folder). */
  report: Omit<ReportInput, "judgement">;
  /** Where the reports go once all are written, and how the summary names it. */
  reportDir: string;
  shownReportDir: string;
  /** false: the verdicts only, no report written or published (ConformanceRun.reportFiles). */
  writesReports?: boolean;
  rateLimited?: RateSummary;
  /** Lines the summary ends with, given the verdicts (who played which part, a uniform reply, warnings). */
  notes?: (judgement: Judgement) => string[];
}

/**
 * One repeat's outcomes judged as it ends, the rows of its side, keeping only what can still be
 * the group's evidence (`earlier`: the repeats before it). A first repeat in which no scenario
 * ran is a usage error.
 */
export function judgedRepeat(
  side: Side,
  outcomes: ScenarioOutcome[],
  judging: JudgeOptions,
  earlier: readonly Judgement[],
): Judgement {
  if (outcomes.length === 0 && earlier.length === 0)
    throw new UsageError(side === "client" ? "no client scenario ran" : "no scenario ran");
  return keptForEvidence(judge(loadRows(side), outcomes, judging), earlier);
}

export function finishRun(finishing: Finishing, stdout: Writable): Judgement {
  const { report } = finishing;
  const judgement = judgeRepeats(finishing.repeats, finishing.asked);
  if (finishing.writesReports !== false) {
    writeReports({ ...report, judgement });
    publishReports(report.reportDir, finishing.reportDir);
  }
  const summary = summaryText(judgement, report.target.baseUrl, finishing.shownReportDir, {
    rateLimited: finishing.rateLimited,
    docsUrl: report.docsUrl,
  });
  stdout.write(summary + (finishing.notes?.(judgement) ?? []).map((line) => `${line}\n`).join(""));
  return judgement;
}
