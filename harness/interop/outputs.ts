/**
 * Everything an interop run (or the merge of its shards) leaves in the report directory:
 * interop.json, junit.xml, interop.html with a page per cell, and summary.md, the matrix in
 * Markdown that a CI job shows as its summary (ci/sxd-ci.sh takes it from there).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeInteropHtml } from "../report/interop-html.ts";
import type { InteropDocument } from "./document.ts";
import { interopJunit, markOf } from "./report.ts";

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
  const neither = failed.filter((c) => c.blame === "neither");
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
    `Tasks in each cell: ${doc.tasks.join(", ")}. \`+\` succeeded; failed, blamed on \`C\` client, \`S\` server, \`B\` both, \`N\` neither; \`x\` no pair ran; \`u\` unsupported; \`.\` not applicable.`,
    "",
    `${doc.cells.length} cells: ${count("succeeded")} succeeded, ${failed.length} failed, ${count("unsupported")} unsupported, ${count("not applicable")} not applicable.`,
    ...(neither.length > 0
      ? [
          "",
          "### Failed with no row broken: gaps in the spec or in sxd's rows",
          "",
          ...neither.map((c) => `- ${cellText(c.client)} × ${cellText(c.server)}, ${c.task}: ${cellText(c.why)}`),
        ]
      : []),
    ...(failed.length > neither.length
      ? [
          "",
          "### Failed, and who broke which row",
          "",
          ...failed
            .filter((c) => c.blame !== "neither")
            .map((c) => {
              const rows = [
                ...c.rows.client.map((r) => `client ${r.id}`),
                ...c.rows.server.map((r) => `server ${r.id}`),
              ];
              return `- ${cellText(c.client)} × ${cellText(c.server)}, ${c.task}: ${c.blame ?? "no pair ran"}${rows.length > 0 ? ` (${rows.join(", ")})` : ""}: ${cellText(c.why)}`;
            }),
        ]
      : []),
    "",
  ].join("\n");
}
