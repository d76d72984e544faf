/**
 * Where the package's files are. The TypeScript runs in place (through tsx, in a checkout
 * whose dist/ is stale); the JavaScript that `tsc -p tsconfig.build.json` compiled into dist/
 * (the installed package, a checkout with a fresh build) runs one folder deeper. The data
 * (features/, catalogue/, package.json) stays at the package root in both, and cucumber must
 * load the step definitions of the same kind. The tests' own build (scripts/test-tree.mjs)
 * is JavaScript in place: each module where its source lies, in a tree with the data beside.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** True when this module is dist/harness/package.js (or a build's on its way there): no package.json beside harness/. */
const IN_DIST = !existsSync(new URL("../package.json", import.meta.url));
/** The modules' own extension: .ts run through tsx, .js compiled. */
const EXTENSION = import.meta.url.endsWith(".js") ? ".js" : ".ts";

const ROOT_URL = new URL(IN_DIST ? "../../" : "../", import.meta.url);

export const PACKAGE_ROOT = fileURLToPath(ROOT_URL);

/** A file of the package by its path from the package root, e.g. `catalogue/rows.json`. */
export function packageFile(path: string): URL {
  return new URL(path, ROOT_URL);
}

/** A module of the suite by its source path (`steps/x.ts`), as cucumber must import it: from the package root. */
function suiteModule(sourcePath: string): string {
  const path = sourcePath.replace(/\.ts$/, EXTENSION);
  return IN_DIST ? `dist/${path}` : path;
}

/** The behaviours of the spec: a folder each under features/ and steps/, both sides in it. */
export const BEHAVIOURS = ["digest", "export", "snapshots"] as const;

/**
 * What cucumber imports for a server run, by name (a test holds the list against steps/): the
 * world, the hooks, the shared steps, and each behaviour's server steps.
 */
export const SERVER_STEP_FILES = [
  "steps/support/world.ts",
  "steps/support/hooks.ts",
  "steps/support/common.steps.ts",
  "steps/digest/server.steps.ts",
  "steps/digest/nonce.steps.ts",
  "steps/digest/refusal.steps.ts",
  "steps/digest/mutant.steps.ts",
  "steps/digest/prediction.steps.ts",
  "steps/export/server.steps.ts",
  "steps/export/outage.steps.ts",
  "steps/export/peer.steps.ts",
  "steps/export/token.steps.ts",
  "steps/export/prediction.steps.ts",
  "steps/export/forgeries.steps.ts",
  "steps/snapshots/server.steps.ts",
  "steps/snapshots/updates.steps.ts",
  "steps/snapshots/entities.steps.ts",
  "steps/snapshots/races.steps.ts",
];

/** What cucumber imports for a client run (`sxd test-client`): the client world, its shared step, and each behaviour's client steps. */
export const CLIENT_STEP_FILES = [
  "steps/support/client-world.ts",
  "steps/support/client-common.steps.ts",
  ...BEHAVIOURS.map((behaviour) => `steps/${behaviour}/client.steps.ts`),
];

/** The generators of `sxd fuzz`, each exporting fuzzGenerators(context), loaded as the steps are. */
export const FUZZ_FILES = ["steps/digest/fuzz.ts", "steps/snapshots/fuzz.ts"];

/** The LIM cases of `sxd limits`, each module exporting limitCases(context), loaded as the steps are. */
export const LIMIT_FILES = BEHAVIOURS.map((behaviour) => `steps/${behaviour}/limits.ts`);

/**
 * What `sxd interop` loads to judge a server's side of a cell's exchange: each behaviour's
 * pure judge of what the server answered (a module exporting judgeServerExchange).
 */
export const INTEROP_JUDGE_FILES = BEHAVIOURS.map((behaviour) => `steps/${behaviour}/exchange-judge.ts`);

/**
 * What a server run loads once its scenarios ran, to judge the scenarios a step marked as
 * judged with the whole run (harness/run/whole-run.ts): modules exporting runChecks.
 */
export const RUN_JUDGE_FILES = ["steps/digest/run-judge.ts", "steps/snapshots/run-judge.ts"];

/** A module of the suite as `import()` takes it from here: the compiled one where this runs compiled. */
export function suiteModuleUrl(sourcePath: string): string {
  return packageFile(suiteModule(sourcePath)).href;
}

export const SUPPORT_MODULES = SERVER_STEP_FILES.map(suiteModule);

/** The console formatter, as cucumber names a formatter module (relative to the package root). */
export const PROGRESS_FORMATTER = `./${suiteModule("harness/report/progress.ts")}`;

/** The version of sxd, from its package.json. */
export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string };
  return pkg.version;
}

export const CLIENT_SUPPORT_MODULES = CLIENT_STEP_FILES.map(suiteModule);

/**
 * The environment sxd was started with, for the commands it runs on the user's behalf (a
 * client's task, an outage command). A checkout's launcher (bin/sxd.js) adds its TypeScript
 * loader to NODE_OPTIONS for sxd's own workers and keeps what was there before in
 * SXD_LAUNCHER_NODE_OPTIONS: a user's command gets that back, so sxd's loader never runs
 * inside a client under test (it would change the client's runtime, and doubled a node
 * client's start).
 */
export function usersEnvironment(): NodeJS.ProcessEnv {
  const { SXD_LAUNCHER_NODE_OPTIONS: before, ...environment } = process.env;
  if (before === undefined) return environment;
  if (before === "") delete environment.NODE_OPTIONS;
  else environment.NODE_OPTIONS = before;
  return environment;
}
