/**
 * `sxd test`: resolve the target (or start the bundled reference), check that it answers,
 * run the features through cucumber's API, judge the rows and write the reports.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type IRunOptions, loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { isFaultName } from "../reference/faults.ts";
import { type RunningReference, startReference } from "../reference/server.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../steps/support/http.ts";
import type { RunLimitsParameters } from "../steps/support/run-limits.ts";
import { UsageError } from "./errors.ts";
import { DEFAULT_DEADLINE_SECONDS, type TestSettings } from "./options.ts";
import { OutcomeCollector } from "./outcomes.ts";
import type { ProgressOptions } from "./progress.ts";
import { probe } from "./reachability.ts";
import { writeReports } from "./report.ts";
import { loadRows } from "./rows.ts";
import { summaryText } from "./summary.ts";
import { BUNDLED_REFERENCE, resolveDescription, type TargetDescription } from "./target.ts";
import { type Judgement, judge } from "./verdicts.ts";

/** Requests in a row that got no reply, after which the run gives up on the target. */
const FAILURES_IN_A_ROW = 3;

export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Io {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
}

/**
 * What one process keeps between runs: the step definitions, loaded once. The project's
 * tests run the suite many times in one process (once per fault of the reference).
 */
export interface SuiteSession {
  support?: IRunOptions["support"];
}

export interface SuiteRun {
  exitCode: number;
  judgement: Judgement;
}

export async function runSuite(settings: TestSettings, io: Io, session: SuiteSession = {}): Promise<SuiteRun> {
  const rows = loadRows();
  const expectedFailures = settings.expectFailFile ? readExpectedFailures(settings.expectFailFile, rows) : undefined;
  let reference: RunningReference | undefined;
  // Shared by the workers: the breaker's state (steps/support/run-limits.ts).
  const stateDir = mkdtempSync(join(tmpdir(), "sxd-run-"));
  try {
    let target = settings.target;
    let outageMessagingUrl: string | undefined;
    if (!target) {
      const bundled = await startBundled(settings);
      reference = bundled.reference;
      outageMessagingUrl = bundled.outageMessagingUrl;
      target = bundled.target;
    }
    for (const url of [target.baseUrl, target.contactsUrl, target.messagingUrl]) {
      if (!url) continue;
      const problem = await probe(url, settings.timeoutMs);
      if (problem) throw new UsageError(`cannot reach ${url}: ${problem}`);
    }

    const reportDir = resolve(settings.reportDir);
    mkdirSync(reportDir, { recursive: true });
    process.env.SXD_REQUEST_TIMEOUT_MS = String(settings.timeoutMs);
    const progressOptions: ProgressOptions = {
      strict: settings.strict,
      expectedFailures: [...(expectedFailures?.keys() ?? [])],
    };
    const startedAt = new Date().toISOString();
    const environment = { cwd: PACKAGE_ROOT, stdout: io.stdout, stderr: io.stderr, env: process.env };
    const { runConfiguration } = await loadConfiguration(
      {
        file: false,
        provided: {
          paths: ["features/**/*.feature"],
          import: ["steps/support/world.ts", "steps/support/hooks.ts", "steps/**/*.steps.ts"],
          tags: settings.tags ?? "",
          parallel: settings.parallel > 1 ? settings.parallel : 0,
          // Progress only: the summary prints each failure once; junit.xml is ours (report.ts).
          format: [
            "./cli/progress.ts",
            ["html", resolve(reportDir, "cucumber.html")],
            ["message", resolve(reportDir, "messages.ndjson")],
          ],
          formatOptions: { sxd: progressOptions },
          // A round trip through JSON is what reaches the workers anyway.
          worldParameters: JSON.parse(
            JSON.stringify({
              target,
              timeoutMs: settings.timeoutMs,
              outageMessagingUrl,
              maxBodyBytes: settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
              limits: runLimits(settings, stateDir),
            }),
          ),
        },
      },
      environment,
    );
    const collector = new OutcomeCollector();
    const run = await runCucumber(
      session.support ? { ...runConfiguration, support: session.support } : runConfiguration,
      environment,
      (envelope) => collector.add(envelope),
    );
    session.support = run.support;
    const outcomes = collector.outcomes();
    if (outcomes.length === 0) {
      throw new UsageError(
        settings.tags ? `no scenario matches the tag expression ${settings.tags}` : "the suite has no scenarios",
      );
    }
    const judgement = judge(rows, outcomes, {
      strict: settings.strict,
      expectedFailures,
      allowIncomplete: settings.allowIncomplete,
    });
    writeReports({ reportDir, target, judgement, harFile: settings.harFile, strict: settings.strict, startedAt });
    io.stdout.write(summaryText(judgement, target.baseUrl, settings.reportDir));
    return { exitCode: judgement.exitCode, judgement };
  } finally {
    await reference?.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function runLimits(settings: TestSettings, stateDir: string): RunLimitsParameters {
  const deadlineSeconds = settings.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS;
  return {
    stateDir,
    deadlineSeconds,
    deadlineAt: Date.now() + deadlineSeconds * 1000,
    failuresInARow: FAILURES_IN_A_ROW,
  };
}

async function startBundled(settings: TestSettings): Promise<{
  reference: RunningReference;
  target: TargetDescription;
  outageMessagingUrl: string;
}> {
  const faults = settings.referenceFaults;
  const unknown = faults.find((f) => !isFaultName(f));
  if (unknown) throw new UsageError(`unknown reference fault "${unknown}"`);
  const variant = settings.referenceVariant ?? "standard";
  if (variant !== "standard" && variant !== "alternative")
    throw new UsageError(`unknown reference variant "${variant}"`);
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    faults: faults.filter(isFaultName),
    variant,
  });
  // A second messaging server whose contacts server is down, for the outage row (EXP-8).
  const outage = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["messaging"],
    publicUrls: { contacts: "http://127.0.0.1:9" },
    faults: faults.filter(isFaultName),
    variant,
  });
  const resolved = resolveDescription([
    BUNDLED_REFERENCE,
    ...settings.layers,
    { baseUrl: reference.urls.base, contactsUrl: reference.urls.contacts, messagingUrl: reference.urls.messaging },
  ]);
  if (!resolved.ok) throw new UsageError(resolved.error);
  const close = reference.close;
  reference.close = async () => {
    await Promise.all([close(), outage.close()]);
  };
  return { reference, target: resolved.value, outageMessagingUrl: outage.urls.messaging };
}

function readExpectedFailures(path: string, rows: { id: string }[]): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read the expected-failure list ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${path}: expected an object of row IDs to reasons, e.g. {"SNAP-11": "fixed in 2.1"}`);
  }
  const known = new Set(rows.map((r) => r.id));
  const list = new Map<string, string>();
  for (const [id, reason] of Object.entries(parsed)) {
    if (!known.has(id)) throw new UsageError(`${path}: "${id}" is not a row ID`);
    list.set(id, String(reason));
  }
  return list;
}
