/**
 * The target description: what the spec leaves to each server (paths, users, policies),
 * as JSON. Every key is optional; the defaults describe the bundled reference.
 * Pure: loading and validation return values, they never exit.
 */

import type { NoncePolicy } from "../lib/digest.ts";
import { parseJsonText } from "../lib/json-text.ts";

/** How to run the suite, for a description file that carries its own settings (flags win). */
export interface RunSettings {
  tags?: string;
  strict?: boolean;
  reportDir?: string;
  /** Milliseconds per HTTP request. */
  timeout?: number;
  parallel?: number;
  /** Bytes of a reply body read at most. */
  maxBody?: number;
  /** Seconds after which no scenario starts. */
  deadline?: number;
  expectFail?: string;
  har?: string;
  allowIncomplete?: boolean;
  /** Seconds to keep retrying the probe while the target does not answer yet. */
  wait?: number;
}

/** Extra request headers per server (a gateway key, a bearer token), e.g. `{ "base": { "X-Api-Key": "…" } }`. */
export type ServerHeaders = Partial<Record<"base" | "contacts" | "messaging", Record<string, string>>>;

export interface TargetDescription {
  baseUrl: string;
  run?: RunSettings;
  headers?: ServerHeaders;
  /** Absent when the target has no export servers: the export rows are then not run. */
  contactsUrl?: string;
  messagingUrl?: string;
  snapshots: {
    /** Where the suite creates its scratch resources: `<baseUrl><collection><name>`. */
    collection: string;
    /**
     * Existing resources the suite updates instead of creating its own (SNAP-13 allows a
     * server without creation): one scenario at a time per resource; `delete` says whether
     * the suite may delete it (default false), after which it is used no more.
     */
    resources?: FixedResource[];
  };
  digest: {
    path: string;
    username: string;
    password: string;
    /** How often a nonce may be used; absent: no limit stated, so DIG-9 is not applicable. */
    noncePolicy?: NoncePolicy;
  };
  export: {
    user: string;
    /**
     * A second user the contacts server knows: the token check tries the first user's token
     * on this user's import address. Without one the suite uses an unknown user, which a
     * server may refuse for that reason alone.
     */
    otherUser?: string;
    /** The export relation URI; without it, the link whose rel is an absolute URI and href on the messaging server. */
    rel?: string;
    /**
     * The fallback upload (EXP-9); the row runs only where this is given. `{user}` is replaced.
     * The payload is the contact list as the contacts server served it, sent as `contentType`
     * (default "application/xml;charset=UTF-8").
     */
    upload?: { method: string; path: string; contentType?: string };
    /**
     * How the client reads what the messaging server holds after an export (EXP-5):
     * "location" (default) is a GET on the 303's Location; a path on the messaging server
     * with `{user}` is a GET there; false states that the result cannot be read, which leaves
     * EXP-5 not run.
     */
    result?: string | false;
    /** Shell commands that stop and start the target's contacts server, so EXP-8 can stage an outage. */
    outage?: OutageCommands;
  };
}

export interface OutageCommands {
  stop: string;
  start: string;
  /** How long each command may take, and how long the contacts server may take to answer again. */
  timeoutMs?: number;
}

export interface FixedResource {
  path: string;
  delete?: boolean;
}

/**
 * Where a description is silent: the bundled reference's paths and users. The options a
 * server may or may not take (a nonce limit, the fallback upload) and the second export
 * user are not defaulted: a target has them only where its description says so.
 */
export const REFERENCE_DEFAULTS = {
  snapshots: { collection: "/entries/" },
  digest: { path: "/protected", username: "demo", password: "sxd-demo-secret" },
  export: { user: "alice" },
} satisfies Omit<TargetDescription, "baseUrl" | "contactsUrl" | "messagingUrl">;

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Shape =
  | "string"
  | "boolean"
  | "count"
  | "url"
  | "path"
  | "nonce-policy"
  | "export-result"
  | "outage"
  | "header-map"
  | { [key: string]: Shape }
  | { listOf: { [key: string]: Shape }; required: string };

const OUTAGE_SHAPE: { [key: string]: Shape } = { stop: "string", start: "string", timeoutMs: "count" };

const SHAPE: { [key: string]: Shape } = {
  baseUrl: "url",
  run: {
    tags: "string",
    strict: "boolean",
    reportDir: "string",
    timeout: "count",
    parallel: "count",
    maxBody: "count",
    deadline: "count",
    expectFail: "string",
    har: "string",
    allowIncomplete: "boolean",
    wait: "count",
  },
  headers: { base: "header-map", contacts: "header-map", messaging: "header-map" },
  contactsUrl: "url",
  messagingUrl: "url",
  snapshots: { collection: "path", resources: { listOf: { path: "path", delete: "boolean" }, required: "path" } },
  digest: { path: "path", username: "string", password: "string", noncePolicy: "nonce-policy" },
  export: {
    user: "string",
    otherUser: "string",
    rel: "string",
    upload: { method: "string", path: "path", contentType: "string" },
    result: "export-result",
    outage: "outage",
  },
};

/** Checks a parsed description against the known keys; the message names the first bad key. */
export function validateDescription(input: unknown, where = "target description"): Result<Partial<TargetDescription>> {
  if (!isObject(input)) return { ok: false, error: `${where}: expected a JSON object` };
  const problem = check(input as Json, SHAPE, "");
  return problem
    ? { ok: false, error: `${where}: ${problem}` }
    : { ok: true, value: input as Partial<TargetDescription> };
}

function check(value: Json, shape: Shape, path: string): string | undefined {
  if (typeof shape === "object" && isListShape(shape)) {
    if (!Array.isArray(value) || value.length === 0) return `${path} must be a non-empty list`;
    for (const [index, item] of value.entries()) {
      const problem = check(item, shape.listOf, `${path}[${index}]`);
      if (problem) return problem;
      if (!Object.hasOwn(item as object, shape.required)) return `${path}[${index}] needs "${shape.required}"`;
    }
    return undefined;
  }
  if (typeof shape === "object") {
    if (!isObject(value)) return `${path || "the description"} must be an object`;
    for (const [key, child] of Object.entries(value)) {
      const childShape = shape[key];
      const childPath = path ? `${path}.${key}` : key;
      if (childShape === undefined) return `unknown key "${childPath}" (known: ${Object.keys(shape).join(", ")})`;
      const problem = check(child, childShape, childPath);
      if (problem) return problem;
    }
    return undefined;
  }
  switch (shape) {
    case "string":
      return typeof value === "string" && value !== "" ? undefined : `${path} must be a non-empty string`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${path} must be true or false`;
    case "count":
      return Number.isInteger(value) && (value as number) > 0 ? undefined : `${path} must be a whole number above 0`;
    case "path":
      return typeof value === "string" && value.startsWith("/")
        ? undefined
        : `${path} must be a path starting with "/"`;
    case "url":
      return typeof value === "string" && isHttpUrl(value)
        ? undefined
        : `${path} must be an http(s) URL, got ${JSON.stringify(value)}`;
    case "nonce-policy":
      if (value === "one-time" || value === "unlimited") return undefined;
      if (
        isObject(value) &&
        Object.keys(value).length === 1 &&
        Number.isInteger(value.uses) &&
        (value.uses as number) > 0
      ) {
        return undefined;
      }
      return `${path} must be "one-time", "unlimited" or { "uses": N } with N > 0`;
    case "export-result":
      return value === "location" || value === false || (typeof value === "string" && value.startsWith("/"))
        ? undefined
        : `${path} must be "location", a path starting with "/" (with {user}), or false`;
    case "header-map":
      return isObject(value) &&
        Object.entries(value).every(([name, v]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && typeof v === "string")
        ? undefined
        : `${path} must map header names to string values`;
    case "outage": {
      const missing = ["stop", "start"].find((key) => isObject(value) && value[key] === undefined);
      return missing ? `${path}.${missing} is required (a shell command)` : check(value, OUTAGE_SHAPE, path);
    }
  }
}

function isListShape(shape: object): shape is { listOf: { [key: string]: Shape }; required: string } {
  return "listOf" in shape && "required" in shape && typeof shape.required === "string";
}

function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Parses the text of a description file. */
export function parseDescription(text: string, where: string): Result<Partial<TargetDescription>> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${where}${parsed.place}: not valid JSON (${parsed.reason})` };
  return validateDescription(parsed.value, where);
}

/**
 * Layers descriptions, later ones winning key by key, over the reference defaults.
 * `baseUrl` must come from one of the layers.
 */
export function resolveDescription(layers: Partial<TargetDescription>[]): Result<TargetDescription> {
  const merged = layers.reduce<Partial<TargetDescription>>((acc, layer) => deepMerge(acc, layer), {});
  if (!merged.baseUrl) return { ok: false, error: "no base URL: give --base-url, SXD_BASE_URL or baseUrl" };
  const full = deepMerge(REFERENCE_DEFAULTS, merged) as TargetDescription;
  full.baseUrl = full.baseUrl.replace(/\/+$/, "");
  if (full.contactsUrl) full.contactsUrl = full.contactsUrl.replace(/\/+$/, "");
  if (full.messagingUrl) full.messagingUrl = full.messagingUrl.replace(/\/+$/, "");
  return { ok: true, value: full };
}

/** The description's extra headers for a request to `url`: those of the server it lies on. */
export function headersFor(target: TargetDescription, url: string): Record<string, string> {
  const servers = [
    ["base", target.baseUrl],
    ["contacts", target.contactsUrl],
    ["messaging", target.messagingUrl],
  ] as const;
  // The longest matching URL: servers may share a host under different paths.
  const server = servers
    .filter(([, at]) => at !== undefined && (url === at || url.startsWith(`${at}/`)))
    .sort((a, b) => (b[1] as string).length - (a[1] as string).length)[0];
  return server ? (target.headers?.[server[0]] ?? {}) : {};
}

function deepMerge<T extends object>(base: T, over: Partial<T>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prior = out[key];
    out[key] = isObject(prior) && isObject(value) ? deepMerge(prior, value) : value;
  }
  return out as T;
}
