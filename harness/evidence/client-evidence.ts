/**
 * What one run of a client task leaves behind: what the client said (exit code, stdout,
 * stderr) and what it sent to sxd's servers. Every client row is judged from these alone.
 */
import type { Offer, RecordedRequest, StagedCondition, Staging } from "../../lib/recording.ts";
import { shorten } from "../../lib/shorten.ts";

export type { Offer, RecordedRequest, StagedCondition, Staging };

export interface TaskRun {
  task: string;
  /** The condition sxd staged for this run; absent for the plain run of the task. */
  condition?: StagedCondition;
  /** The offer the condition met the client on (MD5 first, or alone), where not the plain one. */
  offer?: Offer;
  /** What the command was given besides the inherited environment (the password left out). */
  environment: Record<string, string>;
  /** null where a signal ended it (sxd's own, after the time allowed). */
  exitCode: number | null;
  /** The command was still running after the time allowed and was killed. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  requests: RecordedRequest[];
  /** What a right run prints (the history task: every title, newest first). */
  expectedOutput?: string[];
  /** The repeat (1 first) of a group (`sxd test-client --repeat`) this run was part of; absent where nothing was repeated. */
  repeat?: number;
  /**
   * Where the requests come from when no command ran: "recorded in app.har", "done by hand".
   * Such a run has no exit code and no output, and no condition is ever staged for it.
   */
  recorded?: string;
}

/** What conformance.json keeps of a client run: the command (or where it was recorded), and every run of a task. */
export interface ClientEvidence {
  command?: string;
  recorded?: string;
  runs: TaskRun[];
}

/** Exit 127: the client does not do this task; its scenarios are not applicable, never failed. */
export const NOT_SUPPORTED = 127;

/**
 * Who the client must log in as, and what it must therefore never send in clear. sxd's own
 * servers always know both; a recording made elsewhere may come without them, and then the
 * rows that need them are not run.
 */
export interface ClientUser {
  username?: string;
  password?: string;
}

/** The offer a run met the client on: the condition itself where it is one, else the one it was staged on. */
export function offerOf(run: Staging): Offer | undefined {
  if (run.condition === "md5-first" || run.condition === "md5-only") return run.condition;
  return run.offer;
}

/** How a run ended, in a few words: "exit 0 after 41 ms", "killed after 10000 ms (no exit)". */
export function endOf(run: TaskRun): string {
  if (run.recorded) return run.recorded;
  if (run.timedOut) return `killed after ${run.durationMs} ms without exiting`;
  return run.exitCode === null ? "ended by a signal" : `exit ${run.exitCode} after ${run.durationMs} ms`;
}

/**
 * A line for each task whose plain run (nothing staged) the client's command did and did not
 * end with exit 0. sxd's own servers did the task right in that run, so a client that failed it
 * is worth a look, whatever its rows say (its reason: the first line it wrote to stderr). In a
 * group of repeats, the first such run of a task, and in how many repeats one failed.
 */
export function failedPlainRuns(runs: readonly TaskRun[]): string[] {
  const failed = runs.filter(
    (run) => !run.recorded && !run.condition && run.exitCode !== 0 && run.exitCode !== NOT_SUPPORTED,
  );
  return [...new Set(failed.map((run) => run.task))].map((task) => {
    const ofTask = failed.filter((run) => run.task === task);
    const [run] = ofTask as [TaskRun];
    const said = run.stderr.split("\n").find((line) => line.trim() !== "");
    const why = said === undefined ? "" : `: ${shorten(said.trim(), 200)}`;
    const repeats = ofTask.length > 1 ? `, in ${ofTask.length} repeats` : "";
    return `note: the client failed the plain run of task ${task} against sxd's own servers (${endOf(run)}${repeats})${why}`;
  });
}

export function describeRun(run: TaskRun): string {
  return `task ${run.task}${stagingOf(run)}`;
}

/** " (staged: wrong-credentials on md5-first)", or "" for the plain run. */
function stagingOf(run: TaskRun): string {
  if (!run.condition) return "";
  return ` (staged: ${run.condition}${run.offer ? ` on ${run.offer}` : ""})`;
}

/** Where a request is among the runs of a task: "request 2", "request 2 (staged: md5-first)". */
export function placeOf(run: TaskRun, number: number): string {
  return `request ${number}${stagingOf(run)}`;
}

/** What a grade says of one row in one run: the verdict of its case, and why in words. */
export interface Grade {
  status: "passed" | "failed" | "not run" | "not applicable";
  reason: string;
}

export const passed = (reason: string): Grade => ({ status: "passed", reason });
export const failed = (reason: string): Grade => ({ status: "failed", reason });
export const notRun = (reason: string): Grade => ({ status: "not run", reason });
