/**
 * `sxd interop FILE`: the matrix file and the options, then one interop run
 * (harness/interop/run.ts). The shell starts what the harness may not: sxd's own servers for
 * a client's own `sxd test-client` run. Ctrl-C stops every server the run started.
 */
import { PassThrough } from "node:stream";
import { OFFERED_TASKS } from "../harness/client/tasks.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../harness/description/settings.ts";
import { UsageError, valueOrUsageError } from "../harness/errors.ts";
import { type MatrixClient, picked, pickedTasks, readMatrixFile } from "../harness/interop/matrix-file.ts";
import { stopAllServers } from "../harness/interop/servers.ts";
import { parseShard } from "../harness/interop/shards.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { DEFAULT_CLIENT_RUNS_AT_ONCE, type OptionName } from "./option-table.ts";
import { signalExitCode } from "./signals.ts";

export async function runInteropCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("interop", argv, io.env, true);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("interop"));
    return 0;
  }
  const option = (name: OptionName) => withDefault("interop", name, given.text(name));
  const [file, ...extra] = given.positionals;
  if (file === undefined || extra.length > 0)
    throw new UsageError("usage: sxd interop FILE [options]: give one matrix file (sxd help interop)");
  const shard = parseShard(option("shard"));
  if (typeof shard === "string") throw new UsageError(shard);
  const parallel = valueOrUsageError(given.number("parallel"));
  const taskTimeoutMs = valueOrUsageError(given.number("task-timeout"));
  const matrix = readMatrixFile(file);
  const servers = picked(matrix.servers, given.text("servers"), "--servers");
  const clients = picked(matrix.clients, given.text("clients"), "--clients");
  const tasks = pickedTasks(given.text("tasks"));
  const onSignal = (signal: NodeJS.Signals) => {
    io.stderr.write(`sxd: ${signal}: stopping the servers sxd started\n`);
    stopAllServers().finally(() => process.exit(signalExitCode(signal)));
  };
  // The run's modules (cucumber, the reference) are loaded once the arguments are known to be
  // good: a usage error or --help costs a third of a run's start.
  const { runInterop } = await import("../harness/interop/run.ts");
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    const outcome = await runInterop(
      {
        matrix,
        servers,
        clients,
        tasks,
        reportDir: option("report-dir"),
        shard,
        parallel,
        taskTimeoutMs,
        maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
        clientRun: (client, reportDir) => ownClientRun(client, matrix.folder, reportDir, taskTimeoutMs),
      },
      io,
    );
    return outcome.exitCode;
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    await stopAllServers();
  }
}

/** The client's own `sxd test-client` run, against sxd's recording servers, into `reportDir`. */
async function ownClientRun(
  client: MatrixClient,
  folder: string,
  reportDir: string,
  taskTimeoutMs: number,
): Promise<number> {
  const { inFolder } = await import("../harness/interop/cell.ts");
  const { runClientConformance } = await import("../harness/client/run.ts");
  const { startClientBenches } = await import("./client-benches.ts");
  const { benches, close } = await startClientBenches(DEFAULT_CLIENT_RUNS_AT_ONCE, OFFERED_TASKS);
  const sink = new PassThrough().resume();
  try {
    const settings = {
      tasks: [...OFFERED_TASKS],
      reportDir,
      strict: false,
      description: client.description,
      command: inFolder(client.run, folder),
      taskTimeoutMs,
    };
    return (await runClientConformance(settings, benches, { stdout: sink, stderr: sink })).exitCode;
  } finally {
    await close();
  }
}
