/** Part of the option table (cli/option-table.ts): what only `sxd test-client` takes, in help's order. */
import type { OptionSpec } from "./option-spec.ts";

/**
 * Runs of a client at once when --parallel is not given. A run mostly waits (a process
 * starting, a JVM warming up) while sxd's servers do little, so a two-core machine keeps
 * more runs going than it has cores.
 */
export const DEFAULT_CLIENT_RUNS_AT_ONCE = 4;

/** A timer's longest wait, 2^31 - 1 ms: node fires a longer one at once. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

export const CLIENT_OPTIONS = [
  {
    name: "run",
    commands: ["test-client"],
    type: "string",
    arg: "COMMAND",
    help: "the client's command, run through the shell once per task and staged condition",
  },
  {
    name: "manual",
    commands: ["test-client"],
    type: "boolean",
    help: "record what a person's client sends, until Enter or Ctrl-C",
  },
  {
    name: "har",
    commands: ["test-client"],
    type: "string",
    arg: "FILE",
    help: "grade this recording (HAR 1.2) instead; no server is started",
  },
  {
    name: "username",
    commands: ["test-client"],
    type: "string",
    arg: "USER",
    env: "SXD_USERNAME",
    help: "with --har: the user whose secret the client's Digest answers prove",
  },
  {
    name: "password",
    commands: ["test-client"],
    type: "string",
    arg: "PASSWORD",
    env: "SXD_PASSWORD",
    help: "with --har: that user's password",
  },
  {
    name: "tasks",
    commands: ["test-client", "interop"],
    type: "string",
    arg: "LIST",
    defaultText: "every task",
    help: "the tasks to grade, comma-separated",
  },
  {
    name: "task-timeout",
    commands: ["test-client", "interop"],
    type: "string",
    kind: "count",
    most: LONGEST_WAIT_MS,
    arg: "MS",
    default: "10000",
    help: "milliseconds each run of a task may take; then the command and what it started are killed",
  },
  {
    name: "parallel",
    commands: ["test-client"],
    type: "string",
    kind: "count",
    arg: "N",
    default: String(DEFAULT_CLIENT_RUNS_AT_ONCE),
    help: "runs of the client at once, each against servers of its own (1: one after another)",
  },
  {
    name: "manual-timeout",
    commands: ["test-client"],
    type: "string",
    kind: "count",
    most: Math.floor(LONGEST_WAIT_MS / 1000),
    arg: "SECONDS",
    default: "1800",
    help: "with --manual: seconds the session may last",
  },
  {
    name: "config",
    commands: ["test-client"],
    type: "string",
    arg: "FILE",
    help: "the client description, a JSON file (docs/client-description.md)",
  },
] as const satisfies readonly OptionSpec[];
