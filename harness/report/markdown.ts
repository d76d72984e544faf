/**
 * summary.md: the run in a few Markdown tables, for where Markdown is shown as it is written
 * to (a GitHub job summary, a merge request comment): the verdict, the rows checked by level
 * and verdict, and each row that did not pass with its reason. The details stay in
 * conformance.html; this page only says where to look.
 *
 *   # sxd: not conformant
 *   http://127.0.0.1:8080: 41 rows checked (sxd 0.1.0, 2025-01-01T12:00:00.000Z)
 *   | level | passed | failed | … |
 */
import { type ConformanceDocument, documentSide, documentSubject } from "../conformance-document.ts";
import type { RowVerdict } from "../verdicts.ts";

/** The verdicts in the order the tables show them, the ones to look at first. */
const VERDICTS: RowVerdict[] = [
  "failed",
  "warning",
  "not run",
  "expected failure",
  "fixed",
  "not applicable",
  "passed",
];

const LEVELS = ["must", "should", "may"] as const;

export function summaryMarkdown(doc: ConformanceDocument): string {
  const checked = doc.rows.filter((row) => row.scenarios.length > 0);
  const side = documentSide(doc) === "client" ? "client" : "server";
  const lines = [
    `# sxd: ${doc.overall}`,
    "",
    `${side} \`${cell(documentSubject(doc))}\`: ${checked.length} ${checked.length === 1 ? "row" : "rows"} checked (sxd ${doc.suite.version}, ${doc.date})`,
    "",
  ];
  if (doc.interrupted) lines.push(`Interrupted by ${doc.interrupted}: the scenarios not started are not run.`, "");
  for (const warning of doc.warnings ?? []) lines.push(`> ${cell(warning)}`, "");
  const shown = VERDICTS.filter((verdict) => checked.some((row) => row.verdict === verdict));
  lines.push(`| level | ${shown.join(" | ")} |`, `|---|${shown.map(() => "---:|").join("")}`);
  for (const level of LEVELS) {
    const ofLevel = checked.filter((row) => row.level.toLowerCase() === level);
    if (ofLevel.length === 0) continue;
    const counts = shown.map((verdict) => ofLevel.filter((row) => row.verdict === verdict).length);
    lines.push(`| ${level.toUpperCase()} | ${counts.join(" | ")} |`);
  }
  const notPassed = checked.filter((row) => row.verdict !== "passed");
  if (notPassed.length > 0) {
    lines.push("", "| row | level | verdict | why |", "|---|---|---|---|");
    notPassed.sort((a, b) => VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict));
    for (const row of notPassed)
      lines.push(`| ${row.id} | ${row.level.toUpperCase()} | ${row.verdict} | ${cell(firstLine(row.reason))} |`);
  }
  lines.push("", "Every scenario and exchange: `conformance.html` in the reports.", "");
  return lines.join("\n");
}

/** Text made safe for one cell of a Markdown table: no line break, no column bar, no HTML. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;");
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0] ?? "";
}
