/**
 * The snapshot chain, pure: where a resource's snapshots live (`/entries/<name>/s<n>`), how
 * each links to the one before and after it, and which Last-Modified a version stores and
 * shows. No store, no HTTP: numbers and paths in, links and dates out.
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
 *   const shape = { ...STANDARD_CHAIN, oldestPrevious: "none" } as const;
 *   chainLinks("http://host", { resource: "/entries/a", snapshot: 1 }, 2, shape);
 *   // self …/entries/a/s1, next …/entries/a/s2, no previous
 */
import { toWholeSeconds } from "../../lib/http-date.ts";
import type { EntryLinks } from "./entry.ts";

/** Where the resources live; the target description's default says the same. */
export const COLLECTION = "/entries/";

/** The chain's shape where the spec leaves a choice, or where a fault mode bends it. */
export interface ChainShape {
  /** Snapshot n is addressed as s<n × step>: 1, or 2 where a fault makes the numbers skip. */
  numberingStep: 1 | 2;
  /** What the current resource's previous link names: the newest snapshot, or (a fault) the oldest. */
  currentPreviousTo: "newest" | "oldest";
  relativeCurrentPrevious: boolean;
  relativeSnapshotLinks: boolean;
  /** From s3 on, a snapshot's previous link jumps to s1 (a fault). */
  previousSkipsToOldest: boolean;
  /** Snapshots between the oldest and the newest carry no previous link (a fault). */
  middleLinksNoPrevious: boolean;
  snapshotsLinkNext: boolean;
  /** The oldest snapshot's previous link (SNAP-5 leaves it open): none, or s0, an address no snapshot has. */
  oldestPrevious: "none" | "unserved";
  /** The oldest snapshot's previous link leads back to the current resource: a loop (a fault). */
  oldestPreviousLoops: boolean;
}

/** The shape SPEC.md describes, but for the choice it leaves open. */
export const STANDARD_CHAIN: Omit<ChainShape, "oldestPrevious"> = {
  numberingStep: 1,
  currentPreviousTo: "newest",
  relativeCurrentPrevious: false,
  relativeSnapshotLinks: false,
  previousSkipsToOldest: false,
  middleLinksNoPrevious: false,
  snapshotsLinkNext: true,
  oldestPreviousLoops: false,
};

export interface Address {
  /** The resource path, e.g. `/entries/abc`: the store key. */
  resource: string;
  /** The snapshot number n of `/s<n>`; absent for the current resource, 0 for an address no snapshot has. */
  snapshot?: number;
}

const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;

/** The resource or snapshot a request path names; undefined for a path outside the collection. */
export function parseAddress(path: string, shape: Pick<ChainShape, "numberingStep">): Address | undefined {
  if (!path.startsWith(COLLECTION)) return undefined;
  const [name, suffix, ...rest] = path.slice(COLLECTION.length).split("/");
  if (!name || !SEGMENT.test(name) || name === "." || name === ".." || rest.length > 0) return undefined;
  const resource = COLLECTION + name;
  if (suffix === undefined) return { resource };
  const m = /^s([1-9]\d{0,8})$/.exec(suffix);
  return m ? { resource, snapshot: snapshotNumber(Number(m[1]), shape) } : undefined;
}

/** The snapshot an address number names; 0 (none) for a number the numbering skips. */
function snapshotNumber(addressed: number, { numberingStep }: Pick<ChainShape, "numberingStep">): number {
  return addressed % numberingStep === 0 ? addressed / numberingStep : 0;
}

export function snapshotPath(resource: string, n: number, { numberingStep }: Pick<ChainShape, "numberingStep">) {
  return `${resource}/s${n * numberingStep}`;
}

/**
 * The links of the current resource (self, previous → the newest snapshot) or of snapshot n
 * (self, previous → n - 1, next → n + 1 or the current resource), given `count` snapshots.
 * Absolute from `base` unless the shape says relative.
 */
export function chainLinks(base: string, address: Address, count: number, shape: ChainShape): EntryLinks {
  const absolute = (path: string, relative: boolean) => (relative ? path : base + path);
  const current = address.resource;
  const snapshot = (n: number) => snapshotPath(current, n, shape);
  const n = address.snapshot;
  if (n === undefined) {
    const newest = shape.currentPreviousTo === "oldest" ? 1 : count;
    return {
      self: absolute(current, false),
      previous: count > 0 ? absolute(snapshot(newest), shape.relativeCurrentPrevious) : undefined,
    };
  }
  const relative = shape.relativeSnapshotLinks;
  const before = n >= 3 && shape.previousSkipsToOldest ? 1 : n - 1;
  const inTheMiddle = n > 1 && n < count;
  const previous =
    n === 1
      ? oldestPrevious(shape, snapshot(0), current)
      : inTheMiddle && shape.middleLinksNoPrevious
        ? undefined
        : snapshot(before);
  const next = n < count ? snapshot(n + 1) : current;
  return {
    self: absolute(snapshot(n), relative),
    previous: previous === undefined ? undefined : absolute(previous, relative),
    next: shape.snapshotsLinkNext ? absolute(next, relative) : undefined,
  };
}

/** Where s1's previous link leads: nowhere, to s0 (where a walk back ends on a 404), or (a fault) back to the resource. */
function oldestPrevious(shape: ChainShape, beforeFirst: string, current: string): string | undefined {
  if (shape.oldestPreviousLoops) return current;
  return shape.oldestPrevious === "unserved" ? beforeFirst : undefined;
}

/** The Last-Modified a reply shows for a stored date: never later than now. */
export function servedLastModified(stored: number, nowMs: number): number {
  return Math.min(stored, toWholeSeconds(nowMs));
}

/** The date a new version stores: later than any date a client can have been shown for the one before. */
export function nextLastModified(previous: number, nowMs: number): number {
  const wholeSecond = toWholeSeconds(nowMs);
  return Math.max(wholeSecond, Math.min(previous, wholeSecond) + 1000);
}
