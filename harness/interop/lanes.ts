/**
 * How `sxd interop` schedules its cells: a server's cells in lanes by what of its state they
 * share, a count of slots the cells of every server take, and a pool of servers up at once.
 */
import type { TargetDescription } from "../description/target.ts";
import type { InteropTask } from "../evidence/interop-document.ts";

export type PlannedCell = { client: string; server: string; task: InteropTask };

/**
 * A server's cells in lanes: the cells of a lane run one after another, the lanes at once.
 * Cells share nothing, and each is a lane of its own, where each works on state of its own:
 * the digest tasks (every client gets nonces of its own, answers only the challenges it got,
 * and is judged on its own exchange), update and history on a fresh entry each. They share the
 * server's state, and go one after another, where the task's subject is the same for every
 * client: the entry the description names (snapshots.resources), and the export (one user's
 * contact list, and the result on the messaging server that the effect is read from).
 */
export function lanesOf(cells: readonly PlannedCell[], target: TargetDescription): PlannedCell[][] {
  const named = target.snapshots?.resources?.[0]?.path !== undefined;
  const shared = (task: InteropTask) =>
    task === "export" ? "export" : (task === "update" || task === "history") && named ? "entry" : undefined;
  const lanes = new Map<string, PlannedCell[]>();
  for (const [position, cell] of cells.entries()) {
    const key = shared(cell.task) ?? `cell ${position}`;
    lanes.set(key, [...(lanes.get(key) ?? []), cell]);
  }
  return [...lanes.values()];
}

/** At most `limit` holders at once: take waits for a slot, give frees one. */
export function slotsOf(limit: number): { take(): Promise<void>; give(): void } {
  let free = Math.max(1, limit);
  const waiting: (() => void)[] = [];
  return {
    take: () => {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give: () => {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/** Runs `work` on each item, at most `limit` at once. */
export async function atMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
