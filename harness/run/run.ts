/**
 * One conformance run against a described target: probe it, run the features through
 * cucumber's API, judge the rows and write the reports. The shell (cli/) decides where the
 * target is and what the settings are; this module never starts a server or reads argv.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type IRunOptions, loadConfiguration, loadSupport, runCucumber } from "@cucumber/cucumber/api";
import { type PeerRun, peerLine } from "../description/peer.ts";
import { DEFAULT_DEADLINE_SECONDS, DEFAULT_MAX_BODY_BYTES } from "../description/settings.ts";
import { type TargetDescription, unstatedLines } from "../description/target.ts";
import { UsageError } from "../errors.ts";
import type { BundledReference } from "../evidence/described-target.ts";
import { stagingFolder } from "../evidence/report-folder.ts";
import type { Io } from "../io.ts";
import { OutcomeCollector } from "../judging/outcomes.ts";
import { earlyResourceFor, loadScenarios, plannedScenarios, runOrder } from "../judging/scenarios.ts";
import type { Judgement } from "../judging/verdicts.ts";
import { PACKAGE_ROOT, PROGRESS_FORMATTER, SUPPORT_MODULES, suiteVersion } from "../package.ts";
import type { ProgressOptions } from "../report/progress.ts";
import { uniformReplyLine } from "../report/summary.ts";
import type { TlsSettings } from "../wire/dispatcher.ts";
import { firstUnreachable, timeRoundTrips } from "../wire/probe.ts";
import type { RateParameters } from "../wire/rate-limits.ts";
import { RunLimits } from "../wire/run-limits.ts";
import { forgetRunState, type RunStatePlace } from "../wire/run-state.ts";
import { chosenAtOnce } from "./concurrency.ts";
import { runsScenariosAtOnce } from "./concurrent-scenarios.ts";
import { cucumberReports, finishRun, judgedRepeat } from "./finish.ts";
import { firstRefusalNote, rateSummary } from "./rate-report.ts";
import { type Interruption, inTurn, listenForInterruptions, type RepeatsRun } from "./repeats.ts";
import { checkHarFile, checkTagExpression } from "./run-checks.ts";
import { judgedWithTheRun } from "./whole-run.ts";
import { DEFAULT_SECURITY_SAMPLES, runLimits, type WorldParameters } from "./world-parameters.ts";

/**
 * The step definitions, loaded once a process for all its runs (the tests run many): cucumber
 * registers a step file's definitions as its module is first imported. Kept from when the
 * loading starts: a run that ends before its scenarios leaves it going for the next.
 */
let loadedHere: Promise<IRunOptions["support"]> | undefined;

export interface SuiteRun {
  /** The verdict's exit code; a shell that was interrupted exits as its signal says instead. */
  exitCode: number;
  judgement: Judgement;
  /** The signal that stopped the run early. */
  interrupted?: NodeJS.Signals;
}

export interface ConformanceRun {
  target: TargetDescription;
  tags: string | undefined;
  strict: boolean;
  /** An incomplete run (a MUST row sxd could not run) exits 0 instead of 3. */
  allowIncomplete?: boolean;
  reportDir: string;
  timeoutMs: number;
  /** Worker processes (--parallel); absent: one process, taking as many scenarios at once as the probe's time says (concurrency.ts). */
  parallel?: number;
  harFile: string | undefined;
  /** Where the docs site is published (--docs-url): the reports link each row to its section. */
  docsUrl?: string;
  /** Reply bodies beyond this many bytes fail the request; absent: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Values sampled where a row judges whether they can be predicted; absent: DEFAULT_SECURITY_SAMPLES. */
  securitySamples?: number;
  /** No scenario starts after this many seconds of the whole group of repeats; absent: DEFAULT_DEADLINE_SECONDS. */
  deadlineSeconds?: number;
  /** The suite this many times in a row, judged as one group (judging/repeats.ts); absent: once. */
  repeat?: number;
  /** Rows known to fail, with the reason. */
  expectedFailures?: Map<string, string>;
  /** A messaging server whose contacts server is down, where the shell could start one (the outage row). */
  outageMessagingUrl?: string;
  /** Where sxd plays one side of the export itself (--peer). */
  peer?: PeerRun;
  /** The run's target is the bundled reference, started for it: which one (the reports name it). */
  bundled?: BundledReference;
  /** At most this many requests per second across all workers (--rate); absent: the pace the target allows. */
  rate?: number;
  /** Wall-clock seconds the run may spend waiting after refusals (--refusal-wait); absent: the default. */
  refusalWaitSeconds?: number;
  /** Seconds to keep retrying the probe while the target does not answer yet (`--wait`); 0: one try. */
  waitSeconds?: number;
  tls?: TlsSettings;
  /** Cucumber's own failure dump too, on stderr. */
  verbose?: boolean;
  /** false: cucumber writes none of its own reports (cucumber.html, messages.ndjson); the tests' runs read none. */
  cucumberReports?: boolean;
  /**
   * false: no report at all, the verdicts returned only (nothing is put in reportDir): the
   * tests' many runs that judge by the returned judgement, where writing them took a sixteenth
   * of each run's CPU.
   */
  reportFiles?: boolean;
  /**
   * Where the run hears it should stop (the shell's Ctrl-C): called as the scenarios start,
   * with what to do then; returns how to stop listening. Absent: the run is not interrupted.
   */
  interruptions?: (interrupt: (signal: NodeJS.Signals) => void) => () => void;
}

export async function runConformance(run: ConformanceRun, io: Io): Promise<SuiteRun> {
  // Everything a person can get wrong is checked before the target is asked anything.
  const reportDir = resolve(run.reportDir);
  checkHarFile(run.harFile);
  if (run.tags) checkTagExpression(run.tags);
  const staging = stagingFolder(reportDir);
  // The breaker's and the pace's state (run-state.ts): in files only where workers share it.
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-run-"));
  const place: RunStatePlace = { stateDir, workers: (run.parallel ?? 0) > 1 };
  const interruption: Interruption = {};
  try {
    const environment = { cwd: PACKAGE_ROOT, stdout: io.stdout, stderr: io.stderr };
    const scenarios = loadScenarios(PACKAGE_ROOT);
    const { runConfiguration } = await loadConfiguration(cucumberOptions(run, staging), environment);
    const planned = plannedScenarios(scenarios, run.tags);
    if (planned.length === 0) {
      throw new UsageError(
        run.tags ? `no scenario matches the tag expression ${run.tags}` : "the suite has no scenarios",
      );
    }
    // The step code loads while the probe waits for the target (round trips on a far one), and
    // before the round trip is timed: one process runs the scenarios, so it is the code the run
    // uses. Workers load their own; their run still needs here what an earlier run loaded.
    if ((run.parallel ?? 0) <= 1) loadedHere ??= loadSupport(runConfiguration, environment);
    const preloading = loadedHere;
    preloading?.catch(() => undefined); // shown where the run awaits it, not as an unhandled rejection
    const atOnce = await probeTarget(run, io, unstatedLines(run.target, planned), preloading);
    // Scenarios under way beside each other, in workers or in this process.
    const concurrent = (run.parallel ?? atOnce) > 1;
    // Only the files the tags take anything from: cucumber reads, parses and walks each it is
    // given, and a run of one behaviour's rows would parse the other behaviours' for nothing.
    runConfiguration.sources.paths = runOrder(planned, concurrent);
    const rate: RateParameters = { ...place, rate: run.rate, refusalWaitSeconds: run.refusalWaitSeconds };
    const parameters = worldParameters(run, { place, rate, atOnce, early: earlyResourceFor(planned, concurrent) });
    if (atOnce > 1) runsScenariosAtOnce();
    // A round trip through JSON is what reaches the workers anyway.
    runConfiguration.runtime.worldParameters = JSON.parse(JSON.stringify(parameters));
    const startedAt = new Date().toISOString();
    listenForInterruptions(run.interruptions, io, place, interruption);
    const noteRefusals = firstRefusalNote(rate, io.stderr);
    const limits = new RunLimits(parameters.limits);
    const judging = {
      strict: run.strict,
      expectedFailures: run.expectedFailures,
      allowIncomplete: run.allowIncomplete,
    };
    const group = await inTurn<Judgement>(
      run.repeat ?? 1,
      io.stderr,
      () => limits.stopReason(),
      async (_, earlier) => {
        const collector = new OutcomeCollector();
        // The step definitions a process registers once: preloaded, or from an earlier run or repeat.
        const loaded = await loadedHere;
        const result = await runCucumber(
          loaded ? { ...runConfiguration, support: loaded } : runConfiguration,
          environment,
          (envelope) => collector.add(envelope),
        );
        loadedHere ??= Promise.resolve(result.support);
        return judgedRepeat("server", await judgedWithTheRun(collector.outcomes(), run.target), judging, earlier);
      },
    ).finally(noteRefusals);
    const { signal: interrupted } = interruption;
    const judgement = judgeRun(run, io, {
      group,
      staging,
      reportDir,
      startedAt,
      rate,
      interrupted,
    });
    return { exitCode: judgement.exitCode, judgement, ...(interrupted ? { interrupted } : {}) };
  } finally {
    interruption.stopListening?.();
    forgetRunState(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/** What cucumber is told: the support code, the tags, the workers, the formatters. */
function cucumberOptions(run: ConformanceRun, staging: string) {
  const progressOptions: ProgressOptions = {
    strict: run.strict,
    expectedFailures: [...(run.expectedFailures?.keys() ?? [])],
  };
  return {
    file: false as const,
    provided: {
      import: SUPPORT_MODULES,
      tags: run.tags ?? "",
      parallel: (run.parallel ?? 0) > 1 ? run.parallel : 0,
      // Progress only: the summary prints each failure once; junit.xml is ours (report/junit.ts).
      // cucumber's own reports are of one cucumber run: a group of repeats writes none.
      format: [
        PROGRESS_FORMATTER,
        ...(run.cucumberReports === false || (run.repeat ?? 1) > 1 ? [] : cucumberReports(staging)),
        ...(run.verbose ? [["summary", "/dev/stderr"] as [string, string]] : []),
      ],
      formatOptions: { sxd: progressOptions },
    },
  };
}

/**
 * Waits for the target to answer (a usage error where it does not), then says what the
 * description leaves `unstated`; the scenarios to take at once, from the round trip timed once
 * `loading` is done (probe.ts, timeRoundTrips).
 */
async function probeTarget(run: ConformanceRun, io: Io, unstated: string[], loading?: Promise<unknown>) {
  const { target } = run;
  const urls = [target.baseUrl, target.contactsUrl, target.messagingUrl].filter((url) => url !== undefined);
  const progress = (line: string) => io.stderr.write(`sxd: ${line}\n`);
  const unreachable = await firstUnreachable(urls, { ...run, waitSeconds: run.waitSeconds ?? 0, progress });
  if (unreachable) throw new UsageError(`cannot reach ${unreachable.url}: ${unreachable.problem}`);
  for (const line of unstated) progress(line);
  if (run.parallel !== undefined) return 1;
  await loading?.catch(() => undefined);
  return chosenAtOnce(await timeRoundTrips(urls, run), target.snapshots.resources?.length, progress);
}

/** What every scenario's world is given. */
function worldParameters(
  run: ConformanceRun,
  chosen: { place: RunStatePlace; rate: RateParameters; atOnce: number; early: WorldParameters["earlyResourceFor"] },
): WorldParameters {
  return {
    target: run.target,
    timeoutMs: run.timeoutMs,
    outageMessagingUrl: run.outageMessagingUrl,
    peer: run.peer,
    maxBodyBytes: run.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    securitySamples: run.securitySamples ?? DEFAULT_SECURITY_SAMPLES,
    // The deadline counts from here, after the probe and any --wait, not from loading cucumber.
    limits: runLimits(run.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS, chosen.place),
    rate: chosen.rate,
    tls: run.tls,
    userAgent: `sxd/${suiteVersion()}`,
    earlyResourceFor: chosen.early,
    ...(chosen.atOnce > 1 ? { scenariosAtOnce: chosen.atOnce } : {}),
  };
}

/** The outcomes judged, the reports written and published, the summary printed. */
function judgeRun(
  run: ConformanceRun,
  io: Io,
  ran: {
    group: RepeatsRun<Judgement>;
    staging: string;
    reportDir: string;
    startedAt: string;
    rate: RateParameters;
    interrupted: NodeJS.Signals | undefined;
  },
): Judgement {
  const { interrupted, group } = ran;
  const warnings = [
    ...(interrupted ? [`the run was interrupted (${interrupted}): scenarios not started were not run`] : []),
    ...(group.stopped ? [group.stopped] : []),
    ...(run.tls?.insecure ? ["TLS certificates were not checked (--insecure)"] : []),
  ];
  return finishRun(
    {
      side: "server",
      repeats: group.repeats,
      asked: run.repeat,
      report: {
        reportDir: ran.staging,
        target: run.target,
        description: run.target,
        ...(run.bundled ? { bundled: run.bundled } : {}),
        harFile: run.harFile,
        strict: run.strict,
        startedAt: ran.startedAt,
        docsUrl: run.docsUrl,
        warnings,
        interrupted,
        peer: run.peer,
      },
      reportDir: ran.reportDir,
      shownReportDir: run.reportDir,
      writesReports: run.reportFiles !== false,
      rateLimited: rateSummary(ran.rate),
      notes: (judged) => [
        ...(run.peer ? [peerLine(run.peer)] : []),
        ...[uniformReplyLine(judged)].filter((line) => line !== undefined),
        ...warnings.map((w) => `warning: ${w}`),
      ],
    },
    io.stdout,
  );
}
