/**
 * The reference as a peer for clients: the three servers, every request they receive kept
 * with its reply, and the conditions sxd stages for one run of a task. `sxd test-client`
 * starts it, runs a client against it, and grades what was recorded.
 *
 *   const bench = await startRecordingReference({ host: "127.0.0.1" });
 *   bench.stage({ condition: "stale-nonce" }); // the next run of a task meets a stale nonce
 *   // … the client runs against bench.urls.base + bench.paths.protected …
 *   const requests = bench.takeRecording(); // and the recording starts again, empty
 *   await bench.close();
 */
import type { RecordedRequest, Staging } from "../lib/recording.ts";
import { prepareEntry } from "./clients/entries.ts";
import { type ClientSide, clientRoutes } from "./clients/routes.ts";
import type { ReferenceContext } from "./context.ts";
import { DEMO_USER } from "./digest/routes.ts";
import { type Listening, listen } from "./http/serve.ts";
import { SERVER_NAMES } from "./server.ts";
import { MemorySnapshotStore } from "./snapshots/store.ts";

export { CLIENT_PROTECTED_PATH } from "./clients/digest.ts";

/** The contact list of the export task: a user of the contacts server's fixture. */
export const CLIENT_CONTACT_LIST_PATH = "/user/alice/contacts";

export interface RecordingReference {
  /** The addresses a client is given (SXD_URL and the like): the bound ones, 127.0.0.1. */
  urls: ReferenceContext["urls"];
  /** Who the client logs in as. */
  user: { username: string; password: string };
  /** What is recorded since the last take, in the order it arrived; the recording restarts. */
  takeRecording(): RecordedRequest[];
  /** Makes an entry with one version per title (oldest first), unrecorded; returns its URL. */
  prepareEntry(titles: readonly string[]): string;
  /** What the servers stage from now on: a condition, on an offer ({}: none). */
  stage(staging: Staging): void;
  close(): Promise<void>;
}

export async function startRecordingReference(options: { host: string }): Promise<RecordingReference> {
  const side: ClientSide = { recorded: [], staged: undefined, store: new MemorySnapshotStore() };
  const context: ReferenceContext = {
    urls: { base: "", contacts: "", messaging: "" },
    faults: new Set(),
    variant: "standard",
  };
  const routes = clientRoutes(context, side);
  // The addresses given to the client; the servers' links name the same host another way.
  const given: ReferenceContext["urls"] = { base: "", contacts: "", messaging: "" };
  const running: Listening[] = [];
  try {
    for (const name of SERVER_NAMES) {
      const listening = await listen(routes[name], { host: options.host, port: 0 });
      running.push(listening);
      given[name] = listening.boundUrl;
      context.urls[name] = linkedUrl(listening.boundUrl);
    }
  } catch (error) {
    await Promise.all(running.map((l) => l.close()));
    throw error;
  }
  return {
    urls: given,
    user: { username: DEMO_USER.username, password: DEMO_USER.password },
    takeRecording: () => side.recorded.splice(0),
    prepareEntry: (titles) => given.base + prepareEntry(side.store, titles),
    stage: (staging) => {
      side.staged = staging.condition || staging.offer ? { ...staging, spent: false } : undefined;
    },
    close: async () => {
      await Promise.all(running.map((l) => l.close()));
    },
  };
}

/**
 * The servers' absolute links (previous, next, the export link) name the host as localhost
 * where the client was given 127.0.0.1: the same servers, but a client that builds an address
 * from the one it was given, instead of following a link as served, shows in its Host header.
 */
function linkedUrl(boundUrl: string): string {
  return boundUrl.replace(/^http:\/\/127\.0\.0\.1:/, "http://localhost:");
}
