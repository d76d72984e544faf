/**
 * The store in a SQLite file, through libsql (better-sqlite3's interface, its binary shipped in
 * the npm registry): made on first use with its folder, no server to start. Writers take the
 * file's write lock at BEGIN IMMEDIATE and wait for each other up to BUSY_WAIT_MS; a writer
 * killed before its COMMIT leaves a journal that the next opening rolls back.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import { fileProblem } from "../errors.ts";
import { type Sql, type SqlRow, type SqlValue, StoreError } from "./sql.ts";

/** How long a writer waits for another's transaction to end. */
const BUSY_WAIT_MS = 30_000;

export function openSqlite(path: string): Sql {
  if (isDirectory(path)) throw new StoreError(`--store ${path} is a folder: name a file (it is made on first use)`);
  let db: Database.Database;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
  } catch (error) {
    throw new StoreError(`cannot open the store ${path}: ${problemOf(error)}`);
  }
  return new SqliteSql(db, path);
}

class SqliteSql implements Sql {
  readonly dialect = "sqlite" as const;
  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {}

  async all(text: string, values: readonly SqlValue[] = []): Promise<SqlRow[]> {
    return this.guard(() => this.db.prepare(text).all(...values) as SqlRow[]);
  }

  async run(text: string, values: readonly SqlValue[] = []): Promise<number> {
    return this.guard(() => this.db.prepare(text).run(...values).changes);
  }

  async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    // Every writer takes the lock at its start: two that read first and wrote later would
    // deadlock, one of them failing at once instead of waiting its turn.
    await this.run("BEGIN IMMEDIATE");
    try {
      const result = await work(this);
      await this.run("COMMIT");
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private guard<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (code === "SQLITE_NOTADB") throw new StoreError(`${this.path} is not a database (not a SQLite file)`);
      if (code.startsWith("SQLITE_")) throw new StoreError(`the store ${this.path}: ${(error as Error).message}`);
      throw error;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function problemOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code?.startsWith("SQLITE_") ? (error as Error).message : fileProblem(error);
}
