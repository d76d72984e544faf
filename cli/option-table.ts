/**
 * Every option of every command, once: its name, value, environment variable, default and
 * help line (cli/option-spec.ts). The parsing (cli/option-parse.ts), each command's `--help`
 * (cli/help.ts) and the option tables of docs/ (`npm run docs:options`) are all made from it.
 *
 * An option two commands share with one meaning (--report-dir of test and test-client) is one
 * entry naming both; a name that means different things to two commands (--config) is an
 * entry per meaning.
 */
import { COMMAND_NAMES, type CommandName, type OptionSpec } from "./option-spec.ts";
import { CLIENT_OPTIONS } from "./option-table-client.ts";
import { FUZZ_OPTIONS } from "./option-table-fuzz.ts";
import { INTEROP_OPTIONS } from "./option-table-interop.ts";
import { LIMITS_OPTIONS } from "./option-table-limits.ts";
import { RUN_OPTIONS } from "./option-table-runs.ts";
import { SECURITY_OPTIONS } from "./option-table-security.ts";
import { SERVE_OPTIONS } from "./option-table-serve.ts";
import { STORE_OPTIONS } from "./option-table-store.ts";
import { TOOL_OPTIONS } from "./option-table-tools.ts";

export { DEFAULT_CLIENT_RUNS_AT_ONCE } from "./option-table-client.ts";
export { SHUTDOWN_GRACE_MS } from "./option-table-serve.ts";
export { DEFAULT_INIT_OUT } from "./option-table-tools.ts";
export { COMMAND_NAMES, type CommandName, type OptionSpec };

const HELP = {
  name: "help",
  commands: COMMAND_NAMES,
  type: "boolean",
  short: "h",
  help: "show this help",
} as const satisfies OptionSpec;

export const OPTIONS = [
  ...RUN_OPTIONS,
  ...SECURITY_OPTIONS,
  ...CLIENT_OPTIONS,
  ...INTEROP_OPTIONS,
  ...SERVE_OPTIONS,
  ...TOOL_OPTIONS,
  ...FUZZ_OPTIONS,
  ...LIMITS_OPTIONS,
  ...STORE_OPTIONS,
  HELP,
] as const;

export type OptionName = (typeof OPTIONS)[number]["name"];

/** A command's options, in the order its help lists them. */
export function optionsOf(command: CommandName): OptionSpec[] {
  return OPTIONS.filter((option) => (option.commands as readonly string[]).includes(command));
}
