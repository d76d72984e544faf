/**
 * `sxd test --peer contacts|messaging --peer-port N`: the team brought one export server, sxd
 * plays the other on a fixed port (the team's server is configured with it before the run).
 * Pure: what the flags make of the description's layers.
 */
import { loadRows } from "../harness/catalogue.ts";
import { PEER_SIDES, type PeerSide } from "../harness/peer.ts";
import type { TargetDescription } from "../harness/target.ts";
import type { Result } from "../lib/result.ts";

export interface PeerSetting {
  side: PeerSide;
  port: number;
}

/** Where sxd's own server is reached: on this machine, at the port the team's server was given. */
export function peerUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/**
 * Checks the flags against the URLs given, and adds what they imply: sxd's server as the
 * target's server of that side; where no base URL is given, the team's server answers the
 * probe and only the export rows run (`tags` narrowed to them).
 */
export function peerLayers(
  side: string | undefined,
  portText: string | undefined,
  layers: Partial<TargetDescription>[],
  tags: string | undefined,
): Result<{ peer?: PeerSetting; layers: Partial<TargetDescription>[]; tags: string | undefined }> {
  if (side === undefined) {
    return portText === undefined
      ? { ok: true, value: { layers, tags } }
      : { ok: false, error: "--peer-port is for --peer contacts|messaging" };
  }
  if (!PEER_SIDES.includes(side as PeerSide))
    return { ok: false, error: `--peer must be contacts or messaging (the server sxd plays), got "${side}"` };
  const played = side as PeerSide;
  const port = Number(portText);
  if (portText === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
    return {
      ok: false,
      error: `--peer ${played} needs --peer-port N (1 to 65535): the port the team's server reaches sxd's ${played} server on`,
    };
  }
  const own = played === "contacts" ? "contactsUrl" : "messagingUrl";
  const team = played === "contacts" ? "messagingUrl" : "contactsUrl";
  const flag = (key: string) => (key === "contactsUrl" ? "--contacts-url" : "--messaging-url");
  const teamUrl = layers.map((l) => l[team]).findLast((url) => url !== undefined);
  if (teamUrl === undefined) return { ok: false, error: `--peer ${played}: give the team's server with ${flag(team)}` };
  if (layers.some((l) => l[own] !== undefined))
    return { ok: false, error: `--peer ${played}: sxd plays the ${played} server; leave out ${flag(own)}` };
  const hasBase = layers.some((l) => l.baseUrl !== undefined);
  const exportRows = loadRows()
    .filter((row) => row.id.startsWith("EXP-"))
    .map((row) => `@${row.id}`)
    .join(" or ");
  return {
    ok: true,
    value: {
      peer: { side: played, port },
      layers: [...(hasBase ? [] : [{ baseUrl: teamUrl }]), ...layers, { [own]: peerUrl(port) }],
      tags: hasBase ? tags : tags === undefined ? exportRows : `(${tags}) and (${exportRows})`,
    },
  };
}
