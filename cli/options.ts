/**
 * `sxd test` settings from flags, environment and the target description file, in that
 * order of precedence. Pure apart from reading the named file.
 */
import { readFileSync } from "node:fs";
import {
  type ResolvedRunSettings,
  RUN_SETTINGS,
  type RunSettings,
  SERVER_SETTINGS,
} from "../harness/description/settings.ts";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { parseDescription, valueFromText } from "../harness/description/target-check.ts";
import { fileProblem } from "../harness/errors.ts";
import type { ConformanceRun } from "../harness/run/run.ts";
import type { Result } from "../lib/result.ts";
import { type GivenOptions, parseOptions } from "./option-parse.ts";
import { type PeerSetting, peerLayers } from "./peer-options.ts";

/**
 * What `sxd test` runs with: the harness's run settings (harness/run/run.ts), less what the shell
 * works out itself (the target, the expected failures, the outage server, the TLS material),
 * plus what it reads from files and the options for the bundled reference.
 */
export type TestSettings = Omit<
  ConformanceRun,
  "target" | "expectedFailures" | "outageMessagingUrl" | "tls" | "peer"
> & {
  /** --peer: the export server sxd plays itself, and where it listens. */
  peer?: PeerSetting;
  /** Undefined when no URL was given anywhere: the bundled reference is started. */
  target: TargetDescription | undefined;
  /** The description layers without URLs, for when the bundled reference provides them. */
  layers: Partial<TargetDescription>[];
  expectFailFile: string | undefined;
  /** TLS: a PEM file of the authority that signed the target's certificate. */
  caFile?: string;
  /** TLS: certificates are not checked (a warning in the summary and the report). */
  insecure?: boolean;
  /** For testing the suite itself: faults and variant of the bundled reference. */
  referenceFaults: string[];
  referenceVariant: string | undefined;
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
  const described = describedTarget(given, readFile);
  if (!described.ok) return described;
  const { layers, urls, run } = described.value;
  const samples = given.number("security-samples");
  if (!samples.ok) return samples;

  const peerFlags = { side: given.text("peer"), port: given.text("peer-port"), host: given.text("peer-host") };
  const peered = peerLayers(peerFlags, layers, run.tags, urls);
  if (!peered.ok) return peered;
  const target = targetOf(peered.value.layers);
  if (!target.ok) return target;
  const settings = run;
  return {
    ok: true,
    value: {
      target: target.value,
      layers: peered.value.layers,
      // The key sxd's server shares with the team's to sign and check link tokens, as `sxd serve` takes it.
      peer: peered.value.peer && {
        ...peered.value.peer,
        ...(env.SXD_TOKEN_KEY ? { tokenKey: env.SXD_TOKEN_KEY } : {}),
      },
      ...settings,
      tags: peered.value.tags,
      securitySamples: samples.value,
      verbose: given.switch("verbose") ?? false,
      ...reachOf(described.value),
    },
  };
}

/**
 * What a command that sends to a target (TARGET_COMMANDS: sxd test, sxd fuzz, sxd limits) reads
 * of it, the same in each: the description file, the URLs and headers given by flags, each over
 * the one before, the run settings (those that say how to reach the target among them), the TLS
 * settings, and for testing sxd the bundled reference's faults and variant.
 */
export interface DescribedTarget {
  layers: Partial<TargetDescription>[];
  urls: Partial<TargetDescription>;
  run: ResolvedRunSettings;
  /** TLS: a PEM file of the authority that signed the target's certificate (--ca). */
  caFile: string | undefined;
  /** TLS: certificates are not checked (--insecure). */
  insecure: boolean;
  /** For testing the suite itself: faults and variant of the bundled reference, started where no URL is given. */
  referenceFaults: string[];
  referenceVariant: string | undefined;
}

export function describedTarget(
  given: GivenOptions,
  readFile: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Result<DescribedTarget> {
  const configPath = given.text("config");
  const description = configPath ? readDescription(configPath, readFile) : undefined;
  if (description && !description.ok) return description;
  const layers: Partial<TargetDescription>[] = description ? [description.value] : [];
  const urls = urlsGiven(given);
  if (!urls.ok) return urls;
  layers.push(urls.value);
  const run = runSettings(given, description?.value.run ?? {});
  if (!run.ok) return run;
  const headers = headersGiven(given.list("header"));
  if (!headers.ok) return headers;
  // The flag's headers go to every server, over the description's.
  if (Object.keys(headers.value).length > 0)
    layers.push({ headers: { base: headers.value, contacts: headers.value, messaging: headers.value } });
  return {
    ok: true,
    value: {
      layers,
      urls: urls.value,
      run: run.value,
      caFile: given.valueOr("ca"),
      insecure: given.switch("insecure") ?? false,
      referenceFaults: given.list("reference-fault"),
      referenceVariant: given.text("reference-variant"),
    },
  };
}

/** The TLS settings and the bundled reference's, as a command's settings carry them. */
function reachOf(
  described: DescribedTarget,
): Pick<DescribedTarget, "caFile" | "insecure" | "referenceFaults" | "referenceVariant"> {
  const { caFile, insecure, referenceFaults, referenceVariant } = described;
  return { caFile, insecure, referenceFaults, referenceVariant };
}

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

/** The servers' URLs given by flags or variables, each checked as the description's keys are. */
function urlsGiven(given: GivenOptions): Result<Partial<TargetDescription>> {
  const urls: Record<string, string> = {};
  for (const setting of SERVER_SETTINGS) {
    const text = given.text(setting.name);
    if (text === undefined) continue;
    const url = valueFromText(given.sourceOf(setting.name), setting.kind, text);
    if (!url.ok) return url;
    urls[setting.key] = url.value;
  }
  return { ok: true, value: urls };
}

/**
 * Each run setting from its flag or environment variable, else the description's run section,
 * else its default (harness/description/settings.ts); a flag's text is checked as the key's value was.
 */
function runSettings(given: GivenOptions, run: RunSettings): Result<ResolvedRunSettings> {
  const settings: Record<string, unknown> = {};
  const described = run as Record<string, unknown>;
  for (const setting of RUN_SETTINGS) {
    let value: unknown;
    if (setting.kind === "switch") value = given.switch(setting.name);
    else {
      const text = given.text(setting.name);
      const checked = text === undefined ? undefined : valueFromText(given.sourceOf(setting.name), setting.kind, text);
      if (checked && !checked.ok) return checked;
      value = checked?.value;
    }
    settings[setting.field] = value ?? described[setting.key] ?? ("default" in setting ? setting.default : undefined);
  }
  return { ok: true, value: settings as ResolvedRunSettings };
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
export function targetOf(layers: Partial<TargetDescription>[]): Result<TargetDescription | undefined> {
  if (!layers.some((l) => l.baseUrl || l.contactsUrl || l.messagingUrl)) return { ok: true, value: undefined };
  return resolveDescription(layers);
}
