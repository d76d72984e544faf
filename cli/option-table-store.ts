/**
 * The options of the store of results (docs/history.md): --store and --label on every command
 * that judges or measures, and `sxd history`'s own. Part of the option table (cli/option-table.ts).
 */
import type { OptionSpec } from "./option-spec.ts";

export const STORE_OPTIONS = [
  {
    name: "store",
    commands: ["test", "test-client", "interop", "limits"],
    type: "string",
    arg: "FILE|URL",
    env: "SXD_STORE",
    defaultText: "the run is recorded nowhere",
    help: "record the run in this store of results: a SQLite file (made on first use) or a postgres:// URL; a store that cannot be used stops the run before it starts",
  },
  {
    name: "label",
    commands: ["test", "test-client", "interop", "limits"],
    type: "string",
    arg: "LABEL",
    env: "SXD_LABEL",
    defaultText: "the CI's commit (GITHUB_SHA, CI_COMMIT_SHA), else none",
    help: "what was tested, as the store records it: a commit, a version, a build",
  },
  {
    name: "store",
    commands: ["history"],
    type: "string",
    arg: "FILE|URL",
    env: "SXD_STORE",
    help: "the store of results to read (or, with add, to write): a SQLite file or a postgres:// URL",
  },
  {
    name: "label",
    commands: ["history"],
    type: "string",
    arg: "LABEL",
    env: "SXD_LABEL",
    help: "only the runs of this label; with add, the label the runs are recorded with (else the CI's commit)",
  },
  {
    name: "target",
    commands: ["history"],
    type: "string",
    arg: "TEXT",
    help: "only the targets whose URL, command or name (the bundled reference) holds TEXT",
  },
  {
    name: "row",
    commands: ["history"],
    type: "string",
    arg: "ID",
    multiple: true,
    help: "only this row (DIG-6), interop cell (client/server/task) or limits case (LIM-1); repeatable",
  },
  {
    name: "since",
    commands: ["history"],
    type: "string",
    arg: "DATE",
    help: "only the runs started on or after DATE (2026-12-01, or a time)",
  },
  {
    name: "until",
    commands: ["history"],
    type: "string",
    arg: "DATE",
    help: "only the runs started on or before DATE (a date alone: to its end)",
  },
  {
    name: "json",
    commands: ["history"],
    type: "boolean",
    help: "print history.json (schema/history.schema.json) instead of the text",
  },
  {
    name: "html",
    commands: ["history"],
    type: "string",
    arg: "DIR",
    help: "also write the history as a page, DIR/history.html (with DIR/history.json)",
  },
] as const satisfies readonly OptionSpec[];
