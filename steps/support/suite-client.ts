/**
 * The HTTP client a scenario gets, with the run's limits, pace and extra headers. One process
 * runs its scenarios one after another: they share connections, as a browser would, instead
 * of each opening its own (a round trip each over a slow network).
 */

import { type TlsSettings, targetDispatcher } from "../../harness/dispatcher.ts";
import type { PeerRun } from "../../harness/peer.ts";
import { RateLimits, type RateParameters } from "../../harness/rate-limits.ts";
import { RunLimits, type RunLimitsParameters } from "../../harness/run-limits.ts";
import { headersFor, type TargetDescription } from "../../harness/target.ts";
import type { Dispatcher } from "../../harness/undici.ts";
import { HttpClient } from "./http.ts";

/** The world parameters of a run (harness/run.ts sets them). */
export interface SuiteParameters {
  target: TargetDescription;
  /** Per HTTP request. */
  timeoutMs: number;
  /**
   * A messaging server whose configured contacts server is down (EXP-8). The CLI starts one
   * beside the bundled reference; for an external target it is absent and EXP-8 is not run.
   */
  outageMessagingUrl?: string;
  /** Where sxd plays one side of the export itself (--peer). */
  peer?: PeerRun;
  /** Reply bodies beyond this many bytes fail the request. */
  maxBodyBytes: number;
  limits: RunLimitsParameters;
  rate: RateParameters;
  tls?: TlsSettings;
  /** `sxd/<version>`. */
  userAgent?: string;
  /**
   * Set where one process runs the scenarios and one that waits for the target's clock (@clock)
   * is planned: a resource is made for it before the first scenario. Its X-Sxd-Scenario label.
   */
  earlyResourceFor?: string;
}

let connections: Dispatcher | undefined;

export function suiteClient(parameters: SuiteParameters): { http: HttpClient; limits: RunLimits } {
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
