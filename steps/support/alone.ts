/**
 * Which scenarios may run beside which, under --parallel and with several scenarios at once in
 * one process alike: the step definitions hand `mayStartBeside` to cucumber's
 * setParallelCanAssign, which both consult before they start a scenario.
 *
 * - A scenario tagged @alone runs while no other scenario runs: staging an outage takes a
 *   server away from every scenario, so the others wait for it, and it waits for them.
 * - A scenario holds what its steps act on that other scenarios share (the export user's copy
 *   and link, say), and two scenarios that hold one thing never run at once: neither sees the
 *   other's work. A step says what it holds where it is defined (`holdsWhileRunning`), so a
 *   scenario holds it by using the step, with no tag to remember.
 *
 *   holdsWhileRunning("the export user", "the client has read the export link from the user's contact list");
 */
export const ALONE_TAG = "@alone";

export interface Scheduled {
  tags: ReadonlyArray<{ name: string }>;
  /** The scenario's steps, its background's among them (cucumber's pickle steps). */
  steps?: ReadonlyArray<{ text: string }>;
}

/** What a step holds while its scenario runs, by the step's text. */
export type HeldBySteps = ReadonlyMap<string, string>;

const heldBySteps = new Map<string, string>();

/** A scenario that has one of these steps holds `shared` while it runs. */
export function holdsWhileRunning(shared: string, ...steps: string[]): void {
  for (const step of steps) heldBySteps.set(step, shared);
}

const alone = (pickle: Scheduled) => pickle.tags.some((tag) => tag.name === ALONE_TAG);

function heldBy(pickle: Scheduled, held: HeldBySteps): Set<string> {
  return new Set((pickle.steps ?? []).flatMap((step) => held.get(step.text) ?? []));
}

/** Whether `candidate` may start while `running` are under way. */
export function mayStartBeside(
  candidate: Scheduled,
  running: readonly Scheduled[],
  held: HeldBySteps = heldBySteps,
): boolean {
  if (running.length === 0) return true;
  if (alone(candidate) || running.some(alone)) return false;
  const wanted = heldBy(candidate, held);
  return wanted.size === 0 || running.every((other) => [...heldBy(other, held)].every((s) => !wanted.has(s)));
}
