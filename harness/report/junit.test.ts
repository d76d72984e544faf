import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { sampleInterop } from "../../test/support/interop-document.ts";
import { validateJunit } from "../../test/support/junit-schema.ts";
import type { Row } from "../judging/catalogue.ts";
import type { ScenarioOutcome } from "../judging/outcomes.ts";
import { type JudgeOptions, judge } from "../judging/verdicts.ts";
import { interopJunit, junitXml } from "./junit.ts";

const rows: Row[] = [
  { id: "DIG-12", level: "should", rule: "defects" },
  { id: "SNAP-2", level: "must", rule: "204" },
  { id: "SNAP-9", level: "must", rule: "delete", should: "404 or 410" },
  { id: "EXP-1", level: "must", rule: "list" },
  { id: "EXP-9", level: "may", rule: "upload" },
  { id: "SNAP-8", level: "must", rule: "current" },
];

const scenario = (
  row: string,
  status: ScenarioOutcome["status"],
  more: Partial<ScenarioOutcome> = {},
): ScenarioOutcome => ({
  name: `${row} case`,
  location: "features/x.feature:3",
  rows: [row],
  level: "must",
  status,
  message: status === "passed" ? undefined : `${row} went ${status}\nin the exchange:\n    > GET /x`,
  durationMs: 12.5,
  attachments: [],
  ...more,
});

/** Every kind of case there is: a warned outline twice, a failure, a should part, holes. */
const outcomes: ScenarioOutcome[] = [
  scenario("DIG-12", "failed", { name: "A defect is refused (nc)", examples: "nc: 1", level: "should" }),
  scenario("DIG-12", "failed", { name: "A defect is refused (nc)", examples: "nc: 0000000g", level: "should" }),
  scenario("SNAP-2", "failed", {
    message: 'expected status 204 & "no body"\nbut got <200>\u0000\u001b[0m\nin the exchange:\n    > PUT /x',
  }),
  scenario("SNAP-9", "passed"),
  scenario("SNAP-9", "failed", { name: "Deleted is 404 or 410", level: "should" }),
  scenario("EXP-1", "not run", { message: "no contacts URL was given" }),
  scenario("EXP-9", "not applicable", { level: "may", message: "the target states no upload" }),
  scenario("SNAP-8", "passed"),
];

function junitOf(options: JudgeOptions): string {
  return junitXml({ judgement: judge(rows, outcomes, options), baseUrl: "http://t.example", timestamp: "T" });
}

const testcases = (xml: string) => [...xml.matchAll(/<testcase [^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)].map((m) => m[0]);
const caseOf = (xml: string, text: string) => testcases(xml).find((c) => c.includes(text)) ?? "";

test("only the cases that fail the run are failures; the counts say so", () => {
  const xml = junitOf({ strict: false });
  assert.match(xml, /<testsuites name="sxd" tests="8" failures="1" errors="0"/);
  assert.match(xml, /skipped="2"/);
  assert.match(xml, /<property name="verdict" value="not conformant"\/>/);
  assert.match(xml, /<property name="exit code" value="1"\/>/);
  const failed = caseOf(xml, 'classname="SNAP-2 (MUST)"');
  assert.match(failed, /<failure type="MUST" message="expected status 204 &amp; &quot;no body&quot;">/);
  // The whole message, with the exchange, in the failure's text.
  assert.match(failed, /but got &lt;200&gt;/);
  assert.match(failed, /in the exchange/);
});

test("a warning is reported beside a pass, never as a failure, unless the run is strict", () => {
  const lenient = junitOf({ strict: false });
  const warned = caseOf(lenient, 'name="Deleted is 404 or 410"');
  assert.doesNotMatch(warned, /<failure/);
  assert.match(warned, /<system-out>warning \(SHOULD: does not fail the run; --strict would\)/);
  const strict = junitOf({ strict: true });
  assert.match(caseOf(strict, 'name="Deleted is 404 or 410"'), /<failure type="SHOULD"/);
  assert.match(strict, /tests="8" failures="4"/);
});

test("not run and not applicable are skipped with their reason", () => {
  const xml = junitOf({ strict: false });
  assert.match(caseOf(xml, "EXP-1 (MUST)"), /<skipped message="not run: no contacts URL was given"\/>/);
  assert.match(caseOf(xml, "EXP-9 (MAY)"), /<skipped message="not applicable: the target states no upload"\/>/);
});

test("expected failures are skipped, fixed rows pass with a note; what is left is the hole EXP-1", () => {
  const listed = new Map([
    ["SNAP-2", "bug 7"],
    ["SNAP-8", "bug 9"],
  ]);
  const xml = junitOf({ strict: false, expectedFailures: listed });
  assert.match(xml, /failures="0"/);
  assert.match(xml, /<property name="verdict" value="incomplete"\/>/);
  assert.match(xml, /<property name="exit code" value="3"\/>/);
  assert.match(caseOf(xml, "SNAP-2 (MUST)"), /<skipped type="expected failure" message="expected failure \(bug 7\): /);
  assert.match(caseOf(xml, "SNAP-8 (MUST)"), /<system-out>fixed: listed in --expect-fail \(bug 9\) but passed/);
  assert.doesNotMatch(xml, /<failure/);
});

test("each case names its row and level, and outlines that repeat a name get their Examples row", () => {
  const xml = junitOf({ strict: false });
  const names = testcases(xml).map((c) => /classname="([^"]*)" name="([^"]*)"/.exec(c)?.slice(1).join(" / "));
  assert.equal(new Set(names).size, names.length, names.join("\n"));
  assert.ok(names.includes("DIG-12 (SHOULD) / A defect is refused (nc) [nc: 1]"), names.join("\n"));
  assert.ok(names.includes("DIG-12 (SHOULD) / A defect is refused (nc) [nc: 0000000g]"));
  assert.match(xml, /time="0\.013"/);
});

test("junit.xml validates against the junit schema, whatever bytes a target sent", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "sxd-junit-"));
  for (const [name, options] of Object.entries({ lenient: { strict: false }, strict: { strict: true } })) {
    const file = join(dir, `${name}.xml`);
    writeFileSync(file, junitOf(options));
    const validation = validateJunit(file);
    if ("missing" in validation) {
      t.skip(validation.missing);
      return;
    }
    assert.ok(validation.valid, validation.output);
  }
  // The check can fail: a suite without its failure count is not junit.
  const broken = join(dir, "broken.xml");
  writeFileSync(broken, junitOf({ strict: false }).replace(/ failures="\d+"/g, ""));
  assert.equal((validateJunit(broken) as { valid: boolean }).valid, false);
});

test("an interop run's junit.xml: a case per cell in a class per pair, valid whatever bytes a cell's why holds", (t) => {
  const doc = sampleInterop();
  const [first] = doc.cells;
  if (first) first.why = "the client wrote \u0001 and a\ttab <b>";
  const xml = interopJunit(doc);
  assert.match(
    xml,
    /<testsuites name="sxd interop" tests="12" failures="4" errors="0">\n {2}<testsuite name="sxd interop" tests="12" failures="4" errors="0" skipped="4" /,
  );
  assert.match(
    xml,
    /<testcase classname="curl × strict" name="digest-get" time="0">\n {6}<failure message="blame client: the client wrote \uFFFD and a&#9;tab &lt;b&gt;">/,
  );
  assert.match(
    xml,
    /<testcase classname="wget × strict" name="update" time="0">\n {6}<skipped message="unsupported: unsupported"\/>/,
  );
  const file = join(mkdtempSync(join(tmpdir(), "sxd-junit-")), "interop.xml");
  writeFileSync(file, xml);
  const validation = validateJunit(file);
  if ("missing" in validation) {
    t.skip(validation.missing);
    return;
  }
  assert.ok(validation.valid, validation.output);
});
