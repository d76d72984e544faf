/**
 * history.json (schema/history.schema.json): the stored runs read per target, each row's and
 * interop cell's history (stretches.ts) and each limits case's trend (trend.ts). Pure: the runs
 * come from the store, the document goes to the terminal, a file or the page (history-page.ts).
 */
import type { RunKind, RunRecord } from "./records.ts";
import { type Observation, type RowHistory, type RunRef, rowHistory } from "./stretches.ts";
import { type CaseTrend, caseTrend, type MeasuredPoint } from "./trend.ts";

export const HISTORY_KIND = "sxd-history";
export const HISTORY_VERSION = 1;

export interface HistoryFilter {
  target?: string;
  label?: string;
  since?: string;
  until?: string;
  /** Row IDs, cells (client/server/task) or LIM cases. */
  rows?: string[];
}

export interface TargetHistory {
  target: string;
  kinds: RunKind[];
  runs: number;
  first: RunRef;
  last: RunRef;
  rows: RowHistory[];
  cells: RowHistory[];
  limits: CaseTrend[];
}

export interface HistoryDocument {
  kind: typeof HISTORY_KIND;
  version: typeof HISTORY_VERSION;
  store: string;
  filter: HistoryFilter;
  runs: number;
  targets: TargetHistory[];
}

export function refOf(run: RunRecord): RunRef {
  return { run: run.id, label: run.label, date: run.startedAt, folder: run.folder, jobUrl: run.jobUrl };
}

/** The history of the runs given (oldest first), target by target in the order first run. */
export function historyOf(runs: readonly RunRecord[], store: string, filter: HistoryFilter = {}): HistoryDocument {
  const byTarget = new Map<string, RunRecord[]>();
  for (const run of runs) listIn(byTarget, run.target).push(run);
  const wanted = filter.rows && filter.rows.length > 0 ? new Set(filter.rows) : undefined;
  const keep = (id: string) => wanted === undefined || wanted.has(id);
  return {
    kind: HISTORY_KIND,
    version: HISTORY_VERSION,
    store,
    filter,
    runs: runs.length,
    targets: [...byTarget].map(([target, ofTarget]) => ({
      target,
      kinds: [...new Set(ofTarget.map((r) => r.kind))],
      runs: ofTarget.length,
      first: refOf(ofTarget[0] as RunRecord),
      last: refOf(ofTarget.at(-1) as RunRecord),
      rows: histories(ofTarget, (run, add) => {
        for (const row of run.rows) add(row.id, row.verdict, row.reason, row.intermittent, row.repeats);
      }).filter((h) => keep(h.id)),
      cells: histories(ofTarget, (run, add) => {
        for (const cell of run.cells)
          add(
            `${cell.client}/${cell.server}/${cell.task}`,
            cell.result,
            cell.blame ? `blame: ${cell.blame}; ${cell.why}` : cell.why,
            false,
            null,
          );
      }).filter((h) => keep(h.id)),
      limits: trends(ofTarget).filter((t) => keep(t.caseId)),
    })),
  };
}

/** The list a map keeps under a key, made empty on first ask. */
function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

type Add = (
  id: string,
  verdict: string,
  note: string | null,
  intermittent: boolean,
  repeats: Record<string, number> | null,
) => void;

/**
 * Each id's history across the runs, ids in their order as names (a-2 before a-10): the order
 * first seen would follow which of the jobs that wrote at once was recorded first.
 */
function histories(runs: readonly RunRecord[], seen: (run: RunRecord, add: Add) => void): RowHistory[] {
  const byId = new Map<string, Observation[]>();
  for (const run of runs) {
    const at = refOf(run);
    seen(run, (id, verdict, note, intermittent, repeats) =>
      listIn(byId, id).push({ at, verdict, note, intermittent, repeats }),
    );
  }
  return [...byId]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([id, observations]) => rowHistory(id, observations));
}

/** The rows' stretches whose notes (why the row did not pass) the store keeps apart: Store.notes(). */
export function notesWanted(doc: HistoryDocument): Array<{ run: string; row: string }> {
  return doc.targets.flatMap((t) =>
    t.rows.flatMap((h) =>
      h.stretches.filter((s) => s.verdict !== "passed").map((s) => ({ run: s.first.run, row: h.id })),
    ),
  );
}

/** The history with each row's stretch noted: why its first run gave that verdict (its reason, else its deciding scenario). */
export function withNotes(
  doc: HistoryDocument,
  noteOf: (run: string, row: string) => { reason: string | null; scenario: string | null } | undefined,
): HistoryDocument {
  const noted = (h: RowHistory): RowHistory => ({
    ...h,
    stretches: h.stretches.map((s) => {
      const note = noteOf(s.first.run, h.id);
      return { ...s, note: s.note ?? note?.reason ?? note?.scenario ?? null };
    }),
  });
  return { ...doc, targets: doc.targets.map((t) => ({ ...t, rows: t.rows.map(noted) })) };
}

function trends(runs: readonly RunRecord[]): CaseTrend[] {
  const bySeries = new Map<string, MeasuredPoint[]>();
  for (const run of runs) {
    const at = refOf(run);
    for (const p of run.points) {
      listIn(bySeries, `${p.caseId}\u0000${p.series}`).push({ at, ...p });
    }
  }
  return [...bySeries.values()].flatMap((points) => caseTrend(points) ?? []);
}
