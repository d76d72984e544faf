/**
 * summary.md: the run in a few Markdown tables, for where Markdown is shown as it is written
 * to (a GitHub job summary, a merge request comment): the verdict, the rows checked by level
 * and verdict, and each row that did not pass with its reason. The details stay in
 * conformance.html; this page only says where to look. An interop run's (`interopMarkdown`):
 * the matrix, clients as rows and servers as columns, a mark per task, and the failed cells.
 *
 *   # sxd: not conformant
 *   http://127.0.0.1:8080: 41 rows checked (sxd 0.1.0, 2025-01-01T12:00:00.000Z)
 *   | level | passed | failed | … |
 */
import { type ConformanceDocument, documentSide, documentSubject } from "../evidence/conformance-document.ts";
import type { BrokenRow, InteropDocument } from "../evidence/interop-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import { repeatsCount, repeatsShare } from "../judging/repeats.ts";
import type { RowVerdict } from "../judging/verdicts.ts";
import { cellCounts, type FailureGroup, failureGroups, pairMarks, tasksText } from "./interop-cells.ts";

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
  const inRepeats = repeatsCount(doc.repeated);
  const side = documentSide(doc) === "client" ? "client" : "server";
  const lines = [
    `# sxd: ${doc.overall}`,
    "",
    `${side} \`${cell(documentSubject(doc))}\`: ${checked.length} ${checked.length === 1 ? "row" : "rows"} checked${inRepeats ? `, ${inRepeats}` : ""} (sxd ${doc.suite.version}, ${doc.date})`,
    "",
  ];
  if ((doc.repeated?.ran ?? 1) > 1) {
    const intermittent = checked.filter((row) => row.intermittent).map((row) => row.id);
    lines.push(`Intermittent, their verdicts differing between repeats: ${intermittent.join(", ") || "none"}.`, "");
  }
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
      lines.push(`| ${row.id} | ${row.level.toUpperCase()} | ${verdictCell(row)} | ${cell(firstLine(row.reason))} |`);
  }
  lines.push("", `Every scenario and exchange: \`${REPORT_FILES.conformanceHtml}\` in the reports.`, "");
  return lines.join("\n");
}

/** summary.md of an interop run: the matrix as a Markdown table, and the failed cells grouped by pair and reason. */
export function interopMarkdown(doc: InteropDocument): string {
  const marks = (client: string, server: string) =>
    pairMarks(doc.cells, doc.tasks, client, server).replaceAll(" ", "·");
  const failed = doc.cells.filter((c) => c.result === "failed");
  const groups = failureGroups(doc.cells);
  const neither = groups.filter((g) => g.blame === "neither");
  const blamed = groups.filter((g) => g.blame !== "neither");
  return [
    `## sxd interop: ${failed.length === 0 ? "every pair that can run succeeded" : `${failed.length} failed cells`}`,
    "",
    `| client \\ server | ${doc.servers.map((s) => cell(s.name)).join(" | ")} |`,
    `|---|${doc.servers.map(() => "---").join("|")}|`,
    ...doc.clients.map(
      (client) =>
        `| ${cell(client.name)} | ${doc.servers.map((server) => `\`${marks(client.name, server.name)}\``).join(" | ")} |`,
    ),
    "",
    `Tasks in each cell: ${doc.tasks.join(", ")}. \`+\` succeeded; failed, blamed on \`C\` client, \`S\` server, \`B\` both, \`N\` neither; \`x\` nobody (a limit of the run: the client killed for time, or the server not up); \`u\` unsupported; \`.\` not applicable.`,
    "",
    `${cellCounts(doc.cells)}.`,
    ...(neither.length > 0
      ? ["", "### Failed with no row broken: gaps in the spec or in sxd's rows", "", ...neither.map(groupLine)]
      : []),
    ...(blamed.length > 0
      ? ["", "### Failed, and whose breach stopped the exchange", "", ...blamed.map(groupLine)]
      : []),
    "",
  ].join("\n");
}

/** One group of failed cells: the pair, its tasks, the blame, the rows that explain it and the why. */
function groupLine(group: FailureGroup): string {
  const [first] = group.cells;
  const named = (rows: BrokenRow[], side: string) => rows.map((r) => `${side} ${r.id}`);
  const rows = first ? [...named(first.rows.client, "client"), ...named(first.rows.server, "server")] : [];
  const also = first
    ? [...named(first.alsoBroken?.client ?? [], "client"), ...named(first.alsoBroken?.server ?? [], "server")]
    : [];
  const blame = group.blame ?? "nobody (a limit of the run)";
  const explained = [rows.join(", "), also.length > 0 ? `also broken: ${also.join(", ")}` : ""].filter(Boolean);
  return `- ${cell(group.client)} × ${cell(group.server)}, ${tasksText(group.cells)}: ${blame}${explained.length > 0 ? ` (${explained.join("; ")})` : ""}: ${cell(group.why)}`;
}

/** A row's verdict, and in a group how it went over the repeats: "failed (intermittent, failed in 3 of 20 repeats, passed in 17)". */
function verdictCell(row: ConformanceDocument["rows"][number]): string {
  const share = repeatsShare(row);
  return share === undefined ? row.verdict : `${row.verdict} (${share})`;
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
