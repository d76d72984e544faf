/**
 * A run where sxd plays one side of the export itself (`sxd test --peer contacts|messaging`):
 * the team brought one server, sxd's bundled one stands in for the other. What the run's
 * reports and steps need to know of it, and which rows it leaves to the team's server.
 */

import type { BackendRequest } from "../../lib/export-backend.ts";
import { loadRows } from "../judging/catalogue.ts";
import type { TargetDescription } from "./target.ts";

export type PeerSide = "contacts" | "messaging";

export const PEER_SIDES: readonly PeerSide[] = ["contacts", "messaging"];

export interface PeerRun {
  /** The server sxd played. */
  side: PeerSide;
  /** Where sxd's server listens (the target's contactsUrl or messagingUrl). */
  url: string;
  /** Where the steps ask it what it saw, and stop and start it (reference/peer.ts). */
  controlUrl: string;
}

/**
 * The rows whose rule binds only the server sxd played (the catalogue's `bindsOnly`): judged
 * there, they would credit sxd's server to the team's. They are not applicable, with
 * playedBySxd as the reason; the rows that bind both sides are judged as usual.
 */
export function rowsBindingOnly(side: PeerSide): string[] {
  return loadRows()
    .filter((row) => row.bindsOnly === side)
    .map((row) => row.id);
}

export function playedBySxd(side: PeerSide): string {
  return `sxd played the ${side} server (--peer ${side}): this row binds only that server, not the team's`;
}

/** The line the summary opens with: who played which part. */
export function peerLine(peer: PeerRun): string {
  const team = peer.side === "contacts" ? "messaging" : "contacts";
  return `sxd played the ${peer.side} server at ${peer.url}; the ${team} server is the team's (rows ${rowsBindingOnly(peer.side).join(", ")} not applicable)`;
}

/**
 * What sxd's own server takes from the target description: the keys that describe the side it
 * plays. Both serve or ask the backend request (export.backend) and take the description's users;
 * the contacts server serves their lists (the reference's, under these names) with the
 * description's export relation. The keys of the team's side are the team's server's alone.
 */
export interface StandInSettings {
  backend?: BackendRequest;
  /** Absent where the description names no export user (the export rows are then not run). */
  users?: { user: string; otherUser?: string };
  rel?: string;
}

export function standInSettings(side: PeerSide, target: TargetDescription): StandInSettings {
  const { user, otherUser, rel, backend } = target.export;
  return {
    backend,
    ...(user === undefined ? {} : { users: { user, otherUser } }),
    ...(side === "contacts" ? { rel } : {}),
  };
}

/**
 * The description as sxd judges a run where it plays `side`: where a key states what sxd's own
 * server does otherwise than sxd's server does it, sxd does not ask it. With --peer messaging
 * the export result is read where sxd's messaging server holds it, the export's Location,
 * whatever export.result says (it describes the team's messaging server, if any).
 */
export function describedForPeer(target: TargetDescription, side: PeerSide): TargetDescription {
  return side === "messaging" ? { ...target, export: { ...target.export, result: "location" } } : target;
}
