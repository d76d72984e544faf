/**
 * Everything an interop run (or the merge of its shards) leaves in the report directory:
 * interop.json, junit.xml, interop.html with a page per cell, and summary.md, the matrix in
 * Markdown that a CI job shows as its summary (ci/sxd-ci.sh takes it from there).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeInteropHtml } from "../report/interop-html.ts";
import type { BrokenRow, InteropDocument } from "./document.ts";
import { type FailureGroup, failureGroups, interopJunit, markOf, tasksText } from "./report.ts";

export const INTEROP_FILES = ["interop.json", "junit.xml", "interop.html", "summary.md"] as const;

export function writeInteropReports(reportDir: string, doc: InteropDocument): void {
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, "interop.json"), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(reportDir, "junit.xml"), interopJunit(doc));
  writeFileSync(join(reportDir, "summary.md"), interopMarkdown(doc));
  writeInteropHtml(reportDir, doc);
}

/** The matrix as a Markdown table: clients as rows, servers as columns, a mark per task. */
export function interopMarkdown(doc: InteropDocument): string {
  const cell = (client: string, server: string) =>
    doc.tasks
      .map((task) => markOf(doc.cells.find((c) => c.client === client && c.server === server && c.task === task)))
      .join("")
      .replaceAll(" ", "·");
  const cellText = (text: string) => text.replaceAll("|", "\\|");
  const failed = doc.cells.filter((c) => c.result === "failed");
  const groups = failureGroups(doc.cells);
  const neither = groups.filter((g) => g.blame === "neither");
  const blamed = groups.filter((g) => g.blame !== "neither");
  const groupLine = (group: FailureGroup) => {
    const [first] = group.cells;
    const named = (rows: BrokenRow[], side: string) => rows.map((r) => `${side} ${r.id}`);
    const rows = first ? [...named(first.rows.client, "client"), ...named(first.rows.server, "server")] : [];
    const also = first
      ? [...named(first.alsoBroken?.client ?? [], "client"), ...named(first.alsoBroken?.server ?? [], "server")]
      : [];
    const blame = group.blame ?? "nobody (a limit of the run)";
    const explained = [rows.join(", "), also.length > 0 ? `also broken: ${also.join(", ")}` : ""].filter(Boolean);
    return `- ${cellText(group.client)} × ${cellText(group.server)}, ${tasksText(group.cells)}: ${blame}${explained.length > 0 ? ` (${explained.join("; ")})` : ""}: ${cellText(group.why)}`;
  };
  const count = (result: string) => doc.cells.filter((c) => c.result === result).length;
  return [
    `## sxd interop: ${failed.length === 0 ? "every pair that can run succeeded" : `${failed.length} failed cells`}`,
    "",
    `| client \\ server | ${doc.servers.map((s) => cellText(s.name)).join(" | ")} |`,
    `|---|${doc.servers.map(() => "---").join("|")}|`,
    ...doc.clients.map(
      (client) =>
        `| ${cellText(client.name)} | ${doc.servers.map((server) => `\`${cell(client.name, server.name)}\``).join(" | ")} |`,
    ),
    "",
    `Tasks in each cell: ${doc.tasks.join(", ")}. \`+\` succeeded; failed, blamed on \`C\` client, \`S\` server, \`B\` both, \`N\` neither; \`x\` nobody (a limit of the run: the client killed for time, or the server not up); \`u\` unsupported; \`.\` not applicable.`,
    "",
    `${doc.cells.length} cells: ${count("succeeded")} succeeded, ${failed.length} failed, ${count("unsupported")} unsupported, ${count("not applicable")} not applicable.`,
    ...(neither.length > 0
      ? ["", "### Failed with no row broken: gaps in the spec or in sxd's rows", "", ...neither.map(groupLine)]
      : []),
    ...(blamed.length > 0
      ? ["", "### Failed, and whose breach stopped the exchange", "", ...blamed.map(groupLine)]
      : []),
    "",
  ].join("\n");
}
