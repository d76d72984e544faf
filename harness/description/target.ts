/**
 * The target description: what the spec leaves to each server (paths, users, policies),
 * as JSON. Every key is optional, and none defaults to the bundled reference's choice: where a
 * behaviour's keys are left out, its rows are not run, naming the keys (`unstatedKeys`).
 * Pure: loading and validation return values, they never exit.
 */

import type { Result } from "../../lib/result.ts";
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import type { Json } from "./schema-check.ts";
import type { DescriptionFile } from "./schemas/target.ts";
import type { RunSettings } from "./settings.ts";

export type { Json, RunSettings };

type Section<K extends Behaviour> = NonNullable<DescriptionFile[K]>;

/**
 * A description as the run uses it: the layers merged (harness/description/schemas/target.ts says what each
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
 * What a scenario needs the description to state, read off where its feature lies
 * (`features/<behaviour>/`, a URI or a location) and its tags (@no-credentials); no behaviour
 * for a feature outside those folders.
 */
export function scenarioNeeds(uri: string, tags: readonly string[]): { behaviour?: Behaviour; sends: Sends } {
  const behaviour = /(?:^|\/)features\/(snapshots|digest|export)\//.exec(uri)?.[1] as Behaviour | undefined;
  return { behaviour, sends: tags.includes("@no-credentials") ? "none" : "credentials" };
}

/**
 * The keys a behaviour's rows need that the description left out: where a server keeps its
 * resources, its user and password (a scenario that sends no credentials needs only the
 * path), where the two export servers are and whose list they export. Silence is not the
 * reference's choice: those rows are not run, naming these keys. (The export paths are the
 * spec's own and need no key.)
 */
export function unstatedKeys(target: TargetDescription, behaviour: Behaviour, sends: Sends = "credentials"): string[] {
  const user: Array<[string, unknown]> = [
    ["digest.username", target.digest.username],
    ["digest.password", target.digest.password],
  ];
  const needed: Record<Behaviour, Array<[string, unknown]>> = {
    snapshots: [["snapshots.collection", target.snapshots.collection ?? target.snapshots.resources]],
    digest: [["digest.path", target.digest.path], ...(sends === "credentials" ? user : [])],
    export: [
      ["contactsUrl", target.contactsUrl],
      ["messagingUrl", target.messagingUrl],
      ["export.user", target.export.user],
    ],
  };
  return needed[behaviour].filter(([, value]) => value === undefined).map(([key]) => key);
}

/**
 * The keys left out that planned scenarios need, each with the rows that need it; keys needed
 * by the same rows share one entry (`digest.username, digest.password`). For saying, before any
 * request, what the description still has to state.
 */
export function unstatedNeeds(
  target: TargetDescription,
  scenarios: ReadonlyArray<{ location: string; tags: readonly string[]; rows: readonly string[] }>,
): Array<{ keys: string[]; rows: string[] }> {
  const rowsByKey = new Map<string, Set<string>>();
  for (const scenario of scenarios) {
    const { behaviour, sends } = scenarioNeeds(scenario.location, scenario.tags);
    for (const key of behaviour ? unstatedKeys(target, behaviour, sends) : []) {
      const rows = rowsByKey.get(key) ?? new Set<string>();
      for (const row of scenario.rows) rows.add(row);
      rowsByKey.set(key, rows);
    }
  }
  const grouped = new Map<string, { keys: string[]; rows: string[] }>();
  for (const [key, rows] of rowsByKey) {
    const listed = [...rows].sort(byRowNumber);
    const same = listed.join(" ");
    const group = grouped.get(same);
    if (group) group.keys.push(key);
    else grouped.set(same, { keys: [key], rows: listed });
  }
  return [...grouped.values()];
}

/**
 * What a run says before its first scenario where the description leaves out keys the planned
 * scenarios need: each key (or keys needed by the same rows) with its rows, which are not run.
 */
export function unstatedLines(target: TargetDescription, planned: Parameters<typeof unstatedNeeds>[1]): string[] {
  const needs = unstatedNeeds(target, planned);
  if (needs.length === 0) return [];
  const rows = new Set(needs.flatMap((need) => need.rows)).size;
  return [
    `the target description does not state what ${rows === 1 ? "1 row needs" : `${rows} rows need`}; until it does, they are not run:`,
    ...needs.map((need) => `  ${need.keys.map(withAlternative).join(", ")}: ${need.rows.join(", ")}`),
  ];
}

/** Rows in their catalogue's order: by prefix, then by number (2 before 10). */
function byRowNumber(a: string, b: string): number {
  const [prefixA, numberA] = a.split("-");
  const [prefixB, numberB] = b.split("-");
  return prefixA === prefixB ? Number(numberA) - Number(numberB) : prefixA.localeCompare(prefixB);
}

/** Why a behaviour's rows are not run where its keys are left out; undefined where all are stated. */
export function unstatedReason(
  target: TargetDescription,
  behaviour: Behaviour,
  sends: Sends = "credentials",
): string | undefined {
  const keys = unstatedKeys(target, behaviour, sends);
  if (keys.length === 0) return undefined;
  return `the target description does not say ${WHAT[behaviour]}: state ${keys.map(withAlternative).join(", ")}`;
}

const WHAT: Record<Behaviour, string> = {
  snapshots: "where the suite may create or update resources",
  digest: "which resource is protected and by which user",
  export: "where the export servers are and whose contact list they export",
};

/** A key as the reader is told to state it, with what may stand in its place. */
export function withAlternative(key: string): string {
  return key === "snapshots.collection"
    ? "snapshots.collection (or snapshots.resources, resources the suite may update)"
    : key;
}

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
