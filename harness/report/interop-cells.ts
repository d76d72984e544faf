/**
 * What every report of an interop run reads its cells through: a cell's mark in the matrix
 * (the console table, summary.md), and the failed cells grouped by pair and reason (summary.md,
 * interop.html).
 */
import type { Blame, InteropCell } from "../evidence/interop-document.ts";

const BLAME_MARKS = { client: "C", server: "S", both: "B", neither: "N" } as const;

/** The mark of a cell in the matrix. */
export function markOf(cell: InteropCell | undefined): string {
  if (!cell) return " ";
  if (cell.result === "succeeded") return "+";
  if (cell.result === "unsupported") return "u";
  if (cell.result === "not applicable") return ".";
  return cell.blame ? BLAME_MARKS[cell.blame] : "x";
}

/** The marks of a pair's cells, a mark per task in the matrix's order of tasks. */
export function pairMarks(cells: readonly InteropCell[], tasks: readonly string[], client: string, server: string) {
  return tasks
    .map((task) => markOf(cells.find((cell) => cell.client === client && cell.server === server && cell.task === task)))
    .join("");
}

/** "7 cells: 1 succeeded, 4 failed, 1 unsupported, 1 not applicable" */
export function cellCounts(cells: readonly InteropCell[]): string {
  const count = (result: string) => cells.filter((cell) => cell.result === result).length;
  return `${cells.length} cells: ${count("succeeded")} succeeded, ${count("failed")} failed, ${count("unsupported")} unsupported, ${count("not applicable")} not applicable`;
}

/** A pair's failed cells that share their blame, the rows that explain it and the why: one entry of a report. */
export interface FailureGroup {
  client: string;
  server: string;
  blame: Blame | null;
  why: string;
  /** The cells, in the document's order; their tasks name the group. */
  cells: InteropCell[];
}

/** The failed cells grouped by pair and reason, in the order each group's first cell comes. */
export function failureGroups(cells: readonly InteropCell[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const cell of cells.filter((c) => c.result === "failed")) {
    const rows = [...cell.rows.client, ...cell.rows.server].map((row) => row.id);
    const key = [cell.client, cell.server, cell.blame, cell.why, ...rows].join("\u0000");
    const group = groups.get(key);
    if (group) group.cells.push(cell);
    else groups.set(key, { client: cell.client, server: cell.server, blame: cell.blame, why: cell.why, cells: [cell] });
  }
  return [...groups.values()];
}

/** "digest-get and digest-post": the tasks of a group in words. */
export function tasksText(cells: readonly InteropCell[]): string {
  const tasks = cells.map((cell) => cell.task);
  return tasks.length < 2 ? tasks.join("") : `${tasks.slice(0, -1).join(", ")} and ${tasks.at(-1)}`;
}
