/**
 * Snapshot-enabled resources over HTTP: `/entries/<name>` holds the latest version, every
 * update first keeps the state before it as `/entries/<name>/s<n>`, DELETE removes them all.
 *
 * No lost update within one second. HTTP dates have one-second resolution, and a reply never
 * shows a Last-Modified later than now (RFC 9110 §8.8.2.1), so replies send
 * `min(stored, floor(now))`. Each new version stores a date later than any date a client can
 * have been shown for an earlier one: `max(floor(now), min(previous, floor(now)) + 1 s)`, and
 * If-Unmodified-Since is compared with the stored date. So a client that read version k in the
 * second that k + 1 was written gets 412; one that re-reads after the second has passed gets
 * the new date and may update. Stored dates run at most one second ahead, however many updates
 * come in a burst. If-Match with the strong ETag has no such delay.
 *
 * @example
 *   const routes = [snapshotRoutes(context)];
 *   await dispatch(routes, request); // in tests, no socket needed
 */
import { randomBytes } from "node:crypto";
import { formatHttpDate, toWholeSeconds } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE, parseMediaType, XML_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ReferenceContext } from "../context.ts";
import type { FaultName } from "../faults.ts";
import {
  decodeUtf8,
  HttpError,
  header,
  methodNotAllowed,
  type Reply,
  type Route,
  type ServerRequest,
} from "../http/reply.ts";
import { type Entry, type EntryLinks, parseEntry, serialiseEntry } from "./entry.ts";
import { evaluatePreconditions, type Verdict } from "./preconditions.ts";
import {
  currentVersion,
  MemorySnapshotStore,
  type SnapshotStore,
  type StoredResource,
  snapshotCount,
  snapshotVersion,
  type Version,
} from "./store.ts";

/** Where the resources live; the target description's default says the same. */
export const COLLECTION = "/entries/";

export interface SnapshotOptions {
  store?: SnapshotStore;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
}

interface Address {
  /** The resource path, e.g. `/entries/abc`: the store key. */
  resource: string;
  /** The snapshot number n of `/s<n>`; absent for the current resource. */
  snapshot?: number;
}

const RESOURCE_METHODS = ["GET", "HEAD", "PUT", "DELETE"];
const SNAPSHOT_METHODS = ["GET", "HEAD"];
const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;

export function snapshotRoutes(context: ReferenceContext, options: SnapshotOptions = {}): Route {
  const store = options.store ?? new MemorySnapshotStore(context.storage);
  const now = options.now ?? Date.now;
  const fault = (name: FaultName) => context.faults.has(name);
  const alternative = context.variant === "alternative";
  // Only under snap-delete-keeps-snapshots: what DELETE should have removed, still served.
  const leftovers = new Map<string, StoredResource>();

  /** Snapshot numbers as they appear in addresses; a fault makes them skip. */
  const addressNumber = (n: number) => (fault("snap-numbering-skips") ? 2 * n : n);
  const storeNumber = (m: number) => (fault("snap-numbering-skips") ? (m % 2 === 0 ? m / 2 : 0) : m);

  const parseAddress = (path: string): Address | undefined => {
    if (!path.startsWith(COLLECTION)) return undefined;
    const [name, suffix, ...rest] = path.slice(COLLECTION.length).split("/");
    if (!name || !SEGMENT.test(name) || name === "." || name === ".." || rest.length > 0) return undefined;
    const resource = COLLECTION + name;
    if (suffix === undefined) return { resource };
    const m = /^s([1-9]\d{0,8})$/.exec(suffix);
    return m ? { resource, snapshot: storeNumber(Number(m[1])) } : undefined;
  };

  const served = (stored: number, at: number) => Math.min(stored, toWholeSeconds(at));

  const links = (address: Address, count: number): EntryLinks => {
    const absolute = (path: string, relative: boolean) => (relative ? path : context.urls.base + path);
    const current = address.resource;
    const snapshot = (n: number) => `${current}/s${addressNumber(n)}`;
    const n = address.snapshot;
    if (n === undefined) {
      const newest = fault("snap-previous-to-oldest") ? 1 : count;
      return {
        self: absolute(current, false),
        previous: count > 0 ? absolute(snapshot(newest), fault("snap-relative-previous")) : undefined,
      };
    }
    const relative = fault("snap-snapshot-relative-links");
    const before = n >= 3 && fault("snap-previous-skips") ? 1 : n - 1;
    // The spec leaves open whether s1 links to anything before it; the variants differ.
    const previous = n > 1 ? snapshot(before) : alternative ? snapshot(1) : undefined;
    const next = n < count ? snapshot(n + 1) : current;
    return {
      self: absolute(snapshot(n), relative),
      previous: previous === undefined ? undefined : absolute(previous, relative),
      next: fault("snap-snapshot-no-next") ? undefined : absolute(next, relative),
    };
  };

  const notFound = (address: Address): HttpError => {
    const removed = store.removedVersions(address.resource);
    const existed = removed !== undefined && (address.snapshot === undefined || address.snapshot < removed);
    return alternative && existed
      ? new HttpError(410, `${address.resource} was deleted with all its snapshots`)
      : new HttpError(404, `no resource at ${address.resource}${address.snapshot ? ` with that snapshot` : ""}`);
  };

  const read = (address: Address): Reply => {
    // One reading of the clock for Date and Last-Modified: node's own Date, cached, can lag a second behind.
    const at = now();
    const date = formatHttpDate(new Date(at));
    const stored = store.get(address.resource) ?? leftovers.get(address.resource);
    if (!stored || (address.snapshot === undefined && !store.get(address.resource))) throw notFound(address);
    const count = snapshotCount(stored);
    if (address.snapshot !== undefined) {
      const version = snapshotVersion(stored, address.snapshot);
      if (!version) throw notFound(address);
      return {
        status: 200,
        headers: {
          "content-type": ATOM_ENTRY_TYPE,
          etag: `"${stored.incarnation}-s${address.snapshot}-${count}"`,
          date,
          "last-modified": formatHttpDate(new Date(served(version.lastModified, at))),
        },
        body: serialiseEntry(
          snapshotEntry(version.entry, address.snapshot, stored.versions[address.snapshot].entry),
          links(address, count),
          new Date(version.lastModified),
        ),
      };
    }
    const version = currentVersion(stored);
    const shown = fault("snap-current-stale") && count > 0 ? stored.versions[count - 1] : version;
    const headers: Record<string, string> = {
      "content-type": fault("snap-current-wrong-type") ? XML_TYPE : ATOM_ENTRY_TYPE,
      etag: version.etag,
      date,
    };
    if (fault("snap-future-last-modified")) headers["last-modified"] = "Fri, 31 Dec 9999 23:59:59 GMT";
    else if (!fault("snap-no-last-modified"))
      headers["last-modified"] = formatHttpDate(new Date(served(version.lastModified, at)));
    return {
      status: 200,
      headers,
      body: serialiseEntry(shown.entry, links(address, count), new Date(version.lastModified)),
    };
  };

  const snapshotEntry = (entry: Entry, n: number, next: Entry): Entry => {
    let shown = entry;
    if (fault("snap-id-changes")) shown = { ...shown, id: `${entry.id}/s${n}` };
    if (fault("snap-partial-snapshot")) shown = { ...shown, authorName: "", content: { ...shown.content, text: "" } };
    if (fault("snap-as-diff")) {
      const kept = (field: string, nextField: string) => (field === nextField ? "" : field);
      shown = {
        ...shown,
        authorName: kept(shown.authorName, next.authorName),
        title: kept(shown.title, next.title),
        content: { ...shown.content, text: kept(shown.content.text, next.content.text) },
      };
    }
    return shown;
  };

  const put = async (request: ServerRequest, address: Address): Promise<Reply> => {
    if (!fault("snap-any-content-type")) checkContentType(header(request, "content-type"));
    const body = await request.body();
    // Everything below runs without awaiting, so no other request can interleave.
    const stored = store.get(address.resource);
    const current = stored && currentVersion(stored);
    const verdict = evaluatePreconditions(conditionsOf(request), current, {
      ignoreUnmodifiedSince: fault("snap-stale-accepted"),
    });
    if (!verdict.pass) throw preconditionFailed(verdict.failed);
    if (!current && !verdict.expectsAbsent) {
      throw new HttpError(428, `nothing at ${address.resource}; to create it, send If-None-Match: *`);
    }
    if (current && !verdict.knowsCurrent && !fault("snap-no-428")) {
      throw new HttpError(428, "an update needs If-Unmodified-Since (the Last-Modified last read) or If-Match");
    }
    const text = decodeUtf8(body);
    const parsed = text === undefined ? { ok: false as const, error: "the body is not UTF-8" } : parseEntry(text);
    if (!parsed.ok) {
      if (fault("snap-500-on-bad-body")) return { status: 500, body: "" };
      throw new HttpError(400, `the body is not a usable Atom entry: ${parsed.error}`);
    }
    const entry = parsed.entry;
    const wholeSecond = toWholeSeconds(now());
    if (!stored || !current) {
      const incarnation = randomBytes(6).toString("base64url");
      const first: Version = { entry, lastModified: wholeSecond, etag: `"${incarnation}-1"` };
      refuseBeyondLimits(store, address.resource, first);
      store.create(address.resource, incarnation, first);
      const location = context.urls.base + address.resource;
      return fault("snap-create-200") ? { status: 200, body: "" } : { status: 201, headers: { location }, body: "" };
    }
    if (entry.id !== current.entry.id) {
      throw new HttpError(409, `the entry id is ${current.entry.id}; a revision keeps it (RFC 4287 §4.2.6)`);
    }
    const next: Version = {
      entry,
      lastModified: fault("snap-last-modified-frozen")
        ? current.lastModified
        : Math.max(wholeSecond, Math.min(current.lastModified, wholeSecond) + 1000),
      etag: `"${stored.incarnation}-${stored.versions.length + 1}"`,
    };
    refuseBeyondLimits(store, address.resource, next);
    store.append(address.resource, next);
    if (fault("snap-update-200")) return read(address);
    // No validators here: the stored representation adds links, so it differs from what was sent (RFC 9110 §9.3.4).
    return { status: 204 };
  };

  const preconditionFailed = (failed: Extract<Verdict, { pass: false }>["failed"]): HttpError => {
    if (failed === "If-Unmodified-Since" && alternative) {
      return new HttpError(409, "the resource was modified after the If-Unmodified-Since date; read it again");
    }
    return new HttpError(412, `the ${failed} precondition does not hold for the current version; read it again`);
  };

  const remove = (request: ServerRequest, address: Address): Reply => {
    const stored = store.get(address.resource);
    if (!stored) throw notFound(address);
    const verdict = evaluatePreconditions(conditionsOf(request), currentVersion(stored));
    if (!verdict.pass) throw preconditionFailed(verdict.failed);
    store.remove(address.resource);
    if (fault("snap-delete-keeps-snapshots")) leftovers.set(address.resource, stored);
    if (!alternative) return { status: 204 };
    const message = `removed ${address.resource} and its ${snapshotCount(stored)} snapshots`;
    return {
      status: 200,
      headers: { "content-type": XML_TYPE },
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<deleted><message>${escapeXml(message)}</message></deleted>\n`,
    };
  };

  return async (request) => {
    const address = parseAddress(request.path);
    if (!address) return undefined;
    if (address.snapshot !== undefined) {
      if (!SNAPSHOT_METHODS.includes(request.method)) throw methodNotAllowed(SNAPSHOT_METHODS);
      return read(address);
    }
    switch (request.method) {
      case "GET":
      case "HEAD":
        return read(address);
      case "PUT":
        return put(request, address);
      case "DELETE":
        return remove(request, address);
      default:
        throw methodNotAllowed(RESOURCE_METHODS);
    }
  };
}

function refuseBeyondLimits(store: SnapshotStore, resource: string, version: Version): void {
  const refusal = store.refusal(resource, version);
  if (refusal !== undefined) throw new HttpError(507, refusal);
}

function conditionsOf(request: ServerRequest) {
  return {
    ifMatch: header(request, "if-match"),
    ifNoneMatch: header(request, "if-none-match"),
    ifUnmodifiedSince: header(request, "if-unmodified-since"),
  };
}

/** The entry type, or plain application/atom+xml; a charset other than UTF-8 is refused. */
function checkContentType(value: string | undefined): void {
  const type = parseMediaType(value);
  const fits =
    type !== undefined &&
    type.type === "application" &&
    type.subtype === "atom+xml" &&
    (type.parameters.get("type") ?? "entry").toLowerCase() === "entry" &&
    ["utf-8", undefined].includes(type.parameters.get("charset"));
  if (!fits) {
    throw new HttpError(415, `send the entry as ${ATOM_ENTRY_TYPE}, not ${value ?? "without a Content-Type"}`, {
      accept: ATOM_ENTRY_TYPE,
    });
  }
}
