/**
 * `sxd test` settings from flags, environment and the target description file, in that
 * order of precedence. Pure apart from reading the named file.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileProblem } from "../harness/errors.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../harness/exchange.ts";
import {
  isHttpUrl,
  parseDescription,
  type Result,
  type RunSettings,
  resolveDescription,
  type TargetDescription,
} from "../harness/target.ts";
import { BOOLEAN_SPELLINGS, withSuggestion } from "./spelling.ts";

export interface TestSettings {
  /** Undefined when no URL was given anywhere: the bundled reference is started. */
  target: TargetDescription | undefined;
  /** The description layers without URLs, for when the bundled reference provides them. */
  layers: Partial<TargetDescription>[];
  tags: string | undefined;
  strict: boolean;
  /** An incomplete run (a MUST row sxd could not run) exits 0 instead of 3. */
  allowIncomplete?: boolean;
  reportDir: string;
  timeoutMs: number;
  parallel: number;
  expectFailFile: string | undefined;
  harFile: string | undefined;
  /** Reply bodies beyond this many bytes fail the request; absent: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** No scenario starts after this many seconds; absent: DEFAULT_DEADLINE_SECONDS. */
  deadlineSeconds?: number;
  /** Seconds to keep retrying the probe while the target does not answer yet; 0: one try. */
  waitSeconds?: number;
  /** TLS: a PEM file of the authority that signed the target's certificate. */
  caFile?: string;
  /** TLS: certificates are not checked (a warning in the summary and the report). */
  insecure?: boolean;
  /** Cucumber's own failure dump on the console as well. */
  verbose?: boolean;
  /** For testing the suite itself: faults and variant of the bundled reference. */
  referenceFaults: string[];
  referenceVariant: string | undefined;
}

/** Long enough for the whole suite against a slow server; a run that needs more says so. */
export const DEFAULT_DEADLINE_SECONDS = 600;

export const TEST_OPTIONS = {
  "base-url": {
    type: "string",
    env: "SXD_BASE_URL",
    help: "URL of the server with the snapshot and protected resources",
  },
  "contacts-url": { type: "string", env: "SXD_CONTACTS_URL", help: "URL of the contacts server (export rows)" },
  "messaging-url": { type: "string", env: "SXD_MESSAGING_URL", help: "URL of the messaging server (export rows)" },
  config: { type: "string", env: "SXD_CONFIG", help: "target description, a JSON file (see README)" },
  tags: { type: "string", env: "SXD_TAGS", help: "cucumber tag expression, e.g. '@SNAP-3 or @digest and @must'" },
  strict: { type: "boolean", env: "SXD_STRICT", help: "SHOULD rows fail the run too, not only warn" },
  "allow-incomplete": {
    type: "boolean",
    env: "SXD_ALLOW_INCOMPLETE",
    help: "exit 0, not 3, when a MUST row could not be run (the verdict still says incomplete)",
  },
  "report-dir": { type: "string", env: "SXD_REPORT_DIR", help: "where reports are written (default: reports)" },
  timeout: { type: "string", env: "SXD_TIMEOUT", help: "milliseconds to wait for each HTTP reply (default: 10000)" },
  parallel: { type: "string", env: "SXD_PARALLEL", help: "scenarios run at once (default: 2)" },
  "max-body": {
    type: "string",
    env: "SXD_MAX_BODY",
    help: "bytes of a reply body sxd reads at most; a larger reply fails (default: 8388608, 8 MiB)",
  },
  deadline: {
    type: "string",
    env: "SXD_DEADLINE",
    help: `seconds after which no scenario starts; the rest are not run (default: ${DEFAULT_DEADLINE_SECONDS})`,
  },
  "expect-fail": {
    type: "string",
    env: "SXD_EXPECT_FAIL",
    help: 'JSON file of known failing rows: { "SNAP-11": "reason" }',
  },
  har: { type: "string", env: "SXD_HAR", help: "also write the whole run's HTTP traffic to this HAR file" },
  wait: {
    type: "string",
    env: "SXD_WAIT",
    help: "seconds to keep retrying until the target answers, for a server still starting (default: 0)",
  },
  header: {
    type: "string",
    multiple: true,
    help: "'Name: value', an extra header on every request (repeatable); secret-looking values are masked in reports",
  },
  ca: { type: "string", env: "SXD_CA", help: "PEM file of the certificate authority of an HTTPS target" },
  insecure: { type: "boolean", env: "SXD_INSECURE", help: "do not check TLS certificates (a warning says so)" },
  verbose: { type: "boolean", env: "SXD_VERBOSE", help: "also print cucumber's own failure dump" },
  "reference-fault": {
    type: "string",
    multiple: true,
    help: "(testing sxd) start the bundled reference with this fault",
  },
  "reference-variant": { type: "string", help: "(testing sxd) start the bundled reference as this variant" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

/** The keys of the description's run section, by the flag they stand in for. */
const RUN_KEYS: Partial<Record<keyof typeof TEST_OPTIONS, keyof RunSettings>> = {
  tags: "tags",
  "report-dir": "reportDir",
  timeout: "timeout",
  parallel: "parallel",
  "max-body": "maxBody",
  deadline: "deadline",
  "expect-fail": "expectFail",
  har: "har",
  wait: "wait",
};

type Flags = {
  [K in keyof typeof TEST_OPTIONS]?: (typeof TEST_OPTIONS)[K]["type"] extends "boolean"
    ? boolean
    : K extends "reference-fault" | "header"
      ? string[]
      : string;
};

export function parseTestArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Result<TestSettings> | { ok: true; help: true } {
  let flags: Flags;
  try {
    const parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(TEST_OPTIONS).map(([name, o]) => [
          name,
          { type: o.type, multiple: "multiple" in o, ...("short" in o ? { short: o.short } : {}) },
        ]),
      ),
      allowPositionals: false,
      strict: true,
    });
    flags = parsed.values as Flags;
  } catch (error) {
    return { ok: false, error: withSuggestion((error as Error).message, Object.keys(TEST_OPTIONS)) };
  }
  if (flags.help) return { ok: true, help: true };
  const fromEnvironment = <K extends keyof typeof TEST_OPTIONS>(name: K): string | undefined => {
    const flag = flags[name];
    if (typeof flag === "string") return flag;
    const option = TEST_OPTIONS[name];
    return "env" in option ? env[option.env] || undefined : undefined;
  };

  const layers: Partial<TargetDescription>[] = [];
  const configPath = fromEnvironment("config");
  let run: RunSettings = {};
  if (configPath) {
    let text: string;
    try {
      text = readFile(configPath);
    } catch (error) {
      return { ok: false, error: `cannot read the target description ${configPath}: ${fileProblem(error)}` };
    }
    const parsed = parseDescription(text, configPath);
    if (!parsed.ok) return parsed;
    layers.push(parsed.value);
    run = parsed.value.run ?? {};
  }
  /** A setting from its flag, else its environment variable, else the description's run section. */
  const value = <K extends keyof typeof TEST_OPTIONS>(name: K): string | undefined => {
    const given = fromEnvironment(name);
    if (given !== undefined) return given;
    const key = RUN_KEYS[name];
    const fromFile = key === undefined ? undefined : run[key];
    return fromFile === undefined ? undefined : String(fromFile);
  };
  const urls: Partial<TargetDescription> = {};
  for (const [flag, key] of [
    ["base-url", "baseUrl"],
    ["contacts-url", "contactsUrl"],
    ["messaging-url", "messagingUrl"],
  ] as const) {
    const url = value(flag);
    if (url === undefined) continue;
    if (!isHttpUrl(url)) return { ok: false, error: `--${flag} must be an http(s) URL, got "${url}"` };
    urls[key] = url;
  }
  layers.push(urls);

  const timeoutMs = positiveInteger(value("timeout"), 10000);
  if (timeoutMs === undefined) return { ok: false, error: "--timeout must be a positive number of milliseconds" };
  const parallel = positiveInteger(value("parallel"), 2);
  if (parallel === undefined) return { ok: false, error: "--parallel must be a positive whole number" };

  const maxBodyBytes = positiveInteger(value("max-body"), DEFAULT_MAX_BODY_BYTES);
  if (maxBodyBytes === undefined) return { ok: false, error: "--max-body must be a positive number of bytes" };
  const deadlineSeconds = positiveInteger(value("deadline"), DEFAULT_DEADLINE_SECONDS);
  if (deadlineSeconds === undefined) return { ok: false, error: "--deadline must be a positive number of seconds" };

  const waitSeconds = wholeNumber(value("wait"));
  if (waitSeconds === undefined) return { ok: false, error: "--wait must be a whole number of seconds" };
  const headers: Record<string, string> = {};
  for (const line of flags.header ?? []) {
    const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*?)\s*$/.exec(line);
    if (!header) return { ok: false, error: `--header must be 'Name: value', got "${line}"` };
    headers[header[1] as string] = header[2] as string;
  }
  // The flag's headers go to every server, over the description's.
  if (Object.keys(headers).length > 0)
    layers.push({ headers: { base: headers, contacts: headers, messaging: headers } });

  const hasUrl = layers.some((l) => l.baseUrl || l.contactsUrl || l.messagingUrl);
  let target: TargetDescription | undefined;
  if (hasUrl) {
    const resolved = resolveDescription(layers);
    if (!resolved.ok) return resolved;
    target = resolved.value;
  }
  /** A switch from its flag, else its environment variable, else the description's run section. */
  const switchValue = (name: SwitchName, fromFile?: boolean): boolean | string => {
    const fromEnv = env[TEST_OPTIONS[name].env];
    const envValue = fromEnv ? BOOLEAN_SPELLINGS[fromEnv.toLowerCase()] : undefined;
    if (fromEnv && envValue === undefined)
      return `${TEST_OPTIONS[name].env}=${fromEnv}: say on/off, true/false, yes/no or 1/0`;
    return flags[name] ?? envValue ?? fromFile ?? false;
  };
  const switches = {
    strict: switchValue("strict", run.strict),
    allowIncomplete: switchValue("allow-incomplete", run.allowIncomplete),
    insecure: switchValue("insecure"),
    verbose: switchValue("verbose"),
  };
  const badSwitch = Object.values(switches).find((v) => typeof v === "string");
  if (typeof badSwitch === "string") return { ok: false, error: badSwitch };
  const on = switches as Record<keyof typeof switches, boolean>;
  return {
    ok: true,
    value: {
      target,
      layers,
      tags: value("tags"),
      strict: on.strict,
      allowIncomplete: on.allowIncomplete,
      insecure: on.insecure,
      verbose: on.verbose,
      waitSeconds,
      caFile: value("ca"),
      reportDir: value("report-dir") ?? "reports",
      timeoutMs,
      parallel,
      expectFailFile: value("expect-fail"),
      harFile: value("har"),
      maxBodyBytes,
      deadlineSeconds,
      referenceFaults: flags["reference-fault"] ?? [],
      referenceVariant: flags["reference-variant"],
    },
  };
}

type SwitchName = "strict" | "allow-incomplete" | "insecure" | "verbose";

function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined) return 0;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function positiveInteger(text: string | undefined, fallback: number): number | undefined {
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export function optionsHelp(options: Record<string, { type: string; help: string; env?: string }>): string {
  return Object.entries(options)
    .map(([name, o]) => {
      const flag = `--${name}${o.type === "string" ? " VALUE" : ""}`;
      const env = o.env ? ` [${o.env}]` : "";
      return `  ${flag.padEnd(26)} ${o.help}${env}`;
    })
    .join("\n");
}
