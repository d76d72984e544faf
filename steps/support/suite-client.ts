/**
 * The HTTP client a scenario gets, with the run's limits, pace and extra headers. One process
 * runs its scenarios one after another: they share connections, as a browser would, instead
 * of each opening its own (a round trip each over a slow network).
 */

import { headersFor } from "../../harness/description/target.ts";
import type { WorldParameters } from "../../harness/run/world-parameters.ts";
import { targetDispatcher } from "../../harness/wire/dispatcher.ts";
import { RateLimits } from "../../harness/wire/rate-limits.ts";
import { RunLimits } from "../../harness/wire/run-limits.ts";
import type { Dispatcher } from "../../harness/wire/undici.ts";
import { HttpClient } from "./http.ts";

/**
 * The world parameters as a test-run hook (BeforeAll) sees them: cucumber types them as any
 * JSON there, though they are the run's own, as every scenario's world reads them.
 */
export function runParameters(hook: { parameters: object }): WorldParameters {
  return hook.parameters as WorldParameters;
}

let connections: Dispatcher | undefined;

export function suiteClient(parameters: WorldParameters): { http: HttpClient; limits: RunLimits } {
  const { timeoutMs, maxBodyBytes, limits, rate, tls, userAgent, target } = parameters;
  const guard = new RunLimits(limits);
  connections ??= targetDispatcher(timeoutMs, tls);
  const http = new HttpClient({
    dispatcher: connections,
    timeoutMs,
    maxBodyBytes,
    guard,
    rate: new RateLimits(rate),
    tls,
    userAgent,
    extraHeaders: (url: string) => headersFor(target, url),
  });
  return { http, limits: guard };
}

/** After the run: the shared connections are closed. */
export async function closeConnections(): Promise<void> {
  await connections?.destroy();
  connections = undefined;
}
