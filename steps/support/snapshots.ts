/**
 * Plumbing for the snapshot steps: the scratch resource each scenario creates, the versions
 * it has put there, entry bodies, and updates that work against any correct server.
 *
 * A server that has only one-second dates may refuse a second update within one second, so
 * updates that merely build a chain send If-Match (when the server gave an ETag) as well as
 * If-Unmodified-Since, and re-read and retry a bounded number of times after a 412.
 */
import { randomBytes } from "node:crypto";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import { type EntryView, readEntry } from "./atom.ts";
import { fail } from "./expect.ts";
import { type Answered, headerOf } from "./http.ts";
import type { SxdWorld } from "./world.ts";

export interface EntryVersion {
  authorName: string;
  title: string;
  content: { text: string; type: string; lang: string };
}

export interface ScratchResource {
  url: string;
  id: string;
  /** Every version put, oldest first: versions[n - 1] is what snapshot s<n> must hold. */
  versions: EntryVersion[];
  /** The validators of the last read of the current resource. */
  lastRead?: { lastModified?: string; etag?: string };
  /** The validators a client held on to with "the client has read the resource". */
  remembered?: { lastModified?: string; etag?: string };
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

export function resourceOf(world: SxdWorld): ScratchResource {
  const resource = scratch.get(world);
  if (!resource) throw new Error("the scenario has no resource yet: start with 'Given a fresh entry resource'");
  return resource;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
}

export function newResourceUrl(world: SxdWorld): string {
  return `${world.target.baseUrl}${world.target.snapshots.collection}${uniqueName("sxd")}`;
}

export function snapshotUrl(resource: ScratchResource, n: number): string {
  return `${resource.url}/s${n}`;
}

/** Version k differs from every other in author, title, content and language, so a partial snapshot shows. */
export function versionNumbered(k: number): EntryVersion {
  const tag = randomBytes(4).toString("hex");
  return {
    authorName: `Author ${k} ${tag}`,
    title: `Version ${k} of the entry`,
    content: { text: `<p>Text of version ${k} (${tag})</p>`, type: "html", lang: k % 2 === 0 ? "de" : "en" },
  };
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

/** Creates a resource at a fresh address (SNAP-13's request) and deletes it after the scenario. */
export async function createScratch(world: SxdWorld): Promise<{ resource: ScratchResource; reply: Answered }> {
  const resource: ScratchResource = {
    url: newResourceUrl(world),
    id: `urn:uuid:${crypto.randomUUID()}`,
    versions: [versionNumbered(1)],
  };
  scratch.set(world, resource);
  world.onCleanup(() => world.http.send("DELETE", resource.url));
  const reply = await world.http.send("PUT", resource.url, {
    headers: { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" },
    body: entryBody(resource.id, resource.versions[0]),
  });
  return { resource, reply };
}

export async function readCurrent(world: SxdWorld, resource: ScratchResource): Promise<Answered> {
  const reply = await world.http.send("GET", resource.url);
  resource.lastRead = { lastModified: headerOf(reply, "last-modified"), etag: headerOf(reply, "etag") };
  return reply;
}

/** Puts the next version, re-reading and retrying while a correct server may still say 412. */
export async function updateScratch(world: SxdWorld, resource: ScratchResource): Promise<Answered> {
  const version = versionNumbered(resource.versions.length + 1);
  for (let attempt = 1; ; attempt++) {
    const read = await readCurrent(world, resource);
    if (read.response.status !== 200)
      fail("the current resource to read before updating it", `status ${read.response.status}`, read);
    const { lastModified, etag } = resource.lastRead ?? {};
    const headers: Record<string, string> = { "content-type": ATOM_ENTRY_TYPE };
    if (etag && !etag.startsWith("W/")) headers["if-match"] = etag;
    if (lastModified) headers["if-unmodified-since"] = lastModified;
    const reply = await world.http.send("PUT", resource.url, { headers, body: entryBody(resource.id, version) });
    const status = reply.response.status;
    if (status >= 200 && status < 300) {
      resource.versions.push(version);
      return reply;
    }
    if (status !== 412 || attempt >= RETRIES) {
      fail("a successful update (to build the chain of snapshots)", `status ${status}`, reply);
    }
    await new Promise((done) => setTimeout(done, RETRY_PAUSE_MS));
  }
}

/** GETs an address and reads the entry in it; fails the step when it is not one. */
export async function fetchEntry(world: SxdWorld, url: string): Promise<{ reply: Answered; entry: EntryView }> {
  const reply = await world.http.send("GET", url);
  if (reply.response.status !== 200) fail(`200 with an entry at ${url}`, `status ${reply.response.status}`, reply);
  return { reply, entry: entryIn(reply) };
}

export function entryIn(reply: Answered): EntryView {
  const read = readEntry(reply.response.body, reply.url);
  if (!read.ok) fail("an Atom entry in the body", read.error, reply);
  return read.entry;
}

/** A date one second before an HTTP date, written as an HTTP date. */
export function secondBefore(httpDate: string): string | undefined {
  const date = parseHttpDate(httpDate);
  return date && new Date(date.getTime() - 1000).toUTCString();
}

export function earlierDate(a: string, b: string): string {
  const da = parseHttpDate(a);
  const db = parseHttpDate(b);
  return da && db && db.getTime() < da.getTime() ? b : a;
}
