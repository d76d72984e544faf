/**
 * Updates that race (SNAP-15): several clients update one resource, each with the
 * If-Unmodified-Since of a read, one after the other or at once. What they send lives here;
 * the verdicts are pure functions of what was sent and what came back, so they are tested
 * without a server.
 *
 *   const sent = await race(world, resource, { count: 8, atOnce: true, ownReads: false });
 *   const problem = raceProblem(sent); // two got in with one date: one of them is lost
 *   const why = notTried(sent, rate);  // sxd held one back: the updates did not leave together
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { headerOf } from "../../harness/evidence/exchange.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { SxdWorld } from "../support/world.ts";
import { squash } from "./checks.ts";
import {
  type EntryVersion,
  entryBody,
  isSuccess,
  readCurrent,
  type ScratchResource,
  untilServerSecondAfter,
  versionNumbered,
} from "./snapshots.ts";

/** One update of a race: the version it carried, the read whose date it sent, the reply, and its round (from 0). */
export interface RacedUpdate {
  version: EntryVersion;
  since: string;
  read: Answered;
  reply: Answered;
  round: number;
}

export interface RaceShape {
  count: number;
  /** All sent before any reply is in; else each after the reply to the one before. */
  atOnce: boolean;
  /** Each client reads the resource just before its update; else all send the date of one read. */
  ownReads: boolean;
}

/** How often a read looks for the server's Date to turn: a round should have most of the second ahead. */
const TICK_POLL_MS = 50;

/**
 * Sends the race: the updates leave together, right after the read whose date they carry (all
 * before any reply where they go at once, each on the reply to the one before otherwise).
 * When the server answers them is its own business. One-second dates can only let two
 * versions pass for one within the second of the date read, so where the replies' Date shows
 * that no two updates with one date came within that second (the version read was made in an
 * earlier one, or the second turned meanwhile), the race goes once more: sxd waits for the
 * server's Date to turn, makes a version then, and races on it at once, with most of that
 * second ahead. Where sxd held a request of the first round back (its pace), a second would be
 * held too: the race ends there (notTried says why). Returns every update sent, or why none
 * could be (no date to send).
 */
export async function race(
  world: SxdWorld,
  resource: ScratchResource,
  shape: RaceShape,
): Promise<RacedUpdate[] | string> {
  const first = await raceRound(world, resource, shape, 0, resource.versions.length);
  if (typeof first === "string" || notTried(first) !== undefined || racedWithinOneSecond(first)) return first;
  await startSecond(world, resource, resource.versions.length + first.length);
  const second = await raceRound(world, resource, shape, 1, resource.versions.length + first.length);
  return typeof second === "string" ? first : [...first, ...second];
}

/**
 * Reads the resource until the server's Date turns to the next second (a read every
 * TICK_POLL_MS), then updates it with the Last-Modified of that read: the version the next
 * round reads is made early in a second. It takes its place in the chain as any version put.
 */
async function startSecond(world: SxdWorld, resource: ScratchResource, numbered: number): Promise<void> {
  const read = await readCurrent(world, resource);
  const turned = await untilServerSecondAfter(world.http, resource.url, headerOf(read, "date"), sleep, TICK_POLL_MS);
  const since = headerOf(turned ?? read, "last-modified");
  if (since === undefined) return;
  const version = versionNumbered(numbered + 1);
  if (isSuccess(await putSince(world, resource, version, since))) resource.versions.push(version);
}

function putSince(world: SxdWorld, resource: ScratchResource, version: EntryVersion, since: string): Promise<Answered> {
  return world.http.send("PUT", resource.url, {
    headers: { "content-type": ATOM_ENTRY_TYPE, "if-unmodified-since": since },
    body: entryBody(resource.id, version),
  });
}

async function raceRound(
  world: SxdWorld,
  resource: ScratchResource,
  { count, atOnce, ownReads }: RaceShape,
  round: number,
  numbered: number,
): Promise<RacedUpdate[] | string> {
  const read = async (): Promise<{ read: Answered; since: string }> => {
    const reply = await readCurrent(world, resource);
    const date = headerOf(reply, "last-modified");
    if (reply.response.status !== 200 || date === undefined) {
      throw new NoDate(
        `a read of the resource gave no Last-Modified to send as If-Unmodified-Since (status ${reply.response.status}): see SNAP-1`,
      );
    }
    return { read: reply, since: date };
  };
  const update = async (k: number, { read, since }: { read: Answered; since: string }): Promise<RacedUpdate> => {
    const version = versionNumbered(numbered + k + 1);
    return { version, since, read, reply: await putSince(world, resource, version, since), round };
  };
  try {
    const shared = ownReads ? undefined : await read();
    const client = async (k: number) => update(k, shared ?? (await read()));
    if (atOnce) return await Promise.all(Array.from({ length: count }, (_, k) => client(k)));
    const updates: RacedUpdate[] = [];
    for (let k = 0; k < count; k++) updates.push(await client(k));
    return updates;
  } catch (error) {
    if (error instanceof NoDate) return error.message;
    throw error;
  }
}

class NoDate extends Error {}

/** The update's reply came in the whole second of the date it sent, or shows no date to tell. */
export function withinItsSecond(update: RacedUpdate): boolean {
  const date = parseHttpDate(headerOf(update.reply, "date"));
  const since = parseHttpDate(update.since);
  return date === undefined || since === undefined || date.getTime() === since.getTime();
}

/** Two updates with one date both within its second: no need to race again on the turn of a second. */
export function racedWithinOneSecond(updates: readonly RacedUpdate[]): boolean {
  const counts = new Map<string, number>();
  for (const update of updates.filter(withinItsSecond)) {
    const count = (counts.get(instantOf(update.since)) ?? 0) + 1;
    if (count >= 2) return true;
    counts.set(instantOf(update.since), count);
  }
  return false;
}

/**
 * Why the race was not tried, or undefined where it was: tried means that in some round every
 * update (and the read of its own each went on, where it made one) left sxd when its step sent
 * it, so the updates left together. A request sxd's pace held back (`--rate`, given here as
 * `rate`, or the pace it keeps after a target's refusals), or sent again after a refusal, left
 * later: that is sxd's limit, not the server's.
 */
export function notTried(updates: readonly RacedUpdate[], rate?: number): string | undefined {
  const rounds = [...new Set(updates.map((u) => u.round))].map((round) =>
    requestsOf(updates.filter((u) => u.round === round)),
  );
  const [first] = rounds;
  if (first === undefined || rounds.some((requests) => !requests.some(heldBack))) return undefined;
  const of = `of the race's ${first.length} requests`;
  const paced = first.filter((e) => (e.heldMs ?? 0) > 0);
  const refused = first.filter((e) => (e.refusals?.length ?? 0) > 0);
  const pace = rate === undefined ? "the pace it keeps after the target's refusals" : `the pace of --rate ${rate}`;
  const why = [
    ...(paced.length === 0
      ? []
      : [
          `sxd held back ${paced.length} ${of} (up to ${Math.max(...paced.map((e) => e.heldMs ?? 0))} ms) to keep ${pace}`,
        ]),
    ...(refused.length === 0
      ? []
      : [`the target refused ${refused.length} ${of} ("not now") and sxd sent them again after a wait`]),
  ];
  const fix = rate === undefined ? "where nothing limits sxd's rate" : "without --rate";
  return `${why.join("; ")}: the updates did not leave together, so whether the server lets in two updates with one date was not tried (run @SNAP-15 ${fix})`;
}

/** What a round sends together: its updates, and the reads they went on where each made its own (one read shared only precedes them). */
function requestsOf(round: readonly RacedUpdate[]): Answered[] {
  const reads = new Set(round.map((update) => update.read));
  return [...(reads.size === round.length ? reads : []), ...round.map((update) => update.reply)];
}

/** sxd did not send the request when its step did: its pace held it back, or a refusal made it wait and send again. */
function heldBack(exchange: Answered): boolean {
  return (exchange.heldMs ?? 0) > 0 || (exchange.refusals?.length ?? 0) > 0;
}

/** A date as the instant it names, so one date written two ways is one date. */
function instantOf(date: string): string {
  return String(parseHttpDate(date)?.getTime() ?? date);
}

export interface RaceProblem {
  expected: string;
  got: string;
  reply: Answered;
}

/**
 * What breaks SNAP-15 in the replies alone: two updates with one date that both got in (the
 * later overwrote a version its client never read), or one refused with another status than
 * 412. Dates are compared as instants, so one date written two ways is one date.
 */
export function raceProblem(updates: readonly RacedUpdate[]): RaceProblem | undefined {
  const inBy = new Map<string, RacedUpdate>();
  for (const update of updates.filter((u) => isSuccess(u.reply))) {
    const key = instantOf(update.since);
    const earlier = inBy.get(key);
    if (earlier) {
      return {
        expected: `at most one update in of those sent with If-Unmodified-Since: ${update.since}`,
        got: `a 2xx for more than one of them: one overwrote a version its client never read\n("${earlier.version.title}" got ${earlier.reply.response.status}, then "${update.version.title}" got ${update.reply.response.status})`,
        reply: update.reply,
      };
    }
    inBy.set(key, update);
  }
  const refused = updates.find((u) => !isSuccess(u.reply) && u.reply.response.status !== 412);
  if (refused) {
    return {
      expected: "412 for an update whose date another update had made stale",
      got: `status ${refused.reply.response.status}`,
      reply: refused.reply,
    };
  }
  return undefined;
}

/**
 * Which version each place of the chain holds, by title, against what the race should have
 * left: `places` are the titles served at s<k>, s<k+1>, … and last at the current address,
 * where s<k> keeps the version the race started from (`start`). Every update that got in
 * (`landed`) holds one place after it, so none holds a refused one or a version twice. Which
 * version s<k> keeps is SNAP-3's business: it is read only for a refused update's trace.
 * Returns what breaks this first (in words that do not depend on which update won), or the
 * order the landed versions took.
 */
export function chainProblem(
  places: readonly (string | undefined)[],
  start: EntryVersion,
  landed: readonly EntryVersion[],
  refused: readonly EntryVersion[],
): { at: number; expected: string; got: string } | { order: EntryVersion[] } {
  const titled = (title: string | undefined) => (v: EntryVersion) => squash(v.title) === squash(title);
  const shown = (title: string | undefined) => `"${title ?? "no title"}"`;
  // A resource the description names starts from a version an earlier scenario put, whose title
  // a refused update of this race may share: at the start's place, that title is the start's.
  const refusedAt = places.findIndex((title, at) => refused.some(titled(title)) && !(at === 0 && titled(title)(start)));
  if (refusedAt >= 0) {
    return {
      at: refusedAt,
      expected: "no trace of a refused update",
      got: `its version\n(${shown(places[refusedAt])})`,
    };
  }
  const order = places.slice(1).map((title) => landed.find(titled(title)));
  const missing = landed.filter((v) => !order.includes(v));
  if (missing.length > 0) {
    const at = order.findIndex((v, i) => v === undefined || order.indexOf(v) !== i) + 1;
    return {
      at,
      expected: "every version that got in, once, in a snapshot or at the resource",
      got: `a version that got in is missing\n(${missing.map((v) => shown(v.title)).join(", ")}; in its place ${shown(places[at])})`,
    };
  }
  return { order: order as EntryVersion[] };
}
