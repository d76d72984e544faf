/**
 * A throwaway PostgreSQL server for a test file: Debian's postgresql package
 * (scripts/setup-postgresql.sh installs it), a cluster made by initdb in a temporary folder,
 * listening on 127.0.0.1 at a free port and on a socket in that folder, stopped and removed as
 * the process exits. One per test file: starting one takes about two seconds.
 *
 *   const server = await startPostgres();    // undefined, with the reason, where none can be had
 *   server.url("sxd_test")                   // postgres://sxd:...@127.0.0.1:PORT/sxd_test, made on first ask
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports.ts";

export const POSTGRES_USER = "sxd";
export const POSTGRES_PASSWORD = "sxd-test-secret";

export interface ThrowawayPostgres {
  port: number;
  /** A database's URL with the right password; the database is made on first ask. */
  url(database: string): string;
  /** The same with a wrong password. */
  wrongPasswordUrl(database: string): string;
  stop(): void;
}

/** Where Debian keeps the server's programs (not on PATH), the newest version first. */
function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((dir) => existsSync(join(dir, "initdb")));
}

/** Why no server can be started here, or undefined where one can. */
export function postgresMissing(): string | undefined {
  if (binDir() === undefined)
    return "PostgreSQL is not installed (bash scripts/setup-postgresql.sh installs Debian's postgresql package)";
  if (process.getuid?.() === 0 && spawnSync("id", ["postgres"]).status !== 0)
    return "running as root without the postgres user to run the server as";
  return undefined;
}

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const bin = binDir() as string;
  // The server refuses to run as root: as root (CI), it runs as Debian's postgres user, in a
  // folder that user can reach (the tests' own temporary folder is root's alone). Not a scratch
  // folder: that would be removed at exit before the server in it is stopped.
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(asRoot ? "/tmp" : tmpdir(), "sxd-postgres-"));
  const data = join(dir, "data");
  const passwordFile = join(dir, "password");
  writeFileSync(passwordFile, POSTGRES_PASSWORD);
  if (asRoot) {
    const { uid, gid } = userIds("postgres");
    chownSync(dir, uid, gid);
    chownSync(passwordFile, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : join(bin, program),
      asRoot ? ["-u", "postgres", "--", join(bin, program), ...args] : args,
      {
        stdio: "pipe",
        cwd: dir,
      },
    );
  run("initdb", [
    "-D",
    data,
    "-U",
    POSTGRES_USER,
    `--pwfile=${passwordFile}`,
    "--auth-host=scram-sha-256",
    "--auth-local=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-w",
    "-l",
    join(dir, "server.log"),
    "-o",
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=40`,
    "start",
  ]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stop);
  // initdb makes the database "postgres"; the others are made on first ask.
  const made = new Set<string>(["postgres"]);
  const url = (database: string, password = POSTGRES_PASSWORD) => {
    if (!made.has(database)) {
      run("createdb", ["-h", dir, "-p", String(port), "-U", POSTGRES_USER, database]);
      made.add(database);
    }
    return `postgres://${POSTGRES_USER}:${password}@127.0.0.1:${port}/${database}`;
  };
  return { port, url: (db) => url(db), wrongPasswordUrl: (db) => url(db, "not-the-password"), stop };
}

function userIds(user: string): { uid: number; gid: number } {
  const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, user], { encoding: "utf8" }).trim()));
  return { uid: uid as number, gid: gid as number };
}
