/** One request to a target's root before any scenario runs: any HTTP reply means it is there. */
import { type TlsSettings, targetDispatcher } from "./dispatcher.ts";
import { describeTransportError, discard, replyTimeLimit } from "./transport.ts";
import { request } from "./undici.ts";

/** Below this round trip, in ms, the target counts as on this machine, or as near (concurrency.ts). */
export const NEARBY_MS = 5;

/** Returns undefined when the URL answers, else why it does not. */
export async function probe(
  url: string,
  timeoutMs: number,
  tls: TlsSettings = {},
  stop?: AbortSignal,
): Promise<string | undefined> {
  const agent = targetDispatcher(timeoutMs, tls);
  const timeout = replyTimeLimit(timeoutMs);
  try {
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    const reply = await request(url, { method: "GET", dispatcher: agent, signal });
    // A status line and headers are an answer; the body may be huge, endless or slow.
    discard(reply.body);
    return undefined;
  } catch (error) {
    return describeTransportError(error, timeoutMs);
  } finally {
    await agent.destroy();
  }
}

/** Pause between two probes of a target that is still starting. */
const RETRY_MS = 500;

/**
 * Probes until the URL answers or `waitSeconds` have passed (`--wait`, for a server started
 * just before sxd); `progress` is told once when the waiting starts and once when it ends.
 */
async function probeUntil(url: string, options: ProbeOptions & { stop?: AbortSignal }): Promise<string | undefined> {
  const { stop } = options;
  const started = Date.now();
  const until = started + options.waitSeconds * 1000;
  let problem = await probe(url, options.timeoutMs, options.tls, stop);
  if (problem === undefined || options.waitSeconds === 0) return problem;
  options.progress(`waiting up to ${options.waitSeconds} s for ${url} (${problem})`);
  while (problem !== undefined && !stop?.aborted && Date.now() + RETRY_MS < until) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    problem = await probe(url, options.timeoutMs, options.tls, stop);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  options.progress(
    problem === undefined ? `${url} answered after ${seconds} s` : `gave up on ${url} after ${seconds} s`,
  );
  return problem;
}

/** Requests timed on the kept-alive connection, at most, after the one that opens it. */
const TIMED_REQUESTS = 3;
/** Two timed requests this close (a fraction of the shorter) say the round trip: no third. */
const AGREEING = 0.1;
/** Of each timed reply's body, at most this much is read, for so long; beyond, the timing stops there. */
const TIMED_BODY_BYTES = 64 * 1024;
const TIMED_BODY_MS = 1000;

/**
 * The round trip to a URL that answered the probe, in ms: the first request opens a kept-alive
 * connection (`problem` says why it got no answer, where the target stopped answering since),
 * and the round trip is the shortest time to a reply's headers of a few requests on that
 * connection (undefined where it cannot be timed). The opening request's own time would not do:
 * it holds the connection's set-up, and this process's warming up (loading and compiling the
 * HTTP client), and on a busy machine one request to a server on the same machine can wait tens
 * of milliseconds for a core, which would make it look far away; the shortest of a few is the
 * one that waited least, and two that agree end the timing. Stops at one that is short enough
 * to say "near" (`nearMs`), at a body that is large or slow, and after `timeoutMs` in all: a
 * target that answers the probe and then hangs costs one timeout here.
 */
export async function roundTrip(
  url: string,
  options: { timeoutMs: number; tls?: TlsSettings; nearMs: number },
): Promise<{ problem: string } | { ms: number | undefined }> {
  const agent = targetDispatcher(options.timeoutMs, options.tls);
  const signal = replyTimeLimit(options.timeoutMs);
  const times: number[] = [];
  const shortest = () => Math.min(...times);
  const agreed = () => times.length >= 2 && Math.max(...times) - shortest() <= shortest() * AGREEING;
  try {
    for (let i = 0; i <= TIMED_REQUESTS && !(shortest() < options.nearMs) && !agreed(); i++) {
      const sent = performance.now();
      let reply: Awaited<ReturnType<typeof request>>;
      try {
        reply = await request(url, { method: "GET", dispatcher: agent, signal });
      } catch (error) {
        if (i === 0) return { problem: describeTransportError(error, options.timeoutMs) };
        throw error;
      }
      if (i > 0) times.push(performance.now() - sent);
      // The connection is used again only once the body is read to its end.
      const draining = AbortSignal.any([signal, replyTimeLimit(TIMED_BODY_MS)]);
      await reply.body.dump({ limit: TIMED_BODY_BYTES, signal: draining }).catch(() => undefined);
      if (!reply.body.readableEnded) break;
    }
  } catch {
    // The probe has answered: a round trip that cannot be timed leaves the choice to the caller.
  } finally {
    await agent.destroy();
  }
  return { ms: times.length > 0 ? shortest() : undefined };
}

/**
 * The round trip (roundTrip) to each URL, timed at once, in ms; a URL that cannot be timed (or
 * no longer answers) is left out. Called once the probe has its answers and this process has
 * loaded what it loads before the run: loading holds the process for tens of milliseconds at a
 * time, and a request timed meanwhile would count that wait as distance.
 */
export async function timeRoundTrips(
  urls: readonly string[],
  options: { timeoutMs: number; tls?: TlsSettings },
): Promise<Map<string, number>> {
  const timed = await Promise.all(urls.map((url) => roundTrip(url, { ...options, nearMs: NEARBY_MS })));
  const roundTrips = new Map<string, number>();
  timed.forEach((t, i) => {
    if ("ms" in t && t.ms !== undefined) roundTrips.set(urls[i], t.ms);
  });
  return roundTrips;
}

interface ProbeOptions {
  timeoutMs: number;
  waitSeconds: number;
  tls?: TlsSettings;
  progress: (line: string) => void;
}

/**
 * Probes the URLs at once (one after another, each would add its round trips) and returns the
 * first that does not answer, as soon as that is known; the other probes are then stopped.
 */
export function firstUnreachable(
  urls: readonly string[],
  options: ProbeOptions,
): Promise<{ url: string; problem: string } | undefined> {
  const stop = new AbortController();
  let answered = 0;
  return new Promise((resolve) => {
    if (urls.length === 0) resolve(undefined);
    for (const url of urls) {
      void probeUntil(url, { ...options, stop: stop.signal }).then((problem) => {
        if (problem === undefined) {
          if (++answered === urls.length) resolve(undefined);
        } else if (!stop.signal.aborted) {
          stop.abort();
          resolve({ url, problem });
        }
      });
    }
  });
}
