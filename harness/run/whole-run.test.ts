import assert from "node:assert/strict";
import { test } from "node:test";
import type { TargetDescription } from "../description/target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { EXCHANGES_MEDIA_TYPE, type ScenarioOutcome, WHOLE_RUN_MEDIA_TYPE } from "../judging/outcomes.ts";
import { judgedWithTheRun, type RunCheck } from "./whole-run.ts";

const target = { baseUrl: "http://127.0.0.1:1" } as TargetDescription;

const exchange = (url: string, status: number): Exchange => ({
  method: "GET",
  url,
  requestHeaders: {},
  response: { status, headers: {}, body: "" },
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
});

function outcome(
  name: string,
  status: ScenarioOutcome["status"],
  exchanges: Exchange[],
  asks?: string,
): ScenarioOutcome {
  return {
    name,
    location: `f.feature:${name.length}`,
    rows: ["X-1"],
    level: "must",
    status,
    attachments: [
      { mediaType: EXCHANGES_MEDIA_TYPE, body: JSON.stringify(exchanges) },
      ...(asks ? [{ mediaType: WHOLE_RUN_MEDIA_TYPE, body: asks }] : []),
    ],
  };
}

/** A check that every reply of the run is below 500. */
const no500: RunCheck = (exchanges) => {
  const found = exchanges.filter((e) => (e.exchange.response?.status ?? 0) >= 500);
  const [first, ...rest] = found;
  return first ? { expected: "no 500", got: `${found.length} of them`, evidence: [first, ...rest] } : undefined;
};
const load = async () => new Map([["no 500", no500]]);

test("a scenario judged with the whole run fails on another scenario's exchange, which it shows and keeps", async () => {
  const asking = outcome("asks", "passed", [exchange("http://t/own", 200)], "no 500");
  const other = outcome("other", "passed", [exchange("http://t/a", 200), exchange("http://t/broken", 500)]);
  const [judged, untouched] = await judgedWithTheRun([asking, other], target, load);
  assert.equal(judged?.status, "failed");
  assert.match(judged?.message ?? "", /^expected no 500\nbut got 1 of them\nin the exchange of the scenario "other"/);
  assert.match(judged?.message ?? "", /> GET http:\/\/t\/broken\n.*< 500/s);
  const kept = judged?.attachments.filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE).at(-1);
  assert.deepEqual(
    (JSON.parse(kept?.body ?? "[]") as Exchange[]).map((e) => e.url),
    ["http://t/broken"],
  );
  assert.equal(untouched, other);
});

test("a run without a breach, a scenario not asking, and one that did not pass are left as they were", async () => {
  const clean = [outcome("asks", "passed", [exchange("http://t/own", 200)], "no 500")];
  assert.deepEqual(await judgedWithTheRun(clean, target, load), clean);
  const notAsking = [outcome("plain", "passed", [exchange("http://t/broken", 500)])];
  assert.deepEqual(await judgedWithTheRun(notAsking, target, load), notAsking);
  const notRun = [outcome("asks", "not run", [exchange("http://t/broken", 500)], "no 500")];
  assert.deepEqual(await judgedWithTheRun(notRun, target, load), notRun);
});

test("a check no run judge has is the suite's bug, said as such", async () => {
  const asking = [outcome("asks", "passed", [], "no such check")];
  await assert.rejects(judgedWithTheRun(asking, target, load), /no run check "no such check".*a bug in the suite/);
});
