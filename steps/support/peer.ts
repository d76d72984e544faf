/**
 * Where sxd plays one side of the export itself (--peer, harness/description/peer.ts): the rows that bind
 * only that side are not applicable; what its contacts server saw of the backend request is
 * evidence; and it stops and starts its own contacts server for an outage. Its server is
 * reached through the control address the shell gives (reference/peer.ts), because the
 * scenarios may run in other processes than the one it runs in.
 */

import { type PeerRun, playedBySxd, rowsBindingOnly } from "../../harness/description/peer.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import { readTags } from "../../harness/judging/catalogue.ts";
import { type BackendSeen, type BackendSent, presentsToken } from "../../lib/export-backend.ts";
import { Before } from "./cucumber.ts";
import type { SxdWorld } from "./world.ts";

Before({ name: "rows of the side sxd played" }, function (this: SxdWorld, { pickle }) {
  const peer = this.parameters.peer;
  if (!peer) return undefined;
  const { rows } = readTags(pickle.tags.map((t) => t.name));
  if (rows.some((row) => rowsBindingOnly(peer.side).includes(row))) return this.notApplicable(playedBySxd(peer.side));
  // sxd's messaging server leaves the token to the team's contacts server: it must be presented there.
  if (peer.side === "messaging" && rows.includes("EXP-6") && !presentsToken(this.target.export.backend)) {
    return this.notRun(
      "sxd's messaging server cannot check the team's tokens itself: state export.backend with {token} in its path or a tokenHeader, so that the contacts server checks the token",
    );
  }
  return undefined;
});

/** The backend requests sxd's contacts server received so far in the run, oldest first. */
export async function backendRequests(peer: PeerRun): Promise<BackendSeen[]> {
  const reply = await fetch(`${peer.controlUrl}/backend-requests`);
  return (await reply.json()) as BackendSeen[];
}

/** Stops or starts sxd's own server; the problem where it did not. */
export async function switchPeer(peer: PeerRun, to: "stop" | "start"): Promise<string | undefined> {
  const reply = await fetch(`${peer.controlUrl}/${to}`, { method: "POST" });
  const text = await reply.text();
  return reply.ok ? undefined : `sxd's ${peer.side} server did not ${to}: ${text}`;
}

/** A backend request as an exchange of the scenario's transcript, noted as what sxd's server saw. */
export function asExchange(peer: PeerRun, seen: BackendSeen): Exchange {
  return {
    method: seen.method,
    url: `${peer.url}${seen.target}`,
    requestHeaders: seen.headers,
    note: "the messaging server's backend request, as sxd's contacts server received it",
    response: {
      status: seen.status,
      headers: listed(seen.responseHeaders),
      body: seen.body,
    },
    startedAt: seen.startedAt,
    durationMs: seen.durationMs,
  };
}

/**
 * With --peer messaging: the backend requests sxd's messaging server sent while answering this
 * scenario's requests go into its transcript, each after the request that made it ask (the
 * latest one of that method and request-target sent before it), so the reports show what the
 * team's contacts server was asked and answered. Called once, as the scenario ends.
 */
export async function addSentBackendRequests(world: SxdWorld): Promise<void> {
  const peer = world.parameters.peer;
  const exchanges = world.http.exchanges;
  if (peer?.side !== "messaging" || world.http.scenario === undefined || exchanges.length === 0) return;
  // sxd's own server on this machine; bounded all the same, as every wait of a run is.
  const reply = await fetch(
    `${peer.controlUrl}/sent-backend-requests?scenario=${encodeURIComponent(world.http.scenario)}`,
    { signal: AbortSignal.timeout(5000) },
  );
  const sent = (await reply.json()) as BackendSent[];
  const after = new Map<Exchange, Exchange[]>();
  for (const record of sent) {
    const cause = exchanges.findLast(
      (e) =>
        e.method === record.cause.method && targetOf(e.url) === record.cause.target && e.startedAt <= record.startedAt,
    );
    if (cause) after.set(cause, [...(after.get(cause) ?? []), sentExchange(record)]);
  }
  if (after.size === 0) return;
  exchanges.splice(0, exchanges.length, ...exchanges.flatMap((e) => [e, ...(after.get(e) ?? [])]));
}

/** The request-target as a server receives it: the link's path and query, encoded as sent. */
function targetOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** A backend request sxd's messaging server sent, as an exchange of the scenario's transcript. */
function sentExchange(sent: BackendSent): Exchange {
  return {
    method: sent.method,
    url: sent.url,
    requestHeaders: sent.headers,
    note: "sent by sxd's messaging server: its backend request to the team's contacts server, for the request above",
    ...(sent.status === undefined
      ? { error: sent.error ?? "no reply" }
      : {
          response: {
            status: sent.status,
            headers: listed(sent.responseHeaders ?? {}),
            body: sent.body ?? "",
          },
        }),
    startedAt: sent.startedAt,
    durationMs: sent.durationMs,
  };
}

/** Header values as a recorded response keeps them: a list per name. */
function listed(headers: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
}

/** Whether sxd's contacts server can tell the token the backend request presents. */
export function tokenPresented(world: SxdWorld): boolean {
  return presentsToken(world.target.export.backend);
}

/** EXP-8 with --peer contacts: sxd stops its own contacts server, and starts it again after the scenario. */
export async function stopOwnContactsServer(
  world: SxdWorld,
  state: { restart?: () => Promise<string | undefined> },
  peer: PeerRun,
) {
  state.restart = () => switchPeer(peer, "start");
  const problem = await switchPeer(peer, "stop");
  if (problem !== undefined) return world.notRun(problem);
  world.observe(
    `sxd stopped its own contacts server ${peer.url} (--peer contacts) for this export, and starts it again after`,
  );
  return undefined;
}
