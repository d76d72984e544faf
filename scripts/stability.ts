// npm run stability [-- RUNS PARALLEL]: runs the whole suite against the bundled reference
// RUNS times (default 20) with PARALLEL scenarios at once (default 2) and counts the row
// verdicts that differ from the first run. Any count above zero is a flaky scenario.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { runSuite } from "../cli/run-suite.ts";

const runs = Number(process.argv[2] ?? 20);
const parallel = Number(process.argv[3] ?? 2);
const quiet = new Writable({ write: (_c, _e, done) => done() });
let first: Map<string, string> | undefined;
let changed = 0;
const seconds: number[] = [];
for (let i = 1; i <= runs; i++) {
  const started = performance.now();
  const run = await runSuite(
    {
      target: undefined,
      layers: [],
      tags: undefined,
      strict: true,
      reportDir: mkdtempSync(join(tmpdir(), "sxd-stability-")),
      timeoutMs: 10000,
      parallel,
      expectFailFile: undefined,
      harFile: undefined,
      referenceFaults: [],
      referenceVariant: undefined,
    },
    { stdout: quiet, stderr: quiet },
  );
  seconds.push((performance.now() - started) / 1000);
  const verdicts = new Map(run.judgement.rows.map((r) => [r.row.id, r.verdict as string]));
  first ??= verdicts;
  const differing = [...verdicts].filter(([id, v]) => first?.get(id) !== v);
  changed += differing.length;
  process.stdout.write(
    `run ${i}: ${run.judgement.overall}, ${seconds.at(-1)?.toFixed(1)} s${differing.length ? `, changed: ${differing.map(([id, v]) => `${id}=${v}`).join(" ")}` : ""}\n`,
  );
}
const mean = seconds.reduce((a, b) => a + b, 0) / seconds.length;
process.stdout.write(
  `${runs} runs, parallel ${parallel}: ${changed} changed row verdicts; mean wall time ${mean.toFixed(1)} s\n`,
);
process.exitCode = changed === 0 ? 0 : 1;
