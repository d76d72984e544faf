/** Runs the sxd command as a user would: a child process, its exit code and its output. */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { REFERENCE_DESCRIPTION } from "../../reference/index.ts";
import { scratchDir } from "./scratch.ts";

export const SXD = new URL("../../bin/sxd.js", import.meta.url).pathname;

const ADAPTER = new URL("../../examples/clients/node/adapter.sh", import.meta.url).pathname;
/**
 * The example client's adapter (examples/clients/node) as the tests run it, with `preloads`
 * imported into its node (a faulty twin's change, test/fixtures/clients/faults.mjs) in place of
 * any NODE_OPTIONS of the test's, and without the V8 coverage that c8 gives every process below
 * `npm test`. The coverage measured is the
 * reference's (.c8rc.json), which runs inside sxd; the client's own would cost about a third of
 * each of its many runs and measure nothing.
 */
export function exampleClient(preloads: string[] = []): string {
  const imports = preloads.map((file) => `--import ${file}`).join(" ");
  return `env -u NODE_V8_COVERAGE NODE_OPTIONS='${imports}' sh ${ADAPTER}`;
}

export const EXAMPLE_CLIENT = exampleClient();

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

/** A new empty folder, removed when this process exits. */
export const tempDir = () => scratchDir("sxd-cli-");

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

/** The runs in this process go one at a time, whoever asks: they share the step definitions. */
let turn: Promise<unknown> = Promise.resolve();

/** A Writable that keeps what is written to it as text. */
export function keeping(printed: { text: string }): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      printed.text += String(chunk);
      done();
    },
  });
}

/**
 * `sxd ...args` through the command line's own code in this process (cli/main.ts main), with
 * `env` over this process's environment: the same parsing, usage errors, output, reports and
 * exit code as an sxd process, without loading sxd, cucumber and the steps again for every run
 * (each side's steps load once a process, harness/run/run.ts and harness/client/run.ts). Not for
 * serve, for --parallel above 1 (its workers would be forked from the test process), nor for
 * what only a process shows: its launcher, its environment beyond the options, its input,
 * signals, its memory, a stack trace.
 */
export function sxdHere(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const run = turn.then(async () => {
    const { main } = await import("../../cli/main.ts");
    const stdout = { text: "" };
    const stderr = { text: "" };
    const io = { stdout: keeping(stdout), stderr: keeping(stderr), env: { ...process.env, ...env } };
    const code = await main(args, io);
    return { code, stdout: stdout.text, stderr: stderr.text };
  });
  turn = run.catch(() => undefined);
  return run;
}
