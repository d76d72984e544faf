/**
 * Where snapshot-enabled resources live. A resource is the list of its versions: version 1
 * is what the creating PUT stored, and snapshot s<n> is version n, so serving any snapshot is
 * an index into an array, never a walk along the chain. The current state is the last version.
 *
 * The interface is what the HTTP handler needs; the in-memory store is the bundled one.
 */
import type { Entry } from "./entry.ts";

export interface Version {
  entry: Entry;
  /** Milliseconds, whole seconds, strictly greater than the previous version's (see index.ts). */
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
  private readonly resources = new Map<string, { incarnation: string; versions: Version[] }>();
  // Only the count per address is kept, so deleting many resources costs little memory.
  private readonly removed = new Map<string, number>();

  get(resource: string): StoredResource | undefined {
    return this.resources.get(resource);
  }

  create(resource: string, incarnation: string, first: Version): void {
    this.removed.delete(resource);
    this.resources.set(resource, { incarnation, versions: [first] });
  }

  append(resource: string, next: Version): void {
    const stored = this.resources.get(resource);
    if (!stored) throw new Error(`append to a missing resource ${resource}`);
    stored.versions.push(next);
  }

  remove(resource: string): StoredResource | undefined {
    const stored = this.resources.get(resource);
    if (!stored) return undefined;
    this.resources.delete(resource);
    this.removed.set(resource, stored.versions.length);
    return stored;
  }

  removedVersions(resource: string): number | undefined {
    return this.removed.get(resource);
  }
}
