/**
 * Where a scenario's resource comes from: one it creates (SNAP-13's request), or one the target
 * description names in snapshots.resources, claimed so that no two scenarios update it at once.
 */

import type { FixedResource } from "../../harness/description/target.ts";
import { type Answered, type Exchange, headerOf } from "../../harness/evidence/exchange.ts";
import { DescriptionUnfit, doesNotFit } from "../../harness/judging/step-errors.ts";
import type { WorldParameters } from "../../harness/run/world-parameters.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { linksByRel, readEntry, sameUri } from "../support/atom.ts";
import { tryClaim } from "../support/claims.ts";
import type { HttpClient } from "../support/http.ts";
import { suiteClient } from "../support/suite-client.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  isSuccess,
  newScratch,
  putScratch,
  type ScratchResource,
  untilServerSecondAfter,
  useResource,
} from "./snapshots.ts";

/**
 * Creates a resource at a fresh address (SNAP-13's request) and deletes it after the scenario.
 * A 404 says the described collection is not one the server has: the scenario is not run.
 */
export async function createScratch(world: SxdWorld): Promise<{ resource: ScratchResource; reply: Answered }> {
  const resource = newScratch(world.target);
  adoptScratch(world, resource);
  const reply = await putScratch(world.http, resource);
  if (reply.response.status === 404) {
    throw new DescriptionUnfit(
      "snapshots.collection",
      `PUT of a new resource under ${world.target.baseUrl}${world.target.snapshots.collection}`,
      "state a collection where the suite may create resources, or existing resources in snapshots.resources",
    );
  }
  return { resource, reply };
}

/** The scenario works on this resource it made, and deletes it when it ends. */
export function adoptScratch(world: SxdWorld, resource: ScratchResource): void {
  useResource(world, resource);
  world.onCleanup(() => world.http.send("DELETE", resource.url));
}

/**
 * Gives the scenario a resource to work on: one it creates, or one the description names
 * (only those it may delete, when the scenario deletes). Returns why it has none, if so.
 */
async function prepareResource(world: SxdWorld, deletes: boolean): Promise<string | undefined> {
  const fixed = world.target.snapshots.resources;
  if (fixed) return claimFixed(world, deletes ? fixed.filter((r) => r.delete) : byDeletableLast(fixed));
  const { reply } = await createScratch(world);
  const status = reply.response.status;
  return isSuccess(reply)
    ? undefined
    : `the suite could not create a resource to work on: PUT with If-None-Match: * under ${world.target.snapshots.collection} answered ${status} (SNAP-13); a server without creation can name existing resources in snapshots.resources`;
}

/** A fresh resource for the scenario, or the scenario not run, with the reason (a step's return value). */
export async function freshResource(world: SxdWorld, deletes: boolean): Promise<"skipped" | undefined> {
  if (clockScenarios.has(world) && (await takeEarlyResource(world))) return undefined;
  const problem = await prepareResource(world, deletes);
  // Creation is only SNAP-13's SHOULD: a server without it leaves these rows unchecked, not failed.
  return problem === undefined ? undefined : world.notRun(problem);
}

function byDeletableLast(resources: FixedResource[]): FixedResource[] {
  return [...resources].sort((a, b) => Number(a.delete ?? false) - Number(b.delete ?? false));
}

const CLAIM_POLL_MS = 200;

/** Claims the first free resource that still answers; waits while all are in use by other scenarios. */
async function claimFixed(world: SxdWorld, candidates: FixedResource[]): Promise<string | undefined> {
  if (candidates.length === 0) {
    return 'the target description names no resource the suite may delete (snapshots.resources with "delete": true)';
  }
  const gone = new Map<string, string>();
  const deadline = Date.now() + world.parameters.timeoutMs * 2;
  for (;;) {
    for (const { path } of candidates) {
      if (gone.has(path)) continue;
      const url = world.target.baseUrl + path;
      const release = tryClaim(url);
      if (!release) continue;
      const problem = await adoptFixed(world, url);
      if (problem === undefined) {
        world.onCleanup(async () => release());
        return undefined;
      }
      release();
      gone.set(path, problem);
    }
    if (gone.size === candidates.length) {
      const hint = candidates.some((r) => r.delete) ? ' (a resource with "delete": true is gone once deleted)' : "";
      return `no resource named in snapshots.resources can be worked on: ${[...gone.values()].join("; ")}${hint}`;
    }
    if (Date.now() > deadline) return "every resource named in snapshots.resources stayed in use by other scenarios";
    await sleep(CLAIM_POLL_MS);
  }
}

/** Takes the resource as it is now; says why it cannot be used, if so. */
async function adoptFixed(world: SxdWorld, url: string): Promise<string | undefined> {
  const reply = await world.http.send("GET", url);
  if (reply.response.status === 404)
    return doesNotFit("snapshots.resources", `GET ${url}`, "name resources the server has");
  if (reply.response.status !== 200) return `${url} answered GET with ${reply.response.status}`;
  const read = readEntry(reply.response.body, url);
  if (!read.ok || !read.entry.id) return `${url} is not an Atom entry with an id (see SNAP-1)`;
  const entry = read.entry;
  const previous = linksByRel(entry, "previous")[0]?.url;
  const base = previous === undefined ? 0 : Number(/\/s([1-9]\d*)$/.exec(previous)?.[1] ?? Number.NaN);
  if (previous !== undefined && (!Number.isInteger(base) || !sameUri(previous, `${url}/s${base}`))) {
    return `the previous link of ${url} is ${previous}, not ${url}/s<n>: the suite cannot tell where its snapshots would start (see SNAP-4)`;
  }
  useResource(world, {
    url,
    id: entry.id as string,
    versions: [
      {
        authorName: entry.authorName ?? "",
        title: entry.title ?? "",
        content: { text: entry.content?.text ?? "", type: entry.content?.type, lang: entry.content?.lang },
      },
    ],
    base,
  });
  await letTheSecondPass(world, url, reply);
  return undefined;
}

/**
 * A resource an earlier scenario updated within the current second may carry a date it does
 * not show yet (HTTP dates have whole seconds): wait for the next second before the scenario
 * reads its dates, so the date it reads is the one an update is compared with.
 */
async function letTheSecondPass(world: SxdWorld, url: string, reply: Answered): Promise<void> {
  const lastModified = parseHttpDate(headerOf(reply, "last-modified"));
  const date = parseHttpDate(headerOf(reply, "date")) ?? new Date();
  if (lastModified && lastModified.getTime() >= date.getTime()) {
    await untilServerSecondAfter(world.http, url, headerOf(reply, "last-modified"));
  }
}

/**
 * A resource made before the first scenario, for the scenario that waits for the target's
 * clock (CLOCK_STEP: its update must come in a later second than the resource's Last-Modified,
 * and HTTP dates have whole seconds). Where one process runs the scenarios, that scenario runs
 * last, and the resource ages while the others run, so it seldom waits. The exchange that made
 * it opens the transcript of the scenario that takes it; one that no scenario took (the run
 * was cut short) is deleted after the run. Where it cannot be made, the scenario makes its own
 * resource, as any other does, and reports what it gets.
 */
let early: Promise<Made | undefined> | undefined;

interface Made {
  resource: ScratchResource;
  made: Exchange;
  http: HttpClient;
}

const clockScenarios = new WeakSet<SxdWorld>();

/** Marks the scenario that takes the resource made early (a Before hook of the scenarios with CLOCK_STEP). */
export function waitsForClock(world: SxdWorld): void {
  clockScenarios.add(world);
}

/**
 * Starts making it, its requests named `forScenario` (X-Sxd-Scenario); the hook does not wait
 * for the reply: the first scenarios run meanwhile.
 */
export function makeEarlyResource(parameters: WorldParameters, forScenario: string): void {
  // A description that names its resources has none made; a process makes at most one.
  if (parameters.target.snapshots.resources || early) return;
  early = make(parameters, forScenario).catch(() => undefined);
}

async function make(parameters: WorldParameters, forScenario: string): Promise<Made | undefined> {
  const { http } = suiteClient(parameters);
  http.scenario = forScenario;
  const resource = newScratch(parameters.target);
  try {
    const made = await putScratch(http, resource, "made before the run's first scenario, so that it has aged by now");
    if (isSuccess(made)) return { resource, made, http };
  } catch {
    // No reply: the scenario sends the same request itself and reports what it gets.
  }
  await http.close();
  return undefined;
}

/** The resource made early, once its request is done, for the caller alone. */
async function claimEarly(): Promise<Made | undefined> {
  const pending = early;
  early = undefined;
  return pending;
}

/** Gives the scenario the resource made early, if there is one; false if not. */
export async function takeEarlyResource(world: SxdWorld): Promise<boolean> {
  const taken = await claimEarly();
  if (!taken) return false;
  const { resource, made, http } = taken;
  world.http.exchanges.unshift(made);
  adoptScratch(world, resource);
  await http.close();
  return true;
}

/**
 * Deletes the resource made early that no scenario took. An AfterAll hook defined after
 * world.ts's: cucumber runs those in reverse, so the shared connections are still open.
 */
export async function dropEarlyResource(): Promise<void> {
  const taken = await claimEarly();
  if (!taken) return;
  const { resource, http } = taken;
  try {
    await http.send("DELETE", resource.url);
  } catch {
    // The target stopped answering: nothing more can be done about it.
  } finally {
    await http.close();
  }
}
