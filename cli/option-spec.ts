/** The shape of an entry of the option table (cli/option-table.ts). */

export const COMMAND_NAMES = [
  "test",
  "test-client",
  "interop",
  "serve",
  "init",
  "rows",
  "report",
  "docs",
  "fuzz",
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface OptionSpec {
  name: string;
  commands: readonly CommandName[];
  type: "string" | "boolean";
  /** What the value is, in the help and the docs: URL, FILE, MS. */
  arg?: string;
  /** Read when the flag is not given (an empty value counts as not given). */
  env?: string;
  /** The value taken when nothing gives one (for `sxd test`: nor the description's run section). */
  default?: string;
  /** What happens when nothing gives a value, where that is not a value. */
  defaultText?: string;
  multiple?: true;
  short?: string;
  help: string;
}
