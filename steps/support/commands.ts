/**
 * Runs the shell commands of a target description (the outage's stop and start) with a
 * time limit, keeping their output for the report. The output goes to a file, not a pipe:
 * a start command that leaves a server running in the background must not find its
 * standard output closed when the command itself returns.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersEnvironment } from "../../harness/package.ts";

export interface CommandRun {
  command: string;
  /** The exit code; null when the command was killed. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Standard output and error, interleaved, at most OUTPUT_LIMIT bytes. */
  output: string;
}

const OUTPUT_LIMIT = 64 * 1024;

export async function runCommand(command: string, timeoutMs: number): Promise<CommandRun> {
  const dir = mkdtempSync(join(tmpdir(), "sxd-command-"));
  const file = join(dir, "output");
  const fd = openSync(file, "w+");
  const started = Date.now();
  try {
    // Its own process group, so that a command that overstays is stopped with its children.
    const child = spawn("sh", ["-c", command], { env: usersEnvironment(), stdio: ["ignore", fd, fd], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => {
      child.on("error", () => resolve(null));
      child.on("exit", (code) => resolve(code));
    });
    clearTimeout(timer);
    return { command, exitCode, timedOut, durationMs: Date.now() - started, output: readStart(fd) };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function succeeded(run: CommandRun): boolean {
  return run.exitCode === 0 && !run.timedOut;
}

/** The run as the report shows it. */
export function describeRun(run: CommandRun): string {
  const ending = run.timedOut ? "stopped: no exit within its time limit" : `exit code ${run.exitCode ?? "none"}`;
  const output = run.output.trimEnd();
  return `$ ${run.command}\n(${ending}, after ${run.durationMs} ms)${output ? `\n${output}` : ""}`;
}

function readStart(fd: number): string {
  const buffer = Buffer.alloc(OUTPUT_LIMIT);
  const n = readSync(fd, buffer, 0, OUTPUT_LIMIT, 0);
  return buffer.subarray(0, n).toString("utf8");
}
