/**
 * Steps of updates that race (SNAP-15): several clients update the resource with the date of
 * one read, or of a read each, one after the other or at once; at most one per date gets in,
 * and every one that does is kept in the chain. What is sent and judged is in races.ts.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { validatorsOf } from "./checks.ts";
import { chainProblem, notTried, type RacedUpdate, race, raceProblem } from "./races.ts";
import { controlGetsIn, getEachEntry, isSuccess, readCurrent, resourceOf, snapshotUrl } from "./snapshots.ts";

/** The race of the scenario: how many versions the resource had before it, and every update sent. */
const races = new WeakMap<SxdWorld, { before: number; updates: RacedUpdate[] }>();

function raceOf(world: SxdWorld): { before: number; updates: RacedUpdate[] } {
  const found = races.get(world);
  if (!found) throw new Error("no race in this scenario yet: start with 'When <n> clients PUT a version each, …'");
  return found;
}

When(
  /^(\d+) clients PUT a version each, (one after the other|all at once), with the Last-Modified of (one read|a read of its own) as If-Unmodified-Since$/,
  async function (this: SxdWorld, count: string, how: string, reads: string) {
    const resource = resourceOf(this);
    const before = resource.versions.length;
    const shape = { count: Number(count), atOnce: how === "all at once", ownReads: reads === "a read of its own" };
    const updates = await race(this, resource, shape);
    if (typeof updates === "string") return this.notRun(updates);
    races.set(this, { before, updates });
    return undefined;
  },
);

// A server that refuses every update refuses racing ones too: that proves nothing.
Then(
  "where no update got in, the same update with the Last-Modified read now gets in",
  async function (this: SxdWorld) {
    const { updates } = raceOf(this);
    const [first] = updates;
    if (first === undefined || updates.some((update) => isSuccess(update.reply))) return undefined;
    const resource = resourceOf(this);
    resource.attempt = { version: first.version, reply: first.reply };
    await readCurrent(this, resource);
    const problem = await controlGetsIn(this, resource, validatorsOf(resource.lastRead));
    return problem === undefined ? undefined : this.notRun(problem);
  },
);

Then("of the updates sent with one date, at most one got in, and the others got 412", function (this: SxdWorld) {
  const problem = raceProblem(raceOf(this).updates);
  if (problem) fail(problem.expected, problem.got, problem.reply);
});

Then(
  "every update that got in left one snapshot, numbered without a gap or a repeat, and a refused one left nothing",
  async function (this: SxdWorld) {
    const resource = resourceOf(this);
    const { before, updates } = raceOf(this);
    // The control, where it was sent, got in after the race: the last version put.
    const landed = [
      ...updates.filter((u) => isSuccess(u.reply)).map((u) => u.version),
      ...resource.versions.slice(before),
    ];
    // The control sends a refused update again; once in, it is that version's place in the chain.
    const refused = updates
      .filter((u) => !isSuccess(u.reply))
      .map((u) => u.version)
      .filter((version) => !landed.includes(version));
    const urls = [...landed.map((_, i) => snapshotUrl(resource, before + i)), resource.url];
    const places: { title?: string; reply: Answered }[] = [];
    await getEachEntry(this, urls, ({ reply, entry }, i) => {
      places[i] = { title: entry.title, reply };
    });
    const start = resource.versions[before - 1];
    const verdict = chainProblem(
      places.map((place) => place.title),
      start,
      landed,
      refused,
    );
    if ("at" in verdict) {
      const where = verdict.at < landed.length ? `snapshot s${resource.base + before + verdict.at}` : "the resource";
      fail(verdict.expected, `${verdict.got} at ${where}`, places[verdict.at]?.reply);
    }
    const beyond = snapshotUrl(resource, before + landed.length);
    const reply = await this.http.send("GET", beyond);
    expectThat(
      !isSuccess(reply),
      "no snapshot past those the updates that got in left, one each (a status outside 2xx)",
      `status ${reply.response.status} at ${beyond}, after ${landed.length} updates got in`,
      reply,
    );
    resource.versions.splice(before, Number.POSITIVE_INFINITY, ...verdict.order);
  },
);

// The suite's limit, not the server's fault: updates sxd held back (--rate, a gateway's pace)
// did not leave together, and a race they never ran proves nothing either way.
Then(
  "where sxd held back a request of the race, so the updates did not leave together, the case is not run",
  function (this: SxdWorld) {
    const reason = notTried(raceOf(this).updates, this.parameters.rate.rate);
    return reason === undefined ? undefined : this.notRun(reason);
  },
);
