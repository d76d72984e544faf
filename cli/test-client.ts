/**
 * `sxd test-client --run "<command>"`: starts sxd's servers (the bundled reference, recording
 * every request), runs the client's command once per task and once more per staged condition,
 * and grades what the client sent (harness/client/run.ts). `--manual` records what a person's
 * client sends instead, until they say they are done; `--har FILE` grades a recording.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { type ClientDescription, parseClientDescription } from "../harness/client/description.ts";
import { credentialsLeftOut, readHar } from "../harness/client/har.ts";
import { manualInstructions } from "../harness/client/manual.ts";
import { runsOfRecording } from "../harness/client/recorded.ts";
import type { ClientGrading } from "../harness/client/run.ts";
import { isTaskName, OFFERED_TASKS, type TaskName } from "../harness/client/tasks.ts";
import { fileProblem, UsageError, valueOrUsageError } from "../harness/errors.ts";
import { prepareReportDir } from "../harness/evidence/report-folder.ts";
import type { Io } from "../harness/io.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import type { OptionName } from "./option-table.ts";

export async function runTestClient(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("test-client", argv, io.env);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("test-client"));
    return 0;
  }
  const option = (name: OptionName) => withDefault("test-client", name, given.text(name));
  const values = { run: given.text("run"), manual: given.switch("manual") ?? false, har: given.text("har") };
  const modes = [values.run !== undefined, values.manual, values.har !== undefined].filter(Boolean).length;
  if (modes !== 1)
    throw new UsageError(
      modes === 0
        ? 'give the client\'s command (--run "<command>"), --manual, or a recording (--har FILE)'
        : "--run, --manual and --har are ways to meet the client: give one",
    );
  const number = (name: OptionName) => valueOrUsageError(given.number(name));
  const taskTimeoutMs = number("task-timeout");
  const manualTimeoutS = number("manual-timeout");
  const atOnce = values.manual ? 1 : number("parallel");
  const repeat = number("repeat");
  if (repeat > 1 && values.run === undefined)
    throw new UsageError("--repeat runs the client's command again: it takes --run, not --manual or --har");
  const listed = given.text("tasks");
  const tasks = listed ? parseTasks(listed) : [...OFFERED_TASKS];
  const config = given.text("config");
  const expectFail = given.text("expect-fail");
  const grading: ClientGrading = {
    tasks,
    reportDir: option("report-dir"),
    strict: given.switch("strict") ?? false,
    allowIncomplete: given.switch("allow-incomplete") ?? false,
    description: config ? readClientDescription(config) : {},
    expectedFailures: expectFail
      ? (await import("./run-suite.ts")).readExpectedFailures(expectFail, loadRows("client"))
      : undefined,
  };
  prepareReportDir(grading.reportDir);
  const user = { username: given.text("username"), password: given.text("password") };
  if (values.har !== undefined) return await gradeHar(values.har, grading, user, io);
  // Cucumber and the reference are loaded once the arguments are known to be good: a usage
  // error or --help costs a third of a run's start.
  const { startClientBenches } = await import("./client-benches.ts");
  const { gradeClientRuns, runClientConformance } = await import("../harness/client/run.ts");
  const { benches, close } = await startClientBenches(atOnce, tasks);
  try {
    if (values.manual) {
      const [bench] = benches;
      if (!bench) throw new Error("no bench was started for the manual session");
      io.stdout.write(manualInstructions(tasks, bench, manualTimeoutS));
      const ended = await personSaysDone(manualTimeoutS * 1000);
      io.stdout.write(`sxd: ${ended}; grading what arrived\n`);
      const runs = runsOfRecording(bench.takeRecording(), MANUAL);
      return (await gradeClientRuns(runs, { recorded: MANUAL }, grading, bench.user, io)).exitCode;
    }
    const settings = { ...grading, command: values.run ?? "", taskTimeoutMs, repeat };
    return (await runClientConformance(settings, benches, io)).exitCode;
  } finally {
    await close();
  }
}

/** How a manual session's requests are described in the reports. */
const MANUAL = "done by hand (--manual)";

async function gradeHar(
  file: string,
  grading: ClientGrading,
  given: { username?: string; password?: string },
  io: Io,
): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the recording ${file}: ${fileProblem(error)}`);
  }
  const read = readHar(text, file);
  if (!read.ok) throw new UsageError(read.error);
  const stripped = credentialsLeftOut(read.value);
  if (stripped)
    throw new UsageError(
      `${file}: ${stripped.method} ${stripped.target} was granted after a Digest challenge, but the recording shows no Authorization: it left the credentials out (a browser's HAR export does unless told to keep sensitive data), so it cannot show how the client answered`,
    );
  const recorded = `recorded in ${basename(file)}`;
  const runs = runsOfRecording(read.value, recorded);
  // Without the user's secret the rows that need it are not run, naming the flags; the others are judged.
  const { username, password } = given;
  const user = { ...(username !== undefined ? { username } : {}), ...(password !== undefined ? { password } : {}) };
  const { gradeClientRuns } = await import("../harness/client/run.ts");
  return (await gradeClientRuns(runs, { recorded }, grading, user, io)).exitCode;
}

/** Until the person presses Enter or sends Ctrl-C; at most the time given. */
function personSaysDone(timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    const finish = (why: string) => {
      clearTimeout(timer);
      stdin.off("data", onData).off("end", onEnd).off("error", onEnd);
      stdin.pause();
      process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      if (chunk.includes(10)) finish("ended by Enter");
    };
    // Input closed from the start (no terminal, as in CI or a container without -i) says
    // nothing of the session: then Ctrl-C or the time allowed ends it.
    const onEnd = () => stdin.off("data", onData);
    const onSignal = (signal: NodeJS.Signals) => finish(`ended by ${signal}`);
    const timer = setTimeout(() => finish(`${timeoutMs / 1000} s passed`), timeoutMs);
    stdin.on("data", onData).on("end", onEnd).on("error", onEnd).resume();
    process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  });
}

function readClientDescription(path: string): ClientDescription {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the client description ${path}: ${fileProblem(error)}`);
  }
  const parsed = parseClientDescription(text, path);
  if (!parsed.ok) throw new UsageError(parsed.error);
  return parsed.value;
}

function parseTasks(list: string): TaskName[] {
  const names = list.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !isTaskName(name));
  if (unknown !== undefined)
    throw new UsageError(`unknown task "${unknown}": sxd test-client offers ${OFFERED_TASKS.join(", ")}`);
  return names.filter(isTaskName);
}
