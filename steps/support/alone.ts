/**
 * Scenarios tagged @alone run while no other scenario runs: staging an outage takes a
 * server away from every scenario, so under --parallel the others wait for it, and it
 * waits for them. Pure: the step definitions hand it to cucumber's setParallelCanAssign.
 */
export const ALONE_TAG = "@alone";

interface Tagged {
  tags: ReadonlyArray<{ name: string }>;
}

const alone = (pickle: Tagged) => pickle.tags.some((tag) => tag.name === ALONE_TAG);

/** Whether `candidate` may start while `running` are under way. */
export function mayStartBeside(candidate: Tagged, running: readonly Tagged[]): boolean {
  return running.length === 0 || (!alone(candidate) && !running.some(alone));
}
