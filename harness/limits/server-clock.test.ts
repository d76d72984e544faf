import assert from "node:assert/strict";
import { test } from "node:test";
import { ServerClock } from "./server-clock.ts";

test("before any Date the clock cannot tell; one reply bounds it by its second and its round trip", () => {
  const clock = new ServerClock();
  assert.equal(clock.localTimeOf(10_000), undefined);
  // Date 5 s, sent at local 100, received at 120: the server's clock was at least 5 s at local 120.
  clock.observe(5_000, 100, 120);
  // Surely at 6 s by local 1120 (its second may have begun just as the reply left).
  assert.equal(clock.localTimeOf(6_000), 1_120);
});

test("the replies together narrow it: a Date that has just turned says where the server's second begins", () => {
  const clock = new ServerClock();
  // The server's second turns at local x.400: replies just before and just after it.
  clock.observe(5_000, 1_390, 1_395); // still 5 s at local 1395
  clock.observe(6_000, 1_405, 1_410); // 6 s by local 1410
  const at = clock.localTimeOf(7_000) as number;
  assert.ok(at >= 2_400 && at <= 2_410, `7 s at local ${at}`);
});

test("bounds that do not meet (the server's clock was set) start again from the newest reply", () => {
  const clock = new ServerClock();
  clock.observe(5_000, 100, 120);
  clock.observe(60_000, 200, 220);
  assert.equal(clock.localTimeOf(61_000), 1_220);
});
