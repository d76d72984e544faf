/**
 * One conformance run against a described target: probe it, run the features through
 * cucumber's API, judge the rows and write the reports. The shell (cli/) decides where the
 * target is and what the settings are; this module never starts a server or reads argv.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { type IRunOptions, loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { parse as parseTags } from "@cucumber/tag-expressions";
import { loadRows } from "./catalogue.ts";
import type { TlsSettings } from "./dispatcher.ts";
import { fileProblem, UsageError } from "./errors.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./exchange.ts";
import { OutcomeCollector } from "./outcomes.ts";
import { PACKAGE_ROOT, PROGRESS_FORMATTER, SUPPORT_MODULES } from "./package.ts";
import { type PeerRun, peerLine } from "./peer.ts";
import { firstUnreachable } from "./probe.ts";
import { readRefusals } from "./rate-limits.ts";
import { suiteVersion } from "./report/conformance-json.ts";
import { writeReports } from "./report/index.ts";
import type { ProgressOptions } from "./report/progress.ts";
import { type RateSummary, summaryText, uniformReplyLine } from "./report/summary.ts";
import { RunLimits, type RunLimitsParameters } from "./run-limits.ts";
import { earlyResourceFor, loadScenarios, plannedScenarios, runOrder } from "./scenarios.ts";
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
  /** The signal that stopped the run early. */
  interrupted?: NodeJS.Signals;
}

/** The files a run writes into the report directory; they are replaced together at the end. */
const REPORT_FILES = ["conformance.json", "conformance.html", "junit.xml", "cucumber.html", "messages.ndjson"];

/** What a shell exits with after a signal: 128 + its number. */
const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export interface ConformanceRun {
  target: TargetDescription;
  tags: string | undefined;
  strict: boolean;
  /** An incomplete run (a MUST row sxd could not run) exits 0 instead of 3. */
  allowIncomplete?: boolean;
  reportDir: string;
  timeoutMs: number;
  parallel: number;
  harFile: string | undefined;
  /** Where the docs site is published (--docs-url): the reports link each row to its section. */
  docsUrl?: string;
  /** Reply bodies beyond this many bytes fail the request; absent: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** No scenario starts after this many seconds. */
  deadlineSeconds: number;
  /** Rows known to fail, with the reason. */
  expectedFailures?: Map<string, string>;
  /** A messaging server whose contacts server is down, where the shell could start one (EXP-8). */
  outageMessagingUrl?: string;
  /** Where sxd plays one side of the export itself (--peer). */
  peer?: PeerRun;
  /** At most this many requests per second across all workers (--rate); absent: no cap. */
  rate?: number;
  /** Seconds to keep retrying the probe while the target does not answer yet (`--wait`); 0: one try. */
  waitSeconds?: number;
  tls?: TlsSettings;
  /** Cucumber's own failure dump too, on stderr. */
  verbose?: boolean;
}

export async function runConformance(run: ConformanceRun, io: Io, session: SuiteSession = {}): Promise<SuiteRun> {
  const { target } = run;
  // Everything a person can get wrong is checked before the target is asked anything.
  const reportDir = resolve(run.reportDir);
  checkHarFile(run.harFile);
  if (run.tags) checkTagExpression(run.tags);
  const staging = stagingFolder(reportDir);
  // Shared by the workers: the breaker's state (run-limits.ts).
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-run-"));
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C does not wait for the running scenarios.
    if (interrupted) process.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
    interrupted = signal;
    RunLimits.interrupt(stateDir, `the run was interrupted (${signal})`);
    io.stderr.write(`sxd: ${signal}: no further scenario starts; the running ones finish, then the reports\n`);
  };
  try {
    process.env.SXD_REQUEST_TIMEOUT_MS = String(run.timeoutMs);
    const progressOptions: ProgressOptions = {
      strict: run.strict,
      expectedFailures: [...(run.expectedFailures?.keys() ?? [])],
    };
    const environment = { cwd: PACKAGE_ROOT, stdout: io.stdout, stderr: io.stderr, env: process.env };
    const scenarios = loadScenarios(PACKAGE_ROOT);
    const { runConfiguration } = await loadConfiguration(
      {
        file: false,
        provided: {
          paths: runOrder(scenarios, run.parallel > 1),
          import: SUPPORT_MODULES,
          tags: run.tags ?? "",
          parallel: run.parallel > 1 ? run.parallel : 0,
          // Progress only: the summary prints each failure once; junit.xml is ours (report/junit.ts).
          format: [
            PROGRESS_FORMATTER,
            ["html", join(staging, "cucumber.html")],
            ["message", join(staging, "messages.ndjson")],
            ...(run.verbose ? [["summary", "/dev/stderr"] as [string, string]] : []),
          ],
          formatOptions: { sxd: progressOptions },
          // A round trip through JSON is what reaches the workers anyway.
          worldParameters: JSON.parse(
            JSON.stringify({
              target,
              timeoutMs: run.timeoutMs,
              outageMessagingUrl: run.outageMessagingUrl,
              peer: run.peer,
              maxBodyBytes: run.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
              rate: { stateDir, rate: run.rate },
              tls: run.tls,
              userAgent: `sxd/${suiteVersion()}`,
            }),
          ),
        },
      },
      environment,
    );
    const planned = plannedScenarios(scenarios, run.tags);
    if (planned.length === 0) {
      throw new UsageError(
        run.tags ? `no scenario matches the tag expression ${run.tags}` : "the suite has no scenarios",
      );
    }
    const urls = [target.baseUrl, target.contactsUrl, target.messagingUrl].filter((url) => url !== undefined);
    const progress = (line: string) => io.stderr.write(`sxd: ${line}\n`);
    const unreachable = await firstUnreachable(urls, { ...run, waitSeconds: run.waitSeconds ?? 0, progress });
    if (unreachable) throw new UsageError(`cannot reach ${unreachable.url}: ${unreachable.problem}`);
    // The deadline counts from here, after the probe and any --wait, not from loading cucumber.
    const parameters = runConfiguration.runtime.worldParameters as unknown as {
      limits: RunLimitsParameters;
      earlyResourceFor?: string;
    };
    parameters.limits = runLimits(run.deadlineSeconds, stateDir);
    parameters.earlyResourceFor = earlyResourceFor(planned, run.parallel > 1);
    const startedAt = new Date().toISOString();
    process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
    const collector = new OutcomeCollector();
    const noteRefusals = firstRefusalNote(stateDir, io);
    const result = await runCucumber(
      session.support ? { ...runConfiguration, support: session.support } : runConfiguration,
      environment,
      (envelope) => collector.add(envelope),
    ).finally(noteRefusals);
    session.support = result.support;
    const outcomes = collector.outcomes();
    if (outcomes.length === 0) throw new UsageError("no scenario ran");
    const judgement = judge(loadRows(), outcomes, {
      strict: run.strict,
      expectedFailures: run.expectedFailures,
      allowIncomplete: run.allowIncomplete,
    });
    const warnings = [
      ...(interrupted ? [`the run was interrupted (${interrupted}): scenarios not started were not run`] : []),
      ...(run.tls?.insecure ? ["TLS certificates were not checked (--insecure)"] : []),
    ];
    writeReports({
      reportDir: staging,
      target,
      judgement,
      harFile: run.harFile,
      strict: run.strict,
      startedAt,
      docsUrl: run.docsUrl,
      warnings,
      interrupted,
      peer: run.peer,
    });
    publishReports(staging, reportDir);
    const rateLimited = rateSummary(stateDir, Date.parse(startedAt));
    const summary = summaryText(judgement, target.baseUrl, run.reportDir, { rateLimited, docsUrl: run.docsUrl });
    const uniform = uniformReplyLine(judgement);
    io.stdout.write(
      summary +
        [
          ...(run.peer ? [peerLine(run.peer)] : []),
          ...(uniform ? [uniform] : []),
          ...warnings.map((w) => `warning: ${w}`),
        ]
          .map((l) => `${l}\n`)
          .join(""),
    );
    const exitCode = interrupted ? (SIGNAL_EXIT_CODES[interrupted] ?? 1) : judgement.exitCode;
    return { exitCode, judgement, ...(interrupted ? { interrupted } : {}) };
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A fresh folder inside the report directory, where this run's reports are written first. */
function stagingFolder(reportDir: string): string {
  if (existsSync(reportDir) && !statSync(reportDir).isDirectory())
    throw new UsageError(`--report-dir ${reportDir} is a file, not a directory`);
  try {
    mkdirSync(reportDir, { recursive: true });
    return mkdtempSync(join(reportDir, ".sxd-run-"));
  } catch (error) {
    throw new UsageError(`cannot write reports to ${reportDir}: ${fileProblem(error)}`);
  }
}

/**
 * Moves a run's complete set of reports into place, each file by a rename, and removes the
 * report files of an earlier run that this one did not write: the folder never mixes two runs.
 */
function publishReports(staging: string, reportDir: string): void {
  for (const name of REPORT_FILES) {
    const made = join(staging, name);
    if (existsSync(made)) renameSync(made, join(reportDir, name));
    else rmSync(join(reportDir, name), { force: true });
  }
}

function checkHarFile(harFile: string | undefined): void {
  if (harFile === undefined) return;
  const folder = dirname(resolve(harFile));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`--har ${harFile}: the folder ${folder} does not exist`);
  if (existsSync(harFile) && statSync(harFile).isDirectory())
    throw new UsageError(`--har ${harFile} is a directory; give a file name`);
}

function checkTagExpression(tags: string): void {
  try {
    parseTags(tags);
  } catch (error) {
    // "Tag expression "@a and" could not be parsed because of syntax error: Expected operand."
    const why = /syntax error: (.*)$/.exec((error as Error).message)?.[1] ?? (error as Error).message;
    throw new UsageError(`--tags "${tags}" is not a tag expression: ${why}`);
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
