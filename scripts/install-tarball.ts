/**
 * The package as a user installs it: `npm pack` (whose prepare builds dist/), then
 * `npm install --omit=dev` of the tarball into an empty folder, from the local npm cache
 * where it has the dependencies. Used by test/package.test.ts and scripts/bench-help.ts.
 *
 * Under scripts/run-tests.mjs, which has just built dist/ from these sources with the same
 * script prepare runs (scripts/build.mjs), the pack takes that build (--ignore-scripts) instead
 * of compiling it all again: the same files, for a tenth of the CPU.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PACKAGE_ROOT } from "../harness/package.ts";

/** Inherited from `npm test` (its loader, npm's settings, c8's coverage), not what a user's shell has. */
const TEST_ONLY = /^(npm_|NODE_OPTIONS$|NODE_V8_COVERAGE$|SXD_TESTS_BUILT_DIST$)/;

/** The environment of a user's shell. */
export const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !TEST_ONLY.test(key)));

export interface Installed {
  /** The temporary folder holding the tarball and the app; remove it when done. */
  work: string;
  tarball: string;
  /** The empty project the package was installed into. */
  app: string;
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", [...args, "--no-audit", "--no-fund"], {
    cwd,
    env: USER_ENV,
    encoding: "utf8",
    stdio: "pipe",
  });
}

export function packAndInstall(): Installed {
  const work = mkdtempSync(join(tmpdir(), "sxd-package-"));
  const built = process.env.SXD_TESTS_BUILT_DIST === "1" ? ["--ignore-scripts"] : [];
  // The checkout itself, also where the tests run from their build (scripts/test-tree.mjs).
  const checkout = dirname(realpathSync(join(PACKAGE_ROOT, "package.json")));
  npm(["pack", ...built, "--pack-destination", work], checkout);
  const name = readdirSync(work).find((file) => file.endsWith(".tgz"));
  if (!name) throw new Error("npm pack wrote no tarball");
  const tarball = join(work, name);
  const app = join(work, "app");
  mkdirSync(app);
  // What `npm init --yes` writes that an install needs, without starting npm for it.
  writeFileSync(
    join(app, "package.json"),
    `${JSON.stringify({ name: "app", version: "1.0.0", private: true }, null, 2)}\n`,
  );
  npm(["install", "--omit=dev", "--prefer-offline", tarball], app);
  return { work, tarball, app };
}

/** Bytes of the files below a folder (what an install puts on disk, before block rounding). */
export function folderBytes(folder: string): number {
  return readdirSync(folder, { recursive: true })
    .map((file) => statSync(join(folder, String(file))))
    .filter((stat) => stat.isFile())
    .reduce((sum, stat) => sum + stat.size, 0);
}
