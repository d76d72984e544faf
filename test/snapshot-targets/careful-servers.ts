/**
 * Two snapshot servers written from SPEC.md alone, careful where HTTP dates count whole
 * seconds, and shaped unlike the reference: resources live under /notes/, an entry is kept as
 * it was sent (only its links are the server's), a deleted resource is gone (410). Each gives
 * every version a second of its own, so two updates sent with the date of one read can never
 * both pass If-Unmodified-Since:
 *
 * - "waits": an update waits until the server's clock has passed the Last-Modified of the
 *   version before, then is dated by that clock; Last-Modified is never later than Date, and
 *   there is no ETag;
 * - "dates ahead": an update is dated a second after the version before where its clock has
 *   not passed that yet, so Last-Modified runs ahead of Date; nothing waits, and ETags of its
 *   own are honoured in If-Match.
 *
 * Both refuse a stale update with 412, one without a precondition with 428, another media type
 * with 415, and a body that is not an Atom entry (one with a DOCTYPE too) with 400.
 * `checkBeforeWait` is the fault of a "waits" server that checks If-Unmodified-Since before it
 * waits, outside its turn: updates sent at once all pass the check, wait for the same second,
 * and all get in. `replaysDifferences` breaks no rule but costs as a server that keeps a
 * snapshot as its difference from the next version would: reading one waits a storage read for
 * each version after it (sxd limits, LIM-1).
 *
 *   const server = await startCarefulServer({ dates: "waits" });
 *   server.description // the base URL and the collection, for the suite
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { resolveDescription, type TargetDescription } from "../../harness/description/target.ts";

export interface CarefulRules {
  dates: "waits" | "dates ahead";
  checkBeforeWait?: boolean;
  replaysDifferences?: boolean;
}

/** What reading one difference from storage takes, where snapshots are kept as differences. */
const DIFFERENCE_READ_MS = 2;

export interface CarefulServer {
  description: TargetDescription;
  close(): Promise<void>;
}

const ATOM_NS = "http://www.w3.org/2005/Atom";
const ENTRY_TYPE = "application/atom+xml;type=entry;charset=UTF-8";
const COLLECTION = "/notes/";

interface Version {
  /** The entry as it was sent, its links left out. */
  xml: string;
  /** Milliseconds, whole seconds. */
  modified: number;
}

interface Note {
  current: Version;
  snapshots: Version[];
  /** Updates and deletes of the note take their turn one after another. */
  turn: Promise<unknown>;
  /** Counts versions, for the ETag. */
  serial: number;
}

const wholeSecond = (ms: number) => ms - (ms % 1000);

export async function startCarefulServer(rules: CarefulRules): Promise<CarefulServer> {
  const notes = new Map<string, Note>();
  const gone = new Set<string>();
  let base = "";

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, "the server failed");
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = new URL(request.url ?? "/", base).pathname;
    const match = /^\/notes\/([A-Za-z0-9._~-]+)(?:\/s(\d+))?$/.exec(path);
    if (!match) return reply(response, 404, "no such note");
    const [, name, snapshot] = match;
    const note = notes.get(name);
    if (request.method === "GET") {
      if (!note) return reply(response, gone.has(name) ? 410 : 404, "no such note");
      const n = snapshot === undefined ? undefined : Number(snapshot);
      if (rules.replaysDifferences && n !== undefined && n >= 1 && n <= note.snapshots.length)
        await sleep((note.snapshots.length - n + 1) * DIFFERENCE_READ_MS);
      return serve(response, name, note, n);
    }
    if (snapshot !== undefined) return reply(response, 405, "snapshots are read-only", { allow: "GET" });
    if (request.method === "DELETE") {
      if (!note) return reply(response, gone.has(name) ? 410 : 404, "no such note");
      await inTurn(note, async () => {
        notes.delete(name);
        gone.add(name);
      });
      return void response.writeHead(rules.dates === "waits" ? 204 : 200, dated(Date.now())).end();
    }
    if (request.method !== "PUT") return reply(response, 405, "GET, PUT or DELETE", { allow: "GET, PUT, DELETE" });
    if (!isEntryType(request.headers["content-type"])) return reply(response, 415, `send ${ENTRY_TYPE}`);
    const entry = checkedEntry(body);
    if (typeof entry !== "string") return reply(response, 400, entry.problem);
    if (request.headers["if-none-match"] === "*") {
      if (note) return reply(response, 412, "the note exists");
      const now = Date.now();
      notes.set(name, {
        current: { xml: entry, modified: wholeSecond(now) },
        snapshots: [],
        turn: Promise.resolve(),
        serial: 1,
      });
      gone.delete(name);
      return void response.writeHead(201, { ...dated(now), location: `${base}${COLLECTION}${name}` }).end();
    }
    if (!note) return reply(response, 404, "no such note: create it with If-None-Match: *");
    const since = Date.parse(request.headers["if-unmodified-since"] ?? "");
    const ifMatch = rules.dates === "dates ahead" ? request.headers["if-match"] : undefined;
    if (ifMatch === undefined && Number.isNaN(since)) {
      return reply(response, 428, "send If-Unmodified-Since with the Last-Modified you read");
    }
    const fresh = () =>
      ifMatch === undefined
        ? note.current.modified <= since
        : ifMatch.split(",").some((tag) => [etagOf(note), "*"].includes(tag.trim()));
    if (rules.checkBeforeWait) {
      // The fault: checked, then the wait, outside the turn; updates that came together all pass.
      if (!fresh()) return reply(response, 412, "the note changed since you read it");
      await untilPast(note.current.modified);
    }
    const updated = await inTurn(note, async () => {
      if (notes.get(name) !== note) return false;
      if (!rules.checkBeforeWait) {
        if (!fresh()) return false;
        if (rules.dates === "waits") await untilPast(note.current.modified);
      }
      const modified =
        rules.dates === "waits"
          ? wholeSecond(Date.now())
          : Math.max(wholeSecond(Date.now()), note.current.modified + 1000);
      note.snapshots.push(note.current);
      note.current = { xml: entry, modified };
      note.serial++;
      return true;
    });
    if (!updated) return reply(response, 412, "the note changed since you read it");
    response.writeHead(204, dated(Date.now())).end();
  }

  function serve(response: ServerResponse, name: string, note: Note, n: number | undefined): void {
    const count = note.snapshots.length;
    if (n !== undefined && (n < 1 || n > count)) {
      reply(response, 404, "no such snapshot");
      return;
    }
    const self = `${base}${COLLECTION}${name}`;
    const at = (k: number) => `${self}/s${k}`;
    const version = n === undefined ? note.current : (note.snapshots[n - 1] as Version);
    const links =
      n === undefined
        ? { self, previous: count > 0 ? at(count) : undefined }
        : { self: at(n), previous: n > 1 ? at(n - 1) : undefined, next: n < count ? at(n + 1) : self };
    const headers: Record<string, string> = {
      ...dated(Date.now()),
      "content-type": ENTRY_TYPE,
      "last-modified": new Date(version.modified).toUTCString(),
    };
    if (rules.dates === "dates ahead" && n === undefined) headers.etag = etagOf(note);
    response.writeHead(200, headers).end(withLinks(version.xml, links));
  }

  function etagOf(note: Note): string {
    return `"note-${note.serial}"`;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resolved = resolveDescription([{ baseUrl: base, snapshots: { collection: COLLECTION } }]);
  if (!resolved.ok) throw new Error(resolved.error);
  return {
    description: resolved.value,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Runs `task` once the note's earlier updates and deletes are done. */
function inTurn<T>(note: Note, task: () => Promise<T>): Promise<T> {
  const done = note.turn.then(task);
  note.turn = done.catch(() => undefined);
  return done;
}

/** Resolves once the clock is in a later second than `modified`. */
async function untilPast(modified: number): Promise<void> {
  while (wholeSecond(Date.now()) <= modified) {
    await new Promise((resolve) => setTimeout(resolve, modified + 1000 - Date.now() + 1));
  }
}

/** Date from the same clock the versions are dated by, not Node's cached one. */
function dated(now: number): Record<string, string> {
  return { date: new Date(now).toUTCString() };
}

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const escaped = message.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  response
    .writeHead(status, { ...dated(Date.now()), "content-type": "application/xml;charset=UTF-8", ...headers })
    .end(`<?xml version="1.0" encoding="UTF-8"?><error><message>${escaped}</message></error>`);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function isEntryType(value: string | undefined): boolean {
  const [type, ...parameters] = (value ?? "")
    .toLowerCase()
    .split(";")
    .map((part) => part.trim());
  return type === "application/atom+xml" && parameters.includes("type=entry");
}

const parser = new XMLParser({ ignoreAttributes: false, processEntities: false });
const PREDEFINED = /^(lt|gt|amp|apos|quot|#\d+|#x[0-9a-f]+)$/i;

/** The entry as sent, where it is an Atom entry with author name, title, id and content. */
function checkedEntry(body: string): string | { problem: string } {
  // An entry needs no DTD; one that brings its own is not read at all.
  if (/<!DOCTYPE/i.test(body)) return { problem: "a document type declaration is not accepted" };
  if (XMLValidator.validate(body) !== true) return { problem: "not well-formed XML" };
  const references = [...body.matchAll(/&([^;\s<&]*);/g)].map((m) => m[1] as string);
  if (references.some((name) => !PREDEFINED.test(name))) return { problem: "an entity that is not declared" };
  const document = parser.parse(body) as Record<string, unknown>;
  const roots = Object.keys(document).filter((key) => !key.startsWith("?"));
  const [root] = roots;
  if (roots.length !== 1 || root === undefined) return { problem: "not one root element" };
  const [prefix, local] = root.includes(":") ? root.split(":") : [undefined, root];
  const element = document[root] as Record<string, unknown>;
  const namespace = element[prefix === undefined ? "@_xmlns" : `@_xmlns:${prefix}`];
  if (local !== "entry" || namespace !== ATOM_NS) return { problem: "not an Atom entry" };
  const child = (name: string) => element[prefix === undefined ? name : `${prefix}:${name}`];
  const author = child("author") as Record<string, unknown> | undefined;
  const authorName = author?.[prefix === undefined ? "name" : `${prefix}:name`];
  const missing = ["title", "id", "content"].filter((name) => child(name) === undefined);
  if (authorName === undefined) missing.unshift("author/name");
  if (missing.length > 0) return { problem: `the entry has no ${missing.join(", ")}` };
  return body;
}

/** The entry with its own links taken out and the server's put in, in the entry's prefix. */
function withLinks(xml: string, links: Record<string, string | undefined>): string {
  const root = /<((?:[\w.-]+:)?)entry[\s>]/.exec(xml);
  const prefix = root?.[1] ?? "";
  const own = new RegExp(`<${prefix}link\\b[^>]*?(?:/>|>[\\s\\S]*?</${prefix}link>)`, "g");
  const added = Object.entries(links)
    .filter(([, href]) => href !== undefined)
    .map(([rel, href]) => `<${prefix}link rel="${rel}" href="${href}"/>`)
    .join("");
  const closing = `</${prefix}entry>`;
  const kept = xml.replace(own, "");
  const end = kept.lastIndexOf(closing);
  return `${kept.slice(0, end)}${added}${kept.slice(end)}`;
}
