// The client side of the catalogue: its scenarios name client rows only, at their level, and
// the client rows sxd test-client does not check yet are exactly these (the list only shrinks).
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAllRows, loadRows, sideOf } from "../harness/judging/catalogue.ts";
import { loadScenarios } from "../harness/judging/scenarios.ts";
import { clientTraceability } from "../harness/judging/traceability.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";

const NOT_CHECKED_YET: string[] = [];

test("client scenarios name client rows at their level; the unchecked client rows are the known ones", () => {
  const { problems, unchecked } = clientTraceability(loadRows("client"), loadScenarios(PACKAGE_ROOT, "client"));
  assert.deepEqual(problems, []);
  assert.deepEqual(unchecked, NOT_CHECKED_YET);
});

test("each side sees its own rows and features only", () => {
  const all = loadAllRows();
  assert.equal(loadRows().length + loadRows("client").length, all.length);
  assert.ok(loadRows("client").every((row) => /^C(DIG|EXP|SNAP)-\d+$/.test(row.id) && sideOf(row) === "client"));
  assert.ok(loadScenarios(PACKAGE_ROOT).every((s) => s.rows.every((id) => !id.startsWith("C"))));
  assert.ok(loadScenarios(PACKAGE_ROOT, "client").every((s) => s.location.startsWith("features/clients/")));
});
