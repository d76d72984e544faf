/**
 * `sxd test-client --run "<command>"`: starts sxd's servers (the bundled reference, recording
 * every request), runs the client's command once per task and once more per staged condition,
 * and grades what the client sent (harness/client/run.ts).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadRows } from "../harness/catalogue.ts";
import { type ClientDescription, parseClientDescription } from "../harness/client/description.ts";
import { type ClientBench, runClientConformance } from "../harness/client/run.ts";
import { isTaskName, OFFERED_TASKS, type TaskName } from "../harness/client/tasks.ts";
import { fileProblem, UsageError } from "../harness/errors.ts";
import type { Io } from "../harness/run.ts";
import { CLIENT_CONTACT_LIST_PATH, CLIENT_PROTECTED_PATH, startRecordingReference } from "../reference/index.ts";
import { readExpectedFailures } from "./run-suite.ts";

export const TEST_CLIENT_HELP = `Usage: sxd test-client --run "<command>" [--tasks ${OFFERED_TASKS.join(",")}] [--report-dir DIR]
                       [--task-timeout MS] [--strict] [--config client.json] [--expect-fail FILE]

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
        tasks: { type: "string" },
        "report-dir": { type: "string", default: "reports" },
        "task-timeout": { type: "string", default: "10000" },
        strict: { type: "boolean", default: false },
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
  if (!values.run) throw new UsageError('give the client\'s command: sxd test-client --run "<command>"');
  const taskTimeoutMs = Number(values["task-timeout"]);
  if (!Number.isInteger(taskTimeoutMs) || taskTimeoutMs <= 0)
    throw new UsageError(`--task-timeout ${values["task-timeout"]} is not a number of milliseconds`);
  const tasks = values.tasks ? parseTasks(values.tasks) : [...OFFERED_TASKS];
  const description = values.config ? readClientDescription(values.config) : {};
  const expectedFailures = values["expect-fail"]
    ? readExpectedFailures(values["expect-fail"], loadRows("client"))
    : undefined;
  mkdirSync(values["report-dir"], { recursive: true });
  const reference = await startRecordingReference({ host: "127.0.0.1" });
  try {
    const bench: ClientBench = {
      urls: reference.urls,
      user: reference.user,
      protectedPath: CLIENT_PROTECTED_PATH,
      contactListPath: CLIENT_CONTACT_LIST_PATH,
      takeRecording: () => reference.takeRecording(),
      prepareEntry: (titles) => reference.prepareEntry(titles),
      stage: (condition) => reference.stage(condition),
    };
    const settings = {
      command: values.run,
      tasks,
      reportDir: values["report-dir"],
      taskTimeoutMs,
      strict: values.strict,
      description,
      expectedFailures,
    };
    return (await runClientConformance(settings, bench, io)).exitCode;
  } finally {
    await reference.close();
  }
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
