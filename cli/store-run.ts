/**
 * --store and --label of the commands that judge or measure (sxd test, test-client, interop,
 * limits): the store is opened and checked before the run (a store that cannot be used stops it,
 * one line, exit 2), and once the run has written its reports, the documents it wrote are read
 * back from its report folder and recorded, as `sxd history add` records a folder: the same
 * records either way. A store that fails then leaves the reports written: one line, exit 2.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../harness/errors.ts";
import { DOCUMENT_FILES, type DocumentKind, folderDocuments } from "../harness/store/folder.ts";
import { type Provenance, type RunDocument, type RunRecord, runRecord } from "../harness/store/records.ts";
import type { Store } from "../harness/store/store.ts";
import type { CommandIo } from "./io.ts";
import { type GivenOptions, parseOptions, withDefault } from "./option-parse.ts";
import type { CommandName } from "./option-table.ts";
import { describedTarget } from "./options.ts";

type RecordingCommand = Extract<CommandName, "test" | "test-client" | "interop" | "limits">;

/** The document each command leaves. */
const WRITES: Record<RecordingCommand, DocumentKind> = {
  test: "conformance",
  "test-client": "conformance",
  interop: "interop",
  limits: "limits",
};

/** A commit as a label: as short as git shows it. */
const SHORT_COMMIT = 7;

/** Where a run was made, as the CI says: its label (else the commit), its branch, its job's page. */
export function provenanceOf(label: string | undefined, env: NodeJS.ProcessEnv): Omit<Provenance, "folder"> {
  const commit = env.GITHUB_SHA || env.CI_COMMIT_SHA;
  const github =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  return {
    label: label || (commit ? commit.slice(0, SHORT_COMMIT) : null),
    ref: env.GITHUB_REF_NAME || env.CI_COMMIT_REF_NAME || null,
    jobUrl: env.CI_JOB_URL || github || null,
  };
}

/** The store opened and checked, or the one line why not, as a usage error. */
export async function openedStore(location: string): Promise<Store> {
  const { openStore, StoreError } = await import("../harness/store/store.ts");
  try {
    return await openStore(location);
  } catch (error) {
    if (error instanceof StoreError) throw new UsageError(error.message);
    throw error;
  }
}

/** Records the runs given into a store, a line each; the store's one line where it failed. */
export async function recordRuns(
  location: string,
  runs: readonly RunRecord[],
  io: CommandIo,
): Promise<{ added: number; error?: string }> {
  const { openStore, StoreError } = await import("../harness/store/store.ts");
  let store: Store | undefined;
  let added = 0;
  try {
    store = await openStore(location);
    for (const run of runs) {
      const fresh = await store.record(run);
      if (fresh) added++;
      io.stdout.write(`${fresh ? "recorded" : "already stored"} in ${store.where}: ${runLine(run)}\n`);
    }
    return { added };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return { added, error: error.message };
  } finally {
    await store?.close();
  }
}

function runLine(run: RunRecord): string {
  const label = run.label ? `, label ${run.label}` : "";
  return `${run.kind} run ${run.id.slice(0, 12)} of ${run.target}${label}`;
}

/**
 * `run` (a command's whole run) with the store it asks for: checked before, its documents
 * recorded after. Without --store (or SXD_STORE), just `run`.
 */
export async function withRecording(
  command: RecordingCommand,
  argv: string[],
  io: CommandIo,
  run: () => Promise<number>,
): Promise<number> {
  const parsed = parseOptions(command, argv, io.env, command === "interop");
  // A bad option or --help: the command says so itself.
  const location = parsed.ok && !parsed.value.help ? parsed.value.text("store") : undefined;
  if (!parsed.ok || location === undefined) return run();
  const given = parsed.value;
  const provenance = provenanceOf(given.text("label"), io.env);
  await (await openedStore(location)).close();
  const folder = resolve(reportDirOf(command, given));
  const kind = WRITES[command];
  const before = fileState(join(folder, DOCUMENT_FILES[kind]));
  const exitCode = await run();
  const written = fileState(join(folder, DOCUMENT_FILES[kind]));
  if (written === undefined || written === before) {
    io.stderr.write(`sxd: the run wrote no ${DOCUMENT_FILES[kind]} in ${folder}: nothing to record in the store\n`);
    return exitCode === 0 ? 2 : exitCode;
  }
  const documents: RunDocument[] = folderDocuments(folder, [kind]);
  const runs = documents.map((document) => runRecord(document, { ...provenance, folder }));
  const { error } = await recordRuns(location, runs, io);
  if (error !== undefined) {
    io.stderr.write(`sxd: the run is not recorded (its reports are in ${folder}): ${error}\n`);
    return 2;
  }
  return exitCode;
}

/** Where the command writes its reports, as it reads its options (for sxd test and limits, the description's run section too). */
function reportDirOf(command: RecordingCommand, given: GivenOptions): string {
  if (command === "test" || command === "limits") {
    const described = describedTarget(given);
    if (described.ok) return withDefault(command, "report-dir", described.value.run.reportDir);
  }
  return withDefault(command, "report-dir", given.text("report-dir"));
}

/** A file's identity and time, to tell a document the run wrote from one an earlier run left. */
function fileState(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.size}` : undefined;
}
