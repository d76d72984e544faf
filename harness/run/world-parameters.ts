/**
 * What a run hands every scenario (cucumber's world parameters): the run (run.ts) builds one,
 * the steps' world (steps/support/world.ts) reads it. Every value crosses into parallel
 * workers as JSON, so each is plain data.
 */

import type { PeerRun } from "../description/peer.ts";
import type { TargetDescription } from "../description/target.ts";
import type { TlsSettings } from "../wire/dispatcher.ts";
import type { RateParameters } from "../wire/rate-limits.ts";
import type { RunLimitsParameters } from "../wire/run-limits.ts";
import type { RunStatePlace } from "../wire/run-state.ts";

/**
 * Values a scenario samples to judge whether they can be predicted (nonces, tokens): enough
 * for the bit tests to say something, few enough to take about a second over a near network.
 */
export const DEFAULT_SECURITY_SAMPLES = 100;

export interface WorldParameters {
  target: TargetDescription;
  /** Per HTTP request (--timeout). */
  timeoutMs: number;
  /**
   * A messaging server whose configured contacts server is down (the outage row). The CLI starts one
   * beside the bundled reference; for an external target it is absent and that row is not run.
   */
  outageMessagingUrl?: string;
  /** Where sxd plays one side of the export itself (--peer). */
  peer?: PeerRun;
  /** Reply bodies beyond this many bytes fail the request. */
  maxBodyBytes: number;
  /** Values sampled where a scenario judges whether they can be predicted (--security-samples); absent: the default. */
  securitySamples?: number;
  limits: RunLimitsParameters;
  rate: RateParameters;
  tls?: TlsSettings;
  /** `sxd/<version>`. */
  userAgent?: string;
  /**
   * Set where one process runs the scenarios and one that waits for the target's clock (CLOCK_STEP)
   * is planned: a resource is made for it before the first scenario. Its X-Sxd-Scenario label.
   */
  earlyResourceFor?: string;
  /** Scenarios this process runs at once (harness/run/concurrent-scenarios.ts); absent: one at a time. */
  scenariosAtOnce?: number;
}

/** Requests in a row that got no reply, after which the run gives up on the target. */
const FAILURES_IN_A_ROW = 3;

/** The run's limits, its deadline counted from now: the whole group's, where the run is a group of repeats. */
export function runLimits(deadlineSeconds: number, place: RunStatePlace): RunLimitsParameters {
  return {
    ...place,
    deadlineSeconds,
    deadlineAt: Date.now() + deadlineSeconds * 1000,
    failuresInARow: FAILURES_IN_A_ROW,
  };
}
