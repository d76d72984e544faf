import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered } from "../../harness/exchange.ts";
import { chainProblem, type RacedUpdate, racedWithinOneSecond, raceProblem, withinItsSecond } from "./races.ts";
import { versionNumbered } from "./snapshots.ts";

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
