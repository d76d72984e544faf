import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered } from "../../harness/exchange.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  chainProblem,
  type RacedUpdate,
  ROUNDS,
  race,
  racedWithinOneSecond,
  raceProblem,
  withinItsSecond,
} from "./races.ts";
import { type ScratchResource, versionNumbered } from "./snapshots.ts";

const READ = "Fri, 27 Nov 2026 12:00:00 GMT";
const NEXT_SECOND = "Fri, 27 Nov 2026 12:00:01 GMT";

function update(k: number, status: number, since = READ, date: string | undefined = READ): RacedUpdate {
  const reply: Answered = {
    method: "PUT",
    url: "http://h/entries/e",
    requestHeaders: { "if-unmodified-since": since },
    response: { status, headers: date === undefined ? {} : { date: [date] }, body: "" },
    startedAt: "2026-11-27T12:00:00.400Z",
    durationMs: 1,
  };
  return { version: versionNumbered(k), since, reply };
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

test("SNAP-15: a round counts where two updates with one date came within its second, or show no date", () => {
  assert.ok(withinItsSecond(update(2, 204)));
  assert.ok(withinItsSecond(update(2, 204, READ, undefined)));
  assert.equal(withinItsSecond(update(2, 204, READ, NEXT_SECOND)), false);
  assert.ok(racedWithinOneSecond([update(2, 204), update(3, 412, READ, NEXT_SECOND), update(4, 412)]));
  assert.ok(racedWithinOneSecond([update(2, 204, READ, undefined), update(3, 412, READ, undefined)]));
  assert.equal(racedWithinOneSecond([update(2, 204), update(3, 412, READ, NEXT_SECOND)]), false);
  assert.equal(racedWithinOneSecond([update(2, 204), update(3, 204, NEXT_SECOND, NEXT_SECOND)]), false);
});

test("SNAP-15: the chain keeps the version before the race, then each version that got in, once", () => {
  const [start, a, b, lost] = [1, 2, 3, 4].map((k) => versionNumbered(k));
  const titles = (...vs: (typeof start)[]) => vs.map((v) => v.title);
  assert.deepEqual(chainProblem(titles(start, b, a), start, [a, b], [lost]), { order: [b, a] });
  assert.deepEqual(chainProblem(titles(start, a), start, [a], []), { order: [a] });

  const notStart = chainProblem(titles(a, b), start, [b], []);
  assert.ok("at" in notStart && notStart.at === 0 && /before the updates/.test(notStart.expected));
  const refused = chainProblem(titles(start, a, lost), start, [a, b], [lost]);
  assert.ok("at" in refused && refused.at === 2 && /refused/.test(refused.expected));
  // The current address still serves the version before the last update: that update is lost.
  const stale = chainProblem(titles(start, a, a), start, [a, b], [lost]);
  assert.ok("at" in stale && stale.at === 2 && /missing\n\("Version 3 of the entry"/.test(stale.got));
});

/**
 * A resource behind a fake clock that moves `stepMs` per request (the pace), from `startMs`:
 * its Last-Modified is moved on past the version before, as the reference's, or (`wallClock`,
 * the fault snap-last-modified-wall-clock) the second an update came in.
 */
function fakeTarget(stepMs: number, startMs: number, wallClock: boolean) {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  const httpDate = (ms: number) => new Date(ms).toUTCString();
  let now = startMs;
  let stored = second(startMs);
  const send = async (method: string, url: string, options?: { headers?: Record<string, string> }) => {
    now += stepMs;
    const requestHeaders = options?.headers ?? {};
    const headers: Record<string, string[]> = { date: [httpDate(second(now))] };
    let status = 200;
    if (method === "GET") headers["last-modified"] = [httpDate(Math.min(stored, second(now)))];
    else if (stored > Date.parse(requestHeaders["if-unmodified-since"] ?? "")) status = 412;
    else {
      status = 204;
      stored = wallClock ? second(now) : Math.max(second(now), Math.min(stored, second(now)) + 1000);
    }
    const reply: Answered = {
      method,
      url,
      requestHeaders,
      response: { status, headers, body: "" },
      startedAt: "",
      durationMs: 1,
    };
    return reply;
  };
  const world = { http: { send } } as unknown as SxdWorld;
  const resource: ScratchResource = { url: "http://h/entries/e", id: "urn:e", versions: [versionNumbered(1)], base: 0 };
  return { world, resource };
}

const NOON = Date.parse(READ);

test("SNAP-15: at one request a second no round comes within a second: all five are sent, and the race is not judged", async () => {
  const { world, resource } = fakeTarget(1000, NOON, true);
  const updates = await race(world, resource, { count: 8, atOnce: true, ownReads: false });
  assert.ok(Array.isArray(updates));
  assert.equal(updates.filter((u) => u.reply.response.status === 204).length, ROUNDS, "one update in a round");
  assert.equal(racedWithinOneSecond(updates), false);
  assert.equal(
    raceProblem(updates),
    undefined,
    "the wall-clock fault shows nothing at this pace: judged, it would pass",
  );
});

test("SNAP-15: after a round that missed, the next starts on the turn of the server's second and races within it", async () => {
  for (const wallClock of [false, true]) {
    // About seven requests a second, the first round begun late in a second: it misses; so did
    // the four rounds after it, sent at once (not on the turn, with no version made then).
    const { world, resource } = fakeTarget(150, NOON + 850, wallClock);
    const updates = await race(world, resource, { count: 8, atOnce: true, ownReads: false });
    assert.ok(Array.isArray(updates));
    assert.equal(racedWithinOneSecond(updates.slice(0, 8)), false, "the first round missed");
    assert.ok(racedWithinOneSecond(updates));
    assert.equal(raceProblem(updates) !== undefined, wallClock, "the fault fails it, the reference passes");
  }
});
