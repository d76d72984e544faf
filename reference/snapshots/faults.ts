/**
 * Faulty modes of the snapshot resources. Each names the rows a conformance run must then
 * report as failed, and no others. `snapshotPolicy` reads the active modes once into the
 * decisions the handler takes, so it asks what to do, never which mode is on.
 */
import { ATOM_ENTRY_TYPE, XML_TYPE } from "../../lib/media-type.ts";
import type { FaultInfo } from "../fault-info.ts";
import { type ChainShape, STANDARD_CHAIN } from "./chain.ts";
import type { Entry } from "./entry.ts";

/** How long a fault mode lets pass between checking an update's preconditions and writing it. */
const DEFERRED_WRITE_MS = 200;

export const snapshotFaults = {
  "snap-no-last-modified": {
    breaks: ["SNAP-1", "SNAP-2", "SNAP-11"],
    description: "GET of the current resource sends no Last-Modified (so a client has no date for If-Unmodified-Since)",
  },
  "snap-current-wrong-type": {
    breaks: ["SNAP-1"],
    description: "the current resource is served as application/xml instead of the Atom entry type",
  },
  "snap-update-200": {
    breaks: ["SNAP-2"],
    description: "an update answers 200 with the new entry instead of 204 No Content",
  },
  "snap-numbering-skips": {
    // The rows that fetch a snapshot by its address, or judge a link by its s<n>, fail with it.
    breaks: ["SNAP-3", "SNAP-4", "SNAP-5", "SNAP-6", "SNAP-7", "SNAP-10", "SNAP-15"],
    description: "snapshots are numbered s2, s4, s6… (links stay consistent)",
  },
  "snap-relative-previous": {
    breaks: ["SNAP-4"],
    description: "the current resource's previous link is a relative reference",
  },
  "snap-previous-to-oldest": {
    breaks: ["SNAP-4", "SNAP-6"],
    description: "the current resource's previous link points at s1 instead of the newest snapshot",
  },
  "snap-snapshot-no-next": {
    breaks: ["SNAP-5", "SNAP-6"],
    description: "snapshots carry no next link",
  },
  "snap-snapshot-relative-links": {
    breaks: ["SNAP-5"],
    description: "snapshots' self, previous and next links are relative references",
  },
  "snap-previous-skips": {
    breaks: ["SNAP-5", "SNAP-6"],
    description: "from s3 on, a snapshot's previous link jumps to s1",
  },
  "snap-middle-no-previous": {
    breaks: ["SNAP-5", "SNAP-6"],
    description: "snapshots between the oldest and the newest carry no previous link",
  },
  "snap-oldest-previous-loop": {
    breaks: ["SNAP-5", "SNAP-6"],
    description: "the oldest snapshot's previous link leads back to the current resource: a walk back never ends",
  },
  "snap-id-changes": {
    breaks: ["SNAP-7"],
    description: "snapshots are served with an id of their own instead of the entry's id",
  },
  "snap-current-stale": {
    // SNAP-15 checks that every update that got in is in the chain.
    breaks: ["SNAP-8", "SNAP-15"],
    description: "after an update the current address still serves the content before it",
  },
  "snap-snapshot-after-update": {
    breaks: ["SNAP-3"],
    description: "each update's snapshot keeps the state after it, not before: s<n> holds what the n-th update put",
  },
  "snap-delete-keeps-snapshots": {
    breaks: ["SNAP-9"],
    description: "DELETE removes the current resource but its snapshots are still served",
  },
  "snap-partial-snapshot": {
    breaks: ["SNAP-10"],
    description: "snapshots are served as a stored difference: author name and content left empty",
  },
  "snap-as-diff": {
    breaks: ["SNAP-10"],
    description: "snapshots are served as a difference: a field equal to the next version's is left empty",
  },
  "snap-last-modified-frozen": {
    // Updates in the same second with one read's date, or at once, then all get in too.
    breaks: ["SNAP-11", "SNAP-15"],
    description:
      "an update keeps the Last-Modified of the version before it, so If-Unmodified-Since never sees the change",
  },
  "snap-future-last-modified": {
    // A client that sends that date back as If-Unmodified-Since can no longer see a competing update.
    breaks: ["SNAP-1", "SNAP-11", "SNAP-15"],
    description: "the current resource is served with a Last-Modified in the year 9999, later than the reply's Date",
  },
  "snap-dates-ahead": {
    breaks: ["SNAP-1"],
    description:
      "an update within the second of the version before is dated a second after it, and that date is served as stored: after quick updates Last-Modified runs ahead of the reply's Date",
  },
  "snap-refused-update-snapshots": {
    breaks: ["SNAP-11", "SNAP-12", "SNAP-15"],
    description:
      "an update copies the current state into a new snapshot before its preconditions and body are checked, and a refusal leaves the snapshot there",
  },
  "snap-stale-accepted": {
    breaks: ["SNAP-11", "SNAP-15"],
    description: "If-Unmodified-Since is not checked: a stale update overwrites the newer version",
  },
  "snap-last-modified-wall-clock": {
    breaks: ["SNAP-15"],
    description:
      "an update's Last-Modified is the second it came in, not moved on past the version before: a second update in that second, with the date read before the first, gets in",
  },
  "snap-write-deferred": {
    breaks: ["SNAP-15"],
    description: `an update is written once no update of the resource has passed its preconditions for ${DEFERRED_WRITE_MS} ms: updates sent at once with one read's date all pass the check and all get in`,
  },
  "snap-no-428": {
    breaks: ["SNAP-12"],
    description: "an update without If-Unmodified-Since or If-Match is accepted",
  },
  "snap-any-content-type": {
    breaks: ["SNAP-12"],
    description: "an update is parsed whatever its Content-Type says: text/plain or JSON gets 204, not 415",
  },
  "snap-500-on-bad-body": {
    // An entry declaring entities is such a body too: 500 where SNAP-14 asks for 400.
    breaks: ["SNAP-12", "SNAP-14"],
    description: "a body that is not a well-formed Atom entry gets 500 instead of 400",
  },
  "snap-create-200": {
    breaks: ["SNAP-13"],
    description: "creation with If-None-Match: * answers 200 instead of 201 Created",
  },
  "snap-replays-differences": {
    breaks: [],
    grows: ["LIM-1"],
    description:
      "a snapshot is rebuilt for each read by walking back from the current version, each step a stored document read again",
  },
  "snap-update-copies-history": {
    breaks: [],
    grows: ["LIM-2"],
    description: "an update writes the whole history again, every version a document copied, before adding its own",
  },
  "snap-delete-walks-history": {
    breaks: [],
    grows: ["LIM-3"],
    description: "a DELETE removes the snapshots one by one, each a stored document read again to find what it holds",
  },
  "snap-expands-entities": {
    breaks: ["SNAP-14"],
    description:
      "an entry's DOCTYPE is processed: its entities expanded, recursively, and the files and addresses external ones name read",
  },
} satisfies Record<string, FaultInfo>;

type SnapshotFault = keyof typeof snapshotFaults;

/** Where the snapshot resources depart from SPEC.md; without faults, every field says what it says. */
export interface SnapshotPolicy {
  /** Numbering and links; the variant's choices (choices.ts) add the one the spec leaves open. */
  chain: Omit<ChainShape, "oldestPrevious">;
  /** The Content-Type of the current resource. */
  currentType: string;
  /** The current resource's Last-Modified: the stored date as the chain serves it, none, or the year 9999. */
  currentLastModified: "served" | "none" | "year-9999";
  /** After an update the current address still serves the content before it. */
  servesContentBeforeUpdate: boolean;
  /** A Last-Modified is served as stored, even where it is later than the reply's Date. */
  showsDatesAhead: boolean;
  /** Snapshot n as served: the entry it keeps, or a fault's own id, partial entry or difference from `next`. */
  shownSnapshot(kept: Entry, n: number, next: Entry): Entry;
  checksContentType: boolean;
  checksUnmodifiedSince: boolean;
  /** Whether an update must say which version it replaces (428 without If-Unmodified-Since or If-Match). */
  requiresPreconditionToUpdate: boolean;
  /** A body that is not a usable entry gets 500 and no message instead of 400. */
  crashesOnBadBody: boolean;
  /** Creation's status; Location goes only with 201 Created. */
  createdStatus: 201 | 200;
  /** An update answers 200 with the new entry instead of 204. */
  updateAnswersWithEntry: boolean;
  /**
   * An update's Last-Modified: moved on past the version before (chain.ts), a second after the
   * version before's however far that runs ahead of the clock, kept as the version before's, or
   * the wall-clock second it came in.
   */
  updatedLastModified: "moved-on" | "second-after" | "kept" | "clock";
  /** An update copies the current state into a new snapshot before it is checked; a refusal leaves it. */
  snapshotsBeforeChecking: boolean;
  /** Milliseconds between an update's preconditions holding and its write; 0 writes at once. */
  writeDelayMs: number;
  keepsSnapshotsAfterDelete: boolean;
  /** The body's document type is processed before the entry is read: entities expanded, external ones resolved. */
  expandsEntities: boolean;
  /**
   * Where the server walks the stored history, a step per version (history-walk.ts): reading a
   * snapshot (from the current version back to it), updating (every version), deleting (every
   * version). The spec's store is an index into the versions, and walks nowhere.
   */
  walksHistory: { reading: boolean; updating: boolean; deleting: boolean };
}

export function snapshotPolicy(active: ReadonlySet<string>): SnapshotPolicy {
  const on = (fault: SnapshotFault) => active.has(fault);
  return {
    chain: {
      ...STANDARD_CHAIN,
      numberingStep: on("snap-numbering-skips") ? 2 : 1,
      currentPreviousTo: on("snap-previous-to-oldest") ? "oldest" : "newest",
      relativeCurrentPrevious: on("snap-relative-previous"),
      relativeSnapshotLinks: on("snap-snapshot-relative-links"),
      previousSkipsToOldest: on("snap-previous-skips"),
      middleLinksNoPrevious: on("snap-middle-no-previous"),
      snapshotsLinkNext: !on("snap-snapshot-no-next"),
      oldestPreviousLoops: on("snap-oldest-previous-loop"),
    },
    currentType: on("snap-current-wrong-type") ? XML_TYPE : ATOM_ENTRY_TYPE,
    currentLastModified: on("snap-future-last-modified")
      ? "year-9999"
      : on("snap-no-last-modified")
        ? "none"
        : "served",
    servesContentBeforeUpdate: on("snap-current-stale"),
    showsDatesAhead: on("snap-dates-ahead"),
    shownSnapshot: (kept, n, next) => {
      let shown = on("snap-snapshot-after-update") ? next : kept;
      if (on("snap-id-changes")) shown = { ...shown, id: `${kept.id}/s${n}` };
      if (on("snap-partial-snapshot")) shown = { ...shown, authorName: "", content: { ...shown.content, text: "" } };
      if (on("snap-as-diff")) {
        const unlessUnchanged = (field: string, nextField: string) => (field === nextField ? "" : field);
        shown = {
          ...shown,
          authorName: unlessUnchanged(shown.authorName, next.authorName),
          title: unlessUnchanged(shown.title, next.title),
          content: { ...shown.content, text: unlessUnchanged(shown.content.text, next.content.text) },
        };
      }
      return shown;
    },
    checksContentType: !on("snap-any-content-type"),
    checksUnmodifiedSince: !on("snap-stale-accepted"),
    requiresPreconditionToUpdate: !on("snap-no-428"),
    crashesOnBadBody: on("snap-500-on-bad-body"),
    createdStatus: on("snap-create-200") ? 200 : 201,
    updateAnswersWithEntry: on("snap-update-200"),
    updatedLastModified: on("snap-last-modified-frozen")
      ? "kept"
      : on("snap-last-modified-wall-clock")
        ? "clock"
        : on("snap-dates-ahead")
          ? "second-after"
          : "moved-on",
    snapshotsBeforeChecking: on("snap-refused-update-snapshots"),
    writeDelayMs: on("snap-write-deferred") ? DEFERRED_WRITE_MS : 0,
    keepsSnapshotsAfterDelete: on("snap-delete-keeps-snapshots"),
    expandsEntities: on("snap-expands-entities"),
    walksHistory: {
      reading: on("snap-replays-differences"),
      updating: on("snap-update-copies-history"),
      deleting: on("snap-delete-walks-history"),
    },
  };
}
