/**
 * The deadline's planning in sxd limits, pure: the time a size is guessed to take from the
 * requests a case says it sends and the time its requests have taken so far, and the size a
 * case is lowered to where the one asked would pass the time left.
 */
import type { LimitCase } from "./case.ts";

/** The requests a case has sent and the time they took; before any, the guess it starts from. */
export interface Pace {
  requests: number;
  ms: number;
  firstGuess: number;
}

export function msPerRequest(pace: Pace): number {
  return pace.requests === 0 ? pace.firstGuess : Math.max(0.05, pace.ms / pace.requests);
}

/** The requests of one repeat's measure: the case's own count, else the share of requests() that grows with the repeats. */
export function repeatRequests(limitCase: LimitCase, size: number, repeats: number): number {
  return (
    limitCase.repeatRequests?.(size) ?? (limitCase.requests(size, repeats) - limitCase.requests(size, 0)) / repeats
  );
}

/**
 * The largest size above the one before (by half again at least, or the fit learns nothing new)
 * whose guessed time fits in what is left; undefined where none does.
 */
export function largestFitting(guessAt: (size: number) => number, before: number, asked: number, left: number) {
  const least = Math.max(before + 1, Math.ceil(before * LEAST_STEP));
  if (least >= asked || guessAt(least) > left) return undefined;
  let [fits, over] = [least, asked];
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (guessAt(middle) <= left) fits = middle;
    else over = middle;
  }
  return fits;
}

/** A lowered size is at least this times the one before it. */
const LEAST_STEP = 1.5;
