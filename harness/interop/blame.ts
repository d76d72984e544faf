/**
 * A failed cell's blame, by cause. The judge of the task's behaviour says where the exchange
 * stopped and which breaches there explain it (steps/<behaviour>/exchange-judge.ts); the cell's
 * `rows` are those, its blame follows from who broke them, and every other breach is kept as
 * `alsoBroken`, with its reason, never blamed. A limit of the run (the client killed for time)
 * is nobody's fault, and a task the server answers 405 or 501 is one it does not serve.
 *
 *   splitByCause(rows, { at: "an answer refused", explaining: [idOfTheClientsBadCount] })
 *   // → { rows: that client row, alsoBroken: every other row, e.g. the server's 401 body }
 */
import type { RecordedRequest } from "../../lib/recording.ts";
import type { Blame, BrokenRow, InteropCell, InteropTask } from "../evidence/interop-document.ts";
import type { Stop } from "./judging.ts";

export interface Sides {
  client: BrokenRow[];
  server: BrokenRow[];
}

export interface Split {
  /** The breaches that explain where the exchange stopped. */
  rows: Sides;
  /** Every other breach of the exchange. */
  alsoBroken: Sides;
}

const none = (): Sides => ({ client: [], server: [] });

/** Every breach as "also broken": a cell that succeeded, or one that failed for a limit of the run. */
export function nothingExplains(rows: Sides): Split {
  return { rows: none(), alsoBroken: rows };
}

/** The breaches the stop names, and the others; without a stop every breach explains the failure. */
export function splitByCause(rows: Sides, stop: Stop | undefined): Split {
  if (stop === undefined) return { rows, alsoBroken: none() };
  const explains = (row: BrokenRow) => stop.explaining.includes(row.id);
  return {
    rows: { client: rows.client.filter(explains), server: rows.server.filter(explains) },
    alsoBroken: {
      client: rows.client.filter((row) => !explains(row)),
      server: rows.server.filter((row) => !explains(row)),
    },
  };
}

/** Who broke the rows that explain a failure; `neither` where none does (a gap). */
export function blameOf(rows: Sides): Blame {
  if (rows.client.length > 0 && rows.server.length > 0) return "both";
  if (rows.client.length > 0) return "client";
  return rows.server.length > 0 ? "server" : "neither";
}

/** The method a task is done with on its subject's path (the export's list is read with GET). */
const TASK_METHOD: Record<InteropTask, string> = {
  "digest-get": "GET",
  "digest-post": "POST",
  update: "PUT",
  history: "GET",
  export: "GET",
};

/**
 * Where the server answered the task's method on the task's path with 405 or 501, the reason
 * it does not serve the task (the cell is not applicable); undefined where it serves it.
 */
export function notServed(
  task: InteropTask,
  requests: readonly RecordedRequest[],
  subjectPath: string,
): string | undefined {
  const method = TASK_METHOD[task];
  const refused = requests.find(
    (request) =>
      request.method === method &&
      request.target.split("?")[0] === subjectPath &&
      (request.reply.status === 405 || request.reply.status === 501),
  );
  if (!refused) return undefined;
  return `the server answers ${method} ${subjectPath} with ${refused.reply.status}: it does not serve ${task}`;
}

export interface CellFindings {
  run: { exitCode: number | null; timedOut: boolean };
  /** The time the client had, in words, for a run killed for time. */
  limit: string;
  /** Where the task's effect is missing after an exit 0, why. */
  effectProblem: string | undefined;
  /** What else the reader of a failure needs: client rows not counted, requests sxd did not see. */
  notes: readonly (string | undefined)[];
  /** Why the server does not serve the task, where it answered 405 or 501. */
  unserved: string | undefined;
  stop: Stop | undefined;
  rows: Sides;
}

/** A run cell's result, blame, why and rows, from what was found (an exit 127 is decided before). */
export function outcomeOf(
  found: CellFindings,
): Pick<InteropCell, "result" | "blame" | "why" | "stopped" | "rows" | "alsoBroken"> {
  const { run, rows, stop } = found;
  const why = run.timedOut
    ? `the client was still running after ${found.limit} and was killed: a limit of the run, nobody's fault`
    : run.exitCode !== 0
      ? `the client exited ${run.exitCode ?? "on a signal"}`
      : found.effectProblem;
  const [excused, past] = found.notes;
  if (why === undefined)
    return {
      result: "succeeded",
      blame: null,
      why: ["exit 0, and the effect is there", past].filter(Boolean).join("; "),
      ...nothingExplains(rows),
    };
  const note = [why, excused, past].filter(Boolean).join("; ");
  if (run.timedOut) return { result: "failed", blame: null, why: note, ...nothingExplains(rows) };
  if (found.unserved) return { result: "not applicable", blame: null, why: found.unserved, ...nothingExplains(rows) };
  const split = splitByCause(rows, stop);
  return { result: "failed", blame: blameOf(split.rows), why: note, ...(stop ? { stopped: stop.at } : {}), ...split };
}
