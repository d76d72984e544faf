import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered } from "../../harness/evidence/exchange.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  chainProblem,
  notTried,
  type RacedUpdate,
  race,
  racedWithinOneSecond,
  raceProblem,
  withinItsSecond,
} from "./races.ts";
import { type ScratchResource, versionNumbered } from "./snapshots.ts";

const READ = "Fri, 27 Nov 2026 12:00:00 GMT";
const NEXT_SECOND = "Fri, 27 Nov 2026 12:00:01 GMT";

function exchange(method: string, status: number, headers: Record<string, string[]>, sent = {}): Answered {
  return {
    method,
    url: "http://h/entries/e",
    requestHeaders: sent,
    response: { status, headers, body: "" },
    startedAt: "2026-11-27T12:00:00.400Z",
    durationMs: 1,
  };
}

const SHARED_READ = exchange("GET", 200, { "last-modified": [READ], date: [READ] });

function update(k: number, status: number, since = READ, date: string | undefined = READ): RacedUpdate {
  const reply = exchange("PUT", status, date === undefined ? {} : { date: [date] }, { "if-unmodified-since": since });
  return { version: versionNumbered(k), since, read: SHARED_READ, reply, round: 0 };
}

test("SNAP-15: of the updates sent with one date, one may get in; the others must get 412", () => {
  assert.equal(raceProblem([update(2, 204), update(3, 412), update(4, 412)]), undefined);
  assert.equal(raceProblem([update(2, 412), update(3, 412)]), undefined, "none in: the control's business");
  const twice = raceProblem([update(2, 204), update(3, 412), update(4, 204)]);
  assert.match(twice?.expected ?? "", /at most one update in of those sent with If-Unmodified-Since: Fri/);
  assert.match(twice?.got ?? "", /"Version 2 of the entry" got 204, then "Version 4 of the entry" got 204/);
  assert.match(raceProblem([update(2, 204), update(3, 409)])?.got ?? "", /^status 409$/);
});

test("SNAP-15: one date written two ways is one date; updates with dates of different reads may each get in", () => {
  const rfc850 = "Friday, 27-Nov-26 12:00:00 GMT";
  assert.ok(raceProblem([update(2, 204), update(3, 204, rfc850)]));
  assert.equal(raceProblem([update(2, 204), update(3, 204, NEXT_SECOND)]), undefined);
});

test("SNAP-15: a second round is needed only where no two updates with one date came within its second, or show no date", () => {
  assert.ok(withinItsSecond(update(2, 204)));
  assert.ok(withinItsSecond(update(2, 204, READ, undefined)));
  assert.equal(withinItsSecond(update(2, 204, READ, NEXT_SECOND)), false);
  assert.ok(racedWithinOneSecond([update(2, 204), update(3, 412, READ, NEXT_SECOND), update(4, 412)]));
  assert.ok(racedWithinOneSecond([update(2, 204, READ, undefined), update(3, 412, READ, undefined)]));
  assert.equal(racedWithinOneSecond([update(2, 204), update(3, 412, READ, NEXT_SECOND)]), false);
  assert.equal(racedWithinOneSecond([update(2, 204), update(3, 204, NEXT_SECOND, NEXT_SECOND)]), false);
});

/** The update, sent in `round`, with sxd's pace holding it back `heldMs`, or refused first with 429. */
function delayed(
  u: RacedUpdate,
  { heldMs, refused = false, round = 0 }: { heldMs?: number; refused?: boolean; round?: number },
) {
  const reply: Answered = {
    ...u.reply,
    ...(heldMs === undefined ? {} : { heldMs }),
    ...(refused ? { refusals: [{ status: 429, headers: {}, waitMs: 300 }] } : {}),
  };
  return { ...u, reply, round };
}

test("SNAP-15: the race was tried where, in some round, sxd sent every update when its step did; when the server answered is not asked", () => {
  // Replies a second later than the date sent: the server held them, its own business.
  assert.equal(notTried([update(2, 204, READ, NEXT_SECOND), update(3, 412, READ, NEXT_SECOND)]), undefined);
  assert.equal(notTried([]), undefined, "nothing sent: nothing to say");
  const paced = [update(2, 204), delayed(update(3, 412), { heldMs: 500 })];
  assert.match(
    notTried(paced, 2) ?? "",
    /^sxd held back 1 of the race's 2 requests \(up to 500 ms\) to keep the pace of --rate 2: the updates did not leave together, so whether the server lets in two updates with one date was not tried \(run @SNAP-15 without --rate\)$/,
  );
  assert.match(
    notTried(paced) ?? "",
    /to keep the pace it keeps after the target's refusals: .*where nothing limits sxd's rate/,
  );
  assert.match(
    notTried([update(2, 204), delayed(update(3, 412), { refused: true })]) ?? "",
    /^the target refused 1 of the race's 2 requests \("not now"\) and sxd sent them again after a wait: /,
  );
  const roundTogether = [update(4, 204), update(5, 412)].map((u) => delayed(u, { round: 1 }));
  assert.equal(notTried([...paced, ...roundTogether]), undefined, "the second round left together");
  // One read shared only precedes the updates; reads of their own are sent together with them.
  const heldRead = { ...SHARED_READ, heldMs: 400 };
  assert.equal(notTried([update(2, 204), update(3, 412)].map((u) => ({ ...u, read: heldRead }))), undefined);
  const ownReads = [update(2, 204), update(3, 412)].map((u, k) => ({ ...u, read: k === 0 ? heldRead : SHARED_READ }));
  assert.match(notTried(ownReads, 5) ?? "", /^sxd held back 1 of the race's 4 requests \(up to 400 ms\)/);
});

test("SNAP-15: past the version before the race, the chain keeps each version that got in, once, and no refused one", () => {
  const [start, a, b, lost] = [1, 2, 3, 4].map((k) => versionNumbered(k));
  const titles = (...vs: (typeof start)[]) => vs.map((v) => v.title);
  assert.deepEqual(chainProblem(titles(start, b, a), start, [a, b], [lost]), { order: [b, a] });
  assert.deepEqual(chainProblem(titles(start, a), start, [a], []), { order: [a] });

  // Which version the race's first snapshot keeps is SNAP-3's business, not the race's.
  assert.deepEqual(chainProblem(titles(b, b), start, [b], []), { order: [b] });
  const refusedFirst = chainProblem(titles(lost, a), start, [a], [lost]);
  assert.ok("at" in refusedFirst && refusedFirst.at === 0 && /refused/.test(refusedFirst.expected));
  // The start is an earlier scenario's version with the title of an update refused in this race.
  assert.deepEqual(chainProblem(titles(lost, a), lost, [a], [lost]), { order: [a] });
  const refused = chainProblem(titles(start, a, lost), start, [a, b], [lost]);
  assert.ok("at" in refused && refused.at === 2 && /refused/.test(refused.expected));
  // The current address still serves the version before the last update: that update is lost.
  const stale = chainProblem(titles(start, a, a), start, [a, b], [lost]);
  assert.ok("at" in stale && stale.at === 2 && /missing\n\("Version 3 of the entry"/.test(stale.got));
});

interface FakeRules {
  /** How far the server's clock moves with each request (the pace), from `startMs`. */
  stepMs: number;
  startMs: number;
  /**
   * An update's Last-Modified: moved on past the version before (the reference), the second it
   * came in (the fault snap-last-modified-wall-clock), or that second once the update was held
   * until the clock had passed the version before (a careful server).
   */
  dates: "moved on" | "wall clock" | "held";
  /** sxd's pace held each request back this long (as --rate does): its exchange says so. */
  heldMs?: number;
}

/** A resource behind a fake clock, as the rules say. */
function fakeTarget({ stepMs, startMs, dates, heldMs }: FakeRules) {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  const httpDate = (ms: number) => new Date(ms).toUTCString();
  let now = startMs;
  let stored = second(startMs);
  const send = async (method: string, url: string, options?: { headers?: Record<string, string> }) => {
    now += stepMs;
    const requestHeaders = options?.headers ?? {};
    let status = 200;
    let lastModified: number | undefined;
    if (method === "GET") lastModified = Math.min(stored, second(now));
    else if (stored > Date.parse(requestHeaders["if-unmodified-since"] ?? "")) status = 412;
    else {
      status = 204;
      if (dates === "held") now = Math.max(now, stored + 1000);
      stored = dates === "moved on" ? Math.max(second(now), Math.min(stored, second(now)) + 1000) : second(now);
    }
    const headers: Record<string, string[]> = { date: [httpDate(second(now))] };
    if (lastModified !== undefined) headers["last-modified"] = [httpDate(lastModified)];
    const reply: Answered = {
      ...exchange(method, status, headers, requestHeaders),
      url,
      ...(heldMs === undefined ? {} : { heldMs }),
    };
    return reply;
  };
  const world = { http: { send } } as unknown as SxdWorld;
  const resource: ScratchResource = { url: "http://h/entries/e", id: "urn:e", versions: [versionNumbered(1)], base: 0 };
  return { world, resource };
}

const NOON = Date.parse(READ);
const EIGHT_AT_ONCE = { count: 8, atOnce: true, ownReads: false };

test("SNAP-15: at one request a second of sxd's own pace the race is not tried: one round, not judged", async () => {
  const { world, resource } = fakeTarget({ stepMs: 1000, startMs: NOON, dates: "wall clock", heldMs: 1000 });
  const updates = await race(world, resource, EIGHT_AT_ONCE);
  assert.ok(Array.isArray(updates));
  assert.equal(updates.length, 8, "a second round would be held back too");
  assert.match(
    notTried(updates, 1) ?? "",
    /^sxd held back 8 of the race's 8 requests \(up to 1000 ms\) to keep the pace of --rate 1/,
  );
  assert.equal(
    raceProblem(updates),
    undefined,
    "the wall-clock fault shows nothing at this pace: judged, it would pass",
  );
});

test("SNAP-15: a server that holds each update until its clock has passed the version before is judged on its answers", async () => {
  const { world, resource } = fakeTarget({ stepMs: 150, startMs: NOON + 100, dates: "held" });
  const updates = await race(world, resource, EIGHT_AT_ONCE);
  assert.ok(Array.isArray(updates));
  assert.equal(racedWithinOneSecond(updates), false, "every reply came in a later second than the date sent");
  assert.equal(updates.length, 16, "once more on the turn of a second, then no more");
  assert.equal(notTried(updates), undefined);
  assert.equal(raceProblem(updates), undefined);
  assert.deepEqual(
    [0, 1].map((round) => updates.filter((u) => u.round === round && u.reply.response.status === 204).length),
    [1, 1],
  );
});

test("SNAP-15: after a round that missed its second, the next starts on the turn of the server's second and races within it", async () => {
  for (const dates of ["moved on", "wall clock"] as const) {
    // About seven requests a second, the first round begun late in a second: it misses.
    const { world, resource } = fakeTarget({ stepMs: 150, startMs: NOON + 850, dates });
    const updates = await race(world, resource, EIGHT_AT_ONCE);
    assert.ok(Array.isArray(updates));
    assert.equal(racedWithinOneSecond(updates.slice(0, 8)), false, "the first round missed");
    assert.ok(racedWithinOneSecond(updates));
    assert.equal(
      raceProblem(updates) !== undefined,
      dates === "wall clock",
      "the fault fails it, the reference passes",
    );
  }
});
