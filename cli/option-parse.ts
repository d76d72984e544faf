/**
 * A command's arguments read by its entries in the option table: each option from its flag,
 * else its environment variable, else (asked for) its default. Pure: the environment is given.
 */
import { parseArgs } from "node:util";
import { valueOfText } from "../harness/description/setting-kinds.ts";
import { valueFromText } from "../harness/description/target-check.ts";
import type { Result } from "../lib/result.ts";
import { type CommandName, type OptionName, type OptionSpec, optionsOf } from "./option-table.ts";
import { BOOLEAN_SPELLINGS, withSuggestion } from "./spelling.ts";

type Value = string | boolean | string[] | undefined;

/** What the flags and the environment gave a command. */
export class GivenOptions {
  constructor(
    readonly command: CommandName,
    private readonly values: Record<string, Value>,
    readonly positionals: string[],
    /** The options whose value came from their environment variable, not a flag. */
    private readonly fromEnvironment: ReadonlySet<string> = new Set(),
  ) {}

  /** Where an option's value came from, for a message: `--timeout`, or `SXD_TIMEOUT`. */
  sourceOf(name: OptionName): string {
    const variable = optionsOf(this.command).find((option) => option.name === name)?.env;
    return this.fromEnvironment.has(name) && variable ? variable : `--${name}`;
  }

  /** The option's value from its flag or environment variable; undefined where neither gives one. */
  text(name: OptionName): string | undefined {
    const value = this.values[name];
    return typeof value === "string" ? value : undefined;
  }

  /** As text(), else the option's default in the table. */
  valueOr(name: OptionName): string | undefined {
    return this.text(name) ?? defaultOf(this.command, name);
  }

  /**
   * An option of a kind (a count, a port, a URL) from its flag or environment variable, else
   * its default, checked as a description key of that kind is; undefined where none gives one.
   */
  checked(name: OptionName): Result<string | number | undefined> {
    const text = this.text(name);
    const option = optionsOf(this.command).find((entry) => entry.name === name);
    if (option?.kind === undefined) throw new Error(`the option table gives sxd ${this.command} --${name} no kind`);
    // The table's defaults are of their kinds (cli/option-table.test.ts): only what was given is checked.
    if (text === undefined)
      return {
        ok: true,
        value: option.default === undefined ? undefined : (valueOfText(option.kind, option.default) as string | number),
      };
    const checked = valueFromText(this.sourceOf(name), option.kind, text);
    if (checked.ok && option.most !== undefined && Number(checked.value) > option.most)
      return { ok: false, error: `${this.sourceOf(name)} must be at most ${option.most}, got ${JSON.stringify(text)}` };
    return checked;
  }

  /** As checked(), for an option that has a default or must be given. */
  number(name: OptionName): Result<number> {
    const checked = this.checked(name);
    if (checked.ok && typeof checked.value !== "number")
      throw new Error(`sxd ${this.command} --${name} is no number with a default`);
    return checked as Result<number>;
  }

  /** A switch from its flag or environment variable: undefined where neither says. */
  switch(name: OptionName): boolean | undefined {
    const value = this.values[name];
    return typeof value === "boolean" ? value : undefined;
  }

  /** A repeatable option's values, in the order given. */
  list(name: OptionName): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value : [];
  }

  get help(): boolean {
    return this.values.help === true;
  }
}

export function defaultOf(command: CommandName, name: OptionName): string | undefined {
  return optionsOf(command).find((option) => option.name === name)?.default;
}

/** A value, else the option's default, which the table must give. */
export function withDefault(command: CommandName, name: OptionName, value: string | undefined): string {
  const chosen = value ?? defaultOf(command, name);
  if (chosen === undefined) throw new Error(`the option table gives sxd ${command} --${name} no default`);
  return chosen;
}

export function parseOptions(
  command: CommandName,
  argv: string[],
  env: NodeJS.ProcessEnv,
  allowPositionals = false,
): Result<GivenOptions> {
  const options = optionsOf(command);
  let parsed: { values: Record<string, Value>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(options.map((o) => [o.name, parseArgsOption(o)])),
      allowPositionals,
      strict: true,
    }) as { values: Record<string, Value>; positionals: string[] };
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    const names = options.map((o) => o.name);
    return { ok: false, error: withSuggestion(message, names, command) };
  }
  const values: Record<string, Value> = { ...parsed.values };
  const fromEnvironment = new Set<string>();
  for (const option of options) {
    if (values[option.name] !== undefined || option.env === undefined) continue;
    const fromEnv = env[option.env];
    if (!fromEnv) continue;
    fromEnvironment.add(option.name);
    if (option.type === "string") values[option.name] = fromEnv;
    else {
      const on = BOOLEAN_SPELLINGS[fromEnv.toLowerCase()];
      if (on === undefined)
        return { ok: false, error: `${option.env}=${fromEnv}: say on/off, true/false, yes/no or 1/0` };
      values[option.name] = on;
    }
  }
  return { ok: true, value: new GivenOptions(command, values, parsed.positionals, fromEnvironment) };
}

function parseArgsOption(option: OptionSpec) {
  return {
    type: option.type,
    ...(option.multiple ? { multiple: true } : {}),
    ...(option.short ? { short: option.short } : {}),
  };
}
