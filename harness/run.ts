/**
 * One conformance run against a described target: probe it, run the features through
 * cucumber's API, judge the rows and write the reports. The shell (cli/) decides where the
 * target is and what the settings are; this module never starts a server or reads argv.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { type IRunOptions, loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { loadRows } from "./catalogue.ts";
import { UsageError } from "./errors.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./exchange.ts";
import { OutcomeCollector } from "./outcomes.ts";
import { PACKAGE_ROOT, PROGRESS_FORMATTER, SUPPORT_MODULES } from "./package.ts";
import { probe } from "./probe.ts";
import { readRefusals } from "./rate-limits.ts";
import { writeReports } from "./report/index.ts";
import type { ProgressOptions } from "./report/progress.ts";
import { type RateSummary, summaryText } from "./report/summary.ts";
import { RunLimits, type RunLimitsParameters } from "./run-limits.ts";
import type { TargetDescription } from "./target.ts";
import { type Judgement, judge } from "./verdicts.ts";

/** Requests in a row that got no reply, after which the run gives up on the target. */
const FAILURES_IN_A_ROW = 3;

export { PACKAGE_ROOT };

export interface Io {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
}

/**
 * What one process keeps between runs: the step definitions, loaded once. The project's
 * tests run the suite many times in one process (once per fault of the reference).
 */
export interface SuiteSession {
  support?: IRunOptions["support"];
}

export interface SuiteRun {
  exitCode: number;
  judgement: Judgement;
}

export interface ConformanceRun {
  target: TargetDescription;
  tags: string | undefined;
  strict: boolean;
  allowIncomplete?: boolean;
  reportDir: string;
  timeoutMs: number;
  parallel: number;
  harFile: string | undefined;
  /** Where the docs site is published: the reports link each row to its section. */
  docsUrl?: string;
  maxBodyBytes?: number;
  deadlineSeconds: number;
  /** Rows known to fail, with the reason. */
  expectedFailures?: Map<string, string>;
  /** A messaging server whose contacts server is down, where the shell could start one (EXP-8). */
  outageMessagingUrl?: string;
  /** At most this many requests per second across all workers (--rate); absent: no cap. */
  rate?: number;
}

export async function runConformance(run: ConformanceRun, io: Io, session: SuiteSession = {}): Promise<SuiteRun> {
  const { target } = run;
  for (const url of [target.baseUrl, target.contactsUrl, target.messagingUrl]) {
    if (!url) continue;
    const problem = await probe(url, run.timeoutMs);
    if (problem) throw new UsageError(`cannot reach ${url}: ${problem}`);
  }
  // Shared by the workers: the breaker's state (run-limits.ts).
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-run-"));
  try {
    const reportDir = resolve(run.reportDir);
    mkdirSync(reportDir, { recursive: true });
    process.env.SXD_REQUEST_TIMEOUT_MS = String(run.timeoutMs);
    const progressOptions: ProgressOptions = {
      strict: run.strict,
      expectedFailures: [...(run.expectedFailures?.keys() ?? [])],
    };
    const startedAt = new Date().toISOString();
    const environment = { cwd: PACKAGE_ROOT, stdout: io.stdout, stderr: io.stderr, env: process.env };
    const { runConfiguration } = await loadConfiguration(
      {
        file: false,
        provided: {
          paths: ["features/**/*.feature"],
          import: SUPPORT_MODULES,
          tags: run.tags ?? "",
          parallel: run.parallel > 1 ? run.parallel : 0,
          // Progress only: the summary prints each failure once; junit.xml is ours (report/junit.ts).
          format: [
            PROGRESS_FORMATTER,
            ["html", resolve(reportDir, "cucumber.html")],
            ["message", resolve(reportDir, "messages.ndjson")],
          ],
          formatOptions: { sxd: progressOptions },
          // A round trip through JSON is what reaches the workers anyway.
          worldParameters: JSON.parse(
            JSON.stringify({
              target,
              timeoutMs: run.timeoutMs,
              outageMessagingUrl: run.outageMessagingUrl,
              maxBodyBytes: run.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
              limits: runLimits(run.deadlineSeconds, stateDir),
              rate: { stateDir, rate: run.rate },
            }),
          ),
        },
      },
      environment,
    );
    const collector = new OutcomeCollector();
    const noteRefusals = firstRefusalNote(stateDir, io);
    const result = await runCucumber(
      session.support ? { ...runConfiguration, support: session.support } : runConfiguration,
      environment,
      (envelope) => collector.add(envelope),
    ).finally(noteRefusals);
    session.support = result.support;
    const outcomes = collector.outcomes();
    if (outcomes.length === 0) {
      throw new UsageError(
        run.tags ? `no scenario matches the tag expression ${run.tags}` : "the suite has no scenarios",
      );
    }
    const judgement = judge(loadRows(), outcomes, {
      strict: run.strict,
      expectedFailures: run.expectedFailures,
      allowIncomplete: run.allowIncomplete,
    });
    writeReports({
      reportDir,
      target,
      judgement,
      harFile: run.harFile,
      strict: run.strict,
      startedAt,
      docsUrl: run.docsUrl,
    });
    const rateLimited = rateSummary(stateDir, Date.parse(startedAt));
    io.stdout.write(summaryText(judgement, target.baseUrl, run.reportDir, { rateLimited, docsUrl: run.docsUrl }));
    return { exitCode: judgement.exitCode, judgement };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** One line on the console at the run's first 429, so a run that waits does not look hung. */
function firstRefusalNote(stateDir: string, io: Io): () => void {
  const timer = setInterval(() => {
    if (readRefusals(stateDir).refused === 0) return;
    io.stderr.write(`\nsxd: the target answers 429 (too many requests): sxd waits and sends again; see --rate\n`);
    clearInterval(timer);
  }, 250);
  return () => clearInterval(timer);
}

/** The run's refusals for the summary, with a rate that the accepted requests kept under. */
function rateSummary(stateDir: string, startedAt: number): RateSummary | undefined {
  const { refused, waitedMs } = readRefusals(stateDir);
  if (refused === 0) return undefined;
  const accepted = RunLimits.requestsSent(stateDir) - refused;
  const seconds = Math.max(1, (Date.now() - startedAt) / 1000);
  return { refused, waitedMs, suggestedRate: accepted > 0 ? Math.max(1, Math.floor(accepted / seconds)) : undefined };
}

function runLimits(deadlineSeconds: number, stateDir: string): RunLimitsParameters {
  return {
    stateDir,
    deadlineSeconds,
    deadlineAt: Date.now() + deadlineSeconds * 1000,
    failuresInARow: FAILURES_IN_A_ROW,
  };
}
