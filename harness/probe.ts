/** One request to a target's root before any scenario runs: any HTTP reply means it is there. */
import { Agent, request } from "undici";
import { describeTransportError, discard } from "./exchange.ts";

/** Returns undefined when the URL answers, else why it does not. */
export async function probe(url: string, timeoutMs: number): Promise<string | undefined> {
  const agent = new Agent({ connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
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
