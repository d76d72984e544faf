// npm run bench:help: how long `sxd --help` takes from the installed tarball, beside a bare
// `node --import tsx -e 0` (what the checkout pays before any of sxd's code runs through tsx)
// and the checkout's own `node bin/sxd.js --help`, from dist/ (npm pack has just built it)
// and from the TypeScript (SXD_FROM_SOURCE=1). The commands take turns, so a machine
// whose speed drifts slows them alike; prints medians and the ratio to the bare node.
// Asserts nothing: timing is for people.
import { spawnSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { median } from "./bench/stats.ts";
import { folderBytes, packAndInstall } from "./install-tarball.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const installed = packAndInstall();
const commands: Record<string, { args: string[]; cwd: string; env?: NodeJS.ProcessEnv }> = {
  "sxd --help (installed tarball)": {
    args: [join(installed.app, "node_modules/sxd/bin/sxd.js"), "--help"],
    cwd: installed.app,
  },
  "node --import tsx -e 0": { args: ["--import", "tsx", "-e", "0"], cwd: PACKAGE_ROOT },
  "sxd --help (checkout, dist/ fresh)": { args: [join(PACKAGE_ROOT, "bin/sxd.js"), "--help"], cwd: PACKAGE_ROOT },
  "sxd --help (checkout, TypeScript)": {
    args: [join(PACKAGE_ROOT, "bin/sxd.js"), "--help"],
    cwd: PACKAGE_ROOT,
    env: { ...process.env, SXD_FROM_SOURCE: "1" },
  },
};

function seconds({ args, cwd, env }: { args: string[]; cwd: string; env?: NodeJS.ProcessEnv }): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, env, stdio: "ignore" });
  if (run.status !== 0) throw new Error(`${args.join(" ")} exited with ${run.status}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const times = new Map(Object.keys(commands).map((name) => [name, [] as number[]]));
for (const command of Object.values(commands)) seconds(command); // warm-up: file cache
for (let run = 0; run < RUNS; run++) {
  for (const [name, command] of Object.entries(commands)) times.get(name)?.push(seconds(command));
}

const bare = median(times.get("node --import tsx -e 0") ?? []);
console.log(`${RUNS} runs each, taking turns; median wall time`);
for (const [name, values] of times) {
  const m = median(values);
  console.log(`  ${name.padEnd(34)} ${m.toFixed(3)} s  (${(m / bare).toFixed(2)} x bare node with tsx)`);
}
const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
console.log(`tarball ${kB(statSync(installed.tarball).size)}`);
console.log(
  `installed: sxd ${kB(folderBytes(join(installed.app, "node_modules/sxd")))}, with its dependencies ${kB(folderBytes(join(installed.app, "node_modules")))}`,
);
rmSync(installed.work, { recursive: true, force: true });
