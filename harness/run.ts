/**
 * One conformance run against a described target: probe it, run the features through
 * cucumber's API, judge the rows and write the reports. The shell (cli/) decides where the
 * target is and what the settings are; this module never starts a server or reads argv.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type IRunOptions, loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { loadRows } from "./catalogue.ts";
import { UsageError } from "./errors.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./exchange.ts";
import { OutcomeCollector } from "./outcomes.ts";
import { probe } from "./probe.ts";
import { writeReports } from "./report/index.ts";
import type { ProgressOptions } from "./report/progress.ts";
import { summaryText } from "./report/summary.ts";
import type { RunLimitsParameters } from "./run-limits.ts";
import type { TargetDescription } from "./target.ts";
import { type Judgement, judge } from "./verdicts.ts";

/** Requests in a row that got no reply, after which the run gives up on the target. */
const FAILURES_IN_A_ROW = 3;

export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

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
          import: ["steps/support/world.ts", "steps/support/hooks.ts", "steps/**/*.steps.ts"],
          tags: run.tags ?? "",
          parallel: run.parallel > 1 ? run.parallel : 0,
          // Progress only: the summary prints each failure once; junit.xml is ours (report/junit.ts).
          format: [
            "./harness/report/progress.ts",
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
            }),
          ),
        },
      },
      environment,
    );
    const collector = new OutcomeCollector();
    const result = await runCucumber(
      session.support ? { ...runConfiguration, support: session.support } : runConfiguration,
      environment,
      (envelope) => collector.add(envelope),
    );
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
    io.stdout.write(summaryText(judgement, target.baseUrl, run.reportDir, run.docsUrl));
    return { exitCode: judgement.exitCode, judgement };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function runLimits(deadlineSeconds: number, stateDir: string): RunLimitsParameters {
  return {
    stateDir,
    deadlineSeconds,
    deadlineAt: Date.now() + deadlineSeconds * 1000,
    failuresInARow: FAILURES_IN_A_ROW,
  };
}
