/**
 * `sxd test --peer contacts|messaging --peer-port N [--peer-host HOST]`: the team brought one
 * export server, sxd plays the other on a fixed port (the team's server is configured with it
 * before the run). Pure: what the flags make of the description's layers.
 */
import { isIP } from "node:net";
import { PEER_SIDES, type PeerSide } from "../harness/description/peer.ts";
import type { TargetDescription } from "../harness/description/target.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import type { Result } from "../lib/result.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";

export interface PeerSetting {
  side: PeerSide;
  port: number;
  /** Where it listens: 127.0.0.1 unless --peer-host. */
  host: string;
  /** SXD_TOKEN_KEY, the link tokens' key shared with the team's server; absent: the process's own. */
  tokenKey?: string;
}

export const DEFAULT_PEER_HOST = "127.0.0.1";

/**
 * The URL sxd's own server presents (the target's URL of that side, its links): at the port
 * the team's server was given, on the host it listens on; listening on every address (0.0.0.0,
 * ::) it names this machine's loopback, 127.0.0.1, which sxd's own requests reach it at.
 */
export function peerUrl(port: number, host = DEFAULT_PEER_HOST): string {
  const named = host === "0.0.0.0" || host === "::" ? DEFAULT_PEER_HOST : host;
  return `http://${isIP(named) === 6 ? `[${named}]` : named}:${port}`;
}

/** An IP address or a host name (letters, digits, hyphens, dots): what a server can listen on. */
function isHost(text: string): boolean {
  return (
    // An IPv6 zone (fe80::1%eth0) cannot stand in a URL's host.
    (isIP(text) !== 0 && !text.includes("%")) ||
    /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(text)
  );
}

/**
 * Where sxd plays the contacts server, the export user may be one of its own: the lists are
 * sxd's, and the team's messaging server learns the user from the link. A description's user wins.
 */
function ownUser(played: PeerSide): Partial<TargetDescription>[] {
  return played === "contacts" ? [{ export: { user: REFERENCE_DESCRIPTION.export.user } }] : [];
}

/**
 * Checks the flags against the URLs given, and adds what they imply: sxd's server as the
 * target's server of that side; where no base URL is given, the team's server answers the
 * probe and only the export rows run (`tags` narrowed to them).
 */
export function peerLayers(
  flags: { side?: string; port?: string; host?: string },
  layers: Partial<TargetDescription>[],
  tags: string | undefined,
  /** The URLs given by flag or environment, which a description's yield to. */
  givenUrls: Partial<TargetDescription> = {},
): Result<{ peer?: PeerSetting; layers: Partial<TargetDescription>[]; tags: string | undefined }> {
  const { side, port: portText, host = DEFAULT_PEER_HOST } = flags;
  if (side === undefined) {
    const stray = portText !== undefined ? "--peer-port" : flags.host !== undefined ? "--peer-host" : undefined;
    return stray === undefined
      ? { ok: true, value: { layers, tags } }
      : { ok: false, error: `${stray} is for --peer contacts|messaging` };
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
  if (!isHost(host))
    return { ok: false, error: `--peer-host must be an IP address or a host name to listen on, got "${host}"` };
  const own = played === "contacts" ? "contactsUrl" : "messagingUrl";
  const team = played === "contacts" ? "messagingUrl" : "contactsUrl";
  const flag = (key: string) => (key === "contactsUrl" ? "--contacts-url" : "--messaging-url");
  const teamUrl = layers.map((l) => l[team]).findLast((url) => url !== undefined);
  if (teamUrl === undefined) return { ok: false, error: `--peer ${played}: give the team's server with ${flag(team)}` };
  // A description's URL of that side yields to sxd's server, as a description's keys yield to
  // flags; a flag or variable naming it contradicts --peer.
  if (givenUrls[own] !== undefined) {
    const variable = own === "contactsUrl" ? "SXD_CONTACTS_URL" : "SXD_MESSAGING_URL";
    return {
      ok: false,
      error: `--peer ${played}: sxd plays the ${played} server; leave out ${flag(own)} and ${variable}`,
    };
  }
  const hasBase = layers.some((l) => l.baseUrl !== undefined);
  const exportRows = loadRows()
    .filter((row) => row.id.startsWith("EXP-"))
    .map((row) => `@${row.id}`)
    .join(" or ");
  return {
    ok: true,
    value: {
      peer: { side: played, port, host },
      layers: [
        ...(hasBase ? [] : [{ baseUrl: teamUrl }]),
        ...ownUser(played),
        ...layers,
        { [own]: peerUrl(port, host) },
      ],
      tags: hasBase ? tags : tags === undefined ? exportRows : `(${tags}) and (${exportRows})`,
    },
  };
}
