/**
 * After each LIM case, a plain GET of the target's base URL: any answer below 500 shows the
 * server still serves; a 5xx or no answer is a finding of the case before it.
 */

import { headersFor, type TargetDescription } from "../description/target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { type TlsSettings, targetDispatcher } from "../wire/dispatcher.ts";
import { describeTransportError } from "../wire/transport.ts";
import { request } from "../wire/undici.ts";

/** The exchange of the plain GET where the server did not answer it normally; undefined where it did. */
export async function plainGetFails(
  target: TargetDescription,
  timeoutMs: number,
  tls: TlsSettings,
): Promise<Exchange | undefined> {
  const url = `${target.baseUrl}/`;
  const headers = headersFor(target, url);
  const exchange: Exchange = {
    method: "GET",
    url,
    requestHeaders: headers,
    note: "a plain GET after the case: does the server still answer?",
    startedAt: new Date().toISOString(),
    durationMs: 0,
  };
  const dispatcher = targetDispatcher(timeoutMs, tls);
  const started = performance.now();
  try {
    const reply = await request(url, {
      method: "GET",
      headers,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await reply.body.text()).slice(0, 2000);
    const replyHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(reply.headers))
      if (value !== undefined) replyHeaders[name] = Array.isArray(value) ? value : [value];
    exchange.response = { status: reply.statusCode, headers: replyHeaders, body };
  } catch (error) {
    exchange.error = describeTransportError(error, timeoutMs);
  } finally {
    exchange.durationMs = Math.round(performance.now() - started);
    await dispatcher.close().catch(() => undefined);
  }
  return exchange.response !== undefined && exchange.response.status < 500 ? undefined : exchange;
}
