/**
 * A group of repeats in turn (`--repeat N`): one repeat after the other, each saying which it is
 * as it starts, until N have run or the run's limits let no further one start (the deadline of
 * the whole group, the breaker, a signal). The group is judged from what each repeat gave
 * (harness/judging/repeats.ts). And the signal that stops a run, a group or one repeat alike.
 */
import type { Writable } from "node:stream";
import type { Io } from "../io.ts";
import { RunLimits } from "../wire/run-limits.ts";
import type { RunStatePlace } from "../wire/run-state.ts";

export interface RepeatsRun<T> {
  /** What each repeat gave, in the order they ran. */
  repeats: T[];
  /** Where fewer than asked ran: the warning that says which did not, and why. */
  stopped?: string;
}

/**
 * Runs `once` for repeats 1 to `asked`, each given what the repeats before it gave; before each
 * after the first, `stopReason` says why none may start any more, if so. A group of one says
 * nothing of repeats.
 */
export async function inTurn<T>(
  asked: number,
  progress: Writable,
  stopReason: () => string | undefined,
  once: (repeat: number, earlier: readonly T[]) => Promise<T>,
): Promise<RepeatsRun<T>> {
  const repeats: T[] = [];
  for (let repeat = 1; repeat <= asked; repeat++) {
    const reason = repeat > 1 ? stopReason() : undefined;
    if (reason !== undefined) {
      const left = repeat === asked ? `repeat ${repeat}` : `repeats ${repeat} to ${asked}`;
      return { repeats, stopped: `${left} of ${asked} did not start: ${reason}` };
    }
    if (asked > 1) progress.write(`sxd: repeat ${repeat} of ${asked}\n`);
    repeats.push(await once(repeat, repeats));
  }
  return { repeats };
}

/** The signal that stopped the run, once one did, and how to stop listening. */
export interface Interruption {
  signal?: NodeJS.Signals;
  stopListening?: () => void;
}

/** Where the run hears it should stop (the shell's Ctrl-C): given what to do then, it returns how to stop listening. */
export type Interruptions = (interrupt: (signal: NodeJS.Signals) => void) => () => void;

/** From here on an interruption lets no further scenario, nor repeat, start. */
export function listenForInterruptions(
  listen: Interruptions | undefined,
  io: Io,
  place: RunStatePlace,
  interruption: Interruption,
): void {
  interruption.stopListening = listen?.((signal) => {
    interruption.signal = signal;
    RunLimits.interrupt(place, `the run was interrupted (${signal})`);
    io.stderr.write(`sxd: ${signal}: no further scenario starts; the running ones finish, then the reports\n`);
  });
}
