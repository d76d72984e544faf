/**
 * `sxd rows`: the row matrix of both sides, each rule with its level and its scenarios; with
 * `--check`, exit 1 where a row has no scenario or a scenario's tags are wrong.
 */
import { UsageError } from "../harness/errors.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions } from "./option-parse.ts";

export async function runRows(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("rows", argv, io.env);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("rows"));
    return 0;
  }
  const { loadRows } = await import("../harness/judging/catalogue.ts");
  const { PACKAGE_ROOT } = await import("../harness/package.ts");
  const { loadScenarios } = await import("../harness/judging/scenarios.ts");
  const { clientTraceability, rowMatrix, traceabilityProblems } = await import("../harness/judging/traceability.ts");
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
