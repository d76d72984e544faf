/**
 * The target description: what the spec leaves to each server (paths, users, policies),
 * as JSON. Every key is optional, and none defaults to the bundled reference's choice: where a
 * behaviour's keys are left out, its rows are not run, naming the keys (`unstatedKeys`).
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
    collection?: string;
    /**
     * Existing resources the suite updates instead of creating its own (the spec allows a
     * server without creation): one scenario at a time per resource; `delete` says whether
     * the suite may delete it (default false), after which it is used no more.
     */
    resources?: FixedResource[];
  };
  digest: {
    path?: string;
    username?: string;
    password?: string;
    /** How often a nonce may be used; absent: not stated, so the replay row is not run ("unlimited" makes it not applicable). */
    noncePolicy?: NoncePolicy;
    /** Seconds a nonce stays usable (up to 60, the stale-nonce row waits it out), or "unlimited": nonces never expire. */
    nonceLifetime?: number | "unlimited";
    /** Keep the cookies the protected resource sets and send them back, per scenario. Default: none sent. */
    cookies?: boolean;
  };
  export: {
    user?: string;
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

/** The behaviours a target description describes, each in its section of the same name. */
export type Behaviour = "snapshots" | "digest" | "export";

/**
 * The keys a behaviour's rows need that the description left out: where a server keeps its
 * resources, its user and password. Silence is not the reference's choice: those rows are not
 * run, naming these keys. (The export paths are the spec's own and need no key.)
 */
export function unstatedKeys(target: TargetDescription, behaviour: Behaviour): string[] {
  const needed: Record<Behaviour, Array<[string, unknown]>> = {
    snapshots: [["snapshots.collection", target.snapshots.collection ?? target.snapshots.resources]],
    digest: [
      ["digest.path", target.digest.path],
      ["digest.username", target.digest.username],
      ["digest.password", target.digest.password],
    ],
    export: [["export.user", target.export.user]],
  };
  return needed[behaviour].filter(([, value]) => value === undefined).map(([key]) => key);
}

/** Why a behaviour's rows are not run where its keys are left out; undefined where all are stated. */
export function unstatedReason(target: TargetDescription, behaviour: Behaviour): string | undefined {
  const keys = unstatedKeys(target, behaviour);
  if (keys.length === 0) return undefined;
  const named = keys.join(", ");
  const where = behaviour === "snapshots" ? " (or snapshots.resources, resources the suite may update)" : "";
  return `the target description does not say ${WHAT[behaviour]}: state ${named}${where}`;
}

const WHAT: Record<Behaviour, string> = {
  snapshots: "where the suite may create or update resources",
  digest: "which resource is protected and by which user",
  export: "whose contact list to export",
};

/** A behaviour's keys once its scenario is known to run (its rows are gated on unstatedKeys). */
export function stated<B extends Behaviour>(target: TargetDescription, behaviour: B): Stated[B] {
  const reason = unstatedReason(target, behaviour);
  // The rows of a behaviour whose keys are left out are not run: reaching here is the suite's bug.
  if (reason !== undefined) throw new Error(reason);
  return target[behaviour] as Stated[B];
}

interface Stated {
  snapshots: TargetDescription["snapshots"];
  digest: TargetDescription["digest"] & { path: string; username: string; password: string };
  export: TargetDescription["export"] & { user: string };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Layers descriptions, later ones winning key by key; a section left out is empty.
 * `baseUrl` must come from one of the layers.
 */
export function resolveDescription(layers: Partial<TargetDescription>[]): Result<TargetDescription> {
  const merged = layers.reduce<Partial<TargetDescription>>((acc, layer) => deepMerge(acc, layer), {});
  if (!merged.baseUrl) return { ok: false, error: "no base URL: give --base-url, SXD_BASE_URL or baseUrl" };
  const sections: Partial<TargetDescription> = { snapshots: {}, digest: {}, export: {} };
  const full = deepMerge(sections, merged) as TargetDescription;
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
