/**
 * Plumbing for the snapshot steps: the resource each scenario works on, the versions it has
 * put there, entry bodies, and updates that work against any correct server.
 *
 * A scenario creates its resource under the description's collection (SNAP-13's request), or,
 * where the description names existing resources (`snapshots.resources`), claims one of them
 * for the scenario (support/claims.ts) and starts from the state it finds: its snapshots so far
 * are left alone, and the scenario's snapshot s<n> is the n-th one its own updates make.
 *
 * A server that has only one-second dates may refuse a second update within one second, so
 * updates that merely build a chain send If-Match (when the server gave an ETag) as well as
 * If-Unmodified-Since, and re-read and retry a bounded number of times after a 412. The spec
 * asks for If-Unmodified-Since alone: a server that refuses sxd's If-Match gets the spec's
 * request from then on, once its clock has passed the date read, so what sxd added is never
 * the reason a scenario is not run (docs/test.md says so).
 */
import { randomBytes } from "node:crypto";
import type { TargetDescription } from "../../harness/description/target.ts";
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import { type EntryView, readEntry } from "../support/atom.ts";
import { fail } from "../support/expect.ts";
import type { HttpClient } from "../support/http.ts";
import { getEach } from "../support/reads.ts";
import type { SxdWorld } from "../support/world.ts";

export interface EntryVersion {
  authorName: string;
  title: string;
  content: { text: string; type?: string; lang?: string };
}

/** The fields an update may keep from the version before it (SNAP-10: a snapshot is whole all the same). */
export type EntryField = "author" | "title" | "content";

export interface ScratchResource {
  url: string;
  id: string;
  /** Every version put, oldest first: versions[n - 1] is what snapshot s<n> must hold. */
  versions: EntryVersion[];
  /** The snapshots the resource had before the scenario: the scenario's s<n> is at s<base + n>. */
  base: number;
  /**
   * The last update tried with a defect, the version it carried and the last read of the
   * resource before it (what a refusal must leave as it was), for its control and verdict.
   */
  attempt?: { version: EntryVersion; reply: Answered; readBefore?: Answered };
  /** The validators of the last read of the current resource, and its reply. */
  lastRead?: Read;
  /** The validators a client held on to with "the client has read the resource". */
  remembered?: Read;
  /** The server refused an update for sxd's If-Match and took it with If-Unmodified-Since alone. */
  refusedIfMatch?: boolean;
}

/** A read of the current resource: its validators, and the reply they came in. */
export interface Read {
  lastModified?: string;
  etag?: string;
  reply?: Answered;
}

const ATOM = 'xmlns="http://www.w3.org/2005/Atom"';
const PARTS = "<author><name>A</name></author><title>t</title><content>c</content>";

/** Bodies that are not a well-formed Atom entry, by the name the features use; `{id}` is the entry's id. */
export const BAD_BODIES: Record<string, string> = {
  "text that is not XML": "just some words",
  "malformed XML": `<entry ${ATOM}><author><name>A</name></author><title>unclosed</entry>`,
  "an entry outside the Atom namespace": `<entry>${PARTS}<id>{id}</id></entry>`,
  "an Atom feed instead of an entry": `<feed ${ATOM}><title>t</title><id>{id}</id></feed>`,
  // Without a DTD declaring it, an entity reference makes the document not well-formed.
  "an entry with an undeclared entity": `<entry ${ATOM}><author><name>A</name></author><title>&t;</title><id>{id}</id><content>c</content></entry>`,
  "an entry without an id": `<entry ${ATOM}>${PARTS}</entry>`,
  "an entry without a title": `<entry ${ATOM}><author><name>A</name></author><id>{id}</id><content>c</content></entry>`,
};

const RETRIES = 6;
const RETRY_PAUSE_MS = 400;

const scratch = new WeakMap<SxdWorld, ScratchResource>();

/** The resource the scenario works on from now on. */
export function useResource(world: SxdWorld, resource: ScratchResource): void {
  scratch.set(world, resource);
}

export function resourceOf(world: SxdWorld): ScratchResource {
  const resource = scratch.get(world);
  if (!resource) throw new Error("the scenario has no resource yet: start with 'Given a fresh entry resource'");
  return resource;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
}

export function snapshotUrl(resource: ScratchResource, n: number): string {
  return `${resource.url}/s${resource.base + n}`;
}

/**
 * Version k differs from every other in author, title, content and language, so a partial
 * snapshot shows; `kept` fields are copied from the version before, so a difference shows too.
 */
export function versionNumbered(k: number, before?: EntryVersion, kept: readonly EntryField[] = []): EntryVersion {
  const tag = randomBytes(4).toString("hex");
  const fresh: EntryVersion = {
    authorName: `Author ${k} ${tag}`,
    title: `Version ${k} of the entry`,
    content: { text: `<p>Text of version ${k} (${tag})</p>`, type: "html", lang: k % 2 === 0 ? "de" : "en" },
  };
  if (!before) return fresh;
  return {
    authorName: kept.includes("author") ? before.authorName : fresh.authorName,
    title: kept.includes("title") ? before.title : fresh.title,
    content: kept.includes("content") ? before.content : fresh.content,
  };
}

export function nextVersion(resource: ScratchResource, kept: readonly EntryField[] = []): EntryVersion {
  return versionNumbered(resource.versions.length + 1, resource.versions.at(-1), kept);
}

export function isSuccess(reply: Answered): boolean {
  return reply.response.status >= 200 && reply.response.status < 300;
}

export function entryBody(id: string, version: EntryVersion): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<entry xmlns="http://www.w3.org/2005/Atom">',
    `  <author><name>${escapeXml(version.authorName)}</name></author>`,
    `  <title>${escapeXml(version.title)}</title>`,
    `  <id>${escapeXml(id)}</id>`,
    `  <content type="${version.content.type}" xml:lang="${version.content.lang}">${escapeXml(version.content.text)}</content>`,
    "</entry>",
  ].join("\n");
}

/** A resource not made yet, at a fresh address under the description's collection. */
export function newScratch(target: TargetDescription): ScratchResource {
  const { collection } = target.snapshots;
  // Only where the description names no collection does it name resources to update instead.
  if (collection === undefined) throw new Error("snapshots.collection is not stated: no resource can be made");
  return {
    url: `${target.baseUrl}${collection}${uniqueName("sxd")}`,
    id: `urn:uuid:${crypto.randomUUID()}`,
    versions: [versionNumbered(1)],
    base: 0,
  };
}

/** SNAP-13's request: the resource's first version, with If-None-Match: *. */
export function putScratch(http: HttpClient, resource: ScratchResource, note?: string): Promise<Answered> {
  return http.send("PUT", resource.url, {
    headers: { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" },
    body: entryBody(resource.id, resource.versions[0]),
    ...(note === undefined ? {} : { note }),
  });
}

const CLOCK_POLL_MS = 100;
/** Two seconds of asking: a server whose Date never passes its Last-Modified is not waited on for ever. */
const CLOCK_POLLS = 20;
/** Where the server's clock cannot tell: more than the one second HTTP dates resolve. */
export const FIXED_WAIT_MS = 1100;

/**
 * Waits until the server's clock (its Date) is past the second of `lastModified`, or of a Date
 * read: an update made then gets a later HTTP date than the one read. Asks with GET every
 * `pollMs` (100 ms), so the wait is what is left of the server's second, and returns the reply
 * that showed the later second. Where the clock cannot tell (no Date, a date that cannot be
 * read, a Last-Modified later than the server's own Date) the wait is a fixed 1.1 s. A Date set
 * by another clock than Last-Modified's (a proxy's) may end the wait early: the caller checks.
 */
export async function untilServerSecondAfter(
  http: HttpClient,
  url: string,
  lastModified: string | undefined,
  wait: (ms: number) => Promise<void> = sleep,
  pollMs = CLOCK_POLL_MS,
): Promise<Answered | undefined> {
  const read = parseHttpDate(lastModified);
  if (read === undefined) return void (await wait(FIXED_WAIT_MS));
  for (let poll = 0; poll < CLOCK_POLLS; poll++) {
    const reply = await http.send("GET", url, {
      note: `reads the server's clock (Date) until it is past the date read, ${lastModified}`,
    });
    const now = parseHttpDate(headerOf(reply, "date"));
    if (now === undefined || now.getTime() < read.getTime()) return void (await wait(FIXED_WAIT_MS));
    if (now.getTime() > read.getTime()) return reply;
    await wait(pollMs);
  }
  return undefined;
}

export async function readCurrent(world: SxdWorld, resource: ScratchResource): Promise<Answered> {
  const reply = await world.http.send("GET", resource.url);
  resource.lastRead = { lastModified: headerOf(reply, "last-modified"), etag: headerOf(reply, "etag"), reply };
  return reply;
}

/**
 * Puts the next version, re-reading and retrying while a correct server may still say 412.
 * Returns the last reply: a success, or the refusal the suite could not get past. `shape`
 * changes the body sent (a case that adds one defect to the next version).
 */
export async function updateScratch(
  world: SxdWorld,
  resource: ScratchResource,
  kept: readonly EntryField[] = [],
  shape: (body: string) => string = (body) => body,
): Promise<Answered> {
  const version = nextVersion(resource, kept);
  let refusedIfMatch = false;
  for (let attempt = 1; ; attempt++) {
    const read = await readCurrent(world, resource);
    if (read.response.status !== 200)
      fail("the current resource to read before updating it", `status ${read.response.status}`, read);
    const { lastModified, etag } = resource.lastRead ?? {};
    const ifMatch = etag && !etag.startsWith("W/") && !resource.refusedIfMatch ? etag : undefined;
    const headers: Record<string, string> = { "content-type": ATOM_ENTRY_TYPE };
    if (ifMatch) headers["if-match"] = ifMatch;
    if (lastModified) headers["if-unmodified-since"] = lastModified;
    const reply = await world.http.send("PUT", resource.url, { headers, body: shape(entryBody(resource.id, version)) });
    if (isSuccess(reply)) {
      if (refusedIfMatch) noteRefusedIfMatch(world, resource);
      resource.versions.push(version);
      return reply;
    }
    if (reply.response.status !== 412 || attempt >= RETRIES) return reply;
    if (ifMatch) {
      // Maybe the ETag, not the date, made the server refuse: the spec's request next, in a later second.
      refusedIfMatch = resource.refusedIfMatch = true;
      await untilServerSecondAfter(world.http, resource.url, lastModified);
    } else await sleep(RETRY_PAUSE_MS);
  }
}

function noteRefusedIfMatch(world: SxdWorld, resource: ScratchResource): void {
  world.observe(
    `The server refused sxd's update with If-Match set to the ETag just read (412) and took it with If-Unmodified-Since alone, as the spec asks: sxd's later updates of ${resource.url} send no If-Match.`,
  );
}

/**
 * Sends the update the scenario tried with a defect again, without it (the control of a
 * negative case). Returns why the case cannot be judged when even that is refused.
 */
export async function controlGetsIn(
  world: SxdWorld,
  resource: ScratchResource,
  preconditions: Record<string, string>,
): Promise<string | undefined> {
  const version = resource.attempt?.version ?? nextVersion(resource);
  const reply = await world.http.send("PUT", resource.url, {
    headers: { "content-type": ATOM_ENTRY_TYPE, ...preconditions },
    body: entryBody(resource.id, version),
  });
  if (isSuccess(reply)) {
    resource.versions.push(version);
    return undefined;
  }
  return `the same request without the defect was refused too (status ${reply.response.status}): see SNAP-2`;
}

/** GETs an address and reads the entry in it; fails the step when it is not one. */
export async function fetchEntry(world: SxdWorld, url: string): Promise<{ reply: Answered; entry: EntryView }> {
  return entryAt(url, await world.http.send("GET", url));
}

/** The entry in a reply to a GET of `url`; fails the step when it is not one. */
function entryAt(url: string, reply: Answered): { reply: Answered; entry: EntryView } {
  if (reply.response.status !== 200) fail(`200 with an entry at ${url}`, `status ${reply.response.status}`, reply);
  return { reply, entry: entryIn(reply) };
}

/** getEach for addresses that must each serve an entry. */
export function getEachEntry(
  world: SxdWorld,
  urls: readonly string[],
  check: (found: { reply: Answered; entry: EntryView }, index: number) => void,
): Promise<void> {
  return getEach(world, urls, (reply, url, index) => check(entryAt(url, reply), index));
}

export function entryIn(reply: Answered): EntryView {
  const read = readEntry(reply.response.body, reply.url);
  if (!read.ok) fail("an Atom entry in the body", read.error, reply);
  return read.entry;
}
