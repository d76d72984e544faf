/**
 * Updates that race (SNAP-15): several clients update one resource, each with the
 * If-Unmodified-Since of a read, one after the other or at once. What they send lives here;
 * the verdicts are pure functions of what came back, so they are tested without a server.
 *
 *   const sent = await race(world, resource, { count: 8, atOnce: true, ownReads: false });
 *   const problem = raceProblem(sent); // two got in with one date: one of them is lost
 */
import type { Answered } from "../../harness/exchange.ts";
import { headerOf } from "../../harness/exchange.ts";
import { sleep } from "../../harness/rate-limits.ts";
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

/** One update of a race: the version it carried, the If-Unmodified-Since it sent, the reply. */
export interface RacedUpdate {
  version: EntryVersion;
  since: string;
  reply: Answered;
}

export interface RaceShape {
  count: number;
  /** All sent before any reply is in; else each after the reply to the one before. */
  atOnce: boolean;
  /** Each client reads the resource just before its update; else all send the date of one read. */
  ownReads: boolean;
}

/** Rounds sent at most: a round that tried no two updates with one date within its second is sent again, on a new read. */
export const ROUNDS = 5;
/** How often a read looks for the server's Date to turn: a round should have most of the second ahead. */
const TICK_POLL_MS = 50;

/**
 * Sends the race, round after round, until two updates with one date both came within the
 * second of that date (their replies' Date says so; without one, they count): only then could
 * a server with one-second dates mistake a version for the next. A round is within the second
 * of the date it carries only where the version it read was made in that second, and it ends
 * before the second does. So a round after a miss waits for the server's second to turn, makes
 * a version then, and goes at once, with most of that second ahead. Returns the updates of every
 * round, or why none could be sent (no date to send).
 */
export async function race(
  world: SxdWorld,
  resource: ScratchResource,
  shape: RaceShape,
): Promise<RacedUpdate[] | string> {
  const sent: RacedUpdate[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round > 0) await startSecond(world, resource, resource.versions.length + sent.length);
    const updates = await raceRound(world, resource, shape, resource.versions.length + sent.length);
    if (typeof updates === "string") return updates;
    sent.push(...updates);
    if (racedWithinOneSecond(sent)) break;
  }
  return sent;
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
  numbered: number,
): Promise<RacedUpdate[] | string> {
  const read = async (): Promise<string> => {
    const reply = await readCurrent(world, resource);
    const date = headerOf(reply, "last-modified");
    if (reply.response.status !== 200 || date === undefined) {
      throw new NoDate(
        `a read of the resource gave no Last-Modified to send as If-Unmodified-Since (status ${reply.response.status}): see SNAP-1`,
      );
    }
    return date;
  };
  const update = async (k: number, since: string): Promise<RacedUpdate> => {
    const version = versionNumbered(numbered + k + 1);
    return { version, since, reply: await putSince(world, resource, version, since) };
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

/** Two updates with one date both within its second: the round tried what one-second dates cannot tell apart. */
export function racedWithinOneSecond(updates: readonly RacedUpdate[]): boolean {
  const counts = new Map<string, number>();
  for (const update of updates.filter(withinItsSecond)) {
    const count = (counts.get(instantOf(update.since)) ?? 0) + 1;
    if (count >= 2) return true;
    counts.set(instantOf(update.since), count);
  }
  return false;
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
 * (`landed`) holds one place, so none holds a refused one or a version twice. Returns what
 * breaks this first (in words that do not depend on which update won), or the order the
 * landed versions took.
 */
export function chainProblem(
  places: readonly (string | undefined)[],
  start: EntryVersion,
  landed: readonly EntryVersion[],
  refused: readonly EntryVersion[],
): { at: number; expected: string; got: string } | { order: EntryVersion[] } {
  const titled = (title: string | undefined) => (v: EntryVersion) => squash(v.title) === squash(title);
  const shown = (title: string | undefined) => `"${title ?? "no title"}"`;
  if (!titled(places[0])(start)) {
    return { at: 0, expected: "the version before the updates", got: shown(places[0]) };
  }
  const refusedAt = places.findIndex((title) => refused.some(titled(title)));
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
