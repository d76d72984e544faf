// Runs every *.test.ts of the project with node's test runner (Node 20's --test takes no globs).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtAfterSources } from "../bin/built.js";
import { buildTestTree, treeFolder } from "./test-tree.mjs";

const roots = ["cli", "harness", "lib", "reference", "steps", "test"];
/** Small enough that the groups still fill the cores at the end of the run (see entries below). */
const UNIT_FILES_A_PROCESS = 16;
const E2E_FILES_A_PROCESS = 3;
/**
 * The files that spend most of their time waiting, at a fraction of a core: behind rate-limiting
 * gateways (two minutes for half a minute of CPU), and on servers that make sxd wait (40 s for 8 s;
 * a server that holds each update for its second, 35 s for 6 s; sxd limits against servers of
 * another shape, 43 s for 2.5 s, and against the reference, 58 s for 6.6 s: sxd limits times an
 * update only once the server's clock has passed the version before, a second a turn).
 */
const CLOCK_BOUND = [
  "test/limits-foreign.test.ts",
  "test/limits.test.ts",
  "test/rate-limits.test.ts",
  "test/snapshots-careful-targets.test.ts",
  "test/snapshots-plausible-targets.test.ts",
];
/**
 * The end-to-end files whose processes keep V8 coverage, beside the unit files: .c8rc.json
 * measures reference/, and these reach its fault modes, its hardening and its other shapes. A
 * process under coverage runs a third to a half slower (faults-digest: 34 s of CPU against
 * 23 s without), so the other end-to-end files run without it; leaving a file out of this list
 * can only lower the coverage measured, which the gate then holds against it.
 */
const COVERED_E2E = [
  "test/digest-real-servers.test.ts",
  "test/export-one-side.test.ts",
  "test/export-peer-faults.test.ts",
  "test/export-stateful.test.ts",
  "test/faults-export.test.ts",
  "test/faults-snapshots.test.ts",
  "test/hostile-targets.test.ts",
  "test/reference-hardening.test.ts",
];
/**
 * SXD_TESTS_CPU=1: each process writes the CPU it and the processes it started took (Linux's
 * /proc/self/stat: its own time and its children's that it waited for), printed at the end,
 * the costliest first: where to look when npm test grows slow.
 */
const CPU_LOG = process.env.SXD_TESTS_CPU === "1" ? "cpu.log" : undefined;
const RUN_STARTED = Date.now();
const only = process.argv.slice(2);
const files = roots
  .flatMap((root) => readdirSync(root, { recursive: true, withFileTypes: false }).map((f) => `${root}/${f}`))
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  // The end-to-end files of test/ first (`entries` below makes the test runner keep the order):
  // they start servers, clients and sxd processes, and some wait on the clock (a gateway's
  // rate, a client's time limit), so one started last would run on alone with the machine idle
  // around it. The unit tests beside the modules, in groups of a few seconds each, come after
  // and fill the cores while the last end-to-end files finish.
  .sort((a, b) => startOrder(a) - startOrder(b));
/**
 * 0 for the files that mostly wait (CLOCK_BOUND): started first, they wait while the cores are
 * busy with the others; 1 for the other end-to-end files of test/; 2 for the unit files.
 */
function startOrder(file) {
  if (CLOCK_BOUND.includes(file)) return 0;
  return file.startsWith("test/") ? 1 : 2;
}
if (files.length === 0) {
  console.error("run-tests: no test files found");
  process.exit(1);
}
// The tests test the source: dist/ is built from it first, unless it already is the sources
// compiled (bin/built.js: `npm ci` has just built it), and every sxd they start runs that
// build, which bin/sxd.js takes while it is newer than every source file. Compiled, an sxd
// process starts in half the time it takes through tsx, and the tests start several hundred.
// Emitted without a second type check: npm test runs the typecheck itself (scripts/test.mjs).
// The build is no test: it runs without coverage (tsc under it takes half as long again).
const { SXD_FROM_SOURCE: _, NODE_V8_COVERAGE: coverage, ...rest } = process.env;
if (!builtAfterSources(fileURLToPath(new URL("../", import.meta.url)))) {
  const built = spawnSync(process.execPath, ["scripts/build.mjs", "--noCheck"], { stdio: "inherit", env: rest });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// The package test packs this build rather than building it again (scripts/install-tarball.ts).
const environment = {
  ...rest,
  ...(coverage === undefined ? {} : { NODE_V8_COVERAGE: coverage }),
  SXD_TESTS_BUILT_DIST: "1",
};
// Five test processes at once on two cores: their files wait on servers, clients and gateways.
// Two runners side by side: the processes that keep coverage (the unit files and COVERED_E2E,
// two at once, their output printed when they are done) and the others (three at once,
// printed as they go). Six at once, the heaviest files first, was no faster (5:56 to 7:07 over
// four runs against 5:56 and 6:11) and ran the gateway tests beside the heaviest files. The
// processes a test starts collect no coverage (test/support/coverage-scope.ts), and the test
// processes run node:test without its async hook (test/support/no-test-hook.ts).
// Everything a run makes lies in one folder of its own, removed when the run ends, passed or
// failed: the entries below, and the temporary folder the tests and every process they start
// are given (TMPDIR), so a run leaves nothing in the machine's. It says how much the tests left
// there themselves, so a test that forgets to clean up shows.
const scratch = mkdtempSync(join(tmpdir(), "sxd-tests-"));
const groups = join(scratch, "entries");
const testsTmp = join(scratch, "tmp");
mkdirSync(groups);
mkdirSync(testsTmp);
// The test files run compiled (scripts/test-tree.mjs), from a tree inside the checkout's
// node_modules, where module resolution finds the dependencies and c8 the sources' maps.
const root = fileURLToPath(new URL("../", import.meta.url));
const tree = treeFolder(join(root, "node_modules", ".cache", "sxd-tests"), process.pid);
rmSync(tree, { recursive: true, force: true });
try {
  await buildTestTree(root, tree);
} catch (error) {
  console.error(`run-tests: the tests' tree could not be built: ${error.message}`);
  rmSync(scratch, { recursive: true, force: true });
  rmSync(tree, { recursive: true, force: true });
  process.exit(1);
}
const { NODE_V8_COVERAGE: __, ...uncovered } = environment;
const made = entries(files, groups);
const runners = [
  runner(
    made.filter((e) => !e.covered).map((e) => e.entry),
    coverage === undefined ? 4 : 3,
    uncovered,
    "inherit",
  ),
  runner(
    made.filter((e) => e.covered).map((e) => e.entry),
    2,
    environment,
    "pipe",
  ),
];
const results = await Promise.all(runners);
const result = { status: results.map((r) => r.status).find((status) => status !== 0) ?? 0 };
// The failures again, last: a CI log is often read from its end, and shown only there.
const failures = results.flatMap((r) => failuresIn(r.output));
if (failures.length > 0) {
  console.log(`\nrun-tests: ${failures.length} failed (each with the first lines of its report):`);
  for (const failure of failures) console.log(failure);
}
if (CPU_LOG !== undefined) printCpu(join(scratch, CPU_LOG));
const left = readdirSync(testsTmp);
if (left.length > 0) {
  // By the name each was made with, less its random tail (mkdtemp's six characters).
  const byPrefix = new Map();
  for (const name of left) {
    const prefix = name.replace(/[A-Za-z0-9]{6}$/, "*");
    byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
  }
  const counts = [...byPrefix].sort((a, b) => b[1] - a[1]).map(([prefix, n]) => `${prefix} ${n}`);
  console.log(
    `run-tests: the tests left ${left.length} entries in their temporary folder (removed): ${counts.slice(0, 12).join(", ")}${counts.length > 12 ? ", …" : ""}`,
  );
}
rmSync(scratch, { recursive: true, force: true });
rmSync(tree, { recursive: true, force: true });
process.exit(result.status ?? 1);

/**
 * One test runner over `entries`, `concurrency` processes at once: its exit status and its
 * output. With "inherit", the output is printed as it comes; with "pipe", once the runner is
 * done, whole, so two runners' reports do not interleave. The tree's modules carry source
 * maps, so a failure's stack names the TypeScript's lines.
 */
function runner(entries, concurrency, env, stdio) {
  if (entries.length === 0) return Promise.resolve({ status: 0, output: "" });
  const child = spawn(
    process.execPath,
    [
      "--enable-source-maps",
      "--import",
      pathToFileURL(join(tree, "test/support/coverage-scope.js")).href,
      "--import",
      pathToFileURL(join(tree, "test/support/no-test-hook.js")).href,
      "--test",
      `--test-concurrency=${concurrency}`,
      ...entries,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...env, TMPDIR: testsTmp } },
  );
  const output = [];
  for (const stream of [child.stdout, child.stderr])
    stream.on("data", (chunk) => {
      output.push(chunk);
      if (stdio === "inherit") process.stdout.write(chunk);
    });
  return new Promise((resolve) =>
    child.on("close", (code) => {
      const text = Buffer.concat(output).toString("utf8");
      if (stdio !== "inherit") process.stdout.write(text);
      resolve({ status: code ?? 1, output: text });
    }),
  );
}

/**
 * The failed tests of a runner's TAP output, innermost first: each "not ok" line with the
 * lines of its report up to its error's first lines (the subtests' names show where it lies).
 */
function failuresIn(output) {
  const lines = output.split("\n");
  const failures = [];
  lines.forEach((line, index) => {
    if (!/^\s*not ok \d+ - /.test(line)) return;
    const report = [];
    for (const next of lines.slice(index + 1, index + 40)) {
      if (/^\s*\.\.\.\s*$/.test(next)) break;
      if (/^\s*(---|duration_ms:|type:|failureType:|code:|location:)/.test(next)) continue;
      report.push(next);
    }
    failures.push([line, ...report.slice(0, 12)].join("\n"));
  });
  return failures;
}

/** The code an entry ends with under SXD_TESTS_CPU: at exit, its CPU seconds appended to the log. */
function cpuLogger(name) {
  const log = JSON.stringify(join(scratch, CPU_LOG));
  return `import { appendFileSync, readFileSync } from "node:fs";
process.on("exit", () => {
  const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ").map(Number);
  const from = (performance.timeOrigin - ${RUN_STARTED}) / 1000;
  const to = (Date.now() - ${RUN_STARTED}) / 1000;
  const times = [(f[11] + f[12]) / 100, (f[13] + f[14]) / 100, from.toFixed(0), to.toFixed(0)];
  appendFileSync(${log}, [...times, ${JSON.stringify(name)}].join(" ") + "\\n");
});
`;
}

function printCpu(file) {
  const rows = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split(" "));
  rows.sort((a, b) => Number(b[0]) + Number(b[1]) - (Number(a[0]) + Number(a[1])));
  const total = rows.reduce((sum, [own, children]) => sum + Number(own) + Number(children), 0);
  console.log(
    `\nrun-tests: CPU seconds of each process (own + the processes it started), and when it ran; ${total.toFixed(0)} s of CPU in all:`,
  );
  for (const [own, children, from, to, name] of rows)
    console.log(`${own.padStart(7)} + ${children.padStart(7)}  ${from.padStart(4)} s to ${to.padStart(4)} s  ${name}`);
}

/**
 * The processes' entries, in `folder`, one file each, named in the order they are to start:
 * node's test runner starts its files in the order of their names, not in the order given.
 *
 * Test files share processes: each process starts node, tsx and the test runner, and most load
 * sxd's modules and step definitions through tsx, one to two seconds of CPU that a file's own
 * tests often take less than. An entry imports its members in turn, so their tests run one after
 * another in one process, each reported under its own name and location: the unit files beside
 * the modules UNIT_FILES_A_PROCESS at a time, the end-to-end files of test/ E2E_FILES_A_PROCESS.
 * A file with a hook at its top level (before, after, beforeEach, afterEach: in a shared process
 * it would reach the other files' tests), and a CLOCK_BOUND one, keeps a process of its own.
 * An entry imports all its members before any test runs: work a file starts as it is imported
 * (client-faults grades its faulty clients while its describe() is read) runs beside the tests
 * of the files before it.
 */
function entries(paths, folder) {
  const alone = (f) => CLOCK_BOUND.includes(f) || /^(before|after)(Each)?\(/m.test(readFileSync(f, "utf8"));
  // A process keeps coverage or not as a whole: covered files share processes only with each other.
  const covered = (f) => coverage !== undefined && (!f.startsWith("test/") || COVERED_E2E.includes(f));
  const processes = [];
  const open = new Map();
  for (const file of paths) {
    if (alone(file)) {
      processes.push([file]);
      continue;
    }
    const [kind, most] = file.startsWith("test/")
      ? [`e2e ${covered(file)}`, E2E_FILES_A_PROCESS]
      : [`unit ${covered(file)}`, UNIT_FILES_A_PROCESS];
    let members = open.get(kind);
    if (members === undefined || members.length === most) {
      members = [];
      open.set(kind, members);
      processes.push(members);
    }
    members.push(file);
  }
  return processes.map((members, index) => {
    const more = members.length > 1 ? `+${members.length - 1}` : "";
    const name = `${String(index).padStart(3, "0")}_${members[0].replaceAll("/", "_")}${more}.test.mjs`;
    const entry = join(folder, name);
    const imports = members.map((f) => `import ${JSON.stringify(join(tree, f.replace(/\.ts$/, ".js")))};\n`).join("");
    writeFileSync(entry, imports + (CPU_LOG === undefined ? "" : cpuLogger(name)));
    return { entry, covered: covered(members[0]) };
  });
}
