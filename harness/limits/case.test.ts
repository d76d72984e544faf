import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answered, Exchange } from "../evidence/exchange.ts";
import { answerOf, judged, LimitFinding, LimitReached, UnexpectedAnswer } from "./case.ts";

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

/** A send that loses its first `losses` requests with `error`, then is answered; its exchanges kept. */
function sender(method: string, error: string, losses: number) {
  const exchanges: Exchange[] = [];
  let sent = 0;
  const send = async (): Promise<Answered> => {
    sent++;
    if (sent <= losses) {
      exchanges.push({ method, url: "http://t/p", requestHeaders: {}, startedAt: "", durationMs: 0, error });
      throw new Error(error);
    }
    const answered = { ...reply(200), method };
    exchanges.push(answered);
    return answered;
  };
  return { send, exchanges, sent: () => sent };
}

const CLOSED = "the connection was closed before a complete reply";

test("an idempotent request whose kept-alive connection closed is sent once more; a second loss is a finding", async () => {
  const once = sender("GET", CLOSED, 1);
  assert.equal((await answerOf(once.send, once.exchanges, "login")).response.status, 200);
  assert.equal(once.sent(), 2);
  const twice = sender("GET", CLOSED, 2);
  await assert.rejects(answerOf(twice.send, twice.exchanges, "login"), /login: no answer \(the connection was closed/);
  assert.equal(twice.sent(), 2);
});

test("a POST lost, or a request that timed out, is a finding at once", async () => {
  for (const [method, error] of [
    ["POST", CLOSED],
    ["GET", "no complete reply within 10000 ms"],
  ]) {
    const lost = sender(method, error, 1);
    await assert.rejects(answerOf(lost.send, lost.exchanges, "x"), LimitFinding);
    assert.equal(lost.sent(), 1, `${method}: ${error}`);
  }
});
