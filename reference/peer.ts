/**
 * One reference server standing in for the other side of a team's export server
 * (`sxd test --peer`): the contacts server for a team's messaging server, or the reverse.
 * It listens on a fixed port, because the team's server is configured with its address
 * before the run, and it is played through a small control server beside it, which the
 * suite's steps reach over HTTP (they may run in worker processes):
 *
 *   GET  <controlUrl>/backend-requests   what the contacts server saw (JSON, oldest first)
 *   GET  <controlUrl>/sent-backend-requests?scenario=<X-Sxd-Scenario>
 *                                        what the messaging server sent while answering that
 *                                        scenario's requests, with the replies (JSON, oldest first);
 *                                        handed out once, then forgotten
 *   POST <controlUrl>/stop               stops the peer server (EXP-8 stages an outage)
 *   POST <controlUrl>/start              starts it again on the same port
 *
 *   const peer = await startPeer({ side: "contacts", host: "127.0.0.1", port: 8081, otherUrl: "http://127.0.0.1:9002",
 *     users: { user: "ada", otherUser: "lin" }, rel: "https://example.org/rels/copy" });
 *   // … peer.url, peer.controlUrl …
 *   await peer.close();
 */
import type { BackendRequest, BackendSeen, BackendSent } from "../lib/export-backend.ts";
import { shorten } from "../lib/shorten.ts";
import type { ExportUsers } from "./context.ts";
import { errorReply, type Reply } from "./http/reply.ts";
import { listen } from "./http/serve.ts";
import { type RunningReference, startReference } from "./server.ts";

export type PeerSide = "contacts" | "messaging";

export interface PeerOptions {
  /** The side sxd plays. */
  side: PeerSide;
  host: string;
  port: number;
  /** The URL it presents (its links, its address in the run); default: the address it is bound to. */
  publicUrl?: string;
  /** The team's server of the other side. */
  otherUrl: string;
  backend?: BackendRequest;
  /** The description's users: the contacts server serves lists under these names, both servers take them. */
  users?: ExportUsers;
  /** The description's export relation, for the contacts server's link; default the reference's. */
  rel?: string;
  tokenKey?: string;
  /** Characters kept of each reply body the messaging server got (the suite's --max-body); default all. */
  maxRecordedBody?: number;
}

export interface RunningPeer {
  side: PeerSide;
  url: string;
  controlUrl: string;
  close(): Promise<void>;
}

export async function startPeer(options: PeerOptions): Promise<RunningPeer> {
  const seen: BackendSeen[] = [];
  const sent: BackendSent[] = [];
  const keep = (record: BackendSent) => {
    const limit = options.maxRecordedBody;
    const body =
      record.body === undefined || limit === undefined ? record.body : shorten(record.body, limit, { sayLength: true });
    sent.push({ ...record, body });
  };
  const other: PeerSide = options.side === "contacts" ? "messaging" : "contacts";
  const start = () =>
    startReference({
      host: options.host,
      ports: { base: 0, contacts: 0, messaging: 0, [options.side]: options.port },
      servers: [options.side],
      publicUrls: { [other]: options.otherUrl, [options.side]: options.publicUrl },
      backend: options.backend,
      exportUsers: options.users,
      exportRel: options.rel,
      tokenKey: options.tokenKey,
      tokenCheckedByContactsServer: options.side === "messaging",
      onBackendRequest: (request) => seen.push(request),
      onBackendSent: keep,
    });
  let running: RunningReference | undefined = await start();
  const url = running.urls[options.side];
  const json = (value: unknown): Reply => ({
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
    body: JSON.stringify(value),
  });
  const control = await listen(
    [
      async (request) => {
        if (request.method === "GET" && request.path === "/backend-requests") return json(seen);
        if (request.method === "GET" && request.path === "/sent-backend-requests") {
          const scenario = new URLSearchParams(request.target.slice(request.path.length + 1)).get("scenario");
          // Taken once, as the scenario ends: what is handed out is kept no longer.
          const taken = sent.filter((s) => s.cause.scenario === scenario);
          sent.splice(0, sent.length, ...sent.filter((s) => s.cause.scenario !== scenario));
          return json(taken);
        }
        if (request.method !== "POST") return undefined;
        if (request.path === "/stop") {
          await running?.close();
          running = undefined;
          return json({ running: false });
        }
        if (request.path === "/start") {
          try {
            running ??= await start();
          } catch (error) {
            return errorReply(500, `the ${options.side} server did not start again: ${(error as Error).message}`);
          }
          return json({ running: true });
        }
        return undefined;
      },
    ],
    { host: "127.0.0.1", port: 0 },
  );
  return {
    side: options.side,
    url,
    controlUrl: control.boundUrl,
    close: async () => {
      await Promise.all([running?.close(), control.close()]);
      running = undefined;
    },
  };
}
