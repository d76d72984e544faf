/**
 * A run where sxd plays one side of the export itself (`sxd test --peer contacts|messaging`):
 * the team brought one server, sxd's bundled one stands in for the other. What the run's
 * reports and steps need to know of it, and which rows it leaves to the team's server.
 */

import { loadRows } from "./catalogue.ts";

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
