/**
 * Runs a client's command through the shell, as a CI script would, with the environment of
 * its task, for a bounded time: past it the command and everything it started are killed.
 * Output is kept up to a limit, so a client that prints without end costs bounded memory.
 */
import { spawn } from "node:child_process";
import { usersEnvironment } from "../package.ts";

/** Characters of stdout and of stderr kept per run. */
const OUTPUT_LIMIT = 64 * 1024;

export interface CommandResult {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export function runCommand(
  command: string,
  environment: Record<string, string>,
  timeoutMs: number,
): Promise<CommandResult> {
  const started = Date.now();
  // Its own process group (detached), so that the time limit ends what the command started too.
  const child = spawn("sh", ["-c", command], {
    env: { ...usersEnvironment(), ...environment },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = { stdout: "", stderr: "" };
  const keep = (name: "stdout" | "stderr") => (chunk: Buffer) => {
    if (output[name].length < OUTPUT_LIMIT)
      output[name] = (output[name] + chunk.toString("utf8")).slice(0, OUTPUT_LIMIT);
  };
  child.stdout.on("data", keep("stdout"));
  child.stderr.on("data", keep("stderr"));
  let timedOut = false;
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  return new Promise((resolve) => {
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      resolve({ exitCode, timedOut, ...output, durationMs: Date.now() - started });
    };
    child.on("error", (error) => {
      output.stderr += `sxd: cannot start the command: ${error.message}\n`;
      finish(null);
    });
    let exitCode: number | null = null;
    child.on("exit", (code) => {
      exitCode = timedOut ? null : code;
      // What the command left running in the background holds its output open: it ends with the task.
      kill();
    });
    child.on("close", () => finish(exitCode));
  });
}
