/**
 * The store's schema, the same in SQLite and PostgreSQL, as numbered migrations: a store
 * records the last one applied (sxd_meta.schema_version), an older store is brought up to date
 * as it is opened, and a store written by a newer sxd (a higher number than this sxd knows) is
 * refused, never written. Each migration is applied with the number in one transaction.
 *
 * The tables: a run (sxd_runs, with its rows' verdicts in brief, store.ts row_verdicts) and what
 * it judged: a row's verdict whole (sxd_verdicts), an interop cell (sxd_cells), a limits point
 * (sxd_points). Times are ISO 8601 text in UTC, which sorts as
 * time does in both dialects.
 */
import type { Sql } from "./sql.ts";

const MIGRATIONS: ReadonlyArray<readonly string[]> = [
  // 1: the runs and what they found.
  [
    `CREATE TABLE sxd_runs (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      started_at TEXT NOT NULL,
      finished_at TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      sxd_version TEXT,
      catalogue_version TEXT,
      target TEXT NOT NULL,
      target_detail TEXT NOT NULL,
      label TEXT,
      ref TEXT,
      overall TEXT,
      folder TEXT,
      job_url TEXT,
      row_verdicts TEXT NOT NULL
    )`,
    "CREATE INDEX sxd_runs_target ON sxd_runs (target, started_at)",
    "CREATE INDEX sxd_runs_started ON sxd_runs (started_at)",
    `CREATE TABLE sxd_verdicts (
      run_id TEXT NOT NULL REFERENCES sxd_runs (id),
      row_id TEXT NOT NULL,
      level TEXT NOT NULL,
      verdict TEXT NOT NULL,
      reason TEXT,
      scenario TEXT,
      exchange TEXT,
      intermittent INTEGER NOT NULL,
      repeats TEXT,
      PRIMARY KEY (run_id, row_id)
    )`,
    `CREATE TABLE sxd_cells (
      run_id TEXT NOT NULL REFERENCES sxd_runs (id),
      client TEXT NOT NULL,
      server TEXT NOT NULL,
      task TEXT NOT NULL,
      result TEXT NOT NULL,
      blame TEXT,
      why TEXT NOT NULL,
      evidence TEXT,
      PRIMARY KEY (run_id, client, server, task)
    )`,
    `CREATE TABLE sxd_points (
      run_id TEXT NOT NULL REFERENCES sxd_runs (id),
      case_id TEXT NOT NULL,
      series TEXT NOT NULL,
      unit TEXT NOT NULL,
      size DOUBLE PRECISION NOT NULL,
      lower_quartile DOUBLE PRECISION NOT NULL,
      median DOUBLE PRECISION NOT NULL,
      spread DOUBLE PRECISION NOT NULL,
      growth TEXT,
      memory DOUBLE PRECISION,
      PRIMARY KEY (run_id, case_id, series, size)
    )`,
  ],
];

/** The schema this sxd writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The store brought up to SCHEMA_VERSION, under the write lock (two first writers make the
 * tables once); `refuse` says why a store cannot be used: it was written by a newer sxd, or it
 * is a SQLite database of something else.
 */
export async function migrate(sql: Sql, where: string, refuse: (why: string) => Error): Promise<void> {
  await sql.transaction(async (tx) => {
    if (tx.dialect === "sqlite") await refuseForeignSqlite(tx, where, refuse);
    await tx.run("CREATE TABLE IF NOT EXISTS sxd_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const [stored] = await tx.all("SELECT value FROM sxd_meta WHERE key = 'schema_version'");
    const version = stored === undefined ? 0 : Number(stored.value);
    if (version > SCHEMA_VERSION)
      throw refuse(
        `the store ${where} was written by a newer sxd (its schema is version ${version}; this sxd knows up to ${SCHEMA_VERSION}): use that sxd or a newer one`,
      );
    for (const statements of MIGRATIONS.slice(version)) for (const statement of statements) await tx.run(statement);
    if (version === SCHEMA_VERSION) return;
    await tx.run(
      stored === undefined
        ? "INSERT INTO sxd_meta (key, value) VALUES ('schema_version', ?)"
        : "UPDATE sxd_meta SET value = ? WHERE key = 'schema_version'",
      [String(SCHEMA_VERSION)],
    );
  }, true);
}

/** A SQLite file with tables but none of sxd's is another program's database: left alone. */
async function refuseForeignSqlite(sql: Sql, where: string, refuse: (why: string) => Error): Promise<void> {
  const tables = (await sql.all("SELECT name FROM sqlite_master WHERE type = 'table'")).map((t) => String(t.name));
  if (tables.length > 0 && !tables.includes("sxd_meta"))
    throw refuse(
      `${where} is a SQLite database of something else (tables ${tables.slice(0, 3).join(", ")}), not a store of sxd`,
    );
}
