/**
 * The messaging server's backend requests as they were sent, for sxd's own messaging server
 * (`sxd test --peer messaging`): each request with its reply, or why none came, and the
 * request of sxd's that made the server ask, so the scenario's transcript can show it as
 * the contacts side's backend.ts shows what sxd's contacts server received.
 *
 *   fetchContacts(url, user, { fetcher: recordingFetcher((sent) => kept.push(sent), request), … })
 */
import type { BackendSent } from "../../lib/export-backend.ts";
import type { ServerRequest } from "../http/reply.ts";
import { SCENARIO_HEADER } from "./backend.ts";
import { type BackendReply, type Fetcher, nodeGet } from "./import-store.ts";

/** `fetcher`, with every request it makes told to `record` once its reply is read or it failed. */
export function recordingFetcher(
  record: (sent: BackendSent) => void,
  cause: Pick<ServerRequest, "method" | "target" | "headers">,
  fetcher: Fetcher = nodeGet,
): Fetcher {
  const scenario = cause.headers[SCENARIO_HEADER];
  const because = { method: cause.method, target: cause.target, ...(typeof scenario === "string" ? { scenario } : {}) };
  return async (url, init) => {
    const started = Date.now();
    const done = (outcome: Pick<BackendSent, "status" | "responseHeaders" | "body" | "error">) =>
      record({
        method: init.method ?? "GET",
        url,
        headers: { ...init.headers },
        ...outcome,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        cause: because,
      });
    let reply: BackendReply;
    let text: string;
    try {
      reply = await fetcher(url, init);
      text = await reply.text();
    } catch (error) {
      // An abort says only "aborted": the time ran out, which the record says in words.
      const why = init.signal.aborted ? "no reply in the time the backend request is given" : undefined;
      done({ error: why ?? ((error as Error).message || String(error)) });
      throw error;
    }
    done({ status: reply.status, responseHeaders: Object.fromEntries(reply.headers.entries?.() ?? []), body: text });
    // The body is read once here; the caller reads the same text.
    return { status: reply.status, headers: reply.headers, text: async () => text };
  };
}
