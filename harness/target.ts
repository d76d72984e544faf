/**
 * The target description: what the spec leaves to each server (paths, users, policies),
 * as JSON. Every key is optional; the defaults describe the bundled reference.
 * Pure: loading and validation return values, they never exit.
 */

import type { NoncePolicy } from "../lib/digest-math.ts";
import type { BackendRequest } from "../lib/export-backend.ts";
import type { Result } from "../lib/result.ts";
import { withoutTrailingSlashes } from "../lib/uri.ts";

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
  /** Requests per second at most, across all workers. */
  rate?: number;
  /** Seconds of the run's clock it may spend waiting after refusals (429). */
  refusalWait?: number;
  expectFail?: string;
  har?: string;
  allowIncomplete?: boolean;
  /** Where the site `sxd docs` writes is published: reports link each row to its section. */
  docsUrl?: string;
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
     * Existing resources the suite updates instead of creating its own (the spec allows a
     * server without creation): one scenario at a time per resource; `delete` says whether
     * the suite may delete it (default false), after which it is used no more.
     */
    resources?: FixedResource[];
  };
  digest: {
    path: string;
    username: string;
    password: string;
    /** How often a nonce may be used; absent: not stated, so the replay row is not run ("unlimited" makes it not applicable). */
    noncePolicy?: NoncePolicy;
    /** Seconds a nonce stays usable (up to 60, the stale-nonce row waits it out), or "unlimited": nonces never expire. */
    nonceLifetime?: number | "unlimited";
    /** Keep the cookies the protected resource sets and send them back, per scenario. Default: none sent. */
    cookies?: boolean;
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
     * The fallback upload: where its row runs. `{user}` is replaced. The payload is
     * the contact list as the contacts server served it, sent as `contentType` (default
     * "application/xml;charset=UTF-8"). false states that the server takes no upload (the
     * row is not applicable); absent, the row is not run.
     */
    upload?: { method: string; path: string; contentType?: string } | false;
    /**
     * How the client reads what the messaging server holds after an export:
     * "location" (default) is a GET on the 303's Location; a path on the messaging server
     * with `{user}` is a GET there; false states that the result cannot be read, which leaves
     * the row about what arrived not run.
     */
    result?: string | false;
    /** Shell commands that stop and start the target's contacts server, so the outage row can stage one. */
    outage?: OutageCommands;
    /**
     * How the messaging server asks the contacts server for the list (the spec does not show
     * it): what sxd's own server serves, checks and asks where it plays one side (--peer).
     * Absent: the reference's, a GET on the list's own path `/user/{user}/contacts`.
     */
    backend?: BackendRequest;
  };
}

export type { BackendRequest };

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

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Layers descriptions, later ones winning key by key, over the reference defaults.
 * `baseUrl` must come from one of the layers.
 */
export function resolveDescription(layers: Partial<TargetDescription>[]): Result<TargetDescription> {
  const merged = layers.reduce<Partial<TargetDescription>>((acc, layer) => deepMerge(acc, layer), {});
  if (!merged.baseUrl) return { ok: false, error: "no base URL: give --base-url, SXD_BASE_URL or baseUrl" };
  const full = deepMerge(REFERENCE_DEFAULTS, merged) as TargetDescription;
  full.baseUrl = withoutTrailingSlashes(full.baseUrl);
  if (full.contactsUrl) full.contactsUrl = withoutTrailingSlashes(full.contactsUrl);
  if (full.messagingUrl) full.messagingUrl = withoutTrailingSlashes(full.messagingUrl);
  return { ok: true, value: full };
}

/**
 * The description's extra headers for a request to `url`: those of the server it lies on.
 * Where servers share a URL (a run with --peer and no base URL judges the team's export server
 * at the base URL too), the export server's headers win over the base server's, name by name.
 */
export function headersFor(target: TargetDescription, url: string): Record<string, string> {
  const servers = [
    ["base", target.baseUrl],
    ["contacts", target.contactsUrl],
    ["messaging", target.messagingUrl],
  ] as const;
  const matching = servers.filter(
    (server): server is [(typeof server)[0], string] =>
      server[1] !== undefined && (url === server[1] || url.startsWith(`${server[1]}/`)),
  );
  // The longest matching URL: servers may share a host under different paths.
  const longest = Math.max(0, ...matching.map(([, at]) => at.length));
  return Object.assign(
    {},
    ...matching.filter(([, at]) => at.length === longest).map(([name]) => target.headers?.[name] ?? {}),
  );
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

export function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
