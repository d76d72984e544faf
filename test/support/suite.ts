/**
 * Runs the conformance suite in this process against the bundled reference, as `sxd test`
 * does, and returns the row verdicts. Step definitions are loaded once per process.
 */
import { Writable } from "node:stream";
import type { TestSettings } from "../../cli/options.ts";
import { runSuite } from "../../cli/run-suite.ts";
import type { TargetDescription } from "../../harness/description/target.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import { EXCHANGES_MEDIA_TYPE } from "../../harness/judging/outcomes.ts";
import type { SuiteRun } from "../../harness/run/run.ts";
import { scratchDir } from "./scratch.ts";
import { TEST_SECURITY_SAMPLES } from "./security-samples.ts";

export interface ReferenceRun {
  faults?: string[];
  variant?: "standard" | "alternative";
  tags?: string;
  strict?: boolean;
  /** Target description layers over the bundled reference's (export.result, …). */
  layers?: TestSettings["layers"];
  /** sxd plays this export server itself (--peer); the target names it at `peerUrl(port)`. */
  peer?: TestSettings["peer"];
  /** --rate: requests a second. */
  rate?: number;
  /** --parallel N; "chosen": left out, sxd choosing from the round trip. Absent: 1. */
  parallel?: number | "chosen";
  /** The report files in `reportDir`; absent, none: the tests judge by the returned verdicts. */
  reportFiles?: true;
}

/** A run, its report folder, and what it printed. */
export type QuietRun = SuiteRun & { reportDir: string; output: string };

export function runAgainstReference(options: ReferenceRun): Promise<QuietRun> {
  return runQuietly(undefined, options);
}

/** The same against a running server, described as its operator would. */
export function runAgainstTarget(
  target: TargetDescription,
  options: Omit<ReferenceRun, "faults" | "variant"> = {},
): Promise<QuietRun> {
  return runQuietly(target, options);
}

async function runQuietly(target: TargetDescription | undefined, options: ReferenceRun): Promise<QuietRun> {
  const output: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output.push(String(chunk));
      done();
    },
  });
  const reportDir = scratchDir("sxd-test-");
  const settings: TestSettings = {
    target,
    layers: options.layers ?? [],
    tags: options.tags,
    strict: options.strict ?? true,
    reportDir,
    timeoutMs: 5000,
    parallel: options.parallel === "chosen" ? undefined : (options.parallel ?? 1),
    securitySamples: TEST_SECURITY_SAMPLES,
    expectFailFile: undefined,
    harFile: undefined,
    referenceFaults: options.faults ?? [],
    referenceVariant: options.variant,
    peer: options.peer,
    rate: options.rate,
    // The tests read cucumber's own reports of these runs never, and sxd's only where they ask
    // (reportFiles): a tenth of each run's CPU, and another sixteenth.
    cucumberReports: false,
    reportFiles: options.reportFiles === true,
  };
  const run = await runSuite(settings, { stdout: sink, stderr: sink });
  return { ...run, reportDir, output: output.join("") };
}

/** The rows of a run with the given verdict, sorted. */
export function rowsWith(run: SuiteRun, ...verdicts: string[]): string[] {
  return run.judgement.rows
    .filter((r) => r.scenarios.length > 0 && verdicts.includes(r.verdict))
    .map((r) => r.row.id)
    .sort();
}

/** The exchanges of a row's scenarios, in the order they were attached. */
export function exchangesOf(run: SuiteRun, rowId: string): Exchange[] {
  return (
    run.judgement.rows
      .find((r) => r.row.id === rowId)
      ?.scenarios.flatMap((s) => s.attachments.filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE))
      .flatMap((a) => JSON.parse(a.body) as Exchange[]) ?? []
  );
}

/** A tag expression selecting every row of one behaviour, e.g. "SNAP". */
export function behaviourTags(prefix: string, rowIds: string[]): string {
  return rowIds
    .filter((id) => id.startsWith(`${prefix}-`))
    .map((id) => `@${id}`)
    .join(" or ");
}
