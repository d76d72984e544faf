/**
 * `sxd test` settings from flags, environment and the target description file, in that
 * order of precedence. Pure apart from reading the named file.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileProblem } from "../harness/errors.ts";
import type { ConformanceRun } from "../harness/run.ts";
import { type RunSettings, resolveDescription, type TargetDescription } from "../harness/target.ts";
import { parseDescription } from "../harness/target-check.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../harness/transport.ts";
import type { Result } from "../lib/result.ts";
import { isHttpUrl } from "../lib/uri.ts";
import { type PeerSetting, peerLayers } from "./peer-options.ts";
import { BOOLEAN_SPELLINGS, withSuggestion } from "./spelling.ts";
import { DEFAULT_DEADLINE_SECONDS, TEST_OPTIONS } from "./test-options.ts";

/**
 * What `sxd test` runs with: the harness's run settings (harness/run.ts), less what the shell
 * works out itself (the target, the expected failures, the outage server, the TLS material),
 * plus what it reads from files and the options for the bundled reference.
 */
export type TestSettings = Omit<
  ConformanceRun,
  "target" | "expectedFailures" | "outageMessagingUrl" | "tls" | "deadlineSeconds" | "peer"
> & {
  /** --peer: the export server sxd plays itself, and where it listens. */
  peer?: PeerSetting;
  /** Undefined when no URL was given anywhere: the bundled reference is started. */
  target: TargetDescription | undefined;
  /** The description layers without URLs, for when the bundled reference provides them. */
  layers: Partial<TargetDescription>[];
  /** Absent: DEFAULT_DEADLINE_SECONDS. */
  deadlineSeconds?: number;
  expectFailFile: string | undefined;
  /** TLS: a PEM file of the authority that signed the target's certificate. */
  caFile?: string;
  /** TLS: certificates are not checked (a warning in the summary and the report). */
  insecure?: boolean;
  /** For testing the suite itself: faults and variant of the bundled reference. */
  referenceFaults: string[];
  referenceVariant: string | undefined;
};

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
  // Not given: the run chooses from the target's answer to the probe (harness/concurrency.ts).
  const parallelText = value("parallel");
  const parallel = parallelText === undefined ? undefined : positiveInteger(parallelText, 1);
  if (parallelText !== undefined && parallel === undefined)
    return { ok: false, error: "--parallel must be a positive whole number" };

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

  const peerFlags = { side: value("peer"), port: value("peer-port"), host: value("peer-host") };
  const peered = peerLayers(peerFlags, layers, value("tags"));
  if (!peered.ok) return peered;
  layers.splice(0, layers.length, ...peered.value.layers);
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
      tags: peered.value.tags,
      peer: peered.value.peer,
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
      docsUrl,
      maxBodyBytes,
      deadlineSeconds,
      rate,
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
