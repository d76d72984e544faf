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
  /** The runs the filter takes, oldest first, each with what it found (the exchanges left out). */
  runs(filter?: RunFilter): Promise<RunRecord[]>;
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

class SqlStore implements Store {
  constructor(
    private readonly sql: Sql,
    readonly where: string,
  ) {}

  async record(run: RunRecord): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const columns = [...names(RUN), "recorded_at"];
      const fresh = await tx.run(
        `INSERT INTO sxd_runs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT (id) DO NOTHING`,
        [...valuesOf(RUN, run), new Date().toISOString()],
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
        `SELECT ${names(RUN, "r.").join(", ")} FROM sxd_runs r ${where} ORDER BY r.started_at, r.id`,
        values,
      )
    ).map((row) => ({ ...recordOf(RUN, row), rows: [], cells: [], points: [] }) as RunRecord);
    const byId = new Map(runs.map((run) => [run.id, run]));
    const read = async <R>(table: string, columns: Columns<R>, add: (run: RunRecord, record: R) => void) => {
      // The exchanges stay in the store: the history reads verdicts by the thousand.
      const shown = columns.filter(([column]) => column !== "exchange");
      const rows = await this.sql.all(
        `SELECT t.run_id, ${names(shown, "t.").join(", ")} FROM ${table} t JOIN sxd_runs r ON r.id = t.run_id ${where}`,
        values,
      );
      for (const row of rows) {
        const run = byId.get(String(row.run_id));
        if (run) add(run, recordOf(columns, row));
      }
    };
    await read("sxd_verdicts", VERDICT, (run, r) => run.rows.push(r));
    await read("sxd_cells", CELL, (run, c) => run.cells.push(c));
    await read("sxd_points", POINT, (run, p) => run.points.push(p));
    return runs;
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
