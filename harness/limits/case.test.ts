import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered } from "../evidence/exchange.ts";
import { judged, LimitFinding, LimitReached, UnexpectedAnswer } from "./case.ts";

const reply = (status: number, body = ""): Answered => ({
  method: "PUT",
  url: "http://t/entries/a",
  requestHeaders: {},
  startedAt: "",
  durationMs: 0,
  response: { status, headers: {}, body },
});
const ok = (status: number) => status === 204;

test("an expected status is the measured reply", () => {
  assert.equal(judged(reply(204), "update", ok).response.status, 204);
});

test("413, 507 and a 4xx that states a limit end the series, naming it", () => {
  assert.throws(() => judged(reply(413), "update", ok), LimitReached);
  assert.throws(() => judged(reply(507, "<error><message>storage full</message></error>"), "update", ok), LimitReached);
  assert.throws(
    () => judged(reply(409, "<error><message>the resource has its limit of 100 snapshots</message></error>"), "u", ok),
    /409 "the resource has its limit of 100 snapshots"/,
  );
});

test("a 5xx is a finding with its exchange; another 4xx stops the series without one", () => {
  assert.throws(
    () => judged(reply(503), "update", ok),
    (error: unknown) => error instanceof LimitFinding && error.exchange?.response?.status === 503,
  );
  assert.throws(() => judged(reply(404, "no such snapshot"), "GET s1", ok), UnexpectedAnswer);
});
