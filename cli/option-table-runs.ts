/**
 * Part of the option table (cli/option-table.ts): `sxd test`, and what `sxd test-client` shares
 * with it, in help's order. The settings a target description can carry too are declared in
 * harness/description/settings.ts; the rest are here.
 */
import { RUN_SETTINGS, SERVER_SETTINGS, type Setting, TARGET_COMMANDS } from "../harness/description/settings.ts";
import type { CommandName, OptionSpec } from "./option-spec.ts";
import { DEFAULT_PEER_HOST } from "./peer-options.ts";

/** A setting of harness/description/settings.ts as an entry of the option table. */
function optionOf<S extends Setting>(setting: S): OptionSpec & { name: S["name"] } {
  const { name, key, kind, arg, env, defaultText, target, help } = setting;
  const commands = setting.commands as readonly CommandName[];
  const given = {
    ...(arg ? { arg } : {}),
    ...(env ? { env } : {}),
    ...(defaultText ? { defaultText } : {}),
    ...(target ? { target } : {}),
  };
  if (kind === "switch") return { name, key, commands, type: "boolean", ...given, help };
  const byDefault = setting.default === undefined ? {} : { default: String(setting.default) };
  return { name, key, kind, commands, type: "string", ...given, ...byDefault, help };
}

/** Where the target is, and how the suite runs: the settings a description can carry too. */
const SERVER_OPTIONS = SERVER_SETTINGS.map(optionOf);
const DESCRIBED_OPTIONS = RUN_SETTINGS.map(optionOf);

export const RUN_OPTIONS = [
  ...SERVER_OPTIONS,
  {
    name: "peer",
    commands: ["test"],
    type: "string",
    arg: "SIDE",
    env: "SXD_PEER",
    help: "contacts or messaging: sxd plays that export server itself, for a team with only the other (docs/test.md)",
  },
  {
    name: "peer-port",
    commands: ["test"],
    type: "string",
    arg: "PORT",
    env: "SXD_PEER_PORT",
    help: "with --peer: the port of sxd's server, which the team's server is configured to reach",
  },
  {
    name: "peer-host",
    commands: ["test"],
    type: "string",
    arg: "HOST",
    env: "SXD_PEER_HOST",
    default: DEFAULT_PEER_HOST,
    help: "with --peer: the address sxd's server listens on, e.g. 0.0.0.0 for a team server in a container; on 0.0.0.0 or :: its URL names 127.0.0.1",
  },
  {
    name: "config",
    commands: TARGET_COMMANDS,
    target: true,
    type: "string",
    arg: "FILE",
    env: "SXD_CONFIG",
    help: "the target description, a JSON file (docs/target-description.md)",
  },
  ...DESCRIBED_OPTIONS,
  {
    name: "header",
    commands: TARGET_COMMANDS,
    target: true,
    type: "string",
    arg: "'NAME: VALUE'",
    multiple: true,
    help: "an extra header on every request (repeatable); secret-looking values are masked in reports",
  },
  {
    name: "ca",
    commands: TARGET_COMMANDS,
    target: true,
    type: "string",
    arg: "FILE",
    env: "SXD_CA",
    defaultText: "the system's",
    help: "PEM file of the certificate authority of an HTTPS target",
  },
  {
    name: "insecure",
    commands: TARGET_COMMANDS,
    target: true,
    type: "boolean",
    env: "SXD_INSECURE",
    help: "do not check TLS certificates (the summary and the report say so)",
  },
  {
    name: "verbose",
    commands: ["test"],
    type: "boolean",
    env: "SXD_VERBOSE",
    help: "also print cucumber's own failure dump",
  },
  {
    name: "reference-fault",
    commands: TARGET_COMMANDS,
    target: true,
    type: "string",
    arg: "NAME",
    multiple: true,
    help: "(testing sxd) start the bundled reference with this fault",
  },
  {
    name: "reference-variant",
    commands: TARGET_COMMANDS,
    target: true,
    type: "string",
    arg: "NAME",
    help: "(testing sxd) start the bundled reference as this variant",
  },
] as const satisfies readonly OptionSpec[];
