import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { parseFeature } from "./features.ts";
import { MASK, missingExchanges, recordedRuns } from "./recorded.ts";

const EXCHANGE: Exchange = {
  method: "PUT",
  url: "http://127.0.0.1:1/r",
  requestHeaders: { "x-echo": "pw=hunter2" },
  requestBody: "<a>hunter2</a>",
  response: { status: 200, headers: { "x-note": ["hunter2 again"] }, body: "ok" },
  startedAt: "2026-01-01T00:00:00Z",
  durationMs: 1,
};

function documentWith(
  scenarios: Array<{ location: string; exchanges: Exchange[]; status?: string }>,
): ConformanceDocument {
  const entries = scenarios.map((s) => ({ name: s.location, status: s.status ?? "passed", ...s }));
  return {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl: "http://127.0.0.1:1" },
    date: "2026-01-01T00:00:00Z",
    strict: true,
    overall: "conformant",
    rows: [{ id: "SNAP-3", level: "must", rule: "r", verdict: "passed", scenarios: entries }],
  };
}

const FEATURE = parseFeature(
  "features/x.feature",
  `Feature: x
  @SNAP-3 @must
  Scenario: one
    When a

  @SNAP-3 @must
  Scenario Outline: many
    When <b>

    Examples:
      | b |
      | 1 |
      | 2 |
`,
);

test("a secret is masked wherever it stands: headers, bodies, messages", () => {
  const runs = recordedRuns(documentWith([{ location: "features/x.feature:3", exchanges: [EXCHANGE] }]), ["hunter2"]);
  const text = JSON.stringify([...runs.values()]);
  assert.ok(!text.includes("hunter2"));
  assert.equal(runs.get("features/x.feature:3")?.exchanges[0]?.requestBody, `<a>${MASK}</a>`);
  assert.deepEqual(runs.get("features/x.feature:3")?.exchanges[0]?.response?.headers["x-note"], [`${MASK} again`]);
});

test("every scenario run with an exchange: nothing is missing", () => {
  const runs = recordedRuns(
    documentWith(["3", "12", "13"].map((line) => ({ location: `features/x.feature:${line}`, exchanges: [EXCHANGE] }))),
    [],
  );
  assert.deepEqual(missingExchanges([FEATURE], runs), []);
});

test("an Examples row that recorded nothing, or did not run, is named", () => {
  const runs = recordedRuns(
    documentWith([
      { location: "features/x.feature:3", exchanges: [EXCHANGE], status: "not applicable" },
      { location: "features/x.feature:12", exchanges: [] },
    ]),
    [],
  );
  assert.deepEqual(missingExchanges([FEATURE], runs), [
    "features/x.feature:12 (many): recorded no exchange",
    "features/x.feature:13 (many): did not run against the reference",
  ]);
});
