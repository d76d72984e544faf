/**
 * What a cell's exchange is judged with. The server's side: the judges of each behaviour
 * (steps/<behaviour>/exchange-judge.ts, loaded by name from harness/package.ts, never imported
 * here), pure functions of what the server answered. The harness names no row: it takes the
 * rows the judges say were broken and gives each its level from the catalogue, and asks them
 * where a failed exchange stopped and which breaches there explain it (the rest never blame).
 */
import type { RecordedRequest } from "../../lib/recording.ts";
import type { TargetDescription } from "../description/target.ts";
import type { BrokenRow, InteropTask } from "../evidence/interop-document.ts";
import { rowsById } from "../judging/catalogue.ts";
import { INTEROP_JUDGE_FILES, suiteModuleUrl } from "../package.ts";

/** What a server judge reads: the task, every request and reply sxd saw, and the server's description. */
export interface ServerExchange {
  task: InteropTask;
  requests: readonly RecordedRequest[];
  target: TargetDescription;
  /** The path of what the task is about on the server (SXD_URL's), e.g. the entry. */
  subjectPath: string;
  /** Where sxd found the task's effect missing afterwards (read back from the server), why. */
  effectProblem?: string;
  /** The server URLs the client was given (the proxy's), beside the real ones of the target. */
  proxied: { base: string; contacts?: string; messaging?: string };
}

/** A row broken in the exchange; `level` where the should part of a must row is what broke. */
export interface RowBreak {
  id: string;
  reason: string;
  level?: "should";
}

/** Client rows that say nothing of the client in this exchange, and why (see excusedClientRows). */
export interface Excused {
  rows: string[];
  why: string;
}

/** The rows each side broke in a cell's exchange. */
export interface SidesBroken {
  client: readonly BrokenRow[];
  server: readonly BrokenRow[];
}

/**
 * Where a failed exchange stopped (no answer to the challenge, an answer refused, a grant the
 * client did not accept, the effect missing), in words, and the rows, of either side, whose
 * breach at that point explains it. Every other breach of the exchange is "also broken".
 */
export interface Stop {
  at: string;
  explaining: readonly string[];
}

/** Of the rows a judge names for a point of the exchange, those broken in it: `brokenAmong(broken)(rowsOfThatPoint)`. */
export function brokenAmong(broken: SidesBroken): (rows: readonly string[]) => string[] {
  const ids = new Set([...broken.client, ...broken.server].map((row) => row.id));
  return (rows) => rows.filter((id) => ids.has(id));
}

/** What each judge module exports. */
export interface ServerJudgeModule {
  judgeServerExchange(exchange: ServerExchange): RowBreak[];
  /** Where the server left the client nothing it could do right, the client rows that demanded it. */
  excusedClientRows?(exchange: ServerExchange, serverRows: readonly BrokenRow[]): Excused | undefined;
  /** Where the task's exchange stopped, for a failed cell of the judge's behaviour; undefined for another task. */
  stopOf?(exchange: ServerExchange, broken: SidesBroken): Stop | undefined;
}

let loaded: Promise<ServerJudgeModule[]> | undefined;

function judges(): Promise<ServerJudgeModule[]> {
  loaded ??= Promise.all(INTEROP_JUDGE_FILES.map((file) => import(suiteModuleUrl(file)) as Promise<ServerJudgeModule>));
  return loaded;
}

/** The server rows the exchange breaks, each once (the first reason), with its level. */
export async function serverRowsBroken(exchange: ServerExchange): Promise<BrokenRow[]> {
  const rows = rowsById("server");
  const found = (await judges()).flatMap((judge) => judge.judgeServerExchange(exchange));
  const seen = new Set<string>();
  return found.flatMap((row) => {
    if (seen.has(row.id)) return [];
    seen.add(row.id);
    return [{ id: row.id, level: row.level ?? rows.get(row.id)?.level ?? "must", reason: row.reason }];
  });
}

/**
 * The client rows a judge excuses in this exchange: where the server gave the client nothing it
 * could answer (no challenge, a challenge that broke a row, no algorithm in common), the rows
 * about answering say nothing of the client. Other client rows (a secret sent in clear) stand.
 */
export async function excusedClientRows(
  exchange: ServerExchange,
  serverRows: readonly BrokenRow[],
): Promise<Excused | undefined> {
  for (const judge of await judges()) {
    const excused = judge.excusedClientRows?.(exchange, serverRows);
    if (excused) return excused;
  }
  return undefined;
}

/** Where a failed cell's exchange stopped, as the judge of its behaviour says; undefined where none does. */
export async function stopOf(exchange: ServerExchange, broken: SidesBroken): Promise<Stop | undefined> {
  for (const judge of await judges()) {
    const stop = judge.stopOf?.(exchange, broken);
    if (stop) return stop;
  }
  return undefined;
}
