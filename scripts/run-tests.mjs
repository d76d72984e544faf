// Runs every *.test.ts of the project with node's test runner (Node 20's --test takes no globs).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const roots = ["cli", "harness", "lib", "reference", "steps", "test"];
const only = process.argv.slice(2);
const files = roots
  .flatMap((root) => readdirSync(root, { recursive: true, withFileTypes: false }).map((f) => `${root}/${f}`))
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error("run-tests: no test files found");
  process.exit(1);
}
// The tests test the source: every sxd they start runs the TypeScript, never a build in dist/.
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=3", ...files], {
  stdio: "inherit",
  env: { ...process.env, SXD_FROM_SOURCE: "1" },
});
process.exit(result.status ?? 1);
