/**
 * Every `sxd test` setting a target description can carry, once: its flag, environment
 * variable, description key, kind, default and help. From this list come the flags' parsing and
 * `--help` (cli/option-table.ts), the description's `run` section and server URLs in
 * schema/target.schema.json (harness/description/schemas/target.ts), their checking and its messages
 * (harness/description/target-check.ts), the TypeScript type `RunSettings`, and the option table of
 * docs/test.md. A flag beats its environment variable, which beats the description.
 */

import type { KindName, KindValue } from "./setting-kinds.ts";

/** Long enough for the whole suite against a slow server; a run that needs more says so. */
export const DEFAULT_DEADLINE_SECONDS = 600;
/** The cap on a reply body: larger replies are cut and fail the scenario. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Seconds of the wall clock the run may spend waiting after refusals, workers waiting at once counted once. */
export const DEFAULT_REFUSAL_WAIT_SECONDS = 300;

type SettingKind = Exclude<KindName, "comment" | "headerMap">;

export interface Setting<K extends SettingKind = SettingKind> {
  /** The run's setting it gives, where that is named for its unit (`timeoutMs`): cli/options.ts. */
  field?: string;
  /** The flag, without its dashes. */
  name: string;
  /** Where a description holds it: a top-level key (`baseUrl`), or a key of its `run` section. */
  key: string;
  commands: readonly string[];
  kind: K;
  /** What the value is, in the help and the docs: URL, FILE, MS. */
  arg?: string;
  env?: string;
  /** The value taken when no flag, variable or key gives one. */
  default?: KindValue<K>;
  /** What happens when nothing gives a value, where that is not a value. */
  defaultText?: string;
  /** It says where the target is or how to reach it: every command of TARGET_COMMANDS takes it, meaning the same. */
  target?: true;
  help: string;
}

/** The commands that judge, a server's side or a client's. */
const JUDGING = ["test", "test-client"] as const;

/**
 * The commands that send to a target: each takes every setting that says where the target is or
 * how to reach it (those marked `target`, here and in cli/option-table-runs.ts), read as `sxd
 * test` reads it (cli/options.ts, describedTarget); cli/target-options.test.ts holds them to it.
 */
export const TARGET_COMMANDS = ["test", "fuzz", "limits"] as const;

/** Where the servers are: top-level keys of a description. */
export const SERVER_SETTINGS = [
  {
    name: "base-url",
    key: "baseUrl",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "url",
    arg: "URL",
    env: "SXD_BASE_URL",
    defaultText: "the bundled reference",
    help: "the server with the snapshot and protected resources",
  },
  {
    name: "contacts-url",
    key: "contactsUrl",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "url",
    arg: "URL",
    env: "SXD_CONTACTS_URL",
    defaultText: "bundled; without it the export rows are not run",
    help: "the contacts server, for the export rows",
  },
  {
    name: "messaging-url",
    key: "messagingUrl",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "url",
    arg: "URL",
    env: "SXD_MESSAGING_URL",
    defaultText: "as --contacts-url",
    help: "the messaging server, for the export rows",
  },
] as const satisfies readonly Setting[];

/** How the suite runs: the keys of a description's `run` section, in the order `--help` lists them. */
export const RUN_SETTINGS = [
  {
    name: "tags",
    key: "tags",
    field: "tags",
    commands: ["test"],
    kind: "text",
    arg: "EXPR",
    env: "SXD_TAGS",
    defaultText: "every scenario",
    help: "cucumber tag expression of rows, levels and behaviours, e.g. '@digest and @must'",
  },
  {
    name: "strict",
    key: "strict",
    field: "strict",
    commands: JUDGING,
    kind: "switch",
    env: "SXD_STRICT",
    default: false,
    help: "SHOULD rows fail the run too, not only warn",
  },
  {
    name: "allow-incomplete",
    key: "allowIncomplete",
    field: "allowIncomplete",
    commands: JUDGING,
    kind: "switch",
    env: "SXD_ALLOW_INCOMPLETE",
    default: false,
    help: "exit 0, not 3, when a MUST or stated MAY row could not be run but others ran (the verdict still says incomplete)",
  },
  {
    name: "report-dir",
    key: "reportDir",
    field: "reportDir",
    commands: [...JUDGING, "fuzz", "interop", "limits"],
    kind: "text",
    arg: "DIR",
    env: "SXD_REPORT_DIR",
    default: "reports",
    help: "where the reports are written",
  },
  {
    name: "expect-fail",
    key: "expectFail",
    field: "expectFailFile",
    commands: JUDGING,
    kind: "text",
    arg: "FILE",
    env: "SXD_EXPECT_FAIL",
    help: 'JSON file of known failing rows and why: { "<row ID>": "fixed in 2.1" }',
  },
  {
    name: "timeout",
    key: "timeout",
    field: "timeoutMs",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "count",
    arg: "MS",
    env: "SXD_TIMEOUT",
    default: 10_000,
    help: "milliseconds to wait for each HTTP reply",
  },
  {
    name: "parallel",
    key: "parallel",
    field: "parallel",
    commands: ["test"],
    kind: "count",
    arg: "N",
    env: "SXD_PARALLEL",
    defaultText: "one process, taking more scenarios at once the longer the target takes to answer",
    help: "worker processes, each running one scenario at a time",
  },
  {
    name: "max-body",
    key: "maxBody",
    field: "maxBodyBytes",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "count",
    arg: "BYTES",
    env: "SXD_MAX_BODY",
    default: DEFAULT_MAX_BODY_BYTES,
    help: "bytes of a reply body sxd reads at most; a larger reply fails",
  },
  {
    name: "deadline",
    key: "deadline",
    field: "deadlineSeconds",
    commands: ["test", "limits"],
    kind: "count",
    arg: "SECONDS",
    env: "SXD_DEADLINE",
    default: DEFAULT_DEADLINE_SECONDS,
    help: "seconds after which no scenario starts (sxd limits: no request is sent, and sizes that would pass it are lowered); the rest are not run",
  },
  {
    name: "repeat",
    key: "repeat",
    field: "repeat",
    commands: JUDGING,
    kind: "count",
    arg: "N",
    env: "SXD_REPEAT",
    default: 1,
    help: "run the same target N times in a row, as one group: each row's worst verdict, and rows whose verdicts differ marked intermittent (--deadline bounds the group)",
  },
  {
    name: "rate",
    key: "rate",
    field: "rate",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "count",
    arg: "N",
    env: "SXD_RATE",
    defaultText: "the pace the target allows, found from its 429s",
    help: "at most this many requests per second, across all workers",
  },
  {
    name: "refusal-wait",
    key: "refusalWait",
    field: "refusalWaitSeconds",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "count",
    arg: "SECONDS",
    env: "SXD_REFUSAL_WAIT",
    default: DEFAULT_REFUSAL_WAIT_SECONDS,
    help: "seconds of the run's clock sxd may spend waiting after refusals (429); then the rest is not run",
  },
  {
    name: "docs-url",
    key: "docsUrl",
    field: "docsUrl",
    commands: ["test"],
    kind: "url",
    arg: "URL",
    env: "SXD_DOCS_URL",
    help: "where the site of sxd docs is published: reports link each row to its section",
  },
  {
    name: "har",
    key: "har",
    field: "harFile",
    commands: ["test"],
    kind: "text",
    arg: "FILE",
    env: "SXD_HAR",
    help: "also write every scenario's HTTP exchanges to this HAR file",
  },
  {
    name: "wait",
    key: "wait",
    field: "waitSeconds",
    commands: TARGET_COMMANDS,
    target: true,
    kind: "whole",
    arg: "SECONDS",
    env: "SXD_WAIT",
    default: 0,
    help: "seconds to keep retrying until the target answers, for a server still starting",
  },
] as const satisfies readonly Setting[];

type RunSetting = (typeof RUN_SETTINGS)[number];
type ServerSetting = (typeof SERVER_SETTINGS)[number];

/** A description's `run` section: each setting by its key, of its kind. */
export type RunSettings = { [S in RunSetting as S["key"]]?: KindValue<S["kind"]> };

/** The servers' URLs, by their description keys. */
export type ServerUrls = { [S in ServerSetting as S["key"]]?: string };

/** Every run setting, by the run's name for it, once the flags, the description and the defaults have each had their say. */
export type ResolvedRunSettings = {
  [S in RunSetting as S["field"]]: S extends { default: unknown }
    ? KindValue<S["kind"]>
    : KindValue<S["kind"]> | undefined;
};

/** Every setting a description can carry, servers first. */
export const DESCRIBED_SETTINGS: readonly Setting[] = [...SERVER_SETTINGS, ...RUN_SETTINGS];
