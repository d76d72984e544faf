/**
 * Snapshot-enabled resources over HTTP: `/entries/<name>` holds the latest version, every
 * update first keeps the state before it as `/entries/<name>/s<n>`, DELETE removes them all.
 * The chain's addresses, links and dates (and why no update is lost within one second) are
 * in chain.ts; where a fault mode bends a rule, the handler asks the policy (faults.ts), and
 * where the spec leaves a choice open, the variant's choices (choices.ts).
 *
 * @example
 *   const routes = [snapshotRoutes(context)];
 *   await dispatch(routes, request); // in tests, no socket needed
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { formatHttpDate, toWholeSeconds } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE, parseMediaType, XML_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ReferenceContext } from "../context.ts";
import {
  decodeUtf8,
  HttpError,
  header,
  methodNotAllowed,
  type Reply,
  type Route,
  type ServerRequest,
} from "../http/reply.ts";
import {
  type Address,
  type ChainShape,
  chainLinks,
  nextLastModified,
  parseAddress,
  servedLastModified,
} from "./chain.ts";
import { snapshotChoices } from "./choices.ts";
import { expandedEntities } from "./entity-expander.ts";
import { parseEntry, serialiseEntry } from "./entry.ts";
import { snapshotPolicy } from "./faults.ts";
import { walkHistory } from "./history-walk.ts";
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

export interface SnapshotOptions {
  store?: SnapshotStore;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
}

const RESOURCE_METHODS = ["GET", "HEAD", "PUT", "DELETE"];
const SNAPSHOT_METHODS = ["GET", "HEAD"];
/** The date a fault mode serves as the current resource's Last-Modified. */
const YEAR_9999 = "Fri, 31 Dec 9999 23:59:59 GMT";

/**
 * A fault mode's deferred write: an update that passed its check waits until no update of the
 * same resource has passed one for `ms`. Updates sent at once then all pass against the same
 * version however slowly a busy process takes them in, as long as each comes within `ms` of the
 * one before; before it writes, the requests already received take their turn.
 */
function heldUntilQuiet(ms: number): (resource: string) => Promise<void> {
  const lastChecked = new Map<string, number>();
  const quietAt = (resource: string) => (lastChecked.get(resource) ?? 0) + ms;
  return async (resource) => {
    lastChecked.set(resource, Date.now());
    for (;;) {
      const left = quietAt(resource) - Date.now();
      if (left > 0) await sleep(left);
      else {
        await new Promise((done) => setImmediate(done));
        if (quietAt(resource) <= Date.now()) return;
      }
    }
  };
}

export function snapshotRoutes(context: ReferenceContext, options: SnapshotOptions = {}): Route {
  const store = options.store ?? new MemorySnapshotStore(context.storage);
  const now = options.now ?? Date.now;
  const policy = snapshotPolicy(context.faults);
  const choices = snapshotChoices(context);
  const chain: ChainShape = { ...policy.chain, oldestPrevious: choices.oldestPrevious };
  // Only where the policy keeps snapshots after DELETE: what it should have removed, still served.
  const leftovers = new Map<string, StoredResource>();
  const links = (address: Address, count: number) => chainLinks(context.urls.base, address, count, chain);
  const shownDate = (stored: number, at: number) =>
    formatHttpDate(new Date(policy.showsDatesAhead ? stored : servedLastModified(stored, at)));
  const deferredWrite = heldUntilQuiet(policy.writeDelayMs);

  const notFound = (address: Address): HttpError => {
    const removed = store.removedVersions(address.resource);
    const existed = removed !== undefined && (address.snapshot === undefined || address.snapshot < removed);
    return existed && choices.deletedStatus === 410
      ? new HttpError(410, `${address.resource} was deleted with all its snapshots`)
      : new HttpError(404, `no resource at ${address.resource}${address.snapshot ? ` with that snapshot` : ""}`);
  };

  const readSnapshot = async (address: Address, n: number): Promise<Reply> => {
    // One reading of the clock for Date and Last-Modified: node's own Date, cached, can lag a second behind.
    const at = now();
    const stored = store.get(address.resource) ?? leftovers.get(address.resource);
    const version = stored && snapshotVersion(stored, n);
    if (!stored || !version) throw notFound(address);
    const count = snapshotCount(stored);
    if (policy.walksHistory.reading) await walkHistory(stored.versions, n - 1, count + 1);
    return {
      status: 200,
      headers: {
        "content-type": ATOM_ENTRY_TYPE,
        etag: `"${stored.incarnation}-s${n}-${count}"`,
        date: formatHttpDate(new Date(at)),
        "last-modified": shownDate(version.lastModified, at),
      },
      body: serialiseEntry(
        policy.shownSnapshot(version.entry, n, stored.versions[n].entry),
        links(address, count),
        new Date(version.lastModified),
      ),
    };
  };

  const readCurrent = (address: Address): Reply => {
    const at = now();
    const stored = store.get(address.resource);
    if (!stored) throw notFound(address);
    const count = snapshotCount(stored);
    const version = currentVersion(stored);
    const shown = policy.servesContentBeforeUpdate && count > 0 ? stored.versions[count - 1] : version;
    const headers: Record<string, string> = {
      "content-type": policy.currentType,
      etag: version.etag,
      date: formatHttpDate(new Date(at)),
    };
    if (policy.currentLastModified === "served") headers["last-modified"] = shownDate(version.lastModified, at);
    if (policy.currentLastModified === "year-9999") headers["last-modified"] = YEAR_9999;
    return {
      status: 200,
      headers,
      body: serialiseEntry(shown.entry, links(address, count), new Date(version.lastModified)),
    };
  };

  const read = (address: Address): Reply | Promise<Reply> =>
    address.snapshot === undefined ? readCurrent(address) : readSnapshot(address, address.snapshot);

  const put = async (request: ServerRequest, address: Address): Promise<Reply> => {
    if (policy.checksContentType) checkContentType(header(request, "content-type"));
    const sent = decodeUtf8(await request.body());
    const text = sent !== undefined && policy.expandsEntities ? await expandedEntities(sent) : sent;
    // A fault mode copies the history before the update is checked: the checks below run without awaiting.
    const copied = policy.walksHistory.updating ? store.get(address.resource) : undefined;
    if (copied) await walkHistory(copied.versions, 0, copied.versions.length);
    // Everything below runs without awaiting (but for a fault mode's), so no other request can interleave.
    const stored = store.get(address.resource);
    const current = stored && currentVersion(stored);
    const verdict = evaluatePreconditions(conditionsOf(request), current, {
      ignoreUnmodifiedSince: !policy.checksUnmodifiedSince,
    });
    if (!verdict.pass) throw preconditionFailed(verdict.failed);
    if (!current && !verdict.expectsAbsent) {
      throw new HttpError(428, `nothing at ${address.resource}; to create it, send If-None-Match: *`);
    }
    if (current && !verdict.knowsCurrent && policy.requiresPreconditionToUpdate) {
      throw new HttpError(428, "an update needs If-Unmodified-Since (the Last-Modified last read) or If-Match");
    }
    const parsed = text === undefined ? { ok: false as const, error: "the body is not UTF-8" } : parseEntry(text);
    if (!parsed.ok) {
      if (policy.crashesOnBadBody) return { status: 500, body: "" };
      throw new HttpError(400, `the body is not a usable Atom entry: ${parsed.error}`);
    }
    const entry = parsed.entry;
    if (!stored || !current) {
      const incarnation = randomBytes(6).toString("base64url");
      const first: Version = { entry, lastModified: toWholeSeconds(now()), etag: `"${incarnation}-1"` };
      refuseBeyondLimits(store, address.resource, first);
      store.create(address.resource, incarnation, first);
      const location = context.urls.base + address.resource;
      return policy.createdStatus === 201
        ? { status: 201, headers: { location }, body: "" }
        : { status: policy.createdStatus, body: "" };
    }
    if (entry.id !== current.entry.id) {
      throw new HttpError(409, `the entry id is ${current.entry.id}; a revision keeps it (RFC 4287 §4.2.6)`);
    }
    // Only a fault mode waits here: other updates then pass their check against the same version.
    if (policy.writeDelayMs > 0) await deferredWrite(address.resource);
    const written = store.get(address.resource);
    if (!written) throw notFound(address);
    const before = currentVersion(written);
    const lastModified = {
      "moved-on": () => nextLastModified(before.lastModified, now()),
      "second-after": () => Math.max(toWholeSeconds(now()), before.lastModified + 1000),
      kept: () => before.lastModified,
      clock: () => toWholeSeconds(now()),
    }[policy.updatedLastModified]();
    const next: Version = { entry, lastModified, etag: `"${written.incarnation}-${written.versions.length + 1}"` };
    refuseBeyondLimits(store, address.resource, next);
    store.append(address.resource, next);
    if (policy.updateAnswersWithEntry) return readCurrent(address);
    // No validators here: the stored representation adds links, so it differs from what was sent (RFC 9110 §9.3.4).
    return { status: 204 };
  };

  // A fault mode copies the current state into a snapshot before the checks (preconditions, body,
  // id): their refusal (412, 428, 400, 409) leaves it there.
  const putLeavingSnapshots = (request: ServerRequest, address: Address): Promise<Reply> =>
    put(request, address).catch((error: unknown) => {
      const stored = store.get(address.resource);
      const copy = stored && {
        ...currentVersion(stored),
        etag: `"${stored.incarnation}-${stored.versions.length + 1}"`,
      };
      if (copy && error instanceof HttpError && [412, 428, 400, 409].includes(error.status))
        store.append(address.resource, copy);
      throw error;
    });

  const preconditionFailed = (failed: Extract<Verdict, { pass: false }>["failed"]): HttpError => {
    if (failed === "If-Unmodified-Since" && choices.modifiedSinceStatus === 409) {
      return new HttpError(409, "the resource was modified after the If-Unmodified-Since date; read it again");
    }
    return new HttpError(412, `the ${failed} precondition does not hold for the current version; read it again`);
  };

  const remove = async (request: ServerRequest, address: Address): Promise<Reply> => {
    // A fault mode walks the snapshots first: the checks and the removal below run without awaiting.
    const walked = policy.walksHistory.deleting ? store.get(address.resource) : undefined;
    if (walked) await walkHistory(walked.versions, 0, walked.versions.length);
    const stored = store.get(address.resource);
    if (!stored) throw notFound(address);
    const verdict = evaluatePreconditions(conditionsOf(request), currentVersion(stored));
    if (!verdict.pass) throw preconditionFailed(verdict.failed);
    store.remove(address.resource);
    if (policy.keepsSnapshotsAfterDelete) leftovers.set(address.resource, stored);
    if (choices.deleteReply === "no-content") return { status: 204 };
    const message = `removed ${address.resource} and its ${snapshotCount(stored)} snapshots`;
    return {
      status: 200,
      headers: { "content-type": XML_TYPE },
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<deleted><message>${escapeXml(message)}</message></deleted>\n`,
    };
  };

  // Not async: a path that is not a resource's, and a read, are answered at once.
  return (request) => {
    const address = parseAddress(request.path, chain);
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
        return policy.snapshotsBeforeChecking ? putLeavingSnapshots(request, address) : put(request, address);
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
