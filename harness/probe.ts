/** One request to a target's root before any scenario runs: any HTTP reply means it is there. */

import { type TlsSettings, targetDispatcher } from "./dispatcher.ts";
import { describeTransportError, discard } from "./exchange.ts";
import { request } from "./undici.ts";

/** Returns undefined when the URL answers, else why it does not. */
export async function probe(url: string, timeoutMs: number, tls: TlsSettings = {}): Promise<string | undefined> {
  const agent = targetDispatcher(timeoutMs, tls);
  try {
    const reply = await request(url, { method: "GET", dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
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
export async function probeUntil(
  url: string,
  options: { timeoutMs: number; waitSeconds: number; tls?: TlsSettings; progress: (line: string) => void },
): Promise<string | undefined> {
  const started = Date.now();
  const until = started + options.waitSeconds * 1000;
  let problem = await probe(url, options.timeoutMs, options.tls);
  if (problem === undefined || options.waitSeconds === 0) return problem;
  options.progress(`waiting up to ${options.waitSeconds} s for ${url} (${problem})`);
  while (problem !== undefined && Date.now() + RETRY_MS < until) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    problem = await probe(url, options.timeoutMs, options.tls);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  options.progress(
    problem === undefined ? `${url} answered after ${seconds} s` : `gave up on ${url} after ${seconds} s`,
  );
  return problem;
}
