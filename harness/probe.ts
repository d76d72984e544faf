/** One request to a target's root before any scenario runs: any HTTP reply means it is there. */
import { type TlsSettings, targetDispatcher } from "./dispatcher.ts";
import { describeTransportError, discard } from "./transport.ts";
import { request } from "./undici.ts";

/** Returns undefined when the URL answers, else why it does not. */
export async function probe(
  url: string,
  timeoutMs: number,
  tls: TlsSettings = {},
  stop?: AbortSignal,
): Promise<string | undefined> {
  const agent = targetDispatcher(timeoutMs, tls);
  const timeout = AbortSignal.timeout(timeoutMs);
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
