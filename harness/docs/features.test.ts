import assert from "node:assert/strict";
import { test } from "node:test";
import { loadScenarios } from "../judging/scenarios.ts";
import { PACKAGE_ROOT } from "../package.ts";
import { loadDocFeatures, parseFeature, runLocations } from "./features.ts";

const SOURCE = `Feature: Updates
  A PUT keeps the previous state.

  It links it as previous.

  Background:
    Given a resource with 2 snapshots

  @SNAP-3 @must
  Scenario: An update keeps a snapshot
    When the client updates it
    Then the reply is 204

  @SNAP-11 @must
  Scenario Outline: A bad body is refused
    When the client updates it with <body>
    Then the reply is 400

    Examples:
      | body     |
      | nothing  |
      | not XML  |
`;

test("a feature reads as written: description, Background, steps, an outline once with its table", () => {
  const feature = parseFeature("features/x.feature", SOURCE);
  assert.equal(feature.name, "Updates");
  assert.equal(feature.description, "A PUT keeps the previous state.\n\nIt links it as previous.");
  assert.deepEqual(
    feature.background.map((s) => `${s.keyword} ${s.text}`),
    ["Given a resource with 2 snapshots"],
  );
  assert.equal(feature.scenarios.length, 2);
  const [plain, outline] = feature.scenarios;
  assert.deepEqual(plain?.rows, ["SNAP-3"]);
  assert.deepEqual(plain?.levels, ["must"]);
  assert.equal(plain?.location, "features/x.feature:10");
  assert.deepEqual(runLocations(plain ?? assert.fail()), ["features/x.feature:10"]);
  assert.equal(outline?.keyword, "Scenario Outline");
  assert.equal(outline?.steps[0]?.text, "the client updates it with <body>");
  assert.deepEqual(outline?.examples[0]?.header, ["body"]);
  assert.deepEqual(
    outline?.examples[0]?.rows.map((r) => r.cells),
    [["nothing"], ["not XML"]],
  );
  assert.deepEqual(runLocations(outline ?? assert.fail()), ["features/x.feature:21", "features/x.feature:22"]);
});

test("a feature that does not parse names its file", () => {
  assert.throws(() => parseFeature("features/bad.feature", "Scenario: no feature\n"), /features\/bad\.feature/);
});

for (const side of ["server", "client"] as const) {
  test(`the project's ${side} features give one run location per scenario cucumber runs`, () => {
    const runs = loadDocFeatures(PACKAGE_ROOT, side).flatMap((f) => f.scenarios.flatMap(runLocations));
    assert.ok(runs.length > 0);
    assert.deepEqual(
      runs.sort(),
      loadScenarios(PACKAGE_ROOT, side)
        .map((s) => s.location)
        .sort(),
    );
  });
}

test("the client's features are those under features/clients/, and only those", () => {
  const uris = (side: "server" | "client") => loadDocFeatures(PACKAGE_ROOT, side).map((f) => f.uri);
  assert.ok(uris("client").every((uri) => uri.startsWith("features/clients/")));
  assert.ok(uris("server").every((uri) => !uri.startsWith("features/clients/")));
});
