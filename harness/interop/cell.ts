/**
 * One cell: a client doing one task against one real server, through a recording proxy.
 * The client runs once, with the environment of `sxd test-client`; the cell succeeded only
 * where it exited 0 and the effect is there. Every cell lists the rows each side broke in the
 * exchange: the client's as `sxd test-client` grades a recording of it, the server's from the
 * judges of its replies; a failed cell's blame follows from who broke a row that explains where
 * the exchange stopped (blame.ts), and a client killed for time is nobody's fault.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { RecordedRequest } from "../../lib/recording.ts";
import { runCommand } from "../client/command.ts";
import { gradeClientRuns } from "../client/run.ts";
import { type TaskSubject, taskEnvironment } from "../client/tasks.ts";
import type { TargetDescription } from "../description/target.ts";
import type { TaskRun } from "../evidence/client-evidence.ts";
import type { BrokenRow, InteropCell, InteropTask } from "../evidence/interop-document.ts";
import { nothingExplains, notServed, outcomeOf } from "./blame.ts";
import { excusedClientRows, type ServerExchange, serverRowsBroken, stopOf } from "./judging.ts";
import type { MatrixClient } from "./matrix-file.ts";
import { type ProxyLimits, startRecordingProxy } from "./proxy.ts";
import type { ServerUrls } from "./servers.ts";
import { effectOf, prepareSubject } from "./subjects.ts";
import { unseenNote, unseenOrigins } from "./unseen.ts";

export interface CellSettings extends ProxyLimits {
  reportDir: string;
  /** The matrix file's folder: the client's command runs there. */
  folder: string;
  /** How `timeoutMs` was set, for a cell killed for time: the given limit and the load it was stretched by. */
  limitText: string;
}

const noRows = () => ({ client: [], server: [] });

export interface CellServer {
  name: string;
  urls: ServerUrls;
  target: TargetDescription;
}

const evidenceOf = (client: string, server: string, task: string) => `cells/${client}/${server}/${task}/`;

/** A cell that did not run: not applicable, or failed for a reason outside the pair (its server did not come up). */
export function cellWithout(
  client: string,
  server: string,
  task: InteropTask,
  result: "not applicable" | "failed",
  why: string,
): InteropCell {
  return {
    client,
    server,
    task,
    result,
    blame: null,
    why,
    ...nothingExplains(noRows()),
    evidence: evidenceOf(client, server, task),
  };
}

export async function runCell(
  client: MatrixClient,
  server: CellServer,
  task: InteropTask,
  settings: CellSettings,
): Promise<InteropCell> {
  const evidence = evidenceOf(client.name, server.name, task);
  const folder = join(settings.reportDir, evidence);
  mkdirSync(folder, { recursive: true });
  const prepared = await prepareSubject(task, server.target, settings.timeoutMs);
  if (!prepared.ok) return cellWithout(client.name, server.name, task, "failed", prepared.problem);
  const ran = await runThroughProxy(client, server, task, prepared.subject, settings);
  const { run, exchange } = ran;
  const { password } = accountOf(server.target);
  writeFileSync(
    join(folder, "client.json"),
    redacted({ command: client.run, environment: ran.environment, ...run }, password),
  );
  writeFileSync(join(folder, "exchange.json"), redacted(exchange, password));
  const base = { client: client.name, server: server.name, task, evidence };
  if (run.exitCode === 127)
    return {
      ...base,
      result: "unsupported",
      blame: null,
      why: "the client does not do this task (exit 127)",
      ...nothingExplains(noRows()),
    };
  const effectProblem =
    run.exitCode === 0
      ? await effectOf(
          task,
          prepared.subject,
          server.target,
          run.stdout,
          settings.timeoutMs,
        )(exchange).catch((error: Error) => `sxd could not read the effect back: ${error.message}`)
      : undefined;
  const judged: ServerExchange = {
    task,
    requests: exchange,
    target: server.target,
    subjectPath: new URL(prepared.subject.url).pathname,
    proxied: ran.proxied,
    ...(effectProblem ? { effectProblem } : {}),
  };
  const taskRun: TaskRun = {
    task,
    environment: ran.environment,
    ...run,
    requests: exchange,
    ...(ran.subject.expectedOutput ? { expectedOutput: ran.subject.expectedOutput } : {}),
  };
  const graded = await clientRowsBroken(taskRun, server.target, client, join(folder, "client-rows"));
  const { rows, notes } = await rowsBroken(judged, graded, server.urls);
  const outcome = outcomeOf({
    run,
    limit: `${settings.timeoutMs} ms (${settings.limitText})`,
    effectProblem,
    notes,
    unserved: notServed(task, exchange, judged.subjectPath),
    stop: await stopOf(judged, rows),
    rows,
  });
  return { ...base, ...outcome };
}

/** The client's run of the task through a recording proxy: what it did, what it sent, and with what environment (no password). */
async function runThroughProxy(
  client: MatrixClient,
  server: CellServer,
  task: InteropTask,
  prepared: TaskSubject,
  settings: CellSettings,
) {
  const proxy = await startRecordingProxy(server.urls, settings);
  const subject = onProxy(prepared, server.urls, proxy.urls);
  const user = accountOf(server.target);
  const urls = { base: proxy.urls.base, contacts: proxy.urls.contacts ?? "", messaging: proxy.urls.messaging ?? "" };
  const servers = { urls, user, protectedPath: "", contactListPath: "", prepareEntry: () => "" };
  const environment: Record<string, string> = {
    ...taskEnvironment(task, servers, subject),
    http_proxy: proxy.proxyUrl,
    HTTP_PROXY: proxy.proxyUrl,
    no_proxy: proxy.noProxy,
    NO_PROXY: proxy.noProxy,
  };
  let exchange: RecordedRequest[];
  let run: Awaited<ReturnType<typeof runCommand>>;
  try {
    run = await runCommand(inFolder(client.run, settings.folder), environment, settings.timeoutMs);
  } finally {
    exchange = proxy.take();
    await proxy.close();
  }
  const { SXD_PASSWORD, ...shown } = environment;
  return { run, exchange, environment: shown, subject, proxied: proxy.urls };
}

/**
 * The rows each side broke: the server's from the judges, the client's as graded but for those
 * a judge excuses, and none where the client sent requests past sxd; with the notes saying so.
 */
async function rowsBroken(judged: ServerExchange, graded: BrokenRow[], real: ServerUrls) {
  const rows = { client: graded, server: await serverRowsBroken(judged) };
  const excused = await excusedClientRows(judged, rows.server);
  if (excused) rows.client = rows.client.filter((row) => !excused.rows.includes(row.id));
  // Requests the client sent past sxd: its rows cannot be judged from what sxd saw.
  const unseen = unseenOrigins(judged.requests, real, judged.proxied);
  const past = unseen.length > 0 ? unseenNote(unseen, [...new Set(rows.client.map((row) => row.id))]) : undefined;
  if (past) rows.client = [];
  return { rows, notes: [excused?.why, past] };
}

/** A command run from a folder, as the matrix file's paths are read. */
export function inFolder(command: string, folder: string): string {
  return `cd '${folder.replaceAll("'", "'\\''")}' && ${command}`;
}

/** The subject's URL on the proxy in front of the server it is on. */
function onProxy(subject: TaskSubject, real: ServerUrls, proxied: ServerUrls): TaskSubject {
  for (const name of ["contacts", "messaging", "base"] as const) {
    const from = real[name];
    const to = proxied[name];
    if (from !== undefined && to !== undefined && subject.url.startsWith(from))
      return { ...subject, url: `${to}${subject.url.slice(from.length)}` };
  }
  return subject;
}

/** The password as a client might leak it, in clear or in Basic credentials, never written. */
function redacted(value: unknown, password: string): string {
  let text = JSON.stringify(value, null, 2);
  for (const secret of [password, JSON.stringify(password).slice(1, -1)])
    if (secret !== "") text = text.split(secret).join("<the password>");
  return `${text}\n`;
}

/** The cucumber runs of one process, one at a time: the step definitions are shared. */
let turns: Promise<unknown> = Promise.resolve();

/** Runs `work` when the cucumber runs before it have ended. */
export function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const mine = turns.then(work);
  turns = mine.catch(() => undefined);
  return mine;
}

/** The client rows the run broke (failed or warned), as `sxd test-client` grades a recording of it. */
async function clientRowsBroken(
  run: TaskRun,
  target: TargetDescription,
  client: MatrixClient,
  reportDir: string,
): Promise<BrokenRow[]> {
  const sink = new PassThrough().resume();
  const user = accountOf(target);
  const { judgement } = await inTurn(() =>
    gradeClientRuns(
      [run],
      { recorded: "the exchange sxd interop recorded" },
      {
        tasks: [run.task as InteropTask],
        reportDir,
        strict: false,
        description: client.description,
        // A cell's page shows its rows; cucumber's own reports of 64 cells would be 70 MB.
        cucumberReports: false,
      },
      user,
      { stdout: sink, stderr: sink },
    ),
  );
  return judgement.rows
    .filter((row) => row.verdict === "failed" || row.verdict === "warning")
    .map((row) => ({ id: row.row.id, level: row.row.level, reason: row.reason ?? row.verdict }));
}

/** The description's digest user, for the client's environment: empty where a task needs none and none is stated. */
function accountOf(target: TargetDescription): { username: string; password: string } {
  return { username: target.digest.username ?? "", password: target.digest.password ?? "" };
}
