/**
 * `sxd report merge`: several runs' conformance.json as one HTML matrix, rows by runs, or the
 * interop.json of an interop run's shards as the whole matrix and its reports.
 */
import { writeFileSync } from "node:fs";
import { fileProblem, UsageError } from "../harness/errors.ts";
import type { InteropDocument } from "../harness/evidence/interop-document.ts";
import type { ShardReport } from "../harness/interop/shards.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";

export async function runReportMerge(argv: string[], io: CommandIo): Promise<number> {
  const { documentSide, readConformance } = await import("../harness/evidence/conformance-document.ts");
  const { mergedMatrixHtml } = await import("../harness/report/matrix.ts");
  const parsed = parseOptions("report", argv, io.env, true);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("report"));
    return 0;
  }
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
  const { REPORT_FILES } = await import("../harness/evidence/report-folder.ts");
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
