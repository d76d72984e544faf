// npm run stability [-- RUNS PARALLEL]: the whole suite against the bundled reference RUNS times
// in a row (default 20), as `sxd test --repeat RUNS` runs it, with PARALLEL worker processes
// (default 2), and the rows whose verdict changed between repeats: against the reference, any
// such intermittent row is a flaky scenario of sxd's own.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { runSuite } from "../cli/run-suite.ts";

const runs = Number(process.argv[2] ?? 20);
const parallel = Number(process.argv[3] ?? 2);
const quiet = new Writable({ write: (_c, _e, done) => done() });
const started = performance.now();
const { judgement } = await runSuite(
  {
    target: undefined,
    layers: [],
    tags: undefined,
    strict: true,
    reportDir: mkdtempSync(join(tmpdir(), "sxd-stability-")),
    timeoutMs: 10000,
    parallel,
    repeat: runs,
    expectFailFile: undefined,
    harFile: undefined,
    referenceFaults: [],
    referenceVariant: undefined,
  },
  { stdout: quiet, stderr: quiet },
);
const seconds = (performance.now() - started) / 1000;
const intermittent = judgement.rows.filter((r) => r.intermittent);
for (const row of intermittent) process.stdout.write(`${row.row.id}: ${JSON.stringify(row.repeats)}\n`);
process.stdout.write(
  `${judgement.repeated?.ran} of ${runs} runs, parallel ${parallel}: ${judgement.overall}, ` +
    `${intermittent.length} intermittent rows; mean wall time ${(seconds / runs).toFixed(1)} s a run\n`,
);
process.exitCode = intermittent.length === 0 && judgement.repeated?.ran === runs ? 0 : 1;
