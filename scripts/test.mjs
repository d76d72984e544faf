// `npm test`: the typecheck and the lint run beside the tests, not before them: each takes one
// core for seconds that the test files, which start with a build, would otherwise wait through.
// Their output is printed once the tests are done; the first that fails sets the exit code.
// Words after `npm test --` pick test files, as for scripts/run-tests.mjs.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { NODE_V8_COVERAGE: _, ...environment } = process.env;

/** A command run to its end, its output kept: the exit code and what it printed. */
function quietly(label, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: environment, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ label, code: code ?? 1, output }));
  });
}

const checks = [
  quietly("typecheck (tsc -p .)", [require.resolve("typescript/bin/tsc"), "-p", "."]),
  quietly("lint (biome check .)", [require.resolve("@biomejs/biome/bin/biome"), "check", "."]),
];
const tests = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [require.resolve("c8/bin/c8.js"), "node", "scripts/run-tests.mjs", ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  child.on("close", (code) => resolve(code ?? 1));
});
let exitCode = tests;
for (const { label, code, output } of await Promise.all(checks)) {
  process.stdout.write(`\n${label}: ${code === 0 ? "passed" : `failed (exit ${code})`}\n${output}`);
  if (exitCode === 0 && code !== 0) exitCode = code;
}
process.exit(exitCode);
