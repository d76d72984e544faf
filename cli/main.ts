/**
 * The `sxd` command line: `sxd test` runs the conformance suite, `sxd serve` runs the
 * reference servers. Expected failures print one line and exit 2; only a bug in sxd
 * itself shows a stack trace.
 */

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadRows } from "../harness/catalogue.ts";
import { UsageError } from "../harness/errors.ts";
import { mergedMatrixHtml, readConformance, suiteVersion } from "../harness/report/index.ts";
import { PACKAGE_ROOT } from "../harness/run.ts";
import { loadScenarios } from "../harness/scenarios.ts";
import { rowMatrix, traceabilityProblems } from "../harness/traceability.ts";
import { optionsHelp, parseTestArgs, TEST_OPTIONS } from "./options.ts";
import { runSuite } from "./run-suite.ts";
import { runServe, SERVE_HELP } from "./serve.ts";
import { editDistance } from "./spelling.ts";

const MAIN_HELP = `sxd: a conformance kit for snapshot-versioned resources, export links and digest authentication

Usage:
  sxd test [options]     run the conformance suite (against the bundled reference when no URL is given)
  sxd serve [options]    run the reference servers
  sxd rows [--check]     print the row matrix: each rule, its level and its scenarios
                         (--check: exit 1 if a row has no scenario or a tag is wrong)
  sxd report merge A.json B.json ... [--out FILE]
                         one HTML matrix of several runs' conformance.json, rows x targets
  sxd help COMMAND       help for one command
  sxd --version          the version of sxd

Exit codes of sxd test:
  0  every MUST (and stated MAY) row passed; SHOULD rows may have warned
  1  a MUST or MAY row (or, with --strict, a SHOULD row) failed, or nothing ran
  2  usage error, bad target description, or an unreachable target
  3  incomplete: nothing failed, but a MUST or stated MAY row could not be run (the reason is
     in the summary); --allow-incomplete makes this 0. Rows left out by --tags do not count.
`;

const TEST_HELP = `Usage: sxd test [options]

Runs the conformance suite. With no URL (flag, environment or --config) it starts the bundled
reference servers on free ports, runs against them and stops them.

Options (each also settable by the environment variable in brackets):
${optionsHelp(TEST_OPTIONS)}

Reports go to the report directory: conformance.html, conformance.json, junit.xml (one test
case per scenario and row; only what fails the run is a <failure>), cucumber.html, messages.ndjson.

Exit codes: 0 passed; 1 not conformant, or nothing ran; 2 usage error or unreachable target;
3 incomplete (a MUST or stated MAY row could not be run; --allow-incomplete makes it 0).
`;

function printRows(argv: string[]): number {
  const rows = loadRows();
  const scenarios = loadScenarios(PACKAGE_ROOT);
  process.stdout.write(rowMatrix(rows, scenarios));
  if (!argv.includes("--check")) return 0;
  const problems = traceabilityProblems(rows, scenarios);
  for (const problem of problems) process.stderr.write(`sxd: ${problem}\n`);
  return problems.length === 0 ? 0 : 1;
}

function mergeReports(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { out: { type: "string", default: "reports/matrix.html" } },
    allowPositionals: true,
  });
  const [verb, ...files] = positionals;
  if (verb !== "merge" || files.length === 0)
    throw new UsageError("usage: sxd report merge a.json b.json ... [--out FILE]");
  const docs = files.map((file) => {
    try {
      return readConformance(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
  });
  writeFileSync(values.out, mergedMatrixHtml(docs));
  process.stdout.write(`wrote ${values.out}: ${docs.length} targets\n`);
  return 0;
}

const COMMANDS = ["test", "serve", "rows", "report", "help"];

function nearestCommand(command: string): string {
  const near = COMMANDS.find((name) => editDistance(command.replace(/^-+/, ""), name) <= 2);
  return near ? `(did you mean sxd ${near}?)` : "(try sxd --help)";
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        // A command is required; the help says which.
        process.stderr.write(MAIN_HELP);
        return 2;
      case "--version":
      case "-v":
        process.stdout.write(`sxd ${suiteVersion()}\n`);
        return 0;
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(rest[0] === "test" ? TEST_HELP : rest[0] === "serve" ? SERVE_HELP : MAIN_HELP);
        return 0;
      case "test": {
        const parsed = parseTestArgs(rest, process.env);
        if (!parsed.ok) throw new UsageError(parsed.error);
        if ("help" in parsed) {
          process.stdout.write(TEST_HELP);
          return 0;
        }
        return (await runSuite(parsed.value, { stdout: process.stdout, stderr: process.stderr })).exitCode;
      }
      case "serve":
        return await runServe(rest);
      case "rows":
        return printRows(rest);
      case "report":
        return mergeReports(rest);
      default:
        throw new UsageError(`unknown command "${command}" ${nearestCommand(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sxd: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
