// The tests' own build (scripts/run-tests.mjs): every folder of TypeScript compiled to JavaScript
// in a tree of its own, each file where its source lies, so that the test processes and the
// cucumber workers they fork run without a TypeScript loader. Through tsx, each module a process
// loads is resolved and read by tsx's hooks on another thread, the process waiting on each: about
// a second of CPU for a test process that loads sxd, and as much again for each parallel worker.
//
// The tree holds the compiled .js files, each with its source map (coverage and stack traces
// point at the TypeScript), and a link to every other file of those folders, the .ts sources
// and test fixtures included; the rest of the checkout (features/, examples/, package.json,
// node_modules/, ...) is linked whole. A path a test builds from its own location thus finds
// what it finds in the checkout. Code that walks the checkout's folders walks the sources
// (test/support/source-root.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";

/** The folders with TypeScript in them: the ones tsconfig.json type-checks. */
export const SOURCE_FOLDERS = ["cli", "harness", "lib", "reference", "steps", "test", "scripts"];

/**
 * A relative module specifier ending in .ts, where esbuild prints one: after `from` and `import`
 * (a statement or a call), as a string in double quotes. A string of the program that holds such
 * text has its quotes escaped, so it is left alone.
 */
const TS_SPECIFIER = /(\b(?:from|import)\s*\(?\s*)"(\.{1,2}\/[^"\\\n]*)\.ts"/g;

/** A module's JavaScript with its relative .ts specifiers naming the .js beside it (tsc's rewriteRelativeImportExtensions). */
export function withJsSpecifiers(code) {
  return code.replace(TS_SPECIFIER, '$1"$2.js"');
}

/**
 * Builds the tree at `out` (absent) from the checkout at `root`. Each module is compiled as tsx
 * compiled it for the tests before: by esbuild (which comes with tsx), one file at a time, types
 * dropped and nothing else changed. For the whole checkout: 1.4 s and 2.5 s of CPU, where tsc
 * --noCheck takes 5 s and 9 s to emit the same; every relative specifier came out as tsc's.
 */
export async function buildTestTree(root, out) {
  const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx"))("esbuild");
  const tsconfigRaw = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
  const compiling = [];
  for (const folder of SOURCE_FOLDERS) {
    for (const file of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const from = join(file.parentPath, file.name);
      const to = join(out, from.slice(root.length));
      mkdirSync(dirname(to), { recursive: true });
      symlinkSync(from, to);
      if (!file.name.endsWith(".ts") || file.name.endsWith(".d.ts")) continue;
      const options = {
        loader: "ts",
        format: "esm",
        target: "es2022",
        sourcemap: "external",
        sourcefile: from,
        tsconfigRaw,
      };
      compiling.push(
        esbuild.transform(readFileSync(from, "utf8"), options).then((compiled) => {
          const js = to.replace(/\.ts$/, ".js");
          writeFileSync(`${js}.map`, compiled.map);
          writeFileSync(js, `${withJsSpecifiers(compiled.code)}//# sourceMappingURL=${basename(js)}.map\n`);
        }),
      );
    }
  }
  await Promise.all(compiling);
  for (const entry of readdirSync(root)) {
    if (SOURCE_FOLDERS.includes(entry) || entry === ".git") continue;
    symlinkSync(join(root, entry), join(out, entry));
  }
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
