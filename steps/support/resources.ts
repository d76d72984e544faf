/**
 * Where a scenario's resource comes from: one it creates (SNAP-13's request), or one the target
 * description names in snapshots.resources, claimed so that no two scenarios update it at once.
 */

import { type Answered, headerOf } from "../../harness/exchange.ts";
import { sleep } from "../../harness/rate-limits.ts";
import type { FixedResource } from "../../harness/target.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { linksByRel, readEntry, sameUri } from "./atom.ts";
import { tryClaim } from "./claims.ts";
import { createScratch, isSuccess, untilServerSecondAfter, useResource } from "./snapshots.ts";
import type { SxdWorld } from "./world.ts";

/**
 * Gives the scenario a resource to work on: one it creates, or one the description names
 * (only those it may delete, when the scenario deletes). Returns why it has none, if so.
 */
export async function prepareResource(world: SxdWorld, deletes: boolean): Promise<string | undefined> {
  const fixed = world.target.snapshots.resources;
  if (fixed) return claimFixed(world, deletes ? fixed.filter((r) => r.delete) : byDeletableLast(fixed));
  const { reply } = await createScratch(world);
  const status = reply.response.status;
  return isSuccess(reply)
    ? undefined
    : `the suite could not create a resource to work on: PUT with If-None-Match: * under ${world.target.snapshots.collection} answered ${status} (SNAP-13); a server without creation can name existing resources in snapshots.resources`;
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
    previousAtStart: previous,
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
