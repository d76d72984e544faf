/**
 * The snapshot resources' choices where the spec says "not shown", one set per variant
 * (context.ts): the standard one, and the other allowed choice, so the suite can prove it
 * takes neither for a rule. `snapshotChoices` is where the variant is read; the handler
 * asks what to do, never which variant runs.
 */
import type { ReferenceContext, Variant } from "../context.ts";
import type { ChainShape } from "./chain.ts";

export interface SnapshotChoices {
  /** The oldest snapshot's previous link: none, or one to s0, where no snapshot is (never back into the chain). */
  oldestPrevious: ChainShape["oldestPrevious"];
  /** The status of a resource, or one of its snapshots, that DELETE removed: 404, or 410 Gone. */
  deletedStatus: 404 | 410;
  /** The status of an update whose If-Unmodified-Since date is older than the current version. */
  modifiedSinceStatus: 412 | 409;
  /** DELETE's reply: 204 No Content, or 200 with a message saying what was removed. */
  deleteReply: "no-content" | "message";
}

const SNAPSHOT_CHOICES: Record<Variant, SnapshotChoices> = {
  standard: { oldestPrevious: "none", deletedStatus: 404, modifiedSinceStatus: 412, deleteReply: "no-content" },
  alternative: { oldestPrevious: "unserved", deletedStatus: 410, modifiedSinceStatus: 409, deleteReply: "message" },
};

export function snapshotChoices(context: Pick<ReferenceContext, "variant">): SnapshotChoices {
  return SNAPSHOT_CHOICES[context.variant];
}
