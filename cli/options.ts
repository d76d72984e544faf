/**
 * `sxd test` settings from flags, environment and the target description file, in that
 * order of precedence. Pure apart from reading the named file.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_MAX_BODY_BYTES } from "../harness/exchange.ts";
import {
  isHttpUrl,
  parseDescription,
  type RunSettings,
  resolveDescription,
  type TargetDescription,
} from "../harness/target.ts";
import type { Result } from "../lib/result.ts";

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
  /** Where the docs site is published (--docs-url): reports link each row there. */
  docsUrl?: string;
  /** Reply bodies beyond this many bytes fail the request; absent: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** No scenario starts after this many seconds; absent: DEFAULT_DEADLINE_SECONDS. */
  deadlineSeconds?: number;
  /** At most this many requests per second across all workers; absent: no cap. */
  rate?: number;
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
  parallel: {
    type: "string",
    env: "SXD_PARALLEL",
    help: "scenarios run at once (default: 1 for the bundled reference or a loopback URL, else 2)",
  },
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
  rate: {
    type: "string",
    env: "SXD_RATE",
    help: "at most this many requests per second, across all workers (default: no cap)",
  },
  "expect-fail": {
    type: "string",
    env: "SXD_EXPECT_FAIL",
    help: 'JSON file of known failing rows: { "SNAP-11": "reason" }',
  },
  "docs-url": {
    type: "string",
    env: "SXD_DOCS_URL",
    help: "where the site of sxd docs is published: reports link each row to its section",
  },
  har: { type: "string", env: "SXD_HAR", help: "also write the whole run's HTTP traffic to this HAR file" },
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
  rate: "rate",
  "expect-fail": "expectFail",
  har: "har",
  "docs-url": "docsUrl",
};

type Flags = {
  [K in keyof typeof TEST_OPTIONS]?: (typeof TEST_OPTIONS)[K]["type"] extends "boolean"
    ? boolean
    : K extends "reference-fault"
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
    return { ok: false, error: (error as Error).message };
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
      return {
        ok: false,
        error: `cannot read the target description ${configPath}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      };
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
  const parallel = positiveInteger(value("parallel"), onThisMachine(layers) ? 1 : 2);
  if (parallel === undefined) return { ok: false, error: "--parallel must be a positive whole number" };

  const maxBodyBytes = positiveInteger(value("max-body"), DEFAULT_MAX_BODY_BYTES);
  if (maxBodyBytes === undefined) return { ok: false, error: "--max-body must be a positive number of bytes" };
  const deadlineSeconds = positiveInteger(value("deadline"), DEFAULT_DEADLINE_SECONDS);
  if (deadlineSeconds === undefined) return { ok: false, error: "--deadline must be a positive number of seconds" };
  const rateText = value("rate");
  const rate = rateText === undefined ? undefined : positiveInteger(rateText, 0);
  if (rate === undefined && rateText !== undefined)
    return { ok: false, error: "--rate must be a positive whole number of requests per second" };

  const docsUrl = value("docs-url");
  if (docsUrl !== undefined && !isHttpUrl(docsUrl))
    return { ok: false, error: `--docs-url must be an http(s) URL, got "${docsUrl}"` };

  const hasUrl = layers.some((l) => l.baseUrl || l.contactsUrl || l.messagingUrl);
  let target: TargetDescription | undefined;
  if (hasUrl) {
    const resolved = resolveDescription(layers);
    if (!resolved.ok) return resolved;
    target = resolved.value;
  }
  /** A switch from its flag, else its environment variable, else the description's run section. */
  const switchValue = (name: "strict" | "allow-incomplete", fromFile: boolean | undefined): boolean => {
    const fromEnv = env[TEST_OPTIONS[name].env];
    const envValue = fromEnv ? ["1", "true", "yes"].includes(fromEnv.toLowerCase()) : undefined;
    return flags[name] ?? envValue ?? fromFile ?? false;
  };
  return {
    ok: true,
    value: {
      target,
      layers,
      tags: value("tags"),
      strict: switchValue("strict", run.strict),
      allowIncomplete: switchValue("allow-incomplete", run.allowIncomplete),
      reportDir: value("report-dir") ?? "reports",
      timeoutMs,
      parallel,
      expectFailFile: value("expect-fail"),
      harFile: value("har"),
      docsUrl,
      maxBodyBytes,
      deadlineSeconds,
      rate,
      referenceFaults: flags["reference-fault"] ?? [],
      referenceVariant: flags["reference-variant"],
    },
  };
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

/**
 * No URL (the bundled reference) or loopback URLs only: round trips cost next to nothing, so
 * the start-up of parallel workers costs more than it saves and one at a time is fastest.
 */
function onThisMachine(layers: readonly Partial<TargetDescription>[]): boolean {
  const urls = layers.flatMap((l) => [l.baseUrl, l.contactsUrl, l.messagingUrl]).filter((u) => u !== undefined);
  return urls.every((url) => ["localhost", "127.0.0.1", "[::1]"].includes(new URL(url).hostname));
}
