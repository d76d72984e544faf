/** The shape of an entry of the option table (cli/option-table.ts). */
import type { TextKind } from "../harness/description/setting-kinds.ts";

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
  "limits",
  "history",
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface OptionSpec {
  name: string;
  commands: readonly CommandName[];
  type: "string" | "boolean";
  /** The kind of value it takes (harness/description/setting-kinds.ts), checked as a description key of that kind is. */
  kind?: TextKind;
  /** The largest number it takes, where its kind allows more (a timer's longest wait). */
  most?: number;
  /** Where a target description holds it too (harness/description/settings.ts): a top-level key, or one of its run section. */
  key?: string;
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
  /** It says where the target is or how to reach it: every command that sends to a target takes it (TARGET_COMMANDS of harness/description/settings.ts), meaning the same. */
  target?: true;
  help: string;
}
