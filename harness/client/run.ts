/**
 * One client run (`sxd test-client`): each task through the client's command against sxd's
 * servers, again under each condition sxd stages, then the client features through cucumber,
 * whose steps grade the recording, and the same verdicts and reports as a server run. The
 * shell (cli/test-client.ts) starts the servers and hands them in; nothing here starts one.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { type IRunOptions, loadConfiguration, loadSupport, runCucumber } from "@cucumber/cucumber/api";
import type { Staging } from "../../lib/recording.ts";
import { type ClientUser, failedPlainRuns, type RecordedRequest, type TaskRun } from "../evidence/client-evidence.ts";
import { CLIENT_TARGET } from "../evidence/conformance-document.ts";
import { stagingFolder } from "../evidence/report-folder.ts";
import type { Io } from "../io.ts";
import { OutcomeCollector } from "../judging/outcomes.ts";
import { featureFiles } from "../judging/scenarios.ts";
import type { Judgement } from "../judging/verdicts.ts";
import { CLIENT_SUPPORT_MODULES, PACKAGE_ROOT, PROGRESS_FORMATTER } from "../package.ts";
import { cucumberReports, finishRun, judgedRepeat } from "../run/finish.ts";
import { inTurn, type RepeatsRun } from "../run/repeats.ts";
import { runCommand } from "./command.ts";
import type { ClientDescription } from "./description.ts";
import {
  type ClientServers,
  nextStaging,
  type PendingRun,
  type TaskName,
  taskEnvironment,
  taskSubject,
  WAIT,
} from "./tasks.ts";

/**
 * The client step definitions, loaded once a process for all its gradings (`sxd interop` and
 * the tests run many): cucumber registers them as their modules are first imported.
 */
let loadedHere: Promise<IRunOptions["support"]> | undefined;

/** The servers as the run uses them: what they offer, their recording, and the stage. */
export interface ClientBench extends ClientServers {
  /** What arrived since the last take; the recording starts again. */
  takeRecording(): RecordedRequest[];
  stage(staging: Staging): void;
}

/** How the runs of a client are judged and reported, wherever they came from. */
export interface ClientGrading {
  /** The tasks judged: their scenarios run, the others' do not. */
  tasks: readonly TaskName[];
  reportDir: string;
  strict: boolean;
  /** An incomplete verdict exits 0 instead of 3 (a recording leaves the staged rows not run). */
  allowIncomplete?: boolean;
  expectedFailures?: Map<string, string>;
  /** What the client's authors state about it (--config); {} where they state nothing. */
  description?: ClientDescription;
  /** false: without cucumber's own reports (cucumber.html, a megabyte each, and messages.ndjson), as a cell's grading goes. */
  cucumberReports?: boolean;
}

export interface ClientRunSettings extends ClientGrading {
  command: string;
  /** How long one run of a task may take before sxd kills it. */
  taskTimeoutMs: number;
  /** Every task run this many times in a row, graded as one group (judging/repeats.ts); absent: once. */
  repeat?: number;
}

/** What the client steps are given (through cucumber's world parameters). */
export interface ClientParameters {
  runs: TaskRun[];
  user: ClientUser;
  description: ClientDescription;
  /** Where the runs were recorded rather than run (--har, --manual): then sxd staged nothing. */
  recorded?: string;
}

/** Where the runs come from: a command sxd ran, or a recording. */
export type ClientSource = { command: string } | { recorded: string };

export interface ClientVerdict {
  exitCode: number;
  judgement: Judgement;
  runs: TaskRun[];
}

/**
 * Runs each task through the client's command, and again under each condition sxd stages, then
 * grades. As many runs go at once as there are benches, each on a bench of its own (its own
 * recording, staging and entries), so no run sees another's requests; the runs are reported in
 * the order one bench, one run at a time, gives them. With `repeat`, all of it that many times
 * in a row, each repeat's runs graded by themselves and the repeats judged as one group.
 */
export async function runClientConformance(
  settings: ClientRunSettings,
  benches: readonly ClientBench[],
  io: Io,
): Promise<ClientVerdict> {
  const [first] = benches;
  if (!first) throw new Error("runClientConformance needs a bench to run the client against");
  const source = { command: settings.command };
  const asked = settings.repeat ?? 1;
  return gradedGroup(source, settings, io, (staging) =>
    inTurn(asked, io.stderr, noStop, async (repeat, earlier) => {
      const ran = await runTasks(settings, benches);
      const runs = asked > 1 ? ran.map((run) => ({ ...run, repeat })) : ran;
      const before = earlier.map((e) => e.judgement);
      return { runs, judgement: await graded(runs, source, settings, first.user, io, { staging, before }) };
    }),
  );
}

/** A client's group has no limit but its tasks' own: every repeat asked for runs. */
const noStop = () => undefined;

/** The runs of every task, each started once a bench is free and the runs before it say what it stages. */
async function runTasks(settings: ClientRunSettings, benches: readonly ClientBench[]): Promise<TaskRun[]> {
  const free = [...benches];
  const ofTasks = settings.tasks.map((task) => ({ task, runs: [] as (TaskRun | PendingRun)[], ended: false }));
  const going = new Set<Promise<void>>();
  const problems: unknown[] = [];
  const startWhatCan = () => {
    for (const ofTask of ofTasks) {
      while (!ofTask.ended && problems.length === 0) {
        const bench = free.at(-1);
        if (!bench) return;
        const staging = ofTask.runs.length === 0 ? {} : nextStaging(ofTask.task, ofTask.runs, settings.description);
        if (staging === WAIT) break;
        if (!staging) {
          ofTask.ended = true;
          break;
        }
        free.pop();
        const index = ofTask.runs.push({ ...staging, pending: true }) - 1;
        const run: Promise<void> = runTask(settings, bench, ofTask.task, staging)
          .then(
            (ended) => {
              ofTask.runs[index] = ended;
            },
            (problem: unknown) => {
              problems.push(problem);
            },
          )
          .finally(() => {
            free.push(bench);
            going.delete(run);
          });
        going.add(run);
      }
    }
  };
  startWhatCan();
  while (going.size > 0) {
    await Promise.race(going);
    startWhatCan();
  }
  if (problems.length > 0) throw problems[0];
  return ofTasks.flatMap((ofTask) => ofTask.runs.filter((run): run is TaskRun => !("pending" in run)));
}

/** The client features over the runs (cucumber, whose steps grade them), then the verdicts and the reports. */
export function gradeClientRuns(
  runs: TaskRun[],
  source: ClientSource,
  grading: ClientGrading,
  user: ClientUser,
  io: Io,
): Promise<ClientVerdict> {
  return gradedGroup(source, grading, io, async (staging) => ({
    repeats: [{ runs, judgement: await graded(runs, source, grading, user, io, { staging, before: [] }) }],
  }));
}

/** One repeat of a client's group: its runs, and what the client features made of them. */
interface GradedRepeat {
  runs: TaskRun[];
  judgement: Judgement;
}

/**
 * The verdicts and the reports of a group of graded repeats (one, where nothing is repeated),
 * which `grade` makes given the staging folder its reports are written into.
 */
async function gradedGroup(
  source: ClientSource,
  grading: ClientGrading & { repeat?: number },
  io: Io,
  grade: (staging: string) => Promise<RepeatsRun<GradedRepeat>>,
): Promise<ClientVerdict> {
  const startedAt = new Date().toISOString();
  const reportDir = resolve(grading.reportDir);
  const staging = stagingFolder(reportDir);
  try {
    const group = await grade(staging);
    const runs = group.repeats.flatMap((repeat) => repeat.runs);
    const target = { baseUrl: `${CLIENT_TARGET}${"command" in source ? source.command : source.recorded}` };
    const judgement = finishRun(
      {
        side: "client",
        repeats: group.repeats.map((repeat) => repeat.judgement),
        asked: grading.repeat,
        report: {
          reportDir: staging,
          target,
          strict: grading.strict,
          harFile: undefined,
          startedAt,
          client: { ...source, runs },
        },
        reportDir,
        shownReportDir: grading.reportDir,
        notes: () => failedPlainRuns(runs),
      },
      io.stdout,
    );
    return { exitCode: judgement.exitCode, judgement, runs };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The client features over one repeat's runs, through cucumber, whose steps grade them, and the
 * repeat judged (`before`: the repeats before it); cucumber's own reports go into `staging` for a
 * run that is not repeated.
 */
async function graded(
  runs: TaskRun[],
  source: ClientSource,
  grading: ClientGrading & { repeat?: number },
  user: ClientUser,
  io: Io,
  { staging, before }: { staging: string; before: readonly Judgement[] },
): Promise<Judgement> {
  const collector = new OutcomeCollector();
  const parameters: ClientParameters = {
    runs,
    user,
    description: grading.description ?? {},
    ...("recorded" in source ? { recorded: source.recorded } : {}),
  };
  const environment = { cwd: PACKAGE_ROOT, stdout: io.stdout, stderr: io.stderr, env: process.env };
  const ownReports = grading.cucumberReports !== false && (grading.repeat ?? 1) <= 1;
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: featureFiles(PACKAGE_ROOT, "client"),
        import: CLIENT_SUPPORT_MODULES,
        tags: grading.tasks.map((task) => `@${task}`).join(" or "),
        format: [PROGRESS_FORMATTER, ...(ownReports ? cucumberReports(staging) : [])],
        formatOptions: {
          sxd: { strict: grading.strict, expectedFailures: [...(grading.expectedFailures?.keys() ?? [])] },
        },
        worldParameters: JSON.parse(JSON.stringify(parameters)),
      },
    },
    environment,
  );
  loadedHere ??= loadSupport(runConfiguration, environment);
  await runCucumber({ ...runConfiguration, support: await loadedHere }, environment, (envelope) =>
    collector.add(envelope),
  );
  const { strict, allowIncomplete, expectedFailures } = grading;
  return judgedRepeat("client", collector.outcomes(), { strict, allowIncomplete, expectedFailures }, before);
}

async function runTask(
  settings: ClientRunSettings,
  bench: ClientBench,
  task: TaskName,
  staging: Staging,
): Promise<TaskRun> {
  bench.stage(staging);
  bench.takeRecording();
  const subject = taskSubject(task, bench);
  const environment = taskEnvironment(task, bench, subject);
  const result = await runCommand(settings.command, environment, settings.taskTimeoutMs);
  const requests = bench.takeRecording();
  bench.stage({});
  const { SXD_PASSWORD, ...shown } = environment;
  const expected = subject.expectedOutput ? { expectedOutput: subject.expectedOutput } : {};
  return { task, ...staging, environment: shown, ...result, requests, ...expected };
}
