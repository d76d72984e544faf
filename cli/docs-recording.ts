/**
 * The runs `sxd docs` shows under each scenario: the server suite against the bundled
 * reference, and the example client (examples/clients/node) against sxd's servers, each into
 * its own report directory. Either one not passing its own rows stops the build.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { parseClientDescription } from "../harness/client/description.ts";
import { runClientConformance } from "../harness/client/run.ts";
import { OFFERED_TASKS } from "../harness/client/tasks.ts";
import { UsageError } from "../harness/errors.ts";
import { type ConformanceDocument, readConformance } from "../harness/evidence/conformance-document.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import type { Io } from "../harness/io.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { startClientBenches } from "./client-benches.ts";
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
