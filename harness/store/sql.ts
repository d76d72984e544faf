/**
 * The one thing both backends are to the store: SQL text with `?` for each value, run on a
 * SQLite file (sqlite.ts) or a PostgreSQL server (postgres.ts). The store's statements are
 * written once, in the SQL both dialects speak; postgres.ts numbers the `?` as `$1, $2, ...`.
 */

export type Dialect = "sqlite" | "postgres";

/** A value a statement takes or a row holds. */
export type SqlValue = string | number | null;
export type SqlRow = Record<string, SqlValue>;

export interface Sql {
  readonly dialect: Dialect;
  /** The rows a statement gives. */
  all(text: string, values?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** How many rows a statement changed. */
  run(text: string, values?: readonly SqlValue[]): Promise<number>;
  /**
   * `work` in one transaction that holds the store's write lock from its start (SQLite's
   * BEGIN IMMEDIATE, PostgreSQL's advisory lock where `exclusive`): committed whole, or rolled
   * back whole where it throws or the process dies before the commit.
   */
  transaction<T>(work: (sql: Sql) => Promise<T>, exclusive?: boolean): Promise<T>;
  close(): Promise<void>;
}

/** A store's location that names a PostgreSQL server; any other is a SQLite file's path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}

/** A store's location as messages show it: a URL's password never. */
export function shownUrl(location: string): string {
  // The password ends at the authority's last "@": it may hold an "@" of its own, never a "/".
  return location.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^/]*@/i, "$1:•••@");
}

/** A failure of the store itself, in one line a person can act on: the shell prints it and exits 2. */
export class StoreError extends Error {}

/**
 * One INSERT of many rows, in chunks a statement can carry (SQLite binds at most 32766 values):
 * `columns` named once, each row's values in their order.
 */
export async function insertRows(
  sql: Sql,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly SqlValue[]>,
): Promise<void> {
  const chunk = Math.max(1, Math.floor(30000 / columns.length));
  const one = `(${columns.map(() => "?").join(", ")})`;
  for (let at = 0; at < rows.length; at += chunk) {
    const part = rows.slice(at, at + chunk);
    await sql.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${part.map(() => one).join(", ")}`, part.flat());
  }
}
