/**
 * The snapshot LIM cases (ROWS.md, LIM): what a chain of N versions costs to read (LIM-1),
 * to update (LIM-2) and to delete (LIM-3), and what an entry of S bytes costs to put (LIM-6).
 * A server that keeps each version whole reads s1 of a long chain as fast as of a short one; one
 * that keeps differences and replays them does not. Each case works on resources it makes under
 * snapshots.collection, and deletes them.
 */

import { unstatedReason } from "../../harness/description/target.ts";
import type { LimitCase, LimitContext } from "../../harness/limits/case.ts";
import { pointOf } from "../../harness/limits/growth.ts";
import { LimitChains, REQUESTS_PER_VERSION } from "./limit-chains.ts";
import { type ScratchResource, snapshotUrl } from "./snapshots.ts";

/**
 * Reads a repeat takes the median of: one GET costs a fraction of a millisecond, and one held up
 * by the machine's other work would weigh on a mean.
 */
const READS_PER_REPEAT = 5;
/**
 * Updates a repeat of LIM-2 takes: one. Each adds a version, so a size's chain is N + k long at
 * its k-th repeat; that drift is the same at every size, and a server whose update walks the
 * history shows it inside each size's spread, beside the change between sizes. At three updates
 * a repeat (their median), five repeats on sizes 1 and 30 drifted by a third of the change and
 * the walk came out "unclear"; the median over the repeats already keeps a held-up update out.
 */
const UPDATES_PER_REPEAT = 1;

export function limitCases(context: LimitContext): LimitCase[] {
  return [readingHistory(context), updating(context), deleting(context), entrySize(context)];
}

/** Not run where sxd may not make resources (the key to state), or may only update fixed ones. */
function notRun(context: LimitContext): string | undefined {
  if (context.target.snapshots.collection === undefined && context.target.snapshots.resources !== undefined)
    return "the description names snapshots.resources only: sxd limits measures on resources it makes under snapshots.collection";
  return unstatedReason(context.target, "snapshots");
}

const N = { name: "N", unit: "versions" };
const sizesOfChains = [10, 100, 1000];
const snapshotAt = (resource: ScratchResource, n: number) => snapshotUrl(resource, n);

async function medianOf(times: number, time: () => Promise<number>): Promise<number> {
  const costs: number[] = [];
  for (let i = 0; i < times; i++) costs.push(await time());
  return pointOf(0, costs).median;
}

/** LIM-1: GET of the current resource, of s1 and of the middle snapshot on a chain of N versions. */
function readingHistory(context: LimitContext): LimitCase {
  const chains = new LimitChains(context);
  const bySize = new Map<number, ScratchResource>();
  return {
    id: "LIM-1",
    size: N,
    defaultSizes: sizesOfChains,
    smallestSize: 3,
    series: [
      { name: "GET current", unit: "ms" },
      { name: "GET s1", unit: "ms" },
      { name: "GET middle", unit: "ms" },
    ],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (n, repeats) => n * REQUESTS_PER_VERSION + repeats * 3 * READS_PER_REPEAT,
    paced: (n) => chains.paced(n),
    async prepare(n) {
      bySize.set(n, await chains.chain(n));
    },
    async measure(n) {
      const resource = bySize.get(n) as ScratchResource;
      return {
        "GET current": await medianOf(READS_PER_REPEAT, () => chains.timedGet(resource.url)),
        "GET s1": await medianOf(READS_PER_REPEAT, () => chains.timedGet(snapshotAt(resource, 1))),
        "GET middle": await medianOf(READS_PER_REPEAT, () =>
          chains.timedGet(snapshotAt(resource, Math.max(1, Math.floor(n / 2)))),
        ),
      };
    },
    cleanup: () => chains.cleanup(),
  };
}

/**
 * LIM-2: one conditional PUT on a chain of N versions, sent once the server's clock has passed
 * the version before (limit-chains.ts): a server that holds a quick update for its second would
 * otherwise show its wait, at the sizes measured last in each turn, as growth.
 */
function updating(context: LimitContext): LimitCase {
  const chains = new LimitChains(context);
  const bySize = new Map<number, ScratchResource>();
  let under: string | undefined;
  return {
    id: "LIM-2",
    size: N,
    defaultSizes: sizesOfChains,
    series: [{ name: "PUT", unit: "ms" }],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (n, repeats) => (n + repeats * UPDATES_PER_REPEAT) * REQUESTS_PER_VERSION,
    paced: (n, repeats) => chains.paced(n + repeats * UPDATES_PER_REPEAT, true),
    async prepare(n) {
      bySize.set(n, await chains.chain(n, "", true));
    },
    async measure(n) {
      const resource = bySize.get(n) as ScratchResource;
      const update = await chains.update(resource, "", "pass");
      under = update.under;
      return { PUT: update.ms };
    },
    condition: () => under,
    cleanup: () => chains.cleanup(),
  };
}

/** LIM-3: DELETE of a resource with N snapshots; afterwards its oldest and newest snapshots are gone. */
function deleting(context: LimitContext): LimitCase {
  const chains = new LimitChains(context);
  const bySize = new Map<number, ScratchResource[]>();
  return {
    id: "LIM-3",
    size: { name: "N", unit: "snapshots" },
    defaultSizes: sizesOfChains,
    series: [{ name: "DELETE", unit: "ms" }],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (n, repeats) => repeats * ((n + 1) * REQUESTS_PER_VERSION + 3),
    // The DELETE and the two reads after it: each repeat's chain is built as the size is prepared.
    repeatRequests: () => 3,
    paced: (n, repeats) => chains.paced(repeats * (n + 1)),
    async prepare(n, repeats) {
      const made: ScratchResource[] = [];
      bySize.set(n, made);
      for (let r = 0; r < repeats; r++) made.push(await chains.chain(n + 1));
    },
    async measure(n, repeat) {
      const resource = (bySize.get(n) as ScratchResource[])[repeat];
      const ms = await chains.timedDelete(resource.url);
      for (const k of [1, n])
        await chains.send("GET", snapshotAt(resource, k), `GET s${k} after the DELETE`, (status) => status >= 400);
      return { DELETE: ms };
    },
    cleanup: () => chains.cleanup(),
  };
}

/**
 * LIM-6: a PUT of an entry of S bytes, each size on a resource of its own, sent once the
 * server's clock has passed the version before (as LIM-2's); and a GET of a small resource after it.
 */
function entrySize(context: LimitContext): LimitCase {
  const chains = new LimitChains(context);
  const resources: { small?: ScratchResource; large: Map<number, ScratchResource> } = { large: new Map() };
  let under: string | undefined;
  return {
    id: "LIM-6",
    size: { name: "S", unit: "bytes" },
    defaultSizes: [1_000, 100_000, 1_000_000, 10_000_000],
    series: [
      { name: "PUT of the entry", unit: "ms", expected: "linear" },
      { name: "GET of a small resource after it", unit: "ms" },
    ],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (_s, repeats) => 2 + repeats * (REQUESTS_PER_VERSION + READS_PER_REPEAT),
    async prepare(bytes) {
      resources.small ??= await chains.chain(1);
      resources.large.set(bytes, await chains.chain(1));
    },
    async measure(bytes) {
      const put = await chains.update(resources.large.get(bytes) as ScratchResource, "x".repeat(bytes), "pass");
      under = put.under;
      const small = resources.small as ScratchResource;
      return {
        "PUT of the entry": put.ms,
        "GET of a small resource after it": await medianOf(READS_PER_REPEAT, () => chains.timedGet(small.url)),
      };
    },
    condition: () => under,
    cleanup: () => chains.cleanup(),
  };
}
