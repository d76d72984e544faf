/**
 * The report directory never mixes two runs: a run writes its reports into a fresh folder
 * inside it, and moves them into place together once they are all written.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileProblem, UsageError } from "../errors.ts";

/** The names of the report files: spelled here and nowhere else in the source. */
export const REPORT_FILES = {
  conformanceJson: "conformance.json",
  conformanceHtml: "conformance.html",
  junit: "junit.xml",
  summary: "summary.md",
  cucumberHtml: "cucumber.html",
  messages: "messages.ndjson",
  interopJson: "interop.json",
  interopHtml: "interop.html",
  limitsJson: "limits.json",
  limitsHtml: "limits.html",
  historyJson: "history.json",
  historyHtml: "history.html",
} as const;

/** The files a server or client run writes into the report directory; they are replaced together at the end. */
const RUN_FILES = [
  REPORT_FILES.conformanceJson,
  REPORT_FILES.conformanceHtml,
  REPORT_FILES.junit,
  REPORT_FILES.summary,
  REPORT_FILES.cucumberHtml,
  REPORT_FILES.messages,
];

/** The report directory, made where it is missing; a usage error where it cannot be (before anything runs). */
export function prepareReportDir(reportDir: string): void {
  if (existsSync(reportDir) && !statSync(reportDir).isDirectory())
    throw new UsageError(`--report-dir ${reportDir} is a file, not a directory`);
  try {
    mkdirSync(reportDir, { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot write reports to ${reportDir}: ${fileProblem(error)}`);
  }
}

/** A fresh folder inside the report directory, where this run's reports are written first. */
export function stagingFolder(reportDir: string): string {
  prepareReportDir(reportDir);
  try {
    return mkdtempSync(join(reportDir, ".sxd-run-"));
  } catch (error) {
    throw new UsageError(`cannot write reports to ${reportDir}: ${fileProblem(error)}`);
  }
}

/**
 * Moves a run's complete set of reports into place, each file by a rename, and removes the
 * report files of an earlier run that this one did not write: the folder never mixes two runs.
 */
export function publishReports(staging: string, reportDir: string): void {
  for (const name of RUN_FILES) {
    const made = join(staging, name);
    if (existsSync(made)) renameSync(made, join(reportDir, name));
    else rmSync(join(reportDir, name), { force: true });
  }
}
