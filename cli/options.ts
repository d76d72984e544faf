/**
 * `sxd test` settings from flags, environment and the target description file, in that
 * order of precedence. Pure apart from reading the named file.
 */
import { readFileSync } from "node:fs";
import { fileProblem } from "../harness/errors.ts";
import type { ConformanceRun } from "../harness/run.ts";
import { type RunSettings, resolveDescription, type TargetDescription } from "../harness/target.ts";
import { parseDescription } from "../harness/target-check.ts";
import type { Result } from "../lib/result.ts";
import { isHttpUrl } from "../lib/uri.ts";
import { defaultOf, parseOptions, withDefault } from "./option-parse.ts";
import type { OptionName } from "./option-table.ts";
import { type PeerSetting, peerLayers } from "./peer-options.ts";

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
const RUN_KEYS: Partial<Record<OptionName, keyof RunSettings>> = {
  tags: "tags",
  "report-dir": "reportDir",
  timeout: "timeout",
  parallel: "parallel",
  "max-body": "maxBody",
  deadline: "deadline",
  rate: "rate",
  "refusal-wait": "refusalWait",
  "expect-fail": "expectFail",
  har: "har",
  "docs-url": "docsUrl",
  wait: "wait",
};

export function parseTestArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Result<TestSettings> | { ok: true; help: true } {
  const parsedOptions = parseOptions("test", argv, env);
  if (!parsedOptions.ok) return parsedOptions;
  const given = parsedOptions.value;
  if (given.help) return { ok: true, help: true };

  const configPath = given.text("config");
  const description = configPath ? readDescription(configPath, readFile) : undefined;
  if (description && !description.ok) return description;
  const layers: Partial<TargetDescription>[] = description ? [description.value] : [];
  const run: RunSettings = description?.value.run ?? {};
  /** A setting from its flag, else its environment variable, else the description's run section. */
  const stated = (name: OptionName): string | undefined => {
    const key = RUN_KEYS[name];
    const fromFile = key === undefined ? undefined : run[key];
    return given.text(name) ?? (fromFile === undefined ? undefined : String(fromFile));
  };
  /** As stated, else the option's default. */
  const value: Stated = (name) => stated(name) ?? defaultOf("test", name);
  const urls = urlsGiven(value);
  if (!urls.ok) return urls;
  layers.push(urls.value);
  const numbers = checkedSettings(value);
  if (!numbers.ok) return numbers;
  const headers = headersGiven(given.list("header"));
  if (!headers.ok) return headers;
  // The flag's headers go to every server, over the description's.
  if (Object.keys(headers.value).length > 0)
    layers.push({ headers: { base: headers.value, contacts: headers.value, messaging: headers.value } });

  const peerFlags = { side: stated("peer"), port: stated("peer-port"), host: stated("peer-host") };
  const peered = peerLayers(peerFlags, layers, value("tags"), urls.value);
  if (!peered.ok) return peered;
  const target = targetOf(peered.value.layers);
  if (!target.ok) return target;
  return {
    ok: true,
    value: {
      target: target.value,
      layers: peered.value.layers,
      tags: peered.value.tags,
      peer: peered.value.peer,
      strict: given.switch("strict") ?? run.strict ?? false,
      allowIncomplete: given.switch("allow-incomplete") ?? run.allowIncomplete ?? false,
      insecure: given.switch("insecure") ?? false,
      verbose: given.switch("verbose") ?? false,
      caFile: value("ca"),
      reportDir: withDefault("test", "report-dir", value("report-dir")),
      expectFailFile: value("expect-fail"),
      harFile: value("har"),
      ...numbers.value,
      referenceFaults: given.list("reference-fault"),
      referenceVariant: given.text("reference-variant"),
    },
  };
}

/** A setting as stated (flag, environment, description) or defaulted. */
type Stated = (name: OptionName) => string | undefined;

/** The target description file, checked. */
function readDescription(path: string, readFile: (path: string) => string): Result<Partial<TargetDescription>> {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    return { ok: false, error: `cannot read the target description ${path}: ${fileProblem(error)}` };
  }
  return parseDescription(text, path);
}

/** The servers' URLs given as settings, each an http(s) URL. */
function urlsGiven(value: Stated): Result<Partial<TargetDescription>> {
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
  return { ok: true, value: urls };
}

/** The run's numbers and its docs URL, each checked. */
function checkedSettings(
  value: Stated,
): Result<
  Pick<
    TestSettings,
    | "timeoutMs"
    | "parallel"
    | "maxBodyBytes"
    | "deadlineSeconds"
    | "rate"
    | "refusalWaitSeconds"
    | "securitySamples"
    | "docsUrl"
    | "waitSeconds"
  >
> {
  const timeoutMs = positiveInteger(value("timeout"));
  if (timeoutMs === undefined) return { ok: false, error: "--timeout must be a positive number of milliseconds" };
  // Not given: the run chooses from the target's answer to the probe (harness/concurrency.ts).
  const parallelText = value("parallel");
  const parallel = parallelText === undefined ? undefined : positiveInteger(parallelText);
  if (parallelText !== undefined && parallel === undefined)
    return { ok: false, error: "--parallel must be a positive whole number" };

  const maxBodyBytes = positiveInteger(value("max-body"));
  if (maxBodyBytes === undefined) return { ok: false, error: "--max-body must be a positive number of bytes" };
  const deadlineSeconds = positiveInteger(value("deadline"));
  if (deadlineSeconds === undefined) return { ok: false, error: "--deadline must be a positive number of seconds" };
  const rateText = value("rate");
  const rate = rateText === undefined ? undefined : positiveInteger(rateText);
  if (rate === undefined && rateText !== undefined)
    return { ok: false, error: "--rate must be a positive whole number of requests per second" };
  const refusalWaitSeconds = positiveInteger(value("refusal-wait"));
  if (refusalWaitSeconds === undefined)
    return { ok: false, error: "--refusal-wait must be a positive whole number of seconds" };

  const securitySamples = positiveInteger(value("security-samples"));
  if (securitySamples === undefined)
    return { ok: false, error: "--security-samples must be a positive whole number of samples" };
  const docsUrl = value("docs-url");
  if (docsUrl !== undefined && !isHttpUrl(docsUrl))
    return { ok: false, error: `--docs-url must be an http(s) URL, got "${docsUrl}"` };

  const waitSeconds = wholeNumber(value("wait"));
  if (waitSeconds === undefined) return { ok: false, error: "--wait must be a whole number of seconds" };
  return {
    ok: true,
    value: {
      timeoutMs,
      parallel,
      maxBodyBytes,
      deadlineSeconds,
      rate,
      refusalWaitSeconds,
      securitySamples,
      docsUrl,
      waitSeconds,
    },
  };
}

/** The --header lines as a header map. */
function headersGiven(lines: string[]): Result<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*?)\s*$/.exec(line);
    if (!header) return { ok: false, error: `--header must be 'Name: value', got "${line}"` };
    headers[header[1] as string] = header[2] as string;
  }
  return { ok: true, value: headers };
}

/** The target from the layers; undefined where none gives a URL (the bundled reference is started). */
function targetOf(layers: Partial<TargetDescription>[]): Result<TargetDescription | undefined> {
  if (!layers.some((l) => l.baseUrl || l.contactsUrl || l.messagingUrl)) return { ok: true, value: undefined };
  return resolveDescription(layers);
}

function wholeNumber(text: string | undefined): number | undefined {
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function positiveInteger(text: string | undefined): number | undefined {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
