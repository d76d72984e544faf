/**
 * The `sxd` command line: `sxd test` runs the conformance suite, `sxd serve` runs the
 * reference servers. Expected failures print one line and exit 2; only a bug in sxd
 * itself shows a stack trace.
 */

import { UsageError } from "../harness/errors.ts";
import { type CommandIo, PROCESS_IO } from "./io.ts";
import { COMMAND_NAMES } from "./option-spec.ts";
import { editDistance } from "./spelling.ts";

// Everything else is imported where a command needs it, so that `sxd --help` loads neither
// cucumber nor the reference.

const MAIN_HELP = `sxd: a conformance kit for snapshot-versioned resources, export links and digest authentication

Usage:
  sxd test [options]     run the conformance suite (against the bundled reference when no URL is given)
  sxd test-client --run "<command>" | --manual | --har FILE [options]
                         grade a client by what it sends to sxd's servers, task by task
  sxd interop FILE [options]
                         every client of the matrix FILE against every server, a cell per pair
                         and task, each failed cell blamed on the side that broke a row
  sxd serve [options]    run the reference servers
  sxd init [options]     write a starter target description (asks, or takes flags)
  sxd rows [--check]     print the row matrix: each rule, its level and its scenarios
                         (--check: exit 1 if a row has no scenario or a tag is wrong)
  sxd report merge A.json|DIR|GLOB ... [--out FILE]
                         one HTML matrix of several runs' conformance.json, rows x runs: servers'
                         (sxd test) and clients' (sxd test-client), each headed by its URL or command;
                         given the interop.json of an interop run's shards, the whole matrix (--out DIR);
                         a report folder, a folder of them or a quoted glob stands for their reports
  sxd docs [--out DIR] [--results conformance.json|interop.json ...]
                         the interface as a static site: every rule, its scenarios, a real exchange
  sxd fuzz [options]     a long campaign of mutated requests, failures shrunk and replayable
  sxd limits [options]   how the target's costs grow with what it holds (the LIM cases), measured:
                         flat, linear, faster or unclear; informational unless --fail-on
  sxd history [options]  the runs kept in a store of results (--store): each row's verdicts in
                         stretches, when it first failed and what fixed it, intermittent rows,
                         the limits' trend; sxd history add DIR... records report folders
  sxd help COMMAND       help for one command
  sxd --version          the version of sxd

Exit codes of sxd test:
  0  every MUST (and stated MAY) row passed; SHOULD rows may have warned
  1  not conformant: a MUST or MAY row (or, with --strict, a SHOULD row) failed
  2  usage error, bad target description, or an unreachable target
  3  incomplete: nothing failed, but a MUST or stated MAY row could not be run (the reason is
     in the summary), or no scenario ran; --allow-incomplete makes the first 0. Rows left
     out by --tags do not count.
`;

/** A command's run with the store of results it asks for (--store, SXD_STORE; cli/store-run.ts). */
async function recording(
  command: "test" | "test-client" | "interop" | "limits",
  argv: string[],
  io: CommandIo,
  run: () => Promise<number>,
): Promise<number> {
  return (await import("./store-run.ts")).withRecording(command, argv, io, run);
}

async function helpOf(command: string | undefined): Promise<string> {
  if (command === undefined) return MAIN_HELP;
  const known = COMMAND_NAMES.find((name) => name === command);
  if (known === undefined) throw new UsageError(`unknown command "${command}" ${nearestCommand(command)}`);
  return (await import("./help.ts")).commandHelp(known);
}

const COMMANDS = [...COMMAND_NAMES, "help"];

function nearestCommand(command: string): string {
  const near = COMMANDS.find((name) => editDistance(command.replace(/^-+/, ""), name) <= 2);
  return near ? `(did you mean sxd ${near}?)` : "(try sxd --help)";
}

/** `io`: the process's streams and environment; a test gives its own to run a command in its process. */
export async function main(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        // A command is required; the help says which.
        io.stderr.write(MAIN_HELP);
        return 2;
      case "--version":
      case "-v":
        io.stdout.write(`sxd ${(await import("../harness/package.ts")).suiteVersion()}\n`);
        return 0;
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(await helpOf(rest[0]));
        return 0;
      case "test": {
        const { parseTestArgs } = await import("./options.ts");
        const parsed = parseTestArgs(rest, io.env);
        if (!parsed.ok) throw new UsageError(parsed.error);
        if ("help" in parsed) {
          io.stdout.write(await helpOf("test"));
          return 0;
        }
        const { runSuite } = await import("./run-suite.ts");
        const settings = parsed.value;
        return await recording("test", rest, io, async () => (await runSuite(settings, io)).exitCode);
      }
      case "test-client":
        return await recording("test-client", rest, io, async () =>
          (await import("./test-client.ts")).runTestClient(rest, io),
        );
      case "interop":
        return await recording("interop", rest, io, async () =>
          (await import("./interop.ts")).runInteropCommand(rest, io),
        );
      case "serve":
        return await (await import("./serve.ts")).runServe(rest, io);
      case "init": {
        const { runInit, terminalAsk } = await import("./init.ts");
        return await runInit(rest, { stdout: io.stdout, ask: terminalAsk() });
      }
      case "rows":
        return await (await import("./rows.ts")).runRows(rest, io);
      case "docs":
        return await (await import("./docs.ts")).runDocs(rest, io.stdout);
      case "report":
        return await (await import("./report-merge.ts")).runReportMerge(rest, io);
      case "fuzz":
        return await (await import("./fuzz.ts")).runFuzz(rest, io.stdout);
      case "limits":
        return await recording("limits", rest, io, async () =>
          (await import("./limits.ts")).runLimitsCommand(rest, io),
        );
      case "history":
        return await (await import("./history.ts")).runHistory(rest, io);
      default:
        throw new UsageError(`unknown command "${command}" ${nearestCommand(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`sxd: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
