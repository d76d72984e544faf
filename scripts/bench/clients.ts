// npm run bench -- clients: `sxd test-client` on a client that starts slowly (a node process
// that sleeps 1 s before the example client runs, as a JVM takes a second to start), every
// task, one run at a time (--parallel 1) and with the default runs at once, in turns over a few
// rounds (SXD_BENCH_CLIENT_ROUNDS, default 2). Prints each round's wall time, the medians and
// their ratio, and whether every run and verdict came out the same; asserts nothing.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CLIENT_RUNS_AT_ONCE } from "../../cli/option-table.ts";
import { REPORT_FILES } from "../../harness/evidence/report-folder.ts";
import { median } from "./stats.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const SXD = join(ROOT, "bin/sxd.js");
const ROUNDS = Number(process.env.SXD_BENCH_CLIENT_ROUNDS ?? 2);
/** How long the client waits before it does anything: about a JVM's start. */
const START_MS = 1000;
const SLOW_CLIENT = `node -e 'setTimeout(() => {}, ${START_MS})' && sh ${join(ROOT, "examples/clients/node/adapter.sh")}`;
const DESCRIPTION = join(ROOT, "examples/clients/node/client.json");

/** What a run of sxd says, cut to what must not change with the runs at once: each row's verdict and each task run. */
export interface Timed {
  seconds: number;
  exitCode: number | null;
  verdicts: string;
}

/** Runs sxd with the reports in a temp folder; its wall time, exit code and what its conformance.json judged. */
export async function timeSxd(args: string[], judged: (reportDir: string) => string): Promise<Timed> {
  const reportDir = mkdtempSync(join(tmpdir(), "sxd-bench-"));
  const started = performance.now();
  const child = spawn(process.execPath, [SXD, ...args, "--report-dir", reportDir], { stdio: "ignore" });
  const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  const seconds = (performance.now() - started) / 1000;
  try {
    return { seconds, exitCode, verdicts: judged(reportDir) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** Each row's verdict and reason, and each run of a task as it ended (not its ports or times). */
function clientJudgement(reportDir: string): string {
  const doc = JSON.parse(readFileSync(join(reportDir, REPORT_FILES.conformanceJson), "utf8"));
  const rows = doc.rows.map((row: { id: string; verdict: string; reason?: string }) => [
    row.id,
    row.verdict,
    row.reason,
  ]);
  const runs = doc.client.runs.map((run: { task: string; condition?: string; offer?: string; exitCode: number }) => [
    run.task,
    run.condition,
    run.offer,
    run.exitCode,
  ]);
  return JSON.stringify({ overall: doc.overall, rows, runs });
}

/** Prints one way against the other: each round, the medians, their ratio and whether anything judged changed. */
export function printComparison(
  names: { serial: string; atOnce: string },
  serial: readonly Timed[],
  atOnce: readonly Timed[],
): void {
  const seconds = (runs: readonly Timed[]) => runs.map((run) => `${run.seconds.toFixed(1)} s`).join(", ");
  const [one, many] = [median(serial.map((run) => run.seconds)), median(atOnce.map((run) => run.seconds))];
  const all = [...serial, ...atOnce];
  const same = all.every((run) => run.verdicts === all[0]?.verdicts && run.exitCode === all[0]?.exitCode);
  process.stdout.write(
    [
      `${names.serial.padEnd(28)} ${seconds(serial)} (median ${one.toFixed(1)} s)`,
      `${names.atOnce.padEnd(28)} ${seconds(atOnce)} (median ${many.toFixed(1)} s)`,
      `at once is ${(one / many).toFixed(2)}x as fast as one at a time`,
      `every verdict and run the same: ${same ? "yes" : "NO"} (exit ${[...new Set(all.map((run) => run.exitCode))].join(", ")})`,
      "",
    ].join("\n"),
  );
}

export async function benchClients(): Promise<void> {
  process.stdout.write(
    `sxd test-client, every task, on a client that waits ${START_MS} ms before it starts; ${ROUNDS} rounds in turns\n`,
  );
  const args = ["test-client", "--run", SLOW_CLIENT, "--config", DESCRIPTION];
  const serial: Timed[] = [];
  const atOnce: Timed[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    serial.push(await timeSxd([...args, "--parallel", "1"], clientJudgement));
    atOnce.push(await timeSxd(args, clientJudgement));
  }
  printComparison(
    { serial: "--parallel 1", atOnce: `default (${DEFAULT_CLIENT_RUNS_AT_ONCE} at once)` },
    serial,
    atOnce,
  );
}
