/**
 * The runs `sxd docs` shows: under each scenario, the server suite against the bundled
 * reference and the example client (examples/clients/node) against sxd's servers; on the page of
 * LIM cases, sxd limits against the bundled reference. Each goes into its own report directory.
 * Either suite not passing its own rows, or a finding on the reference, stops the build.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { parseClientDescription } from "../harness/client/description.ts";
import { runClientConformance } from "../harness/client/run.ts";
import { OFFERED_TASKS } from "../harness/client/tasks.ts";
import { UsageError } from "../harness/errors.ts";
import { type ConformanceDocument, readConformance } from "../harness/evidence/conformance-document.ts";
import type { LimitsDocument } from "../harness/evidence/limits-document.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import type { Io } from "../harness/io.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { startClientBenches } from "./client-benches.ts";
import { runLimitsCommand } from "./limits.ts";
import { DEFAULT_CLIENT_RUNS_AT_ONCE } from "./option-table.ts";
import { runSuite } from "./run-suite.ts";

/** The example client, with the description of its choices (client.json). */
const EXAMPLE_CLIENT = {
  folder: "examples/clients/node",
  command: `sh ${shellQuoted(join(PACKAGE_ROOT, "examples/clients/node/adapter.sh"))}`,
  description: join(PACKAGE_ROOT, "examples/clients/node/client.json"),
};

const quiet = (): Io => {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return { stdout: sink, stderr: sink };
};

/** The whole server suite against the bundled reference; its conformance.json. */
export async function recordReferenceRun(reportDir: string): Promise<ConformanceDocument> {
  const run = await runSuite(
    {
      target: undefined,
      layers: [],
      tags: undefined,
      strict: true,
      reportDir,
      timeoutMs: 10_000,
      parallel: 1,
      expectFailFile: undefined,
      harFile: undefined,
      referenceFaults: [],
      referenceVariant: undefined,
    },
    quiet(),
  );
  const doc = readConformance(join(reportDir, REPORT_FILES.conformanceJson));
  if (run.exitCode !== 0) throw new UsageError(`the bundled reference did not pass its own suite (${doc.overall})`);
  return doc;
}

/**
 * Sizes a tenth of the catalogue's and three repeats: enough for the charts to show each cost
 * against its size, in about ten seconds rather than minutes.
 */
const DOCS_LIMITS = ["--sizes", "0.1", "--repeats", "3"];

/** sxd limits against the bundled reference, as the command runs it; its limits.json. */
export async function measureReferenceLimits(reportDir: string): Promise<LimitsDocument> {
  const code = await runLimitsCommand([...DOCS_LIMITS, "--report-dir", reportDir], { ...quiet(), env: {} });
  const doc = JSON.parse(readFileSync(join(reportDir, REPORT_FILES.limitsJson), "utf8")) as LimitsDocument;
  if (code !== 0) {
    const found = doc.cases.filter((c) => c.finding).map((c) => `${c.id}: ${c.finding?.message}`);
    throw new UsageError(`sxd limits found a problem in the bundled reference: ${found.join("; ")}`);
  }
  return doc;
}

/** Every task of the example client, as `sxd test-client` runs it; its conformance.json and the user's secret. */
export async function recordExampleClientRun(reportDir: string): Promise<{ doc: ConformanceDocument; secret: string }> {
  const described = parseClientDescription(
    readFileSync(EXAMPLE_CLIENT.description, "utf8"),
    EXAMPLE_CLIENT.description,
  );
  if (!described.ok) throw new Error(described.error);
  mkdirSync(reportDir, { recursive: true });
  const { benches, user, close } = await startClientBenches(DEFAULT_CLIENT_RUNS_AT_ONCE, OFFERED_TASKS);
  try {
    const settings = {
      command: EXAMPLE_CLIENT.command,
      tasks: OFFERED_TASKS,
      reportDir,
      taskTimeoutMs: 10_000,
      strict: true,
      description: described.value,
    };
    const run = await runClientConformance(settings, benches, quiet());
    const doc = readConformance(join(reportDir, REPORT_FILES.conformanceJson));
    if (run.exitCode !== 0)
      throw new UsageError(`the example client (${EXAMPLE_CLIENT.folder}) did not pass its own rows (${doc.overall})`);
    return { doc, secret: user.password };
  } finally {
    await close();
  }
}

function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
