/**
 * How many scenarios a run takes at once when `--parallel` is not given: chosen from the
 * target's round trip as measured after the probe (probe.ts, roundTrip), not from its address
 * (a loopback URL may be a tunnel to another continent; a LAN host may answer in a fraction of
 * a millisecond).
 *
 * On one machine a request waits well under a millisecond, and the run is bound by CPU: one
 * scenario at a time is fastest. Over a network each request waits a round trip while the CPU
 * has nothing to do, so more scenarios run at once, as many as keep the CPU busy while they
 * wait, up to a bound that stays polite to the target. They run in the one process
 * (concurrent-scenarios.ts), so they cost no process starts and little memory.
 *
 * @example
 *   scenariosAtOnce(0.4) // 1: the same machine
 *   scenariosAtOnce(50) // 64: a target 50 ms away
 */
import { NEARBY_MS } from "../wire/probe.ts";

/**
 * About half the CPU time sxd spends on one request of the suite (the whole suite, ~600
 * requests, runs in about 1 s on one machine, the reference and the process start included):
 * while one scenario waits a round trip, that many over this figure can do their work. Half,
 * since most of a far scenario's time is waiting: measured over 50 ms, 64 at once finished
 * the suite in 1.8 to 2.3 s where 32 took 2.3 to 2.5 s, at the same memory.
 */
export const CPU_MS_PER_REQUEST = 0.75;

/** The most scenarios at once: each holds a connection to the target open. */
export const MOST_AT_ONCE = 64;

/**
 * The scenarios to run at once for a target `roundTripMs` away (its slowest URL's). Where the
 * description names the resources the snapshot scenarios update (`namedResources`, each one
 * scenario's at a time), no more than those: the scenarios past them would wait their turn,
 * and one that waits too long is not run.
 */
export function scenariosAtOnce(roundTripMs: number, namedResources?: number): number {
  if (!Number.isFinite(roundTripMs) || roundTripMs < NEARBY_MS) return 1;
  const most = Math.min(MOST_AT_ONCE, namedResources ?? MOST_AT_ONCE);
  return Math.max(1, Math.min(most, Math.max(2, Math.ceil(roundTripMs / CPU_MS_PER_REQUEST))));
}

/** The scenarios to take at once, from the slowest round trip, said on the progress line. */
export function chosenAtOnce(
  roundTrips: ReadonlyMap<string, number>,
  namedResources: number | undefined,
  progress: (line: string) => void,
): number {
  if (roundTrips.size === 0) {
    progress("the round trip could not be timed: one scenario at a time");
    return 1;
  }
  const slowest = Math.max(...roundTrips.values());
  const atOnce = scenariosAtOnce(slowest, namedResources);
  const ms = slowest < 10 ? slowest.toFixed(1) : slowest.toFixed(0);
  progress(`round trip ${ms} ms: ${atOnce > 1 ? `${atOnce} scenarios at once` : "one scenario at a time"}`);
  return atOnce;
}
