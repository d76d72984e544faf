/**
 * A walk along a resource's stored versions, as a server takes it that keeps each version as a
 * document in storage (a file, a row, a difference to apply): each step reads the document back
 * (written out and parsed again here) and waits for what a read from storage takes. The
 * reference's store never walks (a snapshot is an index into its versions); only fault modes do
 * (faults.ts, `walksHistory`), to show `sxd limits` a server whose cost grows with its history.
 * The wait makes the growth large per version and costs no processor time; held on the
 * processor instead, it made a busy machine's scheduler hold the whole process back, hiding it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parseEntry, serialiseEntry } from "./entry.ts";
import type { Version } from "./store.ts";

/**
 * What one read from storage takes: a store across the network's. Long enough that 30 versions
 * (the tests' largest size) add 150 ms of waiting, where a loaded two-core machine's spread
 * between repeats reached 46 ms: at 2 ms a read, LIM-2's growth was "unclear" under that load.
 */
export const STORAGE_READ_MS = 5;

/** Walks versions[from] to versions[to - 1]; returns how many steps read their document back whole. */
export async function walkHistory(versions: readonly Version[], from: number, to: number): Promise<number> {
  let whole = 0;
  let steps = 0;
  for (let k = Math.max(0, from); k < Math.min(to, versions.length); k++) {
    const { entry, lastModified } = versions[k];
    const document = serialiseEntry(entry, { self: entry.id }, new Date(lastModified));
    if (parseEntry(document).ok) whole++;
    steps++;
  }
  await sleep(steps * STORAGE_READ_MS);
  return whole;
}
