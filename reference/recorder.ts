/**
 * The reference as a peer for clients: the three servers, every request they receive kept
 * with its reply, and the conditions sxd stages for one run of a task. `sxd test-client`
 * starts it, runs a client against it, and grades what was recorded.
 *
 *   const bench = await startRecordingReference({ host: "127.0.0.1" });
 *   bench.stage("stale-nonce");         // the next run of a task meets a stale nonce
 *   // … the client runs against bench.urls.base + bench.paths.protected …
 *   const requests = bench.takeRecording(); // and the recording starts again, empty
 *   await bench.close();
 */
import type { RecordedRequest, StagedCondition } from "../lib/recording.ts";
import { type ClientSide, clientRoutes } from "./clients/routes.ts";
import type { ReferenceContext } from "./context.ts";
import { DEMO_USER } from "./digest/routes.ts";
import { type Listening, listen } from "./http/serve.ts";
import { SERVER_NAMES } from "./server.ts";

export { CLIENT_PROTECTED_PATH } from "./clients/digest.ts";

export interface RecordingReference {
  urls: ReferenceContext["urls"];
  /** Who the client logs in as. */
  user: { username: string; password: string };
  /** What is recorded since the last take, in the order it arrived; the recording restarts. */
  takeRecording(): RecordedRequest[];
  /** The condition the servers stage from now on (undefined: none). */
  stage(condition: StagedCondition | undefined): void;
  close(): Promise<void>;
}

export async function startRecordingReference(options: { host: string }): Promise<RecordingReference> {
  const side: ClientSide = { recorded: [], staged: undefined };
  const context: ReferenceContext = {
    urls: { base: "", contacts: "", messaging: "" },
    faults: new Set(),
    variant: "standard",
  };
  const routes = clientRoutes(context, side);
  const running: Listening[] = [];
  try {
    for (const name of SERVER_NAMES) {
      const listening = await listen(routes[name], { host: options.host, port: 0 });
      running.push(listening);
      context.urls[name] = listening.boundUrl;
    }
  } catch (error) {
    await Promise.all(running.map((l) => l.close()));
    throw error;
  }
  return {
    urls: context.urls,
    user: { username: DEMO_USER.username, password: DEMO_USER.password },
    takeRecording: () => side.recorded.splice(0),
    stage: (condition) => {
      side.staged = condition && { condition, spent: false };
    },
    close: async () => {
      await Promise.all(running.map((l) => l.close()));
    },
  };
}
