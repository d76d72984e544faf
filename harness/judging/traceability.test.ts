import assert from "node:assert/strict";
import { test } from "node:test";
import type { Row } from "./catalogue.ts";
import type { ScenarioInfo } from "./scenarios.ts";
import { traceabilityProblems } from "./traceability.ts";

const rows: Row[] = [
  { id: "SNAP-1", level: "must", rule: "r1" },
  { id: "SNAP-11", level: "should", rule: "r11" },
];
const scenario = (tags: string[]): ScenarioInfo => ({
  name: "s",
  location: "f.feature:1",
  tags,
  rows: tags.filter((t) => /^@SNAP-/.test(t)).map((t) => t.slice(1)),
  levels: tags.filter((t) => ["@must", "@should", "@may"].includes(t)).map((t) => t.slice(1) as "must"),
  waitsForClock: false,
  length: 1,
});

test("a complete, consistent tagging has no problems", () => {
  assert.deepEqual(traceabilityProblems(rows, [scenario(["@SNAP-1", "@must"]), scenario(["@SNAP-11", "@should"])]), []);
});

test("each kind of tagging mistake is named", () => {
  const problems = traceabilityProblems(rows, [
    scenario(["@must"]),
    scenario(["@SNAP-1"]),
    scenario(["@SNAP-1", "@should"]),
    scenario(["@SNAP-99", "@must"]),
  ]);
  assert.ok(problems.some((p) => p.includes("names no row")));
  assert.ok(problems.some((p) => p.includes("exactly one level tag")));
  assert.ok(problems.some((p) => p.includes("tagged @should but SNAP-1 is a MUST row")));
  assert.ok(problems.some((p) => p.includes("SNAP-99, which is not in the catalogue")));
  assert.ok(problems.some((p) => p === "SNAP-11 has no scenario"));
});
