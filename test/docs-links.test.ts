// --docs-url: where the site is published; the console summary and conformance.html link each
// row that did not pass (the console) or every row (the page) to its section there.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTestArgs } from "../cli/options.ts";
import type { ConformanceDocument } from "../harness/evidence/conformance-document.ts";
import { rowDocsUrl } from "../harness/evidence/presentation.ts";
import type { ScenarioOutcome } from "../harness/judging/outcomes.ts";
import { judge } from "../harness/judging/verdicts.ts";
import { conformanceHtml } from "../harness/report/html.ts";
import { summaryText } from "../harness/report/summary.ts";

const SITE = "https://docs.example/sxd/";

test("a row's section: its behaviour's page, anchored by the row ID", () => {
  assert.equal(rowDocsUrl(SITE, "DIG-4"), "https://docs.example/sxd/digest.html#DIG-4");
  assert.equal(rowDocsUrl("https://docs.example", "SNAP-11"), "https://docs.example/snapshots.html#SNAP-11");
  assert.equal(rowDocsUrl(SITE, "EXP-2"), "https://docs.example/sxd/export.html#EXP-2");
});

test("--docs-url comes from the flag, the environment or the run section, and must be http(s)", () => {
  const file = () => '{"run":{"docsUrl":"https://from-file.example/"}}';
  const fromFile = parseTestArgs(["--config", "t.json"], {}, file);
  assert.ok(fromFile.ok && "value" in fromFile);
  assert.equal(fromFile.value.docsUrl, "https://from-file.example/");
  const fromEnv = parseTestArgs(["--config", "t.json"], { SXD_DOCS_URL: SITE }, file);
  assert.ok(fromEnv.ok && "value" in fromEnv);
  assert.equal(fromEnv.value.docsUrl, SITE);
  const none = parseTestArgs([], {});
  assert.ok(none.ok && "value" in none);
  assert.equal(none.value.docsUrl, undefined);
  const bad = parseTestArgs(["--docs-url", "docs/site"], {});
  assert.ok(!bad.ok);
  assert.match(bad.error, /--docs-url must be an http\(s\) URL/);
});

const failed: ScenarioOutcome = {
  name: "A digest gets in",
  location: "features/digest/access.feature:21",
  rows: ["DIG-4"],
  level: "must",
  status: "failed",
  message: "expected status 200\nbut got 401",
  attachments: [],
};
const passed: ScenarioOutcome = { ...failed, rows: ["DIG-1"], status: "passed", message: undefined };
const rows = [
  { id: "DIG-1", level: "must" as const, rule: "challenge" },
  { id: "DIG-4", level: "must" as const, rule: "access" },
];

test("the console links each row that did not pass to its section, and only with --docs-url", () => {
  const judgement = judge(rows, [failed, passed], { strict: false });
  const linked = summaryText(judgement, "http://t.example", "out", { docsUrl: SITE });
  assert.match(
    linked,
    /^ {2}FAILED: DIG-4 \(MUST\) expected status 200\n {4}the rule: https:\/\/docs\.example\/sxd\/digest\.html#DIG-4$/m,
  );
  assert.doesNotMatch(linked, /#DIG-1/);
  assert.doesNotMatch(summaryText(judgement, "http://t.example", "out"), /the rule:/);
});

test("conformance.html links every row to its section, and only with --docs-url", () => {
  const doc: ConformanceDocument = {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl: "http://t.example" },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall: "not conformant",
    rows: rows.map((r) => ({
      ...r,
      verdict: r.id === "DIG-4" ? "failed" : "passed",
      scenarios: [{ name: "s", location: "l", status: "passed", exchanges: [] }],
    })),
  };
  const page = conformanceHtml(doc, SITE);
  for (const id of ["DIG-1", "DIG-4"])
    assert.ok(page.includes(`href="https://docs.example/sxd/digest.html#${id}"`), id);
  assert.doesNotMatch(conformanceHtml(doc), /docs\.example/);
});
