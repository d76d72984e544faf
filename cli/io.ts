import type { Io } from "../harness/io.ts";

/** What a command prints to and the environment it reads: the process's, or a test's. */
export interface CommandIo extends Io {
  env: NodeJS.ProcessEnv;
}

export const PROCESS_IO: CommandIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };
