/**
 * interop.json: what `sxd interop` found, every client against every server, a cell per pair
 * and task. The engine writes it, the HTML matrix and `sxd report merge` read it, and shards'
 * documents merge into one. The shape is a contract: CI scripts and results sites read it.
 */

export const INTEROP_KIND = "sxd-interop";
export const INTEROP_VERSION = 1;

/** The tasks of the client contract, in the order a matrix shows them. */
export const INTEROP_TASKS = ["digest-get", "digest-post", "update", "history", "export"] as const;
export type InteropTask = (typeof INTEROP_TASKS)[number];

export type CellResult = "succeeded" | "failed" | "unsupported" | "not applicable";
/** Whoever broke a row that explains where a failed exchange stopped; `neither` where none does (a gap). */
export type Blame = "client" | "server" | "both" | "neither";

/** An implementation's own verdict: its `sxd test` or `sxd test-client` run, run here or given. */
export interface OwnVerdict {
  source: "computed" | "given";
  exitCode: number | null;
  verdict: "conformant" | "non-conformant" | "incomplete" | "not run";
  failedRows: string[];
  warnedRows: string[];
  /** Each row's verdict as its run judged it (passed, not run, ...), in an incomplete run too; absent in older documents. */
  judged?: Record<string, string>;
  /** Its conformance.json, relative to the report directory; absent where none was written. */
  report?: string;
  /** Why there is no verdict, or what went wrong computing it. */
  problem?: string;
}

export interface InteropServer {
  name: string;
  urls: { base?: string; contacts?: string; messaging?: string };
  /** The tasks it takes part in, from its target description. */
  tasks: InteropTask[];
  /** Why its column could not run (it did not come up), if so. */
  problem?: string;
  verdict: OwnVerdict;
}

export interface InteropClient {
  name: string;
  command: string;
  verdict: OwnVerdict;
}

/** A row one side broke in a cell's exchange, with the reason. */
export interface BrokenRow {
  id: string;
  level: string;
  reason: string;
}

export interface InteropCell {
  client: string;
  server: string;
  task: InteropTask;
  result: CellResult;
  /** Only for a failed cell the pair ran to its end; null where a limit of the run ended it (no one's fault). */
  blame: Blame | null;
  /** One line: what happened (the exit code, the effect missing, a time limit, why not applicable). */
  why: string;
  /** For a failed cell the judges read: where its exchange stopped (no answer to the challenge, an answer refused, ...). */
  stopped?: string;
  /** The breaches that explain where the failed exchange stopped: the blame is who broke them. */
  rows: { client: BrokenRow[]; server: BrokenRow[] };
  /** Every other breach of the exchange, with its reason: counted in each side's own verdict, never in the blame. */
  alsoBroken: { client: BrokenRow[]; server: BrokenRow[] };
  /** The cell's evidence folder, relative to the report directory (exchange.json, client.json, index.html). */
  evidence: string;
}

export interface InteropDocument {
  kind: typeof INTEROP_KIND;
  version: typeof INTEROP_VERSION;
  startedAt: string;
  finishedAt: string;
  shard: { index: number; count: number };
  tasks: InteropTask[];
  servers: InteropServer[];
  clients: InteropClient[];
  cells: InteropCell[];
}
