/**
 * Where snapshot-enabled resources live. A resource is the list of its versions: version 1
 * is what the creating PUT stored, and snapshot s<n> is version n, so serving any snapshot is
 * an index into an array, never a walk along the chain. The current state is the last version.
 *
 * The interface is what the HTTP handler needs; the in-memory store is the bundled one. It
 * holds everything in the process's memory (a restart loses it all) and so has limits: total
 * bytes, resources, snapshots per resource. A write past a limit is refused before anything
 * of it is stored.
 */
import type { Entry } from "./entry.ts";

export interface StorageLimits {
  /** Bytes of entry text (UTF-8) plus a fixed overhead per version, across all resources. */
  maxBytes: number;
  maxResources: number;
  /** Snapshots one resource may keep; the update that would add one more is refused. */
  maxSnapshots: number;
}

export const DEFAULT_STORAGE_LIMITS: StorageLimits = {
  maxBytes: 256 * 1024 * 1024,
  maxResources: 100_000,
  maxSnapshots: 10_000,
};

/** What a version costs beyond its text: objects, the ETag, the date (measured, rounded up). */
const VERSION_OVERHEAD_BYTES = 512;

export interface Version {
  entry: Entry;
  /** Milliseconds, whole seconds, strictly greater than the previous version's (see routes.ts). */
  lastModified: number;
  /** Strong entity tag, quoted, unique for this incarnation and version. */
  etag: string;
}

export interface StoredResource {
  /** Tells a resource apart from an earlier one deleted at the same address. */
  readonly incarnation: string;
  /** versions[k - 1] is version k; the last one is current, each earlier one is snapshot s<k>. */
  readonly versions: readonly Version[];
}

export interface SnapshotStore {
  get(resource: string): StoredResource | undefined;
  create(resource: string, incarnation: string, first: Version): void;
  append(resource: string, next: Version): void;
  /** Removes the resource with every snapshot; returns what was removed. */
  remove(resource: string): StoredResource | undefined;
  /** How many versions a deleted resource had, for servers that answer 410 Gone afterwards. */
  removedVersions(resource: string): number | undefined;
  /** Why storing `version` at `resource` (a new resource or one more version) would pass a limit; undefined if it fits. */
  refusal(resource: string, version: Version): string | undefined;
}

function versionBytes(version: Version): number {
  const { entry } = version;
  const texts = [entry.id, entry.title, entry.authorName, entry.content.text, entry.content.type, entry.content.lang];
  return texts.reduce((sum, text) => sum + (text === undefined ? 0 : Buffer.byteLength(text)), VERSION_OVERHEAD_BYTES);
}

export function currentVersion(resource: StoredResource): Version {
  return resource.versions[resource.versions.length - 1];
}

export function snapshotCount(resource: StoredResource): number {
  return resource.versions.length - 1;
}

/** Snapshot s<n>, or undefined when there is none with that number. */
export function snapshotVersion(resource: StoredResource, n: number): Version | undefined {
  return Number.isInteger(n) && n >= 1 && n <= snapshotCount(resource) ? resource.versions[n - 1] : undefined;
}

export class MemorySnapshotStore implements SnapshotStore {
  private readonly resources = new Map<string, { incarnation: string; versions: Version[]; bytes: number }>();
  // Only the count per address is kept, and only for as many addresses as resources may exist.
  private readonly removed = new Map<string, number>();
  private bytes = 0;

  constructor(readonly limits: StorageLimits = DEFAULT_STORAGE_LIMITS) {}

  get(resource: string): StoredResource | undefined {
    return this.resources.get(resource);
  }

  refusal(resource: string, version: Version): string | undefined {
    const stored = this.resources.get(resource);
    if (!stored && this.resources.size >= this.limits.maxResources) {
      return `this server holds its limit of ${this.limits.maxResources} resources; delete one first`;
    }
    if (stored && stored.versions.length > this.limits.maxSnapshots) {
      return `${resource} has its limit of ${this.limits.maxSnapshots} snapshots; delete it to start again`;
    }
    if (this.bytes + versionBytes(version) > this.limits.maxBytes) {
      return `this server's storage limit of ${this.limits.maxBytes} bytes would be passed; delete something first`;
    }
    return undefined;
  }

  create(resource: string, incarnation: string, first: Version): void {
    this.removed.delete(resource);
    const bytes = versionBytes(first);
    this.bytes += bytes;
    this.resources.set(resource, { incarnation, versions: [first], bytes });
  }

  append(resource: string, next: Version): void {
    const stored = this.resources.get(resource);
    if (!stored) throw new Error(`append to a missing resource ${resource}`);
    const bytes = versionBytes(next);
    stored.versions.push(next);
    stored.bytes += bytes;
    this.bytes += bytes;
  }

  remove(resource: string): StoredResource | undefined {
    const stored = this.resources.get(resource);
    if (!stored) return undefined;
    this.resources.delete(resource);
    this.bytes -= stored.bytes;
    this.removed.set(resource, stored.versions.length);
    if (this.removed.size > this.limits.maxResources) this.removed.delete(this.removed.keys().next().value as string);
    return stored;
  }

  removedVersions(resource: string): number | undefined {
    return this.removed.get(resource);
  }
}
