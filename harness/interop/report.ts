/**
 * What `sxd interop` writes beside interop.json: junit.xml (a test case per cell), the summary
 * table on stdout (clients × servers, a mark per task), and the shards: a stable share of the
 * cells per CI job, and the merge of the shards' documents into the whole matrix.
 */
import { readFileSync } from "node:fs";
import { escapeXml } from "../../lib/xml.ts";
import {
  type Blame,
  INTEROP_KIND,
  INTEROP_VERSION,
  type InteropCell,
  type InteropClient,
  type InteropDocument,
  type InteropServer,
} from "./document.ts";

export interface Shard {
  index: number;
  count: number;
}

/** "I/N" as a shard, or the problem in words. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) return `--shard ${text}: give I/N with 1 <= I <= N, e.g. 2/4`;
  return { index, count };
}

type CellKey = Pick<InteropCell, "client" | "server" | "task">;

const keyOf = (cell: CellKey) => `${cell.client}\u0000${cell.server}\u0000${cell.task}`;
const byKey = (a: CellKey, b: CellKey) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);

/** The cells of a shard: every N-th of them sorted by client, server and task, from the I-th. */
export function shardOf<T extends CellKey>(cells: readonly T[], shard: Shard): T[] {
  return [...cells].sort(byKey).filter((_, position) => position % shard.count === shard.index - 1);
}

const BLAME_MARKS = { client: "C", server: "S", both: "B", neither: "N" } as const;

/** The mark of a cell in the summary table. */
export function markOf(cell: InteropCell | undefined): string {
  if (!cell) return " ";
  if (cell.result === "succeeded") return "+";
  if (cell.result === "unsupported") return "u";
  if (cell.result === "not applicable") return ".";
  return cell.blame ? BLAME_MARKS[cell.blame] : "x";
}

/** Clients as rows, servers as columns, a mark per task in the matrix's order of tasks. */
export function summaryTable(doc: InteropDocument): string {
  const find = (client: string, server: string, task: string) =>
    doc.cells.find((cell) => cell.client === client && cell.server === server && cell.task === task);
  const first = Math.max(6, ...doc.clients.map((client) => client.name.length));
  const widths = doc.servers.map((server) => Math.max(server.name.length, doc.tasks.length));
  const line = (cells: string[]) =>
    cells.map((text, i) => text.padEnd(i === 0 ? first : (widths[i - 1] ?? 0))).join("  ");
  const rows = doc.clients.map((client) =>
    line([
      client.name,
      ...doc.servers.map((server) => doc.tasks.map((task) => markOf(find(client.name, server.name, task))).join("")),
    ]),
  );
  const counts = (result: string) => doc.cells.filter((cell) => cell.result === result).length;
  return [
    line(["", ...doc.servers.map((server) => server.name)]),
    ...rows,
    "",
    `tasks in each cell: ${doc.tasks.join(", ")}`,
    "+ succeeded; failed, blamed on: C client, S server, B both, N neither (a gap in the spec or in sxd's rows), x nobody (a limit of the run); u unsupported; . not applicable",
    `${doc.cells.length} cells: ${counts("succeeded")} succeeded, ${counts("failed")} failed, ${counts("unsupported")} unsupported, ${counts("not applicable")} not applicable`,
    "",
  ].join("\n");
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

/** junit.xml: a test case per cell, named by its task, in a class per pair. */
export function interopJunit(doc: InteropDocument): string {
  const attribute = (text: string) => escapeXml(text).replaceAll("\n", "&#10;");
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
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sxd interop" tests="${doc.cells.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="sxd interop" tests="${doc.cells.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${doc.startedAt.replace(/\.\d+Z$/, "")}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

/** interop.json of a shard, or the problem in words. */
export function readInteropDocument(path: string): InteropDocument {
  const doc = JSON.parse(readFileSync(path, "utf8")) as InteropDocument;
  if (doc?.kind !== INTEROP_KIND || doc.version !== INTEROP_VERSION || !Array.isArray(doc.cells))
    throw new Error(`${path} is not an interop.json of sxd (kind ${INTEROP_KIND}, version ${INTEROP_VERSION})`);
  return doc;
}

/** Whether a file holds an interop.json rather than a conformance.json. */
export function isInteropFile(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { kind?: unknown }).kind === INTEROP_KIND;
  } catch {
    return false;
  }
}

/** The shards' documents as one matrix; a cell in two of them is an error. */
export function mergeInterop(docs: readonly InteropDocument[]): InteropDocument {
  const cells: InteropCell[] = [];
  const seen = new Set<string>();
  for (const doc of docs)
    for (const cell of doc.cells) {
      if (seen.has(keyOf(cell)))
        throw new Error(`the cell ${cell.client} × ${cell.server} ${cell.task} is in two of the documents`);
      seen.add(keyOf(cell));
      cells.push(cell);
    }
  const tasks = docs[0]?.tasks ?? [];
  return {
    kind: INTEROP_KIND,
    version: INTEROP_VERSION,
    startedAt: docs.map((doc) => doc.startedAt).sort()[0] ?? new Date().toISOString(),
    finishedAt:
      docs
        .map((doc) => doc.finishedAt)
        .sort()
        .at(-1) ?? new Date().toISOString(),
    shard: { index: 1, count: 1 },
    tasks: tasks.filter((task) => docs.every((doc) => doc.tasks.includes(task))),
    servers: merged(docs.map((doc) => doc.servers)),
    clients: merged(docs.map((doc) => doc.clients)),
    cells: cells.sort(byKey),
  };
}

/** One entry per name, in the first document's order: the one whose verdict was reached, where a shard reached one. */
function merged<T extends InteropServer | InteropClient>(lists: readonly T[][]): T[] {
  const byName = new Map<string, T>();
  for (const item of lists.flat()) {
    const before = byName.get(item.name);
    if (!before || (before.verdict.verdict === "not run" && item.verdict.verdict !== "not run"))
      byName.set(item.name, item);
  }
  return [...byName.values()];
}
