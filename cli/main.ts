/**
 * The `sxd` command line: `sxd test` runs the conformance suite, `sxd serve` runs the
 * reference servers. Expected failures print one line and exit 2; only a bug in sxd
 * itself shows a stack trace.
 */

import { writeFileSync } from "node:fs";
import { fileProblem, UsageError } from "../harness/errors.ts";
import type { InteropDocument } from "../harness/interop/document.ts";
import type { ShardReport } from "../harness/interop/shards.ts";
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
  sxd help COMMAND       help for one command
  sxd --version          the version of sxd

Exit codes of sxd test:
  0  every MUST (and stated MAY) row passed; SHOULD rows may have warned
  1  a MUST or MAY row (or, with --strict, a SHOULD row) failed, or nothing ran
  2  usage error, bad target description, or an unreachable target
  3  incomplete: nothing failed, but a MUST or stated MAY row could not be run (the reason is
     in the summary); --allow-incomplete makes this 0. Rows left out by --tags do not count.
`;

async function helpOf(command: string | undefined): Promise<string> {
  if (command === undefined) return MAIN_HELP;
  const known = COMMAND_NAMES.find((name) => name === command);
  if (known === undefined) throw new UsageError(`unknown command "${command}" ${nearestCommand(command)}`);
  return (await import("./help.ts")).commandHelp(known);
}

/** A command's arguments by the option table; a usage error as one line. */
async function optionsOf(command: "rows" | "report", argv: string[], io: CommandIo) {
  const { parseOptions } = await import("./option-parse.ts");
  const parsed = parseOptions(command, argv, io.env, command === "report");
  if (!parsed.ok) throw new UsageError(parsed.error);
  return parsed.value;
}

async function printRows(argv: string[], io: CommandIo): Promise<number> {
  const given = await optionsOf("rows", argv, io);
  if (given.help) return printHelp("rows", io);
  const { loadRows } = await import("../harness/catalogue.ts");
  const { PACKAGE_ROOT } = await import("../harness/package.ts");
  const { loadScenarios } = await import("../harness/scenarios.ts");
  const { clientTraceability, rowMatrix, traceabilityProblems } = await import("../harness/traceability.ts");
  const rows = loadRows();
  const scenarios = loadScenarios(PACKAGE_ROOT);
  io.stdout.write(rowMatrix(rows, scenarios));
  const client = { rows: loadRows("client"), scenarios: loadScenarios(PACKAGE_ROOT, "client") };
  io.stdout.write(`\nClient rows (sxd test-client):\n${rowMatrix(client.rows, client.scenarios)}`);
  if (!given.switch("check")) return 0;
  const { problems: clientProblems, unchecked } = clientTraceability(client.rows, client.scenarios);
  const problems = [...traceabilityProblems(rows, scenarios), ...clientProblems];
  for (const problem of problems) io.stderr.write(`sxd: ${problem}\n`);
  if (unchecked.length > 0) io.stderr.write(`sxd: not checked by sxd test-client yet: ${unchecked.join(", ")}\n`);
  return problems.length === 0 ? 0 : 1;
}

async function mergeReports(argv: string[], io: CommandIo): Promise<number> {
  const { documentSide, readConformance } = await import("../harness/conformance-document.ts");
  const { mergedMatrixHtml } = await import("../harness/report/matrix.ts");
  const given = await optionsOf("report", argv, io);
  if (given.help) return printHelp("report", io);
  const { withDefault } = await import("./option-parse.ts");
  const out = withDefault("report", "out", given.text("out"));
  const [verb, ...paths] = given.positionals;
  if (verb !== "merge" || paths.length === 0)
    throw new UsageError("usage: sxd report merge A.json|DIR|GLOB ... [--out FILE]");
  const files = (await import("./report-inputs.ts")).reportFiles(paths);
  const { isInteropFile } = await import("../harness/interop/shards.ts");
  const interop = files.filter(isInteropFile);
  if (interop.length === files.length) return await mergeInterop(files, given.text("out") ?? "reports", io);
  if (interop.length > 0)
    throw new UsageError(
      `${interop[0]} is an interop.json and ${files.find((f) => !interop.includes(f))} is not: merge one kind at a time`,
    );
  const docs = files.map((file) => {
    try {
      return readConformance(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
  });
  try {
    writeFileSync(out, mergedMatrixHtml(docs));
  } catch (error) {
    throw new UsageError(`cannot write ${out}: ${fileProblem(error)}`);
  }
  const clients = docs.filter((doc) => documentSide(doc) === "client").length;
  const servers = docs.length - clients;
  io.stdout.write(`wrote ${out}: ${counted(servers, "server")}, ${counted(clients, "client")}\n`);
  return 0;
}

/**
 * The shards of an `sxd interop` run as the whole matrix: interop.json, junit.xml, summary.md and
 * interop.html into `out`, with the evidence the page links to; every shard, or none.
 */
async function mergeInterop(files: string[], out: string, io: CommandIo): Promise<number> {
  const shards = await import("../harness/interop/shards.ts");
  const { writeInteropReports } = await import("../harness/report/index.ts");
  const { summaryTable } = await import("../harness/report/summary.ts");
  const { REPORT_FILES } = await import("../harness/report-folder.ts");
  const { dirname, join } = await import("node:path");
  let read: ShardReport[];
  let doc: InteropDocument;
  try {
    read = files.map((file) => ({ folder: dirname(file), doc: shards.readInteropDocument(file) }));
    doc = shards.mergeInterop(read.map((shard) => shard.doc));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = shards.missingShards(read.map((shard) => shard.doc));
  if (missing.length > 0) {
    const given = read.map(({ doc: { shard } }, i) => `${shard.index}/${shard.count} in ${files[i]}`);
    const lacking = missing.length === 1 ? `shard ${missing[0]} is` : `shards ${missing.join(", ")} are`;
    throw new UsageError(`${lacking} missing (given: ${given.join(", ")})`);
  }
  try {
    shards.copyShardEvidence(read, doc, out);
    writeInteropReports(out, doc);
  } catch (error) {
    throw new UsageError(`cannot write into ${out}: ${fileProblem(error)}`);
  }
  io.stdout.write(summaryTable(doc));
  io.stdout.write(
    `wrote ${join(out, REPORT_FILES.interopHtml)}, ${REPORT_FILES.interopJson}, ${REPORT_FILES.junit} and ${REPORT_FILES.summary}: ${counted(doc.cells.length, "cell")} of ${counted(files.length, "shard")}\n`,
  );
  return 0;
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

async function printHelp(command: "rows" | "report", io: CommandIo): Promise<number> {
  io.stdout.write(await helpOf(command));
  return 0;
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
        return (await runSuite(parsed.value, io)).exitCode;
      }
      case "test-client":
        return await (await import("./test-client.ts")).runTestClient(rest, io);
      case "interop":
        return await (await import("./interop.ts")).runInteropCommand(rest, io);
      case "serve":
        return await (await import("./serve.ts")).runServe(rest, io);
      case "init": {
        const { runInit, terminalAsk } = await import("./init.ts");
        return await runInit(rest, { stdout: io.stdout, ask: terminalAsk() });
      }
      case "rows":
        return await printRows(rest, io);
      case "docs":
        return await (await import("./docs.ts")).runDocs(rest, io.stdout);
      case "report":
        return await mergeReports(rest, io);
      case "fuzz":
        return await (await import("./fuzz.ts")).runFuzz(rest, io.stdout);
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
