/**
 * One `sxd interop` run: every client of the matrix against every server, a cell per pair and
 * task (or the shard's share of them). Up to `parallel` cells run at once (and as many servers
 * are up): those of different servers, and those of one server that share nothing of its state
 * (see `lanesOf`). Each implementation's own verdict is taken from its conformance.json, given
 * or computed. The shell (cli/interop.ts) reads the arguments and hands in what only it can start.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  INTEROP_KIND,
  INTEROP_VERSION,
  type InteropCell,
  type InteropClient,
  type InteropDocument,
  type InteropServer,
  type InteropTask,
  type OwnVerdict,
} from "../evidence/interop-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import type { Io } from "../io.ts";
import { writeInteropReports } from "../report/index.ts";
import { summaryTable } from "../report/summary.ts";
import { type CellServer, cellWithout, inTurn, runCell } from "./cell.ts";
import { atMost, lanesOf, type PlannedCell, slotsOf } from "./lanes.ts";
import type { MatrixClient, MatrixFile, MatrixServer } from "./matrix-file.ts";
import { givenVerdict, notRun, serverVerdict, verdictOfReport } from "./own-verdicts.ts";
import { bringUp, type ServerUrls, servedTasks } from "./servers.ts";
import { type Shard, shardOf } from "./shards.ts";
import { currentLoad, scaledLimitMs } from "./time-limit.ts";

export interface InteropRun {
  matrix: MatrixFile;
  servers: MatrixServer[];
  clients: MatrixClient[];
  tasks: InteropTask[];
  reportDir: string;
  shard: Shard;
  /** Cells run at once, at most (and servers up at once); 1: one cell at a time. */
  parallel: number;
  /** Milliseconds a client's run of a task may take (and each exchange through the proxy). */
  taskTimeoutMs: number;
  maxBodyBytes: number;
  /**
   * The client's own `sxd test-client` run into `reportDir` (the shell starts sxd's servers for
   * it); its exit code. Absent: clients without a given conformance.json have no verdict.
   */
  clientRun?: (client: MatrixClient, reportDir: string) => Promise<number>;
}

export interface InteropOutcome {
  exitCode: 0 | 1;
  document: InteropDocument;
}

/** The tasks a server takes part in, known before it starts: from its description and where its URLs come from. */
function tasksOf(server: MatrixServer): InteropTask[] {
  const { place } = server;
  const exportUrls: ServerUrls =
    place.kind === "running"
      ? {
          base: place.base,
          ...(place.contacts ? { contacts: place.contacts } : {}),
          ...(place.messaging ? { messaging: place.messaging } : {}),
        }
      : server.description.export !== undefined || server.description.contactsUrl !== undefined
        ? { base: "", contacts: "", messaging: "" }
        : { base: "" };
  return servedTasks(server.description, exportUrls);
}

/** What the steps of one interop run share: where it writes, the cells planned and done, the slots. */
interface Interop {
  run: InteropRun;
  reportDir: string;
  planned: PlannedCell[];
  progress: (line: string) => void;
  /** The client steps load once for the process: the clients' own runs and every cell's grading share them. */
  slots: ReturnType<typeof slotsOf>;
  cells: InteropCell[];
  servers: InteropServer[];
}

export async function runInterop(run: InteropRun, io: Io): Promise<InteropOutcome> {
  const startedAt = new Date().toISOString();
  const reportDir = resolve(run.reportDir);
  mkdirSync(reportDir, { recursive: true });
  const planned = shardOf(
    run.clients.flatMap((client) =>
      run.servers.flatMap((server) => run.tasks.map((task) => ({ client: client.name, server: server.name, task }))),
    ),
    run.shard,
  );
  const progress = (line: string) => io.stderr.write(`sxd: ${line}\n`);
  progress(
    `interop: ${planned.length} cells (${run.clients.length} clients × ${run.servers.length} servers × ${run.tasks.length} tasks${run.shard.count > 1 ? `, shard ${run.shard.index}/${run.shard.count}` : ""})`,
  );
  const interop: Interop = {
    run,
    reportDir,
    planned,
    progress,
    slots: slotsOf(run.parallel),
    cells: [],
    servers: [],
  };
  const clients = await ownClients(interop);
  await atMost(run.parallel, run.servers, (server) => runColumn(interop, server));
  const document = interopDocument(run, startedAt, interop, clients);
  writeInteropReports(reportDir, document);
  io.stdout.write(summaryTable(document));
  io.stdout.write(
    `reports: ${join(run.reportDir, REPORT_FILES.interopHtml)} (and ${REPORT_FILES.interopJson}, ${REPORT_FILES.junit}, ${REPORT_FILES.summary})\n`,
  );
  return { exitCode: document.cells.some((cell) => cell.result === "failed") ? 1 : 0, document };
}

/** The clients with their own verdicts, one after the other. */
async function ownClients({ run, reportDir, planned }: Interop): Promise<InteropClient[]> {
  const clients: InteropClient[] = [];
  for (const client of run.clients) {
    const needed = planned.some((cell) => cell.client === client.name);
    const verdict = await clientVerdict(client, run, reportDir, needed);
    clients.push({ name: client.name, command: client.run, verdict });
  }
  return clients;
}

/** A server's column: its cells it serves no task of, then (the server up) the others, then its own verdict. */
async function runColumn(interop: Interop, server: MatrixServer): Promise<void> {
  const { run, reportDir, progress, cells } = interop;
  const mine = interop.planned.filter((cell) => cell.server === server.name);
  const tasks = tasksOf(server);
  const entry: InteropServer = {
    name: server.name,
    urls: {},
    tasks,
    verdict: notRun("computed", null, "none of its cells is in this shard"),
  };
  interop.servers.push(entry);
  const given = server.conformance ? givenVerdict(reportDir, `servers/${server.name}/`, server.conformance) : undefined;
  if (given) entry.verdict = given;
  const needed = mine.filter((cell) => tasks.includes(cell.task));
  for (const cell of mine.filter((c) => !tasks.includes(c.task)))
    cells.push(
      reported(
        cellWithout(
          cell.client,
          cell.server,
          cell.task,
          "not applicable",
          `${server.name}'s description serves no ${cell.task}`,
        ),
        progress,
      ),
    );
  if (needed.length === 0 && (given || mine.length === 0)) return;
  const logDir = join(reportDir, "servers", server.name);
  mkdirSync(logDir, { recursive: true });
  progress(`interop: ${server.name}: ${server.place.kind === "started" ? "starting" : "using"} the server`);
  const up = await bringUp(server, run.matrix.folder, logDir);
  entry.urls = up.ok ? up.server.urls : up.urls;
  if (!up.ok) {
    entry.problem = up.problem;
    if (!given) entry.verdict = notRun("computed", null, up.problem);
    progress(`interop: ${server.name}: ${up.problem}`);
    for (const cell of needed)
      cells.push(
        reported(
          cellWithout(cell.client, cell.server, cell.task, "failed", `the server did not come up: ${up.problem}`),
          progress,
        ),
      );
    return;
  }
  try {
    const target: CellServer = { name: server.name, urls: up.server.urls, target: up.server.target };
    await Promise.all(lanesOf(needed, up.server.target).map((lane) => runLane(interop, lane, target)));
    if (!given) {
      progress(`interop: ${server.name}: its own sxd test run`);
      const { target: described } = up.server;
      entry.verdict = await inTurn(() => serverVerdict(reportDir, server.name, described, run.taskTimeoutMs));
    }
  } finally {
    await up.server.stop();
  }
}

/** A lane's cells one after the other, each when a slot is free. */
async function runLane(interop: Interop, lane: PlannedCell[], target: CellServer): Promise<void> {
  const { run } = interop;
  for (const cell of lane) {
    const client = run.clients.find((c) => c.name === cell.client) as MatrixClient;
    await interop.slots.take();
    try {
      const settings = {
        reportDir: interop.reportDir,
        folder: run.matrix.folder,
        maxBodyBytes: run.maxBodyBytes,
      };
      const limit = cellLimit(client.timeoutMs ?? run.taskTimeoutMs, client.timeoutMs !== undefined);
      const started = runCell(client, target, cell.task, { ...settings, ...limit });
      const done = await boundedCell(started, cell, limit.timeoutMs);
      interop.cells.push(reported(done, interop.progress));
    } finally {
      interop.slots.give();
    }
  }
}

/** interop.json: the servers in the matrix's order, the cells sorted. */
function interopDocument(
  run: InteropRun,
  startedAt: string,
  { servers, cells }: Interop,
  clients: InteropClient[],
): InteropDocument {
  const names = run.servers.map((s) => s.name);
  return {
    kind: INTEROP_KIND,
    version: INTEROP_VERSION,
    startedAt,
    finishedAt: new Date().toISOString(),
    shard: run.shard,
    tasks: run.tasks,
    servers: servers.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name)),
    clients,
    cells: shardOf(cells, { index: 1, count: 1 }),
  };
}

async function clientVerdict(
  client: MatrixClient,
  run: InteropRun,
  reportDir: string,
  needed: boolean,
): Promise<OwnVerdict> {
  const folder = `clients/${client.name}/`;
  if (client.conformance) return givenVerdict(reportDir, folder, client.conformance);
  if (!needed) return notRun("computed", null, "none of its cells is in this shard");
  if (!run.clientRun) return notRun("computed", null, "no sxd test-client run in this process");
  const { clientRun } = run;
  const exitCode = await inTurn(() => clientRun(client, join(reportDir, folder)));
  return verdictOfReport(reportDir, `${folder}${REPORT_FILES.conformanceJson}`, "computed", exitCode);
}

/** A cell's time limit: the given one, stretched by the machine's load when the cell starts (time-limit.ts). */
function cellLimit(givenMs: number, ownTimeout: boolean): { timeoutMs: number; limitText: string } {
  const load = currentLoad();
  const timeoutMs = scaledLimitMs(givenMs, load);
  const source = ownTimeout ? "the client's timeout in the matrix file" : "--task-timeout";
  return {
    timeoutMs,
    limitText: `${givenMs} ms by ${source}, stretched by a load of ${load.runnable.toFixed(1)} on ${load.cores} cores`,
  };
}

/** A cell that outlives its bound (the proxy and the client are bounded; this is the last guard) fails with the reason. */
async function boundedCell(
  cell: Promise<InteropCell>,
  key: { client: string; server: string; task: InteropTask },
  taskTimeoutMs: number,
): Promise<InteropCell> {
  // Preparing, the client's run, reading the effect back and grading: a few bounded steps.
  const boundMs = taskTimeoutMs * 4 + 30_000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<InteropCell>((resolve) => {
    timer = setTimeout(() => {
      resolve(cellWithout(key.client, key.server, key.task, "failed", `the cell did not end within ${boundMs} ms`));
    }, boundMs);
  });
  try {
    return await Promise.race([
      cell.catch((error: Error) =>
        cellWithout(key.client, key.server, key.task, "failed", `sxd could not run the cell: ${error.message}`),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function reported(cell: InteropCell, progress: (line: string) => void): InteropCell {
  const blame = cell.result === "failed" && cell.blame ? ` (blame: ${cell.blame})` : "";
  progress(`interop: ${cell.client} × ${cell.server} ${cell.task}: ${cell.result}${blame}`);
  return cell;
}
