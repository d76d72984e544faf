/**
 * The store on a PostgreSQL server (a postgres:// URL), through `pg`: the store a team shares
 * across CI machines. Each run's records go in one transaction; a connection that dies before
 * its COMMIT (a killed writer) is rolled back by the server. A server that cannot be used says
 * why in one line: nothing listening, credentials refused, no such database.
 */
import pg from "pg";
import { type Sql, type SqlRow, type SqlValue, StoreError, shownUrl } from "./sql.ts";

/** How long a connection may take to open before the store counts as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;
/** The advisory lock the migrations take, so that two first writers do not make the tables twice. */
const MIGRATION_LOCK = 5_836_001;

export async function openPostgres(url: string): Promise<Sql> {
  let client: pg.Client;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  } catch (error) {
    // pg refuses a URL it cannot read (a port that is no number, a stray "%") as it makes the client.
    throw new StoreError(`the store ${shownUrl(url)} is not a PostgreSQL URL pg can read: ${(error as Error).message}`);
  }
  const lost: { error?: Error } = {};
  // A server that goes away between statements emits an error on the client: kept, and told at
  // the next statement, never thrown from an event.
  client.on("error", (error) => {
    lost.error = error;
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new StoreError(`the store ${shownUrl(url)}: ${connectProblem(error)}`);
  }
  return new PostgresSql(client, url, lost);
}

class PostgresSql implements Sql {
  readonly dialect = "postgres" as const;
  constructor(
    private readonly client: pg.Client,
    private readonly url: string,
    private readonly lost: { error?: Error },
  ) {}

  async all(text: string, values: readonly SqlValue[] = []): Promise<SqlRow[]> {
    return (await this.query(text, values)).rows as SqlRow[];
  }

  async run(text: string, values: readonly SqlValue[] = []): Promise<number> {
    return (await this.query(text, values)).rowCount ?? 0;
  }

  async transaction<T>(work: (sql: Sql) => Promise<T>, exclusive = false): Promise<T> {
    await this.run("BEGIN");
    try {
      if (exclusive) await this.all("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK]);
      const result = await work(this);
      await this.run("COMMIT");
      return result;
    } catch (error) {
      await this.client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  private async query(text: string, values: readonly SqlValue[]): Promise<pg.QueryResult> {
    if (this.lost.error) throw new StoreError(`the store ${shownUrl(this.url)}: ${connectProblem(this.lost.error)}`);
    let n = 0;
    try {
      return await this.client.query(
        text.replace(/\?/g, () => `$${++n}`),
        values as SqlValue[],
      );
    } catch (error) {
      throw new StoreError(`the store ${shownUrl(this.url)}: ${connectProblem(error)}`);
    }
  }
}

/** Why a connection failed or a statement was refused, in words. */
function connectProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const words: Record<string, string> = {
    ECONNREFUSED: "nothing listening there (connection refused)",
    ENOTFOUND: "no such host",
    EAI_AGAIN: "the host name could not be looked up",
    ETIMEDOUT: "no answer (timed out)",
    ECONNRESET: "the server closed the connection",
    "28P01": "the server refused the password",
    "28000": "the server refused the credentials",
    "3D000": "no such database on the server",
    "57P01": "the server was shut down",
  };
  if (code && words[code]) return words[code];
  if (/timeout/i.test(message)) return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  if (/terminated|ended|not queryable/i.test(message)) return "the connection to the server was lost";
  return message;
}
