/**
 * The store of results, one interface over two backends: a file path is a SQLite database
 * (made on first use), a postgres:// URL a PostgreSQL server. Opening checks that it can be used
 * (it is a database, of a schema this sxd knows, that lets us in) and brings its schema up to
 * date; a run is recorded whole in one transaction, or not at all; the same run (its
 * document's hash) recorded twice is kept once. Only the shell opens a store.
 */
import { migrate, SCHEMA_VERSION } from "./migrations.ts";
import type { CellRecord, PointRecord, RowRecord, RunKind, RunRecord } from "./records.ts";
import { insertRows, isPostgresUrl, type Sql, type SqlRow, type SqlValue, StoreError, shownUrl } from "./sql.ts";

export { SCHEMA_VERSION, StoreError };

/** Which runs to read: each given part narrows, times are ISO 8601 (a date alone counts as its midnight, UTC). */
export interface RunFilter {
  /** A part of the target (its URL or command). */
  target?: string;
  label?: string;
  since?: string;
  until?: string;
  kinds?: readonly RunKind[];
}

export interface Store {
  /** The store as messages name it (a PostgreSQL URL without its password). */
  readonly where: string;
  /** true where the run is new; false where the same run was already stored (nothing written). */
  record(run: RunRecord): Promise<boolean>;
  /**
   * The runs the filter takes, oldest first, each with what it found: every row's verdict (its
   * reason, scenario and exchange left in the store: notes() reads those of the rows asked for),
   * every interop cell and limits point.
   */
  runs(filter?: RunFilter): Promise<RunRecord[]>;
  /** The reason, deciding scenario and exchange of some runs' rows, by noteKey(run, row). */
  notes(wanted: ReadonlyArray<{ run: string; row: string }>): Promise<Map<string, Note>>;
  close(): Promise<void>;
}

/** A store opened and checked: a StoreError (one line) where it cannot be used. */
export async function openStore(location: string): Promise<Store> {
  // Each backend's library is loaded only where its kind of store is asked for.
  const sql = isPostgresUrl(location)
    ? await (await import("./postgres.ts")).openPostgres(location)
    : (await import("./sqlite.ts")).openSqlite(location);
  const where = shownUrl(location);
  try {
    await migrate(sql, where, (why) => new StoreError(why));
  } catch (error) {
    await sql.close();
    throw error;
  }
  return new SqlStore(sql, where);
}

/**
 * How each record's fields sit in their table's columns: text, a number, either or null, JSON
 * text, a flag as 0 or 1. One list a table makes both the values written and the record read.
 */
type Kind = "text" | "text?" | "number" | "number?" | "json" | "json?" | "flag";
type Columns<R> = ReadonlyArray<readonly [column: string, field: keyof R & string, kind: Kind]>;

const RUN: Columns<RunRecord> = [
  ["id", "id", "text"],
  ["kind", "kind", "text"],
  ["started_at", "startedAt", "text"],
  ["finished_at", "finishedAt", "text"],
  ["sxd_version", "sxdVersion", "text?"],
  ["catalogue_version", "catalogueVersion", "text?"],
  ["target", "target", "text"],
  ["target_detail", "targetDetail", "json"],
  ["label", "label", "text?"],
  ["ref", "ref", "text?"],
  ["overall", "overall", "text?"],
  ["folder", "folder", "text?"],
  ["job_url", "jobUrl", "text?"],
];
const VERDICT: Columns<RowRecord> = [
  ["row_id", "id", "text"],
  ["level", "level", "text"],
  ["verdict", "verdict", "text"],
  ["reason", "reason", "text?"],
  ["scenario", "scenario", "text?"],
  ["exchange", "exchange", "text?"],
  ["intermittent", "intermittent", "flag"],
  ["repeats", "repeats", "json?"],
];
const CELL: Columns<CellRecord> = [
  ["client", "client", "text"],
  ["server", "server", "text"],
  ["task", "task", "text"],
  ["result", "result", "text"],
  ["blame", "blame", "text?"],
  ["why", "why", "text"],
  ["evidence", "evidence", "text?"],
];
const POINT: Columns<PointRecord> = [
  ["case_id", "caseId", "text"],
  ["series", "series", "text"],
  ["unit", "unit", "text"],
  ["size", "size", "number"],
  ["lower_quartile", "lowerQuartile", "number"],
  ["median", "median", "number"],
  ["spread", "spread", "number"],
  ["growth", "growth", "text?"],
  ["memory", "memory", "number?"],
];

function valuesOf<R>(columns: Columns<R>, record: R): SqlValue[] {
  return columns.map(([, field, kind]) => {
    const value = record[field] as unknown;
    if (value === null || value === undefined) return null;
    if (kind === "flag") return value ? 1 : 0;
    return kind.startsWith("json") ? JSON.stringify(value) : (value as SqlValue);
  });
}

function recordOf<R>(columns: Columns<R>, row: SqlRow): R {
  const record: Record<string, unknown> = {};
  for (const [column, field, kind] of columns) {
    const value = row[column];
    if (value === null || value === undefined) record[field] = kind === "flag" ? false : null;
    else if (kind === "flag") record[field] = Number(value) === 1;
    else if (kind.startsWith("json")) record[field] = JSON.parse(String(value));
    else record[field] = kind.startsWith("number") ? Number(value) : String(value);
  }
  return record as R;
}

const names = <R>(columns: Columns<R>, prefix = "") => columns.map(([column]) => `${prefix}${column}`);

/** What a row's record says besides its verdict, kept in sxd_verdicts alone. */
export type Note = Pick<RowRecord, "reason" | "scenario" | "exchange">;
const NOTE: Columns<Note> = [
  ["reason", "reason", "text?"],
  ["scenario", "scenario", "text?"],
  ["exchange", "exchange", "text?"],
];

export const noteKey = (run: string, row: string) => `${run} ${row}`;

/**
 * A row's verdict as sxd_runs.row_verdicts keeps it beside the run, one JSON array for all its
 * rows (id, level, verdict, intermittent as 0 or 1, repeats): read in one value a run, where the
 * history reads the verdicts of thousands of runs (sxd_verdicts holds each row whole).
 */
type Brief = [string, string, string, number, Record<string, number> | null];

const briefOf = (r: RowRecord): Brief => [r.id, r.level, r.verdict, r.intermittent ? 1 : 0, r.repeats];

function rowOfBrief([id, level, verdict, intermittent, repeats]: Brief): RowRecord {
  return {
    id,
    level,
    verdict,
    reason: null,
    scenario: null,
    exchange: null,
    intermittent: intermittent === 1,
    repeats,
  };
}

class SqlStore implements Store {
  constructor(
    private readonly sql: Sql,
    readonly where: string,
  ) {}

  async record(run: RunRecord): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const columns = [...names(RUN), "row_verdicts", "recorded_at"];
      const fresh = await tx.run(
        `INSERT INTO sxd_runs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT (id) DO NOTHING`,
        [...valuesOf(RUN, run), JSON.stringify(run.rows.map(briefOf)), new Date().toISOString()],
      );
      if (fresh === 0) return false;
      const insert = <R>(table: string, columns: Columns<R>, records: readonly R[]) =>
        insertRows(
          tx,
          table,
          ["run_id", ...names(columns)],
          records.map((r) => [run.id, ...valuesOf(columns, r)]),
        );
      await insert("sxd_verdicts", VERDICT, run.rows);
      await insert("sxd_cells", CELL, run.cells);
      await insert("sxd_points", POINT, run.points);
      return true;
    });
  }

  async runs(filter: RunFilter = {}): Promise<RunRecord[]> {
    const { where, values } = whereOf(filter);
    const runs = (
      await this.sql.all(
        `SELECT ${names(RUN, "r.").join(", ")}, r.row_verdicts FROM sxd_runs r ${where} ORDER BY r.started_at, r.id`,
        values,
      )
    ).map(
      (row) =>
        ({
          ...recordOf(RUN, row),
          rows: (JSON.parse(String(row.row_verdicts)) as Brief[]).map(rowOfBrief),
          cells: [],
          points: [],
        }) as RunRecord,
    );
    const byId = new Map(runs.map((run) => [run.id, run]));
    const read = async <R>(table: string, columns: Columns<R>, add: (run: RunRecord, record: R) => void) => {
      const rows = await this.sql.all(
        `SELECT t.run_id, ${names(columns, "t.").join(", ")} FROM ${table} t JOIN sxd_runs r ON r.id = t.run_id ${where}`,
        values,
      );
      for (const row of rows) {
        const run = byId.get(String(row.run_id));
        if (run) add(run, recordOf(columns, row));
      }
    };
    await read("sxd_cells", CELL, (run, c) => run.cells.push(c));
    await read("sxd_points", POINT, (run, p) => run.points.push(p));
    return runs;
  }

  async notes(wanted: ReadonlyArray<{ run: string; row: string }>): Promise<Map<string, Note>> {
    const notes = new Map<string, Note>();
    const runIds = [...new Set(wanted.map((w) => w.run))];
    const rowIds = [...new Set(wanted.map((w) => w.row))];
    const asked = new Set(wanted.map((w) => noteKey(w.run, w.row)));
    const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
    for (let at = 0; at < runIds.length; at += 500) {
      const part = runIds.slice(at, at + 500);
      const rows = await this.sql.all(
        `SELECT run_id, row_id, reason, scenario, exchange FROM sxd_verdicts WHERE run_id IN (${marks(part.length)}) AND row_id IN (${marks(rowIds.length)})`,
        [...part, ...rowIds],
      );
      for (const row of rows) {
        const key = noteKey(String(row.run_id), String(row.row_id));
        if (asked.has(key)) notes.set(key, recordOf(NOTE, row));
      }
    }
    return notes;
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

function whereOf(filter: RunFilter): { where: string; values: SqlValue[] } {
  const parts: string[] = [];
  const values: SqlValue[] = [];
  if (filter.target !== undefined) {
    parts.push("r.target LIKE ?");
    values.push(`%${filter.target}%`);
  }
  if (filter.label !== undefined) {
    parts.push("r.label = ?");
    values.push(filter.label);
  }
  if (filter.since !== undefined) {
    parts.push("r.started_at >= ?");
    values.push(filter.since);
  }
  if (filter.until !== undefined) {
    parts.push("r.started_at <= ?");
    values.push(filter.until);
  }
  if (filter.kinds !== undefined && filter.kinds.length > 0) {
    parts.push(`r.kind IN (${filter.kinds.map(() => "?").join(", ")})`);
    values.push(...filter.kinds);
  }
  return { where: parts.length > 0 ? `WHERE ${parts.join(" AND ")}` : "", values };
}
