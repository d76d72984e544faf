// npm run bench -- network: the whole suite against the reference over a slow network. A
// delay proxy in front of each of the three servers holds every chunk for half the round
// trip in each direction (and a new connection for one round trip, the TCP handshake), so
// each request costs at least one round trip. The suite runs first with the defaults on this
// machine (no proxy) and through the proxies, which gives the ratio the goal is about (at most
// 2), then at several --parallel values; each line prints the wall time against the bound the
// round trips set: the requests of the longest scenario x RTT, or all requests x RTT /
// parallelism, whichever is larger (request counts from the run's own conformance.json), and
// the peak resident memory of sxd's processes together (the goal: at most 300 MB).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPORT_FILES } from "../../harness/evidence/report-folder.ts";
import { type ServerName, startReference } from "../../reference/server.ts";
import { farReference } from "../../test/support/delay-proxy.ts";
import { watchTree } from "../../test/support/process-tree.ts";

const RTT_MS = Number(process.env.SXD_BENCH_RTT_MS ?? 50);
const PARALLELISM = (process.env.SXD_BENCH_PARALLEL ?? "1,2,4,8,16")
  .split(",")
  .filter((n) => n !== "")
  .map(Number);
/** Runs of each setting with the defaults, for a range: the shared machine moves single runs. */
const DEFAULT_RUNS = Number(process.env.SXD_BENCH_RUNS ?? 3);
const GOAL_RATIO = 2;
const GOAL_PEAK_MB = 300;

interface RunFigures {
  wallMs: number;
  peakBytes: number;
  /** The progress line that says how many scenarios the run took at once. */
  choice: string;
  exit: number | null;
  requests: number;
  longestScenario: number;
}

interface Report {
  rows: Array<{ scenarios: Array<{ location: string; exchanges: unknown[] }> }>;
}

/**
 * The suite in a child process; asynchronously, since the proxies and servers run in this one.
 * `parallel` undefined: the defaults.
 */
async function runSuite(configFile: string, parallel: number | undefined, reportDir: string): Promise<RunFigures> {
  const started = Date.now();
  const flags = parallel === undefined ? [] : ["--parallel", String(parallel)];
  const child = spawn(
    process.execPath,
    ["bin/sxd.js", "test", "--config", configFile, ...flags, "--report-dir", reportDir],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const memory = watchTree(child.pid as number);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const wallMs = Date.now() - started;
  const peakBytes = memory.stop();
  const choice = /^sxd: round trip (.*)$/m.exec(stderr)?.[1] ?? "";
  const report = JSON.parse(readFileSync(join(reportDir, REPORT_FILES.conformanceJson), "utf8")) as Report;
  const perScenario = new Map<string, number>();
  for (const row of report.rows) {
    for (const scenario of row.scenarios) perScenario.set(scenario.location, scenario.exchanges.length);
  }
  const counts = [...perScenario.values()];
  return {
    wallMs,
    peakBytes,
    choice,
    exit,
    requests: counts.reduce((sum, n) => sum + n, 0),
    longestScenario: Math.max(...counts),
  };
}

function describedAt(dir: string, name: string, urls: Record<ServerName, string>): string {
  const description = JSON.parse(readFileSync("examples/reference.json", "utf8"));
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ ...description, baseUrl: urls.base, contactsUrl: urls.contacts, messagingUrl: urls.messaging }),
  );
  return file;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const range = (values: number[], show: (n: number) => string) =>
  Math.min(...values) === Math.max(...values)
    ? show(values[0] as number)
    : `${show(Math.min(...values))}-${show(Math.max(...values))}`;

/** Runs with the defaults, on this machine and far away, in turns; the ratio and the memory beside their goals. */
async function defaultsRatio(local: string, far: string, dir: string): Promise<void> {
  const runs: { local: RunFigures; far: RunFigures }[] = [];
  for (let i = 0; i < DEFAULT_RUNS; i++) {
    runs.push({
      local: await runSuite(local, undefined, join(dir, `local${i}`)),
      far: await runSuite(far, undefined, join(dir, `far${i}`)),
    });
  }
  for (const [i, run] of runs.entries()) {
    process.stdout.write(
      `  run ${i + 1}: on this machine ${seconds(run.local.wallMs)} s (${run.local.choice}, ${megabytes(run.local.peakBytes)} MB, exit ${run.local.exit}); ` +
        `over ${RTT_MS} ms ${seconds(run.far.wallMs)} s (${run.far.choice}, ${megabytes(run.far.peakBytes)} MB, exit ${run.far.exit})\n`,
    );
  }
  const ratios = runs.map((run) => run.far.wallMs / run.local.wallMs);
  const peaks = runs.flatMap((run) => [run.local.peakBytes, run.far.peakBytes]);
  process.stdout.write(
    `  with the defaults, over ${RTT_MS} ms / on this machine: ${range(ratios, (r) => r.toFixed(2))}x (goal: at most ${GOAL_RATIO}x); ` +
      `peak memory of sxd's processes ${range(peaks, megabytes)} MB (goal: at most ${GOAL_PEAK_MB} MB)\n`,
  );
}

export async function benchNetwork(): Promise<void> {
  const far = await farReference({ rttMs: RTT_MS });
  const { baseUrl, contactsUrl, messagingUrl } = far.target;
  const proxied = { base: baseUrl, contacts: contactsUrl as string, messaging: messagingUrl as string };
  // The same reference without the proxies, for the run on this machine: links in its replies lead to itself.
  const nearby = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
  const dir = mkdtempSync(join(tmpdir(), "sxd-bench-network-"));
  const configFile = describedAt(dir, "far", proxied);
  const localFile = describedAt(dir, "local", nearby.urls as Record<ServerName, string>);
  try {
    process.stdout.write(
      `the suite with the defaults, against the reference on this machine and through a delay proxy (${RTT_MS} ms round trip) in front of each server:\n`,
    );
    await defaultsRatio(localFile, configFile, dir);
    process.stdout.write(
      `the suite through the delay proxies at each --parallel:\n` +
        "  --parallel   wall s   bound s   wall/bound   requests   longest scenario   peak MB   exit\n",
    );
    for (const parallel of PARALLELISM) {
      const run = await runSuite(configFile, parallel, join(dir, `p${parallel}`));
      const boundMs = Math.max(run.longestScenario * RTT_MS, (run.requests * RTT_MS) / parallel);
      process.stdout.write(
        `  ${String(parallel).padStart(10)}   ${seconds(run.wallMs).padStart(6)}   ${seconds(boundMs).padStart(7)}` +
          `   ${(run.wallMs / boundMs).toFixed(2).padStart(10)}   ${String(run.requests).padStart(8)}` +
          `   ${String(run.longestScenario).padStart(16)}   ${megabytes(run.peakBytes).padStart(7)}   ${run.exit}\n`,
      );
    }
  } finally {
    await Promise.all([far.close(), nearby.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
