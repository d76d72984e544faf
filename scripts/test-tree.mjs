// The tests' own build (scripts/run-tests.mjs): every folder of TypeScript compiled to JavaScript
// in a tree of its own, each file where its source lies, so that the test processes and the
// cucumber workers they fork run without a TypeScript loader. Through tsx, each module a process
// loads is resolved and read by tsx's hooks on another thread, the process waiting on each: about
// a second of CPU for a test process that loads sxd, and as much again for each parallel worker.
//
// The tree holds the compiled .js files, each with its source map (coverage and stack traces
// point at the TypeScript), and a link to every other file of those folders, the .ts sources
// and test fixtures included; the rest of the checkout (features/, examples/, package.json,
// node_modules/, ...) is linked whole. A path a test builds from its own location thus finds what it finds in the
// checkout. Code that walks the checkout's folders walks the sources (test/support/source-root.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The folders with TypeScript in them: the ones tsconfig.json type-checks. */
export const SOURCE_FOLDERS = ["cli", "harness", "lib", "reference", "steps", "test", "scripts"];

/** Builds the tree at `out` (absent) from the checkout at `root`; returns tsc's exit status. */
export function buildTestTree(root, out, env) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const compiled = spawnSync(
    process.execPath,
    [
      tsc,
      "-p",
      join(root, "tsconfig.json"),
      "--noEmit",
      "false",
      "--noCheck",
      "--rewriteRelativeImportExtensions",
      "--sourceMap",
      "--rootDir",
      root,
      "--outDir",
      out,
    ],
    { stdio: "inherit", env },
  );
  if (compiled.status !== 0) return compiled.status ?? 1;
  for (const folder of SOURCE_FOLDERS) {
    for (const file of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const from = join(file.parentPath, file.name);
      const to = join(out, from.slice(root.length));
      if (existsSync(to)) continue;
      mkdirSync(dirname(to), { recursive: true });
      symlinkSync(from, to);
    }
  }
  for (const entry of readdirSync(root)) {
    if (SOURCE_FOLDERS.includes(entry) || entry === ".git") continue;
    symlinkSync(join(root, entry), join(out, entry));
  }
  return 0;
}

/**
 * A tree of its own for the run of process `pid`, under `folder`: the path, once the trees of runs
 * that ended without removing theirs (a run stopped with Ctrl-C) are gone.
 */
export function treeFolder(folder, pid) {
  for (const entry of existsSync(folder) ? readdirSync(folder) : []) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid || running(Number(entry))) continue;
    rmSync(join(folder, entry), { recursive: true, force: true });
  }
  return join(folder, String(pid));
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
