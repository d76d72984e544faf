/**
 * Faulty modes of the snapshot resources. Each names the rows a conformance run must then
 * report as failed, and no others.
 */
import type { FaultInfo } from "../fault-info.ts";

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
    // The rows that fetch a snapshot by its address fail with it.
    breaks: ["SNAP-3", "SNAP-5", "SNAP-7", "SNAP-10"],
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
    breaks: ["SNAP-6"],
    description: "from s3 on, a snapshot's previous link jumps to s1",
  },
  "snap-id-changes": {
    breaks: ["SNAP-7"],
    description: "snapshots are served with an id of their own instead of the entry's id",
  },
  "snap-current-stale": {
    // SNAP-11 checks that a refused update left the current version as it was.
    breaks: ["SNAP-8", "SNAP-11"],
    description: "after an update the current address still serves the content before it",
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
    breaks: ["SNAP-11"],
    description:
      "an update keeps the Last-Modified of the version before it, so If-Unmodified-Since never sees the change",
  },
  "snap-future-last-modified": {
    // A client that sends that date back as If-Unmodified-Since can no longer see a competing update.
    breaks: ["SNAP-1", "SNAP-11"],
    description: "the current resource is served with a Last-Modified in the year 9999, later than the reply's Date",
  },
  "snap-stale-accepted": {
    breaks: ["SNAP-11"],
    description: "If-Unmodified-Since is not checked: a stale update overwrites the newer version",
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
    breaks: ["SNAP-12"],
    description: "a body that is not a well-formed Atom entry gets 500 instead of 400",
  },
  "snap-create-200": {
    breaks: ["SNAP-13"],
    description: "creation with If-None-Match: * answers 200 instead of 201 Created",
  },
} satisfies Record<string, FaultInfo>;
