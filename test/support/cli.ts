/** Runs the sxd command as a user would: a child process, its exit code and its output. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REFERENCE_DESCRIPTION } from "../../reference/index.ts";

export const SXD = new URL("../../bin/sxd.js", import.meta.url).pathname;

/**
 * The example client's adapter (examples/clients/node), as the tests run it: without the V8
 * coverage that c8 gives every process below `npm test`. The coverage measured is the
 * reference's (.c8rc.json), which runs inside sxd; the client's own would cost about a third
 * of each of its many runs and measure nothing.
 */
export const EXAMPLE_CLIENT = `env -u NODE_V8_COVERAGE sh ${new URL("../../examples/clients/node/adapter.sh", import.meta.url).pathname}`;

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `started` sees the child process, e.g. to measure it. */
export function sxd(
  args: string[],
  env: Record<string, string> = {},
  started?: (child: ChildProcess) => void,
): Promise<Finished> {
  const child = spawn(process.execPath, [SXD, ...args], { env: { ...process.env, ...env } });
  started?.(child);
  return finished(child);
}

/**
 * What a child process printed and its exit code. `until: "exit"` for a shell that leaves a
 * process in the background holding its output open.
 */
export function finished(child: ChildProcess, until: "close" | "exit" = "close"): Promise<Finished> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.on(until, (code) => setImmediate(() => resolve({ code, stdout, stderr })));
  });
}

export const tempDir = () => mkdtempSync(join(tmpdir(), "sxd-cli-"));

/**
 * A description file of the reference's paths, users and options, without URLs: for a run
 * against a reference started apart, whose URLs the flags give (a silent description runs
 * no digest or snapshot row).
 */
export function referenceDescriptionFile(): string {
  const file = join(tempDir(), "reference.json");
  writeFileSync(file, JSON.stringify(REFERENCE_DESCRIPTION));
  return file;
}
