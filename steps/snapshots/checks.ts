/**
 * What the snapshot steps do and check, in support code so each step reads like its line of
 * the feature: updating to the next version, reading links and versions, walking the chain.
 */
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import { type EntryLink, type EntryView, linksByRel, sameUri } from "../support/atom.ts";
import { expectThat, fail } from "../support/expect.ts";
import { getEach } from "../support/reads.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  type EntryField,
  entryBody,
  entryIn,
  fetchEntry,
  isSuccess,
  nextVersion,
  resourceOf,
  type ScratchResource,
  snapshotUrl,
  updateScratch,
} from "./snapshots.ts";

export async function putNextVersion(world: SxdWorld, resource: ScratchResource, headers: Record<string, string>) {
  const version = nextVersion(resource);
  const reply = await world.http.send("PUT", resource.url, {
    headers: { "content-type": ATOM_ENTRY_TYPE, ...headers },
    body: entryBody(resource.id, version),
  });
  resource.attempt = { version, reply, readBefore: resource.lastRead?.reply };
  if (isSuccess(reply)) resource.versions.push(version);
}

/** Builds the chain of snapshots; a server that refuses the updates leaves the scenario not run. */
export async function updateTimes(world: SxdWorld, times: number, kept: EntryField[]): Promise<"skipped" | undefined> {
  const resource = resourceOf(world);
  for (let i = 0; i < times; i++) {
    const reply = await updateScratch(world, resource, kept);
    if (!isSuccess(reply)) {
      return world.notRun(
        `the suite could not update the resource to build its snapshots (PUT answered ${reply.response.status}): see SNAP-2`,
      );
    }
  }
  return undefined;
}

/**
 * SNAP-11, SNAP-12: a refused update is judged by what it changed. The resource as read just
 * before it and as read now hold the same entry, the same Last-Modified and the same previous
 * link: the link to the newest snapshot shows a new one. (Whether the state before was the one
 * sxd put is SNAP-8's business; an address s<n> read here would judge the numbering, SNAP-3's.)
 */
export async function expectNothingChanged(world: SxdWorld): Promise<void> {
  const { reply: refusal, readBefore } = attemptOf(world);
  expectThat(!isSuccess(refusal), "a refusal (a status outside 2xx)", `status ${refusal.response.status}`, refusal);
  if (!readBefore) throw new Error("no read of the resource before the update in this scenario (a bug in the suite)");
  const before = entryIn(readBefore);
  const { reply, entry } = await fetchEntry(world, resourceOf(world).url);
  const was = versionShape(before);
  expectThat(
    versionShape(entry) === was,
    `the entry as read before the refused update: ${was}`,
    versionShape(entry),
    reply,
  );
  const [dated, datedNow] = [headerOf(readBefore, "last-modified"), headerOf(reply, "last-modified")];
  expectThat(
    parseHttpDate(dated)?.getTime() === parseHttpDate(datedNow)?.getTime(),
    `the Last-Modified read before the refused update (${dated ?? "none"})`,
    `Last-Modified: ${datedNow ?? "none"}`,
    reply,
  );
  const previous = (e: EntryView) =>
    linksByRel(e, "previous")
      .map((link) => link.url ?? link.href)
      .join(", ") || "none";
  expectThat(
    previous(entry) === previous(before),
    `the previous link as read before the refused update (${previous(before)}): the refused request made no snapshot`,
    previous(entry),
    reply,
  );
}

/** What a client that read the resource sends back: its Last-Modified, or its strong ETag where it has no date. */
export function validatorsOf(read: ScratchResource["lastRead"]): Record<string, string> {
  if (read?.lastModified) return { "if-unmodified-since": read.lastModified };
  if (read?.etag && !read.etag.startsWith("W/")) return { "if-match": read.etag };
  return {};
}

export function attemptOf(world: SxdWorld): NonNullable<ScratchResource["attempt"]> {
  const attempt = resourceOf(world).attempt;
  if (!attempt) throw new Error("no update tried yet in this scenario");
  return attempt;
}

export function snapshotUrls(resource: ScratchResource): string[] {
  return resource.versions.slice(0, -1).map((_, i) => snapshotUrl(resource, i + 1));
}

export function singleLink(reply: Answered, rel: string): EntryLink {
  const links = linksByRel(entryIn(reply), rel);
  if (links.length !== 1 || !links[0].url) fail(`one link rel="${rel}" with a URI`, `${links.length} of them`, reply);
  return links[0];
}

/** The one `rel` link of the entry in `reply`, absolute, to `target`; returns it. */
export function expectLink(reply: Answered, rel: string, target: string, name: string): EntryLink {
  const link = singleLink(reply, rel);
  expectThat(link.absolute, `an absolute href on the ${rel} link`, `href="${link.href}"`, reply);
  return expectLeadsTo(reply, link, target, name);
}

/** The link, resolved against the entry's address (whether it is absolute is SNAP-4's and SNAP-5's), leads to `target`. */
function expectLeadsTo(reply: Answered, link: EntryLink, target: string, name: string): EntryLink {
  expectThat(sameUri(link.url, target), `the ${link.rel} link to ${name} (${target})`, `href="${link.href}"`, reply);
  return link;
}

/**
 * "identified": the entry is version k, known by its title (unique per version), so a row about
 * numbering or links does not also judge completeness; "full": every field of version k.
 */
export function expectVersion(
  entry: EntryView,
  resource: ScratchResource,
  k: number,
  reply: Answered,
  how: "identified" | "full",
) {
  const want = resource.versions[k - 1];
  if (how === "identified") {
    expectThat(
      squash(entry.title) === squash(want.title),
      `version ${k} of the entry, titled "${want.title}"`,
      `the title "${entry.title}"`,
      reply,
    );
    return;
  }
  expectThat(
    versionShape(entry) === versionShape(want),
    `version ${k} of the entry: ${versionShape(want)}`,
    versionShape(entry),
    reply,
  );
}

/** A version's fields as compared: a server may indent what it serves, so text with white space folded. */
export function versionShape(v: {
  authorName?: string;
  title?: string;
  content?: { text?: string; type?: string; lang?: string };
}): string {
  return JSON.stringify({
    authorName: squash(v.authorName),
    title: squash(v.title),
    content: { text: squash(v.content?.text), type: v.content?.type, lang: v.content?.lang },
  });
}

/** Text as compared: white space folded, as a server may indent what it serves. */
export function squash(text: string | undefined): string | undefined {
  return text?.replace(/\s+/g, " ").trim();
}

/** The address a stop of the features' tables names: "s<n>", the snapshot the n-th update made, or "the resource". */
export function stopUrl(resource: ScratchResource, stop: string): string {
  if (stop === "the resource") return resource.url;
  const n = /^s([1-9]\d*)$/.exec(stop)?.[1];
  if (n === undefined) throw new Error(`no stop "${stop}" in the suite: write s<n> or "the resource"`);
  return snapshotUrl(resource, Number(n));
}

/**
 * Follows one rel link by link. Each link is judged by its address (SNAP-6: s<n>, s<n-1>, …),
 * "s<n>" the snapshot the n-th update made, "the resource" the current address; what a
 * snapshot holds is SNAP-3's business.
 */
export async function walk(world: SxdWorld, rel: string, from: string, stops: string[]): Promise<void> {
  let here = await fetchEntry(world, from);
  for (const stop of stops) {
    const name = stop === "the resource" ? stop : `snapshot ${stop}`;
    const link = expectLeadsTo(here.reply, singleLink(here.reply, rel), stopUrl(resourceOf(world), stop), name);
    if (stop === "the resource") return;
    here = await fetchEntry(world, link.url as string);
    walkEnds.set(world, here.reply);
  }
}

/** Where each scenario's last walk ended, so the next walk can turn round there. */
const walkEnds = new WeakMap<SxdWorld, Answered>();

export async function expectGone(
  world: SxdWorld,
  accepted: (status: number) => boolean,
  expected: string,
): Promise<void> {
  const resource = resourceOf(world);
  // A resource named in the description may have had snapshots before the scenario: they go too.
  const earlier = Array.from({ length: resource.base }, (_, i) => `${resource.url}/s${i + 1}`);
  await getEach(world, [resource.url, ...earlier, ...snapshotUrls(resource)], (reply, url) =>
    expectThat(
      accepted(reply.response.status),
      `${expected} for ${url} after DELETE`,
      `status ${reply.response.status}`,
      reply,
    ),
  );
}

/** The reply of the version where the scenario's last walk along the links ended. */
export function lastWalkEnd(world: SxdWorld): Answered | undefined {
  return walkEnds.get(world);
}

/** A version of the scenario's chain: a snapshot it made, or the resource. */
export interface ChainStop {
  name: string;
  url: string;
}

/** The scenario's chain: the snapshots its updates made, oldest first, then the resource. */
export function chainStops(resource: ScratchResource): ChainStop[] {
  const snapshots = snapshotUrls(resource).map((url, i) => ({ name: `snapshot s${i + 1}`, url }));
  return [...snapshots, { name: "the resource", url: resource.url }];
}

/**
 * SNAP-5, SNAP-6: the version of the chain that a previous link of its oldest snapshot leads
 * back to (itself, a later snapshot, the resource), if any. The spec leaves open whether s1
 * has a previous link, not where one leads: previous names the snapshot immediately before,
 * and a link back into the chain is a loop that a client walking back never leaves.
 */
export function loopBack(
  previous: readonly EntryLink[],
  chain: readonly ChainStop[],
): { link: EntryLink; stop: ChainStop } | undefined {
  for (const link of previous) {
    const stop = chain.find(({ url }) => sameUri(link.url, url));
    if (stop) return { link, stop };
  }
  return undefined;
}

/** Fails the step where the oldest snapshot, as read in `reply`, has a previous link back into the chain. */
export function expectNoLoopBack(world: SxdWorld, reply: Answered): void {
  const found = loopBack(linksByRel(entryIn(reply), "previous"), chainStops(resourceOf(world)));
  if (found)
    fail(
      "no previous link from the oldest snapshot back into the chain (a walk back must end there)",
      `a previous link to ${found.stop.name}: href="${found.link.href}", a loop`,
      reply,
    );
}
