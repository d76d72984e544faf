/**
 * `sxd test-client --run "<command>"`: starts sxd's servers (the bundled reference, recording
 * every request), runs the client's command once per task and once more per staged condition,
 * and grades what the client sent (harness/client/run.ts). `--manual` records what a person's
 * client sends instead, until they say they are done; `--har FILE` grades a recording.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { loadRows } from "../harness/catalogue.ts";
import { type ClientDescription, parseClientDescription } from "../harness/client/description.ts";
import { credentialsLeftOut, readHar } from "../harness/client/har.ts";
import { manualInstructions } from "../harness/client/manual.ts";
import { runsOfRecording } from "../harness/client/recorded.ts";
import { type ClientBench, type ClientGrading, gradeClientRuns, runClientConformance } from "../harness/client/run.ts";
import { isTaskName, OFFERED_TASKS, type TaskName } from "../harness/client/tasks.ts";
import { fileProblem, UsageError } from "../harness/errors.ts";
import { prepareReportDir } from "../harness/report-folder.ts";
import type { Io } from "../harness/run.ts";
import { CLIENT_CONTACT_LIST_PATH, CLIENT_PROTECTED_PATH, startRecordingReference } from "../reference/index.ts";
import { readExpectedFailures } from "./run-suite.ts";

export const TEST_CLIENT_HELP = `Usage: sxd test-client --run "<command>" [--tasks ${OFFERED_TASKS.join(",")}] [--report-dir DIR]
                       [--task-timeout MS] [--strict] [--allow-incomplete] [--config client.json]
                       [--expect-fail FILE]
       sxd test-client --manual [--manual-timeout S] [--tasks ...] [--report-dir DIR] [...]
       sxd test-client --har FILE [--username U --password P] [--tasks ...] [--report-dir DIR] [...]

Grades a client of the interface by what it sends. sxd starts its own servers, then runs the
command through the shell once per task (and again where it stages a condition), with:
  SXD_TASK           the task: ${OFFERED_TASKS.join(", ")}
  SXD_URL            what the task is about: the protected resource (digest tasks), an entry
                     (update: set its title to SXD_TITLE; history: print the title of every
                     version, newest first, one per line), a contact list (export: export it
                     to the messaging server by its link; where the link fails, a client with
                     the fallback uploads the contacts by POST /user/<user>/contacts there)
  SXD_USERNAME, SXD_PASSWORD   the user to log in as
  SXD_BODY           what digest-post sends;  SXD_TITLE  what update sets
  SXD_BASE_URL, SXD_CONTACTS_URL, SXD_MESSAGING_URL   sxd's servers
The command exits 0 when done, 127 for a task it does not do (its rows are not run, never
failed), anything else when it failed. Each run of a task may take --task-timeout
milliseconds (default 10000), after which it is killed.

--manual, for a client no command can drive (a phone app, a desktop program): sxd starts its
servers on 127.0.0.1, prints each task with its address and the user, and records what arrives
until you press Enter or Ctrl-C (at most --manual-timeout seconds, default 1800). --har FILE grades a recording made elsewhere (browser tools, a proxy in front
of the client): no server is started; --username and --password (or SXD_USERNAME and
SXD_PASSWORD) are the user its Digest answers must prove (without them, the rows that need the
secret, CDIG-2, CDIG-4 and CDIG-3 beyond Basic credentials, are not run). Either way the requests are split
into tasks by what they are, and the rows sxd judges by staging a condition (CDIG-6, -7, -8,
-10, CSNAP-4, CEXP-4) are not run: a recording cannot show them, so the verdict is at best
incomplete (exit 3; --allow-incomplete makes that 0).

--config client.json states what the client does where the rows leave it a choice
(schema/client.schema.json): digest.checksRspauth (CDIG-8), digest.retriesStale (CDIG-6),
export.fallback (CEXP-4). true: the row is judged as claimed; false: it does not apply;
left out: observed where sxd can, else not run, naming the key.
--expect-fail FILE: known failures, {"CDIG-9": "why"}, as for sxd test.

Reports (conformance.json with each task's requests and the client's output, conformance.html,
junit.xml) go to the report directory. Exit codes as for sxd test.
`;

export async function runTestClient(argv: string[], io: Io): Promise<number> {
  const { values } = parsed(() =>
    parseArgs({
      args: argv,
      options: {
        run: { type: "string" },
        manual: { type: "boolean", default: false },
        har: { type: "string" },
        username: { type: "string" },
        password: { type: "string" },
        tasks: { type: "string" },
        "report-dir": { type: "string", default: "reports" },
        "task-timeout": { type: "string", default: "10000" },
        "manual-timeout": { type: "string", default: "1800" },
        strict: { type: "boolean", default: false },
        "allow-incomplete": { type: "boolean", default: false },
        config: { type: "string" },
        "expect-fail": { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }),
  );
  if (values.help) {
    io.stdout.write(TEST_CLIENT_HELP);
    return 0;
  }
  const modes = [values.run !== undefined, values.manual, values.har !== undefined].filter(Boolean).length;
  if (modes !== 1)
    throw new UsageError(
      modes === 0
        ? 'give the client\'s command (--run "<command>"), --manual, or a recording (--har FILE)'
        : "--run, --manual and --har are ways to meet the client: give one",
    );
  const taskTimeoutMs = positive(values["task-timeout"], "--task-timeout", "milliseconds", 1);
  const manualTimeoutS = positive(values["manual-timeout"], "--manual-timeout", "seconds", 1000);
  const tasks = values.tasks ? parseTasks(values.tasks) : [...OFFERED_TASKS];
  const grading: ClientGrading = {
    tasks,
    reportDir: values["report-dir"],
    strict: values.strict,
    allowIncomplete: values["allow-incomplete"],
    description: values.config ? readClientDescription(values.config) : {},
    expectedFailures: values["expect-fail"]
      ? readExpectedFailures(values["expect-fail"], loadRows("client"))
      : undefined,
  };
  prepareReportDir(grading.reportDir);
  if (values.har !== undefined) return await gradeHar(values.har, grading, values, io);
  const reference = await startRecordingReference({ host: "127.0.0.1" });
  try {
    // The recording reference is the bench, with the paths the tasks are about.
    const bench: ClientBench = {
      ...reference,
      protectedPath: CLIENT_PROTECTED_PATH,
      contactListPath: CLIENT_CONTACT_LIST_PATH,
    };
    if (values.manual) {
      io.stdout.write(manualInstructions(tasks, bench, manualTimeoutS));
      const ended = await personSaysDone(manualTimeoutS * 1000);
      io.stdout.write(`sxd: ${ended}; grading what arrived\n`);
      const runs = runsOfRecording(bench.takeRecording(), MANUAL);
      return (await gradeClientRuns(runs, { recorded: MANUAL }, grading, bench.user, io)).exitCode;
    }
    const settings = { ...grading, command: values.run ?? "", taskTimeoutMs };
    return (await runClientConformance(settings, bench, io)).exitCode;
  } finally {
    await reference.close();
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
  const username = given.username || process.env.SXD_USERNAME || undefined;
  const password = given.password || process.env.SXD_PASSWORD || undefined;
  const user = { ...(username !== undefined ? { username } : {}), ...(password !== undefined ? { password } : {}) };
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

/** A timer's longest wait, 2^31 - 1 ms: node fires a longer one at once. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

function positive(text: string, option: string, unit: string, perMs: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${option} ${text} is not a number of ${unit}`);
  if (value * perMs > LONGEST_WAIT_MS)
    throw new UsageError(`${option} ${text}: at most ${Math.floor(LONGEST_WAIT_MS / perMs)} ${unit}`);
  return value;
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

/** node's own argument errors ("Unknown option '--x'") as a usage error: one line, exit 2. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, "")} (see sxd help test-client)`,
    );
  }
}
