/**
 * The options of the commands around the runs: `sxd init`, `sxd rows`, `sxd report`,
 * `sxd docs`, in the order their help lists them. Part of the option table (cli/option-table.ts).
 */
import type { OptionSpec } from "./option-spec.ts";

/** Where `sxd init` writes, unless --out. */
export const DEFAULT_INIT_OUT = "sxd-target.json";

export const TOOL_OPTIONS = [
  // sxd init: each question is also a flag
  {
    name: "base-url",
    commands: ["init"],
    type: "string",
    arg: "URL",
    help: "URL of the server with the snapshot and protected resources",
  },
  {
    name: "contacts-url",
    commands: ["init"],
    type: "string",
    arg: "URL",
    default: "",
    help: "URL of the contacts server (empty: none, the export rows are not run)",
  },
  {
    name: "messaging-url",
    commands: ["init"],
    type: "string",
    arg: "URL",
    default: "",
    help: "URL of the messaging server (empty: none)",
  },
  {
    name: "collection",
    commands: ["init"],
    type: "string",
    arg: "PATH",
    help: "collection where the suite may create scratch resources (empty: not stated, the snapshot rows are not run)",
  },
  {
    name: "digest-path",
    commands: ["init"],
    type: "string",
    arg: "PATH",
    help: "path of a resource protected by Digest (empty: not stated, the digest rows are not run)",
  },
  {
    name: "username",
    commands: ["init"],
    type: "string",
    arg: "USER",
    help: "a user of that resource (empty: not stated, the digest rows that log in are not run)",
  },
  {
    name: "password",
    commands: ["init"],
    type: "string",
    arg: "PASSWORD",
    help: "that user's password (empty: not stated, as the user)",
  },
  {
    name: "export-user",
    commands: ["init"],
    type: "string",
    arg: "USER",
    help: "a user whose contacts the contacts server serves (empty: not stated, the export rows are not run)",
  },
  {
    name: "export-backend",
    commands: ["init"],
    type: "string",
    arg: "PATH",
    default: "",
    help: "path where the messaging server asks the contacts server for the list, with {user} and {token}, e.g. /internal/export/{user}?t={token} (empty: not stated; sxd test --peer needs it)",
  },
  {
    name: "out",
    commands: ["init"],
    type: "string",
    arg: "FILE",
    default: DEFAULT_INIT_OUT,
    help: "the file to write",
  },
  { name: "force", commands: ["init"], type: "boolean", help: "overwrite the file if it exists" },
  // sxd rows, sxd report, sxd docs
  {
    name: "check",
    commands: ["rows"],
    type: "boolean",
    help: "exit 1 if a row has no scenario or a tag is wrong",
  },
  {
    name: "out",
    commands: ["report"],
    type: "string",
    arg: "FILE",
    default: "reports/matrix.html",
    help: "where the merged matrix goes",
  },
  { name: "out", commands: ["docs"], type: "string", arg: "DIR", default: "docs/site", help: "where the site goes" },
  {
    name: "results",
    commands: ["docs"],
    type: "string",
    arg: "FILE",
    multiple: true,
    help: "a conformance.json of another server's or client's run, or an interop.json of sxd interop (repeatable)",
  },
  {
    name: "limits",
    commands: ["docs"],
    type: "string",
    arg: "FILE",
    help: "a limits.json of sxd limits, whose measurements the page of LIM cases shows (default: the bundled reference's, measured as the site is built at a tenth of the catalogue's sizes)",
  },
] as const satisfies readonly OptionSpec[];
