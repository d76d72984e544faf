/**
 * Each implementation's own verdict beside its name in the matrix: its conformance.json
 * (written here by a run of `sxd test` or `sxd test-client`, or given in the matrix file),
 * reduced to what a reader of the matrix needs.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { TargetDescription } from "../description/target.ts";
import { readConformance } from "../evidence/conformance-document.ts";
import type { OwnVerdict } from "../evidence/interop-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import { runConformance } from "../run/run.ts";

/** The verdict of a conformance.json; `report` is where it lies, relative to the report directory. */
export function verdictOfReport(
  reportDir: string,
  report: string,
  source: OwnVerdict["source"],
  exitCode: number | null,
): OwnVerdict {
  try {
    const doc = readConformance(join(reportDir, report));
    const verdict =
      doc.overall === "not conformant" ? "non-conformant" : doc.overall === "incomplete" ? "incomplete" : "conformant";
    return {
      source,
      exitCode,
      verdict,
      failedRows: doc.rows.filter((row) => row.verdict === "failed").map((row) => row.id),
      warnedRows: doc.rows.filter((row) => row.verdict === "warning").map((row) => row.id),
      judged: Object.fromEntries(doc.rows.map((row) => [row.id, row.verdict])),
      report,
    };
  } catch (error) {
    return notRun(source, exitCode, `its conformance.json cannot be read: ${(error as Error).message}`);
  }
}

export function notRun(source: OwnVerdict["source"], exitCode: number | null, problem: string): OwnVerdict {
  return { source, exitCode, verdict: "not run", failedRows: [], warnedRows: [], problem };
}

/** A given conformance.json, copied into the implementation's folder so the report directory stands alone. */
export function givenVerdict(reportDir: string, folder: string, given: string): OwnVerdict {
  if (!existsSync(given)) return notRun("given", null, `${given}: no such file`);
  mkdirSync(join(reportDir, folder), { recursive: true });
  copyFileSync(given, join(reportDir, folder, REPORT_FILES.conformanceJson));
  return verdictOfReport(reportDir, `${folder}${REPORT_FILES.conformanceJson}`, "given", null);
}

/** How long a server's own `sxd test` run may take, in seconds. */
const SERVER_RUN_DEADLINE_S = 600;

/** The server's own `sxd test` run, against it as it runs for the matrix, into servers/<name>/. */
export async function serverVerdict(
  reportDir: string,
  name: string,
  target: TargetDescription,
  timeoutMs: number,
): Promise<OwnVerdict> {
  const folder = `servers/${name}/`;
  const sink = new PassThrough().resume();
  try {
    const run = await runConformance(
      {
        target,
        tags: undefined,
        strict: false,
        reportDir: join(reportDir, folder),
        timeoutMs,
        harFile: undefined,
        deadlineSeconds: SERVER_RUN_DEADLINE_S,
      },
      { stdout: sink, stderr: sink },
    );
    return verdictOfReport(reportDir, `${folder}${REPORT_FILES.conformanceJson}`, "computed", run.exitCode);
  } catch (error) {
    return notRun("computed", 2, `sxd test could not run: ${(error as Error).message}`);
  }
}
