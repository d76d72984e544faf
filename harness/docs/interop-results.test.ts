// Where an implementation stands on a row in `sxd docs --results interop.json`: each row as its own
// run judged it, so a row passed in a run that is incomplete elsewhere reads "passes".
import assert from "node:assert/strict";
import { test } from "node:test";
import type { OwnVerdict } from "../evidence/interop-document.ts";
import { standingOn } from "./interop-results.ts";

const incomplete: OwnVerdict = {
  source: "computed",
  exitCode: 1,
  verdict: "incomplete",
  failedRows: ["DIG-4"],
  warnedRows: [],
  judged: { "DIG-1": "passed", "DIG-4": "failed", "DIG-9": "not run" },
};

test("an incomplete run: the rows it passed pass, the rows it did not run say so", () => {
  const text = (row: string) => standingOn(incomplete, row, true).text;
  assert.deepEqual(["DIG-1", "DIG-4", "DIG-9"].map(text), ["passes", "fails", "not run"]);
});

test("a document written without each row's verdict keeps what it can say", () => {
  const { judged, ...older } = incomplete;
  assert.equal(standingOn(older, "DIG-1", true).text, "not known (incomplete)");
  assert.equal(standingOn({ ...older, verdict: "non-conformant" }, "DIG-1", true).text, "passes");
});
