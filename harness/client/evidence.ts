/**
 * What one run of a client task leaves behind: what the client said (exit code, stdout,
 * stderr) and what it sent to sxd's servers. Every client row is judged from these alone.
 */
import type { RecordedRequest, StagedCondition } from "../../lib/recording.ts";

export type { RecordedRequest, StagedCondition };

export interface TaskRun {
  task: string;
  /** The condition sxd staged for this run; absent for the plain run of the task. */
  condition?: StagedCondition;
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

/** Exit 127: the client does not do this task; its rows are not run, never failed. */
export const NOT_SUPPORTED = 127;

/** Who the client must log in as, and what it must therefore never send in clear. */
export interface ClientUser {
  username: string;
  password: string;
}

/** The client said it was done, and got at least one success from sxd's servers. */
export function succeeded(run: TaskRun): boolean {
  return run.exitCode === 0 && run.requests.some((request) => request.reply.status < 300);
}

/** How a run ended, in a few words: "exit 0 after 41 ms", "killed after 10000 ms (no exit)". */
export function endOf(run: TaskRun): string {
  if (run.recorded) return run.recorded;
  if (run.timedOut) return `killed after ${run.durationMs} ms without exiting`;
  return run.exitCode === null ? "ended by a signal" : `exit ${run.exitCode} after ${run.durationMs} ms`;
}

export function describeRun(run: TaskRun): string {
  return `task ${run.task}${run.condition ? ` (staged: ${run.condition})` : ""}`;
}

/** What a grade says of one row in one run: the verdict of its case, and why in words. */
export interface Grade {
  status: "passed" | "failed" | "not run" | "not applicable";
  reason: string;
}

export const passed = (reason: string): Grade => ({ status: "passed", reason });
export const failed = (reason: string): Grade => ({ status: "failed", reason });
export const notRun = (reason: string): Grade => ({ status: "not run", reason });
