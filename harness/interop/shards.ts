/**
 * The shards of `sxd interop`: a stable share of the cells per CI job, and the merge of the
 * shards' documents into the whole matrix, with the evidence their links lead to.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import {
  INTEROP_KIND,
  INTEROP_VERSION,
  type InteropCell,
  type InteropClient,
  type InteropDocument,
  type InteropServer,
} from "../evidence/interop-document.ts";

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

/** The shards the documents lack, as "I/N": each shard of every N they were cut into. */
export function missingShards(docs: readonly InteropDocument[]): string[] {
  const counts = [...new Set(docs.map((doc) => doc.shard.count))].sort((a, b) => a - b);
  return counts.flatMap((count) =>
    Array.from({ length: count }, (_, i) => i + 1)
      .filter((index) => !docs.some((doc) => doc.shard.count === count && doc.shard.index === index))
      .map((index) => `${index}/${count}`),
  );
}

/** A shard's interop.json as read, and the folder it was read from, which holds its evidence. */
export interface ShardReport {
  folder: string;
  doc: InteropDocument;
}

/**
 * Copies into `out` what the merged document's links lead to, from the shard folders: each
 * cell's evidence folder, and each implementation's own report folder from the shard whose
 * entry the merge kept. A path that leads out of its folder is left where it is.
 */
export function copyShardEvidence(shards: readonly ShardReport[], merged: InteropDocument, out: string): void {
  const target = resolve(out);
  for (const { folder, doc } of shards) {
    const source = resolve(folder);
    if (source === target) continue;
    const copy = (path: string) => {
      const [from, to] = [within(source, path), within(target, path)];
      if (from && to && existsSync(from)) cpSync(from, to, { recursive: true });
    };
    for (const cell of doc.cells) copy(cell.evidence);
    for (const kept of [...merged.servers, ...merged.clients]) {
      // The merge keeps the shards' own entries, so the one kept is found by identity.
      const fromThisShard = doc.servers.some((s) => s === kept) || doc.clients.some((c) => c === kept);
      if (fromThisShard && kept.verdict.report) copy(dirname(kept.verdict.report));
    }
  }
}

function within(root: string, path: string): string | undefined {
  const full = resolve(root, path);
  return full.startsWith(root + sep) ? full : undefined;
}
