/**
 * How long a client's run of a cell may take. A time limit in wall-clock milliseconds is a
 * different limit on a busy machine: a client that takes 6 s alone takes 15 s behind two busy
 * processes on each core. So the limit a cell gets is the one given (the client's own `timeout`
 * in the matrix file, or --task-timeout) stretched by how many processes wait for each core
 * when the cell starts; a cell's result then does not depend on what else the machine runs.
 *
 *   scaledLimitMs(10_000, { runnable: 6, cores: 2 }) // 30000: three processes per core
 */
import { availableParallelism, loadavg } from "node:os";

export interface Load {
  /** Processes running or waiting to run, on average over the last minute (the load average). */
  runnable: number;
  cores: number;
}

/** The machine's load now. */
export function currentLoad(): Load {
  return { runnable: loadavg()[0] ?? 0, cores: availableParallelism() };
}

/** At most this many times the given limit, so a run stays bounded on any machine. */
export const MOST_STRETCH = 8;

/** The limit stretched by the processes per core beyond one, never shortened, at most MOST_STRETCH times. */
export function scaledLimitMs(givenMs: number, load: Load): number {
  const perCore = load.cores > 0 ? load.runnable / load.cores : 1;
  const stretch = Math.min(MOST_STRETCH, Math.max(1, Number.isFinite(perCore) ? perCore : 1));
  return Math.round(givenMs * stretch);
}
