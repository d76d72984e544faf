// npm run bench -- store: what the store of results costs (docs/history.md). Three numbers, each
// with its spread, asserting nothing:
//  - recording: sxd test against the bundled reference (every scenario), in turns with and
//    without --store on a SQLite file, SXD_BENCH_STORE_ROUNDS rounds (default 5): the medians,
//    their difference and each one's interquartile range; then the recording's own parts in
//    this process (the check before the run, the record after it: read, hash, write), 20 times;
//  - history: a SQLite store of 10,000 runs of 39 rows (500 labels of 20 runs, a row that broke
//    and was fixed, one that comes and goes), `sxd history --json` as a process, 5 times; and
//    its parts in this process (reading the runs, computing the history);
//  - size: what the store file grows by per run of the whole suite, a clean run and one with a
//    fault (its failed rows keep their deciding exchange), beside the conformance.json.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPORT_FILES } from "../../harness/evidence/report-folder.ts";
import { folderDocuments } from "../../harness/store/folder.ts";
import { historyOf } from "../../harness/store/history.ts";
import { type RunRecord, runRecord } from "../../harness/store/records.ts";
import { openStore } from "../../harness/store/store.ts";
import { median } from "./stats.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const SXD = join(ROOT, "bin/sxd.js");
const ROUNDS = Number(process.env.SXD_BENCH_STORE_ROUNDS ?? 5);
const NONE = { label: null, ref: null, jobUrl: null, folder: null };
/** What the section removes as it ends. */
const onExit: Array<() => void> = [];

/** The lower and upper quartile, linear between ranks. */
function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const i = (sorted.length - 1) * q;
    const low = Math.floor(i);
    return (sorted[low] as number) + ((sorted[Math.ceil(i)] as number) - (sorted[low] as number)) * (i - low);
  };
  return [at(0.25), at(0.75)];
}

function line(name: string, ms: readonly number[]): string {
  const [low, high] = quartiles(ms);
  return `${name.padEnd(44)} median ${median(ms).toFixed(1)} ms, p25 ${low.toFixed(1)}, p75 ${high.toFixed(1)} (n=${ms.length})`;
}

/** A bare node running `code`, from the checkout (where node_modules is): its wall time. */
async function node(code: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore", cwd: ROOT });
  await new Promise((resolve) => child.on("exit", resolve));
  return performance.now() - started;
}

async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [SXD, ...args], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return performance.now() - started;
}

async function benchRecording(folder: string): Promise<string> {
  const store = join(folder, "recording.db");
  const plain: number[] = [];
  const stored: number[] = [];
  const reports = join(folder, "reports");
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await timed(["test", "--report-dir", reports]));
    stored.push(await timed(["test", "--report-dir", reports, "--store", store, "--label", `r${round}`]));
  }
  process.stdout.write(
    [
      line("sxd test (every scenario)", plain),
      line("sxd test --store FILE", stored),
      `difference of the medians: ${(median(stored) - median(plain)).toFixed(1)} ms`,
      "",
    ].join("\n"),
  );
  const check: number[] = [];
  const record: number[] = [];
  for (let i = 0; i < 20; i++) {
    let started = performance.now();
    await (await openStore(store)).close();
    check.push(performance.now() - started);
    started = performance.now();
    const [document] = folderDocuments(reports, ["conformance"]);
    const run = runRecord(document as Parameters<typeof runRecord>[0], NONE);
    const opened = await openStore(store);
    await opened.record({ ...run, id: `${run.id}-${i}` });
    await opened.close();
    record.push(performance.now() - started);
  }
  const bare: number[] = [];
  const loading: number[] = [];
  for (let i = 0; i < 10; i++) {
    bare.push(await node("0"));
    loading.push(await node('require("libsql")'));
  }
  process.stdout.write(
    `${[
      line("  its check before the run (open, migrate)", check),
      line("  its record after (read, hash, write)", record),
      line("  node -e 'require(\"libsql\")'", loading),
      line("  node -e 0", bare),
    ].join("\n")}\n`,
  );
  return reports;
}

/** 10,000 runs of 39 rows: 500 labels of 20 runs; DIG-6 broken from label 200 to 299; SNAP-7 failing one run in ten. */
function syntheticRuns(template: RunRecord): RunRecord[] {
  const ids = template.rows.slice(0, 39).map((row) => row.id);
  return Array.from({ length: 10_000 }, (_, n) => {
    const label = `L${String(Math.floor(n / 20)).padStart(3, "0")}`;
    const rows = ids.map((id) => {
      const broken = (id === ids[5] && label >= "L200" && label < "L300") || (id === ids[20] && n % 10 === 3);
      return {
        id,
        level: "must",
        verdict: broken ? "failed" : "passed",
        reason: broken ? "expected 200, got 500" : null,
        scenario: null,
        exchange: null,
        intermittent: false,
        repeats: null,
      };
    });
    const startedAt = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
    return { ...template, id: `bench-${n}`, label, startedAt, finishedAt: startedAt, rows, cells: [], points: [] };
  });
}

async function benchHistory(folder: string, template: RunRecord): Promise<void> {
  // Made in memory where the machine has it (/dev/shm): 10,000 commits to disk take a minute.
  const file = join(existsSync("/dev/shm") ? mkdtempSync("/dev/shm/sxd-bench-") : folder, "history.db");
  const store = await openStore(file);
  const built = performance.now();
  for (const run of syntheticRuns(template)) await store.record(run);
  process.stdout.write(
    `stored 10,000 runs of 39 rows in ${((performance.now() - built) / 1000).toFixed(1)} s (${(statSync(file).size / 1e6).toFixed(1)} MB)\n`,
  );
  const read: number[] = [];
  const computed: number[] = [];
  for (let i = 0; i < 5; i++) {
    let started = performance.now();
    const runs = await store.runs();
    read.push(performance.now() - started);
    started = performance.now();
    historyOf(runs, file);
    computed.push(performance.now() - started);
  }
  await store.close();
  onExit.push(() => rmSync(dirname(file), { recursive: true, force: true }));
  const whole: number[] = [];
  for (let i = 0; i < 5; i++) whole.push(await timed(["history", "--store", file, "--json"]));
  process.stdout.write(
    `${[line("sxd history --json (a process)", whole), line("  reading the runs", read), line("  the history from them", computed)].join("\n")}\n`,
  );
}

async function benchSize(folder: string, clean: string): Promise<void> {
  const faulty = join(folder, "faulty");
  await timed([
    "test",
    "--report-dir",
    faulty,
    "--reference-fault",
    "snap-update-200",
    "--reference-fault",
    "dig-challenge-403",
  ]);
  for (const [name, reports] of [
    ["a clean run", clean],
    ["a run with two faults", faulty],
  ] as const) {
    const file = join(folder, `size-${name.length}.db`);
    const store = await openStore(file);
    const [document] = folderDocuments(reports, ["conformance"]);
    const run = runRecord(document as Parameters<typeof runRecord>[0], NONE);
    await store.record({ ...run, id: "first" });
    const before = statSync(file).size;
    for (let i = 0; i < 200; i++) await store.record({ ...run, id: `run-${i}` });
    await store.close();
    const json = readFileSync(join(reports, REPORT_FILES.conformanceJson)).length;
    const failed = run.rows.filter((r) => r.verdict !== "passed").length;
    process.stdout.write(
      `${name} (${run.rows.length} rows, ${failed} not passed): ${((statSync(file).size - before) / 200 / 1024).toFixed(1)} KB a stored run; its conformance.json ${(json / 1024).toFixed(0)} KB\n`,
    );
  }
}

export async function benchStore(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "sxd-bench-store-"));
  try {
    const reports = await benchRecording(folder);
    const [document] = folderDocuments(reports, ["conformance"]);
    await benchHistory(folder, runRecord(document as Parameters<typeof runRecord>[0], NONE));
    await benchSize(folder, reports);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    for (const remove of onExit) remove();
  }
}
