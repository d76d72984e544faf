/**
 * The target description: what the spec leaves to each server (paths, users, policies),
 * as JSON. Every key is optional, and none defaults to the bundled reference's choice: where a
 * behaviour's keys are left out, its rows are not run, naming the keys (`unstatedKeys`).
 * Pure: loading and validation return values, they never exit.
 */

import type { Result } from "../lib/result.ts";
import { withoutTrailingSlashes } from "../lib/uri.ts";
import type { Json } from "./schema-check.ts";
import type { DescriptionFile } from "./schemas/target.ts";
import type { RunSettings } from "./settings.ts";

export type { Json, RunSettings };

type Section<K extends Behaviour> = NonNullable<DescriptionFile[K]>;

/**
 * A description as the run uses it: the layers merged (harness/schemas/target.ts says what each
 * key means), a base URL given, and every behaviour's section present, if empty.
 */
export type TargetDescription = Omit<DescriptionFile, "$schema" | "$comment" | "baseUrl" | Behaviour> & {
  baseUrl: string;
  snapshots: Section<"snapshots">;
  digest: Section<"digest">;
  export: Section<"export">;
};

/** Extra request headers per server (a gateway key, a bearer token), e.g. `{ "base": { "X-Api-Key": "…" } }`. */
export type ServerHeaders = NonNullable<DescriptionFile["headers"]>;
export type OutageCommands = NonNullable<Section<"export">["outage"]>;
export type FixedResource = NonNullable<Section<"snapshots">["resources"]>[number];
export type BackendRequest = NonNullable<Section<"export">["backend"]>;

/** The behaviours a target description describes, each in its section of the same name. */
export type Behaviour = "snapshots" | "digest" | "export";

/**
 * What a scenario sends: `credentials` where it logs in (the default), `none` where it only
 * asks without them (a scenario tagged @no-credentials reads challenges only).
 */
export type Sends = "credentials" | "none";

/**
 * The keys a behaviour's rows need that the description left out: where a server keeps its
 * resources, its user and password (a scenario that sends no credentials needs only the
 * path). Silence is not the reference's choice: those rows are not run, naming these keys.
 * (The export paths are the spec's own and need no key.)
 */
export function unstatedKeys(target: TargetDescription, behaviour: Behaviour, sends: Sends = "credentials"): string[] {
  const user: Array<[string, unknown]> = [
    ["digest.username", target.digest.username],
    ["digest.password", target.digest.password],
  ];
  const needed: Record<Behaviour, Array<[string, unknown]>> = {
    snapshots: [["snapshots.collection", target.snapshots.collection ?? target.snapshots.resources]],
    digest: [["digest.path", target.digest.path], ...(sends === "credentials" ? user : [])],
    export: [["export.user", target.export.user]],
  };
  return needed[behaviour].filter(([, value]) => value === undefined).map(([key]) => key);
}

/** Why a behaviour's rows are not run where its keys are left out; undefined where all are stated. */
export function unstatedReason(
  target: TargetDescription,
  behaviour: Behaviour,
  sends: Sends = "credentials",
): string | undefined {
  const keys = unstatedKeys(target, behaviour, sends);
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
