// Runs every *.test.ts of the project with node's test runner (Node 20's --test takes no globs).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const roots = ["cli", "harness", "lib", "reference", "steps", "test"];
const only = process.argv.slice(2);
const files = roots
  .flatMap((root) => readdirSync(root, { recursive: true, withFileTypes: false }).map((f) => `${root}/${f}`))
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  // The end-to-end files of test/ first: they start servers, clients and sxd processes, and some
  // wait on the clock (a gateway's rate, a client's time limit), so one started last would run
  // on alone with the machine idle around it. The unit tests beside the modules, a second each,
  // come after and fill the cores while the last end-to-end files finish.
  .sort((a, b) => Number(!a.startsWith("test/")) - Number(!b.startsWith("test/")));
if (files.length === 0) {
  console.error("run-tests: no test files found");
  process.exit(1);
}
// The tests test the source: dist/ is built from it first, and every sxd they start runs that
// build, which bin/sxd.js takes while it is newer than every source file. Compiled, an sxd
// process starts in half the time it takes through tsx, and the tests start several hundred.
const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);
const { SXD_FROM_SOURCE: _, ...rest } = process.env;
// The package test packs this build rather than building it again (scripts/install-tarball.ts).
const environment = { ...rest, SXD_TESTS_BUILT_DIST: "1" };
// Four test files at once on two cores: most of them wait on servers, clients and gateways.
// Each test file's process keeps its coverage, and the processes it starts collect none
// (test/support/coverage-scope.ts says why).
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--import", "./test/support/coverage-scope.ts", "--test", "--test-concurrency=4", ...files],
  {
    stdio: "inherit",
    env: environment,
  },
);
process.exit(result.status ?? 1);
