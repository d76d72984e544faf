/**
 * Reads a step can send at once: GETs of addresses it knows beforehand, none waiting for
 * another's reply. Over a network each request sent one after another adds a round trip.
 *
 *   await getEach(world, urls, (reply, url) => expectThat(reply.response.status === 404, …));
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import type { SxdWorld } from "./world.ts";

/** GETs one step sends at once at most (a resource named in the description may have hundreds of snapshots). */
const READS_AT_ONCE = 6;

/**
 * GETs of addresses known beforehand, none waiting for another's reply: sent at once, a few
 * at a time (over a network each would add a round trip), in the order given, then judged in
 * that order, as if sent one after another: the first that fails `check` (or got no reply) is
 * the one the step reports. Only reads go this way; they change nothing a later read sees.
 */
export async function getEach(
  world: SxdWorld,
  urls: readonly string[],
  check: (reply: Answered, url: string, index: number) => void,
): Promise<void> {
  const outcomes: PromiseSettledResult<Answered>[] = [];
  let next = 0;
  // Each sender takes the next address when its reply is in: they go out in the order given.
  const sender = async () => {
    for (let index = next++; index < urls.length; index = next++) {
      outcomes[index] = await world.http.send("GET", urls[index] as string).then(
        (value) => ({ status: "fulfilled", value }),
        (reason: unknown) => ({ status: "rejected", reason }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, urls.length) }, sender));
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === "rejected") throw outcome.reason;
    check(outcome.value, urls[index] as string, index);
  }
}
