/**
 * junit.xml, for CI test tabs. A server's or client's run (`junitXml`): one test case per
 * scenario and row, named by the row and its level. It says what the exit code says: only a
 * case that counts against the run is a <failure>; a warning, an expected failure or a fixed
 * row is reported beside a pass, and what was not run or does not apply is <skipped> with the
 * reason. An interop run (`interopJunit`): a test case per cell, named by its task, in a class
 * per pair. Valid against the Ant/Jenkins junit schema (junit-10.xsd).
 */
import { escapeXml, xmlCharactersOnly } from "../../lib/xml.ts";
import type { InteropDocument } from "../evidence/interop-document.ts";
import { caseNames, type ScenarioOutcome } from "../judging/outcomes.ts";
import { repeatsShare } from "../judging/repeats.ts";
import { caseVerdict, type Judgement, type RowResult, type RowVerdict } from "../judging/verdicts.ts";

export interface JunitInput {
  judgement: Judgement;
  /** The server the run was against, named in the suite. */
  baseUrl: string;
  /** When the run started, ISO 8601. */
  timestamp: string;
}

interface TestCase {
  xml: string;
  failed: boolean;
  skipped: boolean;
  seconds: number;
}

export function junitXml({ judgement, baseUrl, timestamp }: JunitInput): string {
  const cases = judgement.rows.filter((r) => r.scenarios.length > 0).flatMap((r) => rowCases(r, judgement));
  const failures = cases.filter((c) => c.failed).length;
  const skipped = cases.filter((c) => c.skipped).length;
  const time = seconds(cases.reduce((sum, c) => sum + c.seconds, 0));
  const properties = [
    ["verdict", judgement.overall],
    ["exit code", String(judgement.exitCode)],
    ["target", baseUrl],
    ["strict", String(judgement.options.strict)],
    ["allow incomplete", String(judgement.options.allowIncomplete ?? false)],
    ...repeatsProperties(judgement),
  ]
    .map(([name, value]) => `      <property name="${attribute(name)}" value="${attribute(value)}"/>`)
    .join("\n");
  const counts = `tests="${cases.length}" failures="${failures}" errors="0"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="sxd" ${counts} time="${time}">
  <testsuite name="${attribute(`sxd conformance of ${baseUrl}`)}" ${counts} skipped="${skipped}" time="${time}" timestamp="${attribute(timestamp)}">
    <properties>
${properties}
    </properties>
${cases.map((c) => c.xml).join("\n")}
  </testsuite>
</testsuites>
`;
}

/** junit.xml of an interop run: a test case per cell, named by its task, in a class per pair. */
export function interopJunit(doc: InteropDocument): string {
  const cases = doc.cells.map((cell) => {
    const head = `    <testcase classname="${attribute(`${cell.client} × ${cell.server}`)}" name="${attribute(cell.task)}" time="0">`;
    const rows = [
      ...cell.rows.client.map((r) => `client ${r.id}: ${r.reason}`),
      ...cell.rows.server.map((r) => `server ${r.id}: ${r.reason}`),
      ...(cell.alsoBroken?.client ?? []).map((r) => `also broken, client ${r.id}: ${r.reason}`),
      ...(cell.alsoBroken?.server ?? []).map((r) => `also broken, server ${r.id}: ${r.reason}`),
    ];
    const detail = attribute([cell.why, ...rows].join("\n"));
    if (cell.result === "failed")
      return `${head}\n      <failure message="${attribute(`blame ${cell.blame ?? "none"}: ${cell.why}`)}">${detail}</failure>\n    </testcase>`;
    if (cell.result !== "succeeded")
      return `${head}\n      <skipped message="${attribute(`${cell.result}: ${cell.why}`)}"/>\n    </testcase>`;
    return `${head}</testcase>`;
  });
  const failures = doc.cells.filter((cell) => cell.result === "failed").length;
  const skipped = doc.cells.filter((cell) => cell.result !== "succeeded" && cell.result !== "failed").length;
  const counts = `tests="${doc.cells.length}" failures="${failures}" errors="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sxd interop" ${counts}>`,
    `  <testsuite name="sxd interop" ${counts} skipped="${skipped}" timestamp="${attribute(doc.startedAt.replace(/\.\d+Z$/, ""))}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

/** A group's (--repeat) properties: how many repeats ran of those asked, and the rows whose verdicts differed. */
function repeatsProperties({ repeated, rows }: Judgement): string[][] {
  if (!repeated || repeated.asked <= 1) return [];
  const intermittent = rows.filter((r) => r.scenarios.length > 0 && r.intermittent).map((r) => r.row.id);
  return [
    ["repeats", `${repeated.ran} of ${repeated.asked}`],
    ["intermittent rows", intermittent.join(", ") || "none"],
  ];
}

function rowCases(result: RowResult, judgement: Judgement): TestCase[] {
  const names = caseNames(result.scenarios);
  const classname = `${result.row.id} (${result.row.level.toUpperCase()})`;
  // In a group, a case is of the row's evidence repeat; its message says how the row went over all.
  const share = repeatsShare(result);
  return result.scenarios.map((scenario, i) => {
    const verdict = caseVerdict(scenario, result.row.id, judgement.options);
    const listed = judgement.options.expectedFailures?.get(result.row.id);
    const told = share !== undefined && SHARED.includes(verdict) ? shared(scenario, share) : scenario;
    const body = caseBody(verdict, told, listed);
    const duration = (scenario.durationMs ?? 0) / 1000;
    const open = `    <testcase classname="${attribute(classname)}" name="${attribute(names[i])}" time="${seconds(duration)}"`;
    return {
      xml: body ? `${open}>\n${body}\n    </testcase>` : `${open}/>`,
      failed: verdict === "failed",
      skipped: verdict === "not run" || verdict === "not applicable" || verdict === "expected failure",
      seconds: duration,
    };
  });
}

function caseBody(verdict: ReturnType<typeof caseVerdict>, scenario: ScenarioOutcome, listed?: string): string {
  const message = scenario.message ?? "";
  const level = (scenario.level ?? "must").toUpperCase();
  const where = `${scenario.location}\n`;
  switch (verdict) {
    case "failed":
      return `      <failure type="${level}" message="${attribute(firstLine(message))}">${text(where + message)}</failure>`;
    case "warning":
      return output(`warning (${level}: does not fail the run; --strict would)\n${where}${message}`);
    case "expected failure":
      return [
        `      <skipped type="expected failure" message="${attribute(`expected failure (${listed}): ${firstLine(message)}`)}"/>`,
        output(`${where}${message}`),
      ].join("\n");
    case "fixed":
      return output(`fixed: listed in --expect-fail (${listed}) but passed; time to update the list`);
    case "not run":
    case "not applicable":
      return `      <skipped message="${attribute(`${verdict}: ${message}`)}"/>`;
    default:
      return "";
  }
}

/** The cases whose message says the row's share of a group: those that broke or warned. */
const SHARED: RowVerdict[] = ["failed", "warning", "expected failure"];

/** The scenario, its message opening with the row's share of a group: "intermittent, failed in 3 of 20 repeats, passed in 17: …". */
function shared(scenario: ScenarioOutcome, share: string): ScenarioOutcome {
  return { ...scenario, message: `${share}: ${scenario.message ?? ""}` };
}

function output(content: string): string {
  return `      <system-out>${text(content)}</system-out>`;
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? "";
}

function seconds(value: number): string {
  return value.toFixed(3);
}

/** A target may send any bytes: what XML 1.0 cannot carry at all is shown as U+FFFD. */
function text(value: string): string {
  return escapeXml(xmlCharactersOnly(value));
}

/** Attribute values keep their line breaks and tabs only as character references. */
function attribute(value: string): string {
  return text(value).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}
